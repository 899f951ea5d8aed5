"""The fused softmax kernels are bit-identical to the numpy recipes (the specification).

The compiled softmax computes numpy's float32 exponential itself (``_numba_exp.np_exp32``,
numpy's AVX2/AVX-512F algorithm) inside one pass per row. These tests check that exponential
against ``np.exp`` on this machine, then every layout the accelerator takes (last axis, inner
axes, the axis in front), every recipe (TBE lanes, TBE reciprocal, Ascend950's templates), both
exponential routes of the compiled path (the fused one and the ``np.exp`` blocks kept for a numpy
whose exp is another algorithm), and the rows that take the guarded exponential: NaN anywhere,
infinities, all -inf, a spread of more than 86, exponentials that become subnormal or zero.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from helpers import assert_bits_equal

from aclnn_py.kernels import accel
from aclnn_py.kernels import softmax as sm

pytest.importorskip("numba", reason="needs numba, the optional accelerator (pip install numba)")

from numba import njit

from aclnn_py.kernels import _numba_exp as ex
from aclnn_py.kernels import _numba_softmax as smx

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
DTYPES = [F32, F16, BF16]
RECIPES = [("tbe", False), ("tbe", True), ("arch35", False)]

needs_numpy_exp = pytest.mark.skipif(
    not ex.exp_matches_numpy(), reason="numpy's float32 exp is not its AVX2/AVX-512F algorithm here"
)


def _same_bits_or_nan(got: np.ndarray, want: np.ndarray) -> None:
    """Equal bits, except that any NaN matches any NaN (np_exp32 gives the quiet NaN, np.exp keeps
    the input's payload)."""
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    bad = np.flatnonzero(got.view(np.uint32)[~nan] != want.view(np.uint32)[~nan])
    assert bad.size == 0, (bad.size, got[~nan][bad[:3]], want[~nan][bad[:3]])


# -- the exponential --------------------------------------------------------------------------------


@needs_numpy_exp
def test_np_exp32_is_numpys_exp_on_a_dense_sweep() -> None:
    """Every 997th float32 bit pattern (4.3 million inputs: every exponent, both signs, NaN
    payloads, subnormals), then every float32 near the limits. (All 2^32 inputs agree: checked
    once on AVX2, see the module's docstring; too slow for the suite.)"""
    bits = np.arange(0, 1 << 32, 997, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    got = np.empty_like(x)
    ex.exp_block(x, got)
    with np.errstate(all="ignore"):
        _same_bits_or_nan(got, np.exp(x))
    # every float32 around the overflow, underflow and subnormal-result limits
    lims = np.array([88.72283935546875, -103.97208404541015625, -87.33654, -86.0, -86.64, -100.0], np.float32)
    x = (lims.view(np.int32)[:, None] + np.arange(-4000, 4001, dtype=np.int32)).view(np.float32).ravel()
    got = np.empty_like(x)
    ex.exp_block(x, got)
    with np.errstate(all="ignore"):
        _same_bits_or_nan(got, np.exp(x))


@needs_numpy_exp
def test_the_unguarded_exp_equals_the_guarded_one_on_its_domain() -> None:
    """``_exp_normal`` (no NaN/overflow/underflow/subnormal handling) on [-86, 0]: every 331st
    float32 there; a NaN (any payload) stays NaN, which the fused rows rely on."""
    lo, hi = np.float32(-86.0).view(np.uint32), np.uint32(0x80000000)  # -86 ... -0 (negative: bits descend)
    x = np.concatenate([np.arange(hi, lo + 1, 331, dtype=np.uint32), [0, lo]]).view(np.float32)
    got, want = np.empty_like(x), np.empty_like(x)
    ex.exp_block(x, want)
    _normal_block(x, got)
    assert_bits_equal(got, want)
    nans = np.array([0x7FC00000, 0xFFC00001, 0x7F800001, 0x7FFFFFFF, 0xFFBFFFFF, 0x7FC001FF], np.uint32)
    got = np.empty(nans.size, np.float32)
    _normal_block(nans.view(np.float32), got)
    assert np.isnan(got).all()


@njit(error_model="numpy", cache=True)
def _normal_block(src: np.ndarray, dst: np.ndarray) -> None:
    for i in range(src.size):
        dst[i] = ex._exp_normal(src[i])


def test_the_probe_decides_the_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the probe saying no, the compiled path keeps ``np.exp`` on float32 blocks (and the
    same bits); with it saying yes, the fused rows run."""
    x = (np.random.default_rng(3).standard_normal((8, 300)) * 3).astype(np.float32)
    monkeypatch.setenv(accel.ENV_VAR, "numba")
    outs = []
    real = smx.softmax_rows
    for ok in (False, ex.exp_matches_numpy()):
        monkeypatch.setattr(ex, "_EXP_OK", ok)
        modes: list[object] = []

        def counted(*a: object, modes: list[object] = modes) -> object:
            modes.append(a[1])
            return real(*a)

        monkeypatch.setattr(smx, "softmax_rows", counted)
        out = np.zeros_like(x)
        assert sm.make("tbe", 1)([x], [out]) == "numba tbe"
        assert modes == ([smx.MODE_FUSED] if ok else [smx.MODE_PREP, smx.MODE_FINISH])
        outs.append(out)
    assert_bits_equal(outs[1], outs[0])


# -- the softmax paths -------------------------------------------------------------------------------


def _rows(dtype: np.dtype, r: int, seed: int) -> np.ndarray:
    """Rows of length r that exercise every route: random, large spread, NaN at the start, middle
    and end, +inf, -inf, all -inf, all equal, signed zeros, exponentials that underflow to
    subnormals and zero, values that round the float16 difference."""
    rng = np.random.default_rng(seed)
    rows = [(rng.standard_normal(r) * 3).astype(np.float32) for _ in range(3)]
    special = []
    for fill in ("nan0", "nanmid", "nanend", "inf", "ninf", "allninf", "equal", "zeros", "spread", "sub", "allnan"):
        v = (rng.standard_normal(r) * 2).astype(np.float32)
        if fill == "nan0":
            v[0] = np.nan
        elif fill == "nanmid":
            v[r // 2] = np.nan
        elif fill == "nanend":
            v[-1] = np.nan
        elif fill == "inf":
            v[r // 3] = np.inf
        elif fill == "ninf":
            v[r // 3] = -np.inf
        elif fill == "allninf":
            v[:] = -np.inf
        elif fill == "equal":
            v[:] = 1.25
        elif fill == "zeros":
            v[:] = 0.0
            v[::2] = -0.0
        elif fill == "spread":  # differences past -86 (the unguarded exponential's limit) and -104
            v[0] = 30.0
            v[-1] = -60.0
            v[r // 2] = -75.0
        elif fill == "sub":  # exponentials around the subnormal range (x - max near -87 .. -104)
            v = -np.linspace(0.0, 110.0, r, dtype=np.float32)
            v[r // 4] = 0.5
        elif fill == "allnan":
            v[:] = np.nan
        special.append(v)
    if r >= 3:  # a float16 difference that rounds (the TBE float16 recipe subtracts in float16)
        v = np.full(r, 1000.0, np.float32)
        v[1] = 1000.5
        v[2] = 3.0
        special.append(v)
    return np.stack(rows + special).astype(dtype)


def _agree(monkeypatch: pytest.MonkeyPatch, compute: sm.Compute, x: np.ndarray, fused_only: bool = False) -> None:
    """numpy path == compiled path with the fused exponential == compiled path with np.exp blocks."""
    res = {}
    for path, ok in (("numpy", None), ("numba", True), ("numba", False)):
        if fused_only and ok is False:
            continue
        monkeypatch.setenv(accel.ENV_VAR, path)
        if ok is not None:
            monkeypatch.setattr(ex, "_EXP_OK", ok and ex.exp_matches_numpy())
        out = np.zeros_like(x)
        took = compute([x], [out])
        assert ("numba" in took) == (path == "numba"), took
        res[(path, ok)] = out
        monkeypatch.setattr(ex, "_EXP_OK", None)
    for out in res.values():
        assert_bits_equal(out, res[("numpy", None)])


# lengths around the 64-lane blocks, the 16-lane maximum, the 8-lane blocks and Ascend950's
# templates (small R <= 16, full load, recompute past 16384 elements)
LAST_AXIS_LENGTHS = [2, 3, 7, 8, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200, 1000, 1024, 1031]


@needs_numpy_exp
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe,reciprocal", RECIPES)
def test_softmax_last_axis_every_length(
    monkeypatch: pytest.MonkeyPatch, dtype: np.dtype, recipe: str, reciprocal: bool
) -> None:
    for i, r in enumerate(LAST_AXIS_LENGTHS):
        x = _rows(dtype, r, 100 + i)
        _agree(monkeypatch, sm.make(recipe, 1, reciprocal), x)


@needs_numpy_exp
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_softmax_recompute_rows_and_many_rows(monkeypatch: pytest.MonkeyPatch, dtype: np.dtype, recipe: str) -> None:
    """Rows past Ascend950's full-load template (the recompute tiles), and a batch of rows (the
    small-R template is off for 320..10240 rows of <= 16)."""
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((3, 17000)) * 4).astype(np.float32)
    x[1, 123] = np.nan
    x[2, :5] = -200.0
    _agree(monkeypatch, sm.make(recipe, 1), x.astype(dtype), fused_only=True)
    x = (rng.standard_normal((400, 12)) * 4).astype(np.float32)
    x[7, 3] = np.inf
    _agree(monkeypatch, sm.make(recipe, 1), x.astype(dtype))


@needs_numpy_exp
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe,reciprocal", RECIPES)
def test_softmax_other_axes(monkeypatch: pytest.MonkeyPatch, dtype: np.dtype, recipe: str, reciprocal: bool) -> None:
    """The axis in front ([r, a0]: TBE lanes over rows, Ascend950's ARA tree) and in the middle,
    with the same special rows as columns; r around the lane blocks and the ARA groups."""
    for i, r in enumerate([2, 3, 5, 8, 9, 17, 64, 65, 130]):
        cols = _rows(dtype, r, 200 + i).T.copy()  # (r, 17): each column one of the special rows
        _agree(monkeypatch, sm.make(recipe, 0, reciprocal), cols)
        x = np.ascontiguousarray(np.stack([cols, cols[::-1]]))  # (2, r, 17), softmax over r
        _agree(monkeypatch, sm.make(recipe, 1, reciprocal), x)
        # plain columns (every min - max within 86: the unguarded exponential), then one column
        # spread just past it (the guarded one for the whole slab)
        plain = (np.random.default_rng(300 + i).standard_normal((r, 40)) * 3).astype(np.float32)
        _agree(monkeypatch, sm.make(recipe, 0, reciprocal), plain.astype(dtype))
        plain[0, 5], plain[-1, 5] = 43.0, -43.5
        _agree(monkeypatch, sm.make(recipe, 0, reciprocal), plain.astype(dtype))


@needs_numpy_exp
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_softmax_bench_shape_rows(monkeypatch: pytest.MonkeyPatch, dtype: np.dtype) -> None:
    """The benchmark's layout ([n, 1024], both axes) on a slice of it."""
    x = (np.random.default_rng(4).standard_normal((64, 1024)) * 3).astype(np.float32).astype(dtype)
    for axis in (1, 0):
        _agree(monkeypatch, sm.make("tbe", axis), x)


# -- ReduceSum (the TBE lanes share the stack-register accumulation with Softmax) -----------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_reduce_sum_every_length_and_axis(monkeypatch: pytest.MonkeyPatch, dtype: np.dtype, recipe: str) -> None:
    """Rows of every length class around the 64-lane chunks (a partial last chunk, one chunk,
    none) with the special rows (NaN, infinities, signed zeros, all equal), summed along the
    last axis, the first axis and a middle one."""
    from aclnn_py.kernels import reduce_sum

    for i, r in enumerate(LAST_AXIS_LENGTHS):
        x = _rows(dtype, r, 300 + i)
        for axes, x_in in (((1,), x), ((0,), x.T.copy()), ((1,), np.ascontiguousarray(np.stack([x.T, x.T])))):
            out_shape = tuple(d for k, d in enumerate(x_in.shape) if k not in axes)
            res = {}
            for path in ("numpy", "numba"):
                monkeypatch.setenv(accel.ENV_VAR, path)
                out = np.zeros(out_shape, dtype)
                took = reduce_sum.make(recipe, axes, False)([x_in], [out])
                assert ("numba" in took) == (path == "numba"), took
                res[path] = out
            assert_bits_equal(res["numba"], res["numpy"])
