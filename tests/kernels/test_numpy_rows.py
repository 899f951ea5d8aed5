"""The numpy path's blocked layouts give the whole-array recipe's bits.

_fp.blocks (same shape, scalar operand, row broadcast, long rows) under run_ufunc and
run_elementwise, the Maximum/Minimum blocks, Sign's int8 mask difference and Clamp's tiled
bounds, each against the unchanged slow formulation, on arrays holding every special value."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from helpers import float32_specials

from aclnn_py.kernels import _fp, accel, clamp, elementwise, minmax, sign

F32 = np.float32
SPECIALS = float32_specials()
BLOCK = 1 << 16


@pytest.fixture(autouse=True)
def _numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(accel.ENV_VAR, "numpy")
    # blocks of 64 Ki elements, which the layouts below are sized for (rows longer than a block)
    for module in (_fp, elementwise, minmax, sign):
        monkeypatch.setattr(module, "CHUNK", BLOCK)


def _values(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Random normals with about a fifth of the elements replaced by special values."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    x = (rng.standard_normal(n) * 3).astype(F32)
    idx = rng.integers(0, n, max(n // 5, 1))
    x[idx] = rng.choice(SPECIALS, idx.size)
    x[: min(n, SPECIALS.size)] = SPECIALS[: min(n, SPECIALS.size)]
    return x.reshape(shape)


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint8)


def _assert_same(a: np.ndarray, b: np.ndarray) -> None:
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_array_equal(_bits(a), _bits(b))


# (out shape, operand shapes): every layout _fp.blocks takes with more than CHUNK elements
LAYOUTS = [
    ((70, 1000), [(70, 1000), (70, 1000)]),  # same shape
    ((70, 1000), [(70, 1000), (1,)]),  # scalar operand
    ((70, 1000), [(), (70, 1000)]),  # 0-d scalar first
    ((70, 1000), [(70, 1000), (1000,)]),  # row
    ((70, 1000), [(1, 1000), (70, 1000)]),  # row first, with a leading 1
    ((20, 35, 100), [(20, 35, 100), (35, 100), (100,)]),  # a trailing block and a shorter row
    ((2, 70001), [(2, 70001), (70001,)]),  # rows longer than CHUNK: pieces of one row
    ((2, 70001), [(2, 70001), (1,)]),  # long rows of the output, a scalar operand
]
SHAPE_IDS = ["same", "scalar", "0d-first", "row", "row-first", "trailing", "long-row", "long-scalar"]


def _operands(shapes: list[tuple[int, ...]], seed: int) -> list[np.ndarray]:
    return [_values(s, seed + i) for i, s in enumerate(shapes)]


@pytest.mark.parametrize(("out_shape", "shapes"), LAYOUTS, ids=SHAPE_IDS)
def test_blocks_cover_every_element_once(out_shape: tuple[int, ...], shapes: list[tuple[int, ...]]) -> None:
    out = np.zeros(out_shape, F32)
    parts = _fp.blocks(_operands(shapes, 0), out)
    assert parts is not None
    for block, _ in parts:
        block += 1
    assert (out == 1).all()


def test_blocks_refuse_other_layouts() -> None:
    out = np.zeros((70, 1000), F32)
    col = np.ones((70, 1), F32)  # a column broadcast repeats along the trailing dim
    assert _fp.blocks([np.ones((70, 1000), F32), col], out) is None
    assert _fp.blocks([np.ones((1000, 70), F32).T], out) is None  # not contiguous
    assert _fp.blocks([np.ones((70, 1000), F32)], np.zeros((1000, 70), F32).T) is None
    assert _fp.blocks([out.reshape(-1)[1000:].reshape(69, 1000)[:, :1000], out], out[1:]) is None
    mixed = np.zeros((2, 3, 30000), F32)  # rows over CHUNK of two lengths
    assert _fp.blocks([np.ones((3, 30000), F32), np.ones((30000,), F32)], mixed) is None


@pytest.mark.parametrize(("out_shape", "shapes"), LAYOUTS[:6] + LAYOUTS[6:7], ids=SHAPE_IDS[:7])
@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.divide])
def test_run_ufunc_matches_one_whole_call(
    ufunc: Callable[..., np.ndarray], out_shape: tuple[int, ...], shapes: list[tuple[int, ...]]
) -> None:
    ins = _operands(shapes[:2], 3)
    got = np.empty(out_shape, F32)
    want = np.empty(out_shape, F32)
    _fp.run_ufunc(ufunc, ins, got)
    with np.errstate(all="ignore"):
        _fp.store(want, ufunc(*ins))  # the reference: one call on the whole arrays
    _assert_same(got, want)


@pytest.mark.parametrize(("out_shape", "shapes"), LAYOUTS, ids=SHAPE_IDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_run_elementwise_matches_one_whole_call(
    dtype: type, out_shape: tuple[int, ...], shapes: list[tuple[int, ...]]
) -> None:
    def recipe(*xs: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            r = xs[0] * F32(3) - xs[1]
            return np.asarray(_fp.select(r > xs[-1], r, xs[-1]))

    ins = _operands(shapes, 5)
    got: np.ndarray = np.empty(out_shape, dtype)
    want: np.ndarray = np.empty(out_shape, dtype)
    _fp.run_elementwise(recipe, ins, got)
    _fp.store(want, recipe(*ins))
    _assert_same(got, want)


def test_overlapping_operands_read_the_original_values() -> None:
    buf = _values((70 * 1000 + 1000,), 7)
    whole = buf.copy()
    out = buf[1000:].reshape(70, 1000)
    shifted = buf[:-1000].reshape(70, 1000)  # each block would read the previous block's output
    with np.errstate(all="ignore"):  # the whole-array fallback: its callers set the state
        _fp.run_ufunc(np.add, [shifted, out], out)
    want = np.empty((70, 1000), F32)
    with np.errstate(all="ignore"):
        _fp.store(want, whole[:-1000].reshape(70, 1000) + whole[1000:].reshape(70, 1000))
    _assert_same(out, want)
    x = _values((70, 1000), 8)
    scalar = x.reshape(-1)[:1]  # an element of out, rewritten by the first block
    expect = np.empty_like(x)
    with np.errstate(all="ignore"):
        _fp.store(expect, x * x.reshape(-1)[0])
    _fp.run_ufunc(np.multiply, [x, scalar], x)
    _assert_same(x, expect)


def test_has_nan_sees_every_nan_anywhere() -> None:
    nans = SPECIALS[np.isnan(SPECIALS)]
    for n in (1, 7, 16, 33, 1025):
        for pos in {0, n // 2, n - 1}:
            for v in nans:
                a = np.full(n, F32(np.inf))
                a[pos] = v
                assert _fp.has_nan(a)
        assert not _fp.has_nan(np.full(n, F32(-np.inf)))
    assert not _fp.has_nan(np.zeros(0, F32))
    for dtype, bits in ((np.float16, [0x7C01, 0xFE00, 0x7FFF]), (np.float64, [0x7FF0000000000001, 0xFFF8000000000000])):
        ut = np.uint16 if dtype == np.float16 else np.uint64
        for pos in (0, 500, 1024):
            for b in bits:
                h = np.full(1025, np.inf, dtype)
                h.view(ut)[pos] = b
                assert _fp.has_nan(h)
        assert not _fp.has_nan(np.full(1025, -np.inf, dtype))


def test_store_canonicalises_every_nan() -> None:
    r = _values((70001,), 29)
    for dtype in (np.float32, np.float16):
        out: np.ndarray = np.empty(r.shape, dtype)
        _fp.store(out, r)
        with np.errstate(all="ignore"):
            want = np.where(np.isnan(r), _fp.CANONICAL_NAN, r).astype(dtype)
        _assert_same(out, want)


MAXMIN_LAYOUTS = LAYOUTS[:5] + LAYOUTS[6:]


@pytest.mark.parametrize(("out_shape", "shapes"), MAXMIN_LAYOUTS, ids=SHAPE_IDS[:5] + SHAPE_IDS[6:])
@pytest.mark.parametrize("is_max", [True, False])
def test_maxmin_blocks_match_the_general_recipe(
    is_max: bool, out_shape: tuple[int, ...], shapes: list[tuple[int, ...]]
) -> None:
    a, b = _operands(shapes[:2], 11)
    compute = minmax.maxmin(is_max)
    # scalar operands: a nonzero number, both zeros, a NaN
    scalars = [None] if a.size == b.size else [F32(1.5), F32(0.0), F32(-0.0), SPECIALS[12]]
    for s in scalars:
        if s is not None:
            (a if a.size == 1 else b).reshape(-1)[0] = s
        got = np.empty(out_shape, F32)
        assert compute([a, b], [got]) == "numpy"
        want = np.empty(out_shape, F32)
        _fp.store(want, minmax._float_maxmin(a, b, is_max))
        _assert_same(got, want)


def test_maxmin_clean_blocks_and_lone_specials() -> None:
    """Blocks without zero or NaN results skip both fix-ups; a lone zero pair or NaN is fixed."""
    rng = np.random.default_rng(31)
    a = (rng.standard_normal(4 * _fp.CHUNK) + 8).astype(F32)  # positive: clean blocks
    b = (rng.standard_normal(4 * _fp.CHUNK) + 8).astype(F32)
    a[_fp.CHUNK + 5], b[_fp.CHUNK + 5] = F32(-0.0), F32(0.0)  # a zero pair alone in block 1
    a[2 * _fp.CHUNK + 9] = SPECIALS[12]  # a signalling NaN alone in block 2
    a[3 * _fp.CHUNK], b[3 * _fp.CHUNK] = SPECIALS[11], SPECIALS[10]  # two NaNs in block 3
    for is_max in (True, False):
        got = np.empty_like(a)
        minmax.maxmin(is_max)([a, b], [got])
        want = np.empty_like(a)
        _fp.store(want, minmax._float_maxmin(a, b, is_max))
        _assert_same(got, want)


def test_maxmin_zero_pairs_in_rows() -> None:
    a = np.where(np.arange(70 * 1000) % 3 == 0, F32(-0.0), F32(0.0)).astype(F32).reshape(70, 1000)
    b = np.where(np.arange(1000) % 2 == 0, F32(-0.0), F32(0.0)).astype(F32)
    for is_max in (True, False):
        got = np.empty((70, 1000), F32)
        minmax.maxmin(is_max)([a, b], [got])
        want = np.where(np.signbit(a) & np.signbit(b) if is_max else np.signbit(a) | np.signbit(b), -0.0, 0.0)
        _assert_same(got, want.astype(F32))
    nonzero = _values((1000,), 23)  # a row without zeros: the zero fix-up is skipped
    nonzero[nonzero == 0] = F32(2.0)
    for is_max in (True, False):
        for ops in ([a, nonzero], [nonzero, a], [a, nonzero[:1]]):
            got = np.empty((70, 1000), F32)
            minmax.maxmin(is_max)(ops, [got])
            want = np.empty((70, 1000), F32)
            _fp.store(want, minmax._float_maxmin(ops[0], ops[1], is_max))
            _assert_same(got, want)


@pytest.mark.parametrize("recipe", ["v220", "arch35"])
def test_sign_float32_matches_the_mask_difference(recipe: str) -> None:
    x = _values((70, 1000), 13)
    x.reshape(-1)[-SPECIALS.size :] = SPECIALS  # specials at a block's end too
    got = np.empty_like(x)
    assert sign.make(recipe)([x], [got]) == "numpy"
    with np.errstate(invalid="ignore"):
        want = (x > 0).astype(F32) - (x < 0).astype(F32)
    _assert_same(got, want)
    assert not np.signbit(got[x == 0]).any() and (got[np.isnan(x)] == 0).all()


@pytest.mark.parametrize(("lo", "hi"), [(-1.0, 1.0), (2.5, -3.0), (1e-45, 3e38), (-np.inf, -1e-40)])
def test_clamp_scalar_bounds_match_the_recipe(lo: float, hi: float) -> None:
    x = _values((70001,), 17)
    lo_a, hi_a = np.array(lo, F32), np.array(hi, F32)
    got = np.empty_like(x)
    assert clamp.aicore()([x, lo_a, hi_a], [got]) == "numpy"
    want = np.empty_like(x)
    _fp.store(want, clamp._recipe(x, lo_a, hi_a))
    _assert_same(got, want)


@pytest.mark.parametrize("n", [3, 11, BLOCK + 5])
def test_clamp_scalar_bounds_with_nans_in_numpys_scalar_tail(n: int) -> None:
    """numpy's fmax lets a signalling NaN through in its scalar loop (a call's or block's last
    n % 8 elements, a call under 8 elements) and not in its vector loop: maxNum gives lo."""
    x = _values((n,), 23)
    x[-3:] = SPECIALS[[11, 12, 13]]  # signalling NaNs of both signs, a quiet NaN
    x[:3] = SPECIALS[[12, 13, 10]]
    lo_a, hi_a = np.array(-1.0, F32), np.array(1.0, F32)
    got = np.empty_like(x)
    assert clamp.aicore()([x, lo_a, hi_a], [got]) == "numpy"
    want = np.empty_like(x)
    _fp.store(want, clamp._recipe(x, lo_a, hi_a))
    _assert_same(got, want)


def test_clamp_row_bounds_match_the_recipe() -> None:
    x = _values((70, 1000), 19)
    lo, hi = _values((1000,), 20), _values((1, 1000), 21)
    got = np.empty_like(x)
    clamp.aicore()([x, lo, hi], [got])
    want = np.empty_like(x)
    _fp.store(want, clamp._recipe(x, lo, hi))
    _assert_same(got, want)
