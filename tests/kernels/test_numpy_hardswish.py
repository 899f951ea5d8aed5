"""Hardswish and HardswishBackward: the float32 fast numpy path gives the recipes' bits.

The fast path (fewer passes, written block by block into the output) against the unchanged
recipe run by ``_fp.run_elementwise``, on arrays holding every special value and every float32
within a few hundred ulps of the thresholds (+-3, and +-1.5 where d = x / 3 + 0.5 is 0 or 1)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import float32_specials

from aclnn_py.kernels import _fp, accel, hard_swish, hard_swish_grad
from aclnn_py.kernels._fp import run_elementwise

F32 = np.float32
# the specials, +-3, +-6, +-1.5
SPECIALS = float32_specials(0x40400000, 0xC0400000, 0x40C00000, 0xC0C00000, 0x3FC00000, 0xBFC00000)


@pytest.fixture(autouse=True)
def _numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(accel.ENV_VAR, "numpy")


def _near(centers: tuple[int, ...], span: int) -> np.ndarray:
    """Every float32 within ``span`` ulps of each center (given by its bits)."""
    steps = np.arange(-span, span + 1, dtype=np.int64)
    return np.concatenate([(c + steps).astype(np.uint32) for c in centers]).view(F32)


def _values(n: int, seed: int) -> np.ndarray:
    """Random values over [-8, 8] and beyond, the threshold neighbourhoods, and specials
    scattered over some blocks only (the others stay clean and take the fast passes)."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 4).astype(F32)
    near = _near((0x40400000, 0xC0400000, 0x3FC00000, 0xBFC00000, 0x40C00000, 0xC0C00000), 300)
    x[: near.size] = near
    specials = SPECIALS
    idx = rng.integers(0, n // 2, 200)  # the second half of the array has no special value
    x[idx] = rng.choice(specials, idx.size)
    return x


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint32)


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_hardswish_fast_path_matches_recipe(recipe: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fp, "CHUNK", 4096)  # several blocks, some clean, a partial last one
    x = _values(5 * 4096 + 77, 1)
    fn = hard_swish.tbe if recipe == "tbe" else hard_swish.arch35
    ref = np.empty_like(x)
    run_elementwise(fn, [x], ref)
    out = np.empty_like(x)
    assert hard_swish.make(recipe)([x], [out]) == "numpy"
    np.testing.assert_array_equal(_bits(out), _bits(ref))
    out = np.empty_like(x)
    assert hard_swish._fast_f32(recipe == "arch35", x, out)  # the fast form itself ran
    np.testing.assert_array_equal(_bits(out), _bits(ref))
    strided = np.empty(2 * x.size, F32)[::2]  # a strided output: pieces along the leading axis
    assert hard_swish._fast_f32(recipe == "arch35", x, strided)
    np.testing.assert_array_equal(_bits(strided), _bits(ref))
    inplace = x.copy()  # in place: the pieces go through scratch
    assert hard_swish._fast_f32(recipe == "arch35", inplace, inplace)
    np.testing.assert_array_equal(_bits(inplace), _bits(ref))


def test_hardswish_fast_path_declines_other_layouts() -> None:
    x = _values(4096, 2)
    assert not hard_swish._fast_f32(False, x[1:2049], x[:2048])  # partly overlapping
    assert not hard_swish._fast_f32(False, np.zeros(4096, np.float16), np.empty(4096, np.float16))


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_hardswish_backward_fast_path_matches_recipe(recipe: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_fp, "CHUNK", 4096)
    n = 5 * 4096 + 77
    x = _values(n, 3)
    g = _values(n, 4)[::-1].copy()  # NaN / inf gradients in other blocks than x's specials
    g[n // 2 : n // 2 + 40] = np.inf  # inf * 0 where x < -3 in a block without special x
    x[n // 2 : n // 2 + 40] = F32(-5)
    fn = hard_swish_grad.RECIPES[recipe]
    ref = np.empty_like(x)
    run_elementwise(fn, [g, x], ref)
    out = np.empty_like(x)
    assert hard_swish_grad.make(recipe)([g, x], [out]) == "numpy"
    np.testing.assert_array_equal(_bits(out), _bits(ref))
    out = np.empty_like(x)
    assert hard_swish_grad._fast_f32(fn, g, x, out)  # the fast form itself ran
    np.testing.assert_array_equal(_bits(out), _bits(ref))
    inplace = x.copy()  # the output is the input x: the pieces go through scratch
    assert hard_swish_grad._fast_f32(fn, g, inplace, inplace)
    np.testing.assert_array_equal(_bits(inplace), _bits(ref))
    assert not hard_swish_grad._fast_f32(fn, g, x[1:], x[:-1])  # partly overlapping: the general path
