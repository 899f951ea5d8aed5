"""An operator's facts as tables: the dtype lists per chip, rendered for its documentation page.

Each L2 module declares ``DTYPE_FACTS``: a row label (the arguments and APIs it applies to)
mapped to the function that returns the list the op_api code checks, on the chip in effect.
:func:`dtype_tables` evaluates them on every emulated chip; the operator pages carry the result
verbatim (a test checks it), so the pages cannot drift from the code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

from .. import dtypes
from .. import soc as _soc

CHIPS = ("Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P")


def _short(dt: int) -> str:
    return dtypes.dt_name(dt).removeprefix("DT_")


def dtype_table(label: str, fn: Callable[[], tuple[int, ...]]) -> str:
    """One table: the chips (grouped when their lists agree) and the dtypes in CANN's order."""
    rows: dict[tuple[int, ...], list[str]] = {}
    for chip in CHIPS:
        with _soc.emulating(chip):
            rows.setdefault(tuple(fn()), []).append(chip)
    lines = [f"| chip | {label} |", "|---|---|"]
    for lst, chips in rows.items():
        lines.append(f"| {', '.join(chips)} | {', '.join(_short(d) for d in lst) or '—'} |")
    return "\n".join(lines)


def dtype_tables(facts: Mapping[str, Callable[[], tuple[int, ...]]]) -> str:
    return "\n\n".join(dtype_table(label, fn) for label, fn in facts.items())


def module_tables(module: str) -> str:
    """The tables of ``aclnn_py.ops.<module>``'s ``DTYPE_FACTS``."""
    mod = importlib.import_module(f"aclnn_py.ops.{module}")
    return dtype_tables(mod.DTYPE_FACTS)
