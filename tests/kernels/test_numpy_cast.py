"""Cast float16 -> float32 on the numpy path: the integer/float formulation gives numpy's bits.

Every one of the 65536 float16 bit patterns (±0, subnormals, normals, ±inf, quiet and
signalling NaNs with every payload) against numpy's own ``astype``, the reference the
general path uses."""

from __future__ import annotations

import numpy as np
import pytest

from aclnn_py.dtypes import DT_FLOAT, DT_FLOAT16
from aclnn_py.kernels import _fp, accel, cast


@pytest.fixture(autouse=True)
def _numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(accel.ENV_VAR, "numpy")


def _all_float16() -> np.ndarray:
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)


@pytest.mark.parametrize(("recipe", "shuffled"), [("aicpu", False), ("tbe-v220", True), ("arch35", False)])
def test_every_float16_value_widens_to_numpys_bits(
    recipe: str, shuffled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # in bit order, blocks of 3000 are clean, or hold only positive (0x7C00..0x7FFF) or only
    # negative (0xFC00..0xFFFF) infinities and NaNs; shuffled, every block holds both
    monkeypatch.setattr(_fp, "CHUNK", 3000)
    x = _all_float16()
    if shuffled:
        x = x[np.random.default_rng(5).permutation(x.size)]
    x = x.reshape(256, 256)
    out = np.empty(x.shape, dtype=np.float32)
    assert cast.make(DT_FLOAT16, DT_FLOAT, recipe)([x], [out]) == "numpy"
    np.testing.assert_array_equal(out.view(np.uint32), x.astype(np.float32).view(np.uint32))


def test_other_layouts_take_numpys_cast() -> None:
    x = _all_float16()
    assert not cast._f16_to_f32_fast(x[::2], np.empty(1 << 15, np.float32))  # strided
    buf = np.zeros(1 << 17, dtype=np.float16)
    assert not cast._f16_to_f32_fast(buf[: 1 << 16], buf.view(np.float32))  # over its input
    out = np.empty(1 << 15, np.float32)
    assert cast.make(DT_FLOAT16, DT_FLOAT, "aicpu")([x[::2]], [out]) == "numpy"
    np.testing.assert_array_equal(out.view(np.uint32), x[::2].astype(np.float32).view(np.uint32))
