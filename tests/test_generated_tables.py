"""The data modules generated from CANN's sources are current: each generator in tools/ re-reads
hicann/runtime and its ``--check`` compares what it would write with the module in the tree
(aclnn_py/runtime/_rt_features.py, aclnn_py/runtime/_lock_gated.py). Needs the mirror."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"
MIRROR = "/work/.mirror/hicann+runtime/repo"

pytestmark = pytest.mark.skipif(
    not os.path.isdir(MIRROR),
    reason=f"needs a git mirror of hicann/runtime (CANN's runtime sources, not shipped; looked in {MIRROR})",
)


@pytest.mark.parametrize("tool", ["gen_rt_features", "gen_lock_gated"])
def test_the_generated_module_is_current(tool, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(TOOLS))  # as when run as a script: tools/_generated.py imports
    gen = importlib.import_module(tool)
    assert gen.main(["--check", MIRROR]) == 0, capsys.readouterr().err
