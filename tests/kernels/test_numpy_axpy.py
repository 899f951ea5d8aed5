"""Axpy's numpy path gives the fused multiply-add recipe's bits.

elementwise.axpy_float32 (the float32 sum of exact products, the power-of-two alpha route and
the float64 route with breakpoints redone) and elementwise.fma_fast (float32 and float16),
each against the unchanged slow formulation ``store(out, fma(alpha, x2, x1, dtype))``, on
operands built to put the float64 sum exactly on a rounding midpoint, one float64 step off it,
below the smallest normal, at the overflow midpoint, and on every special value."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import assert_bits_equal, float32_specials

from aclnn_py.kernels import _fp, elementwise

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
SPECIALS = float32_specials(0x3F800001)  # and 1 + ulp
# ties-prone (few significand bits), powers of two (both signs, both sides of 1), zeros,
# one ulp off 1, large, tiny (2^-30 (1 + 2^-23): products one float64 step under a subnormal
# midpoint), subnormal, non-finite
TINY_ALPHA = 2.0**-30 * (1 + 2.0**-23)
ALPHAS = [2.0, -2.0, 1.0, 0.0, -0.0, 0.5, -0.5, 3.0, 1.5, 1.7, 1 + 2.0**-23, 1 + 2.0**-14, 1 - 2.0**-24,
          2.0**100, 1e-30, TINY_ALPHA, -(2.0**-149), np.inf, np.nan]  # fmt: skip


def _spec(x1: np.ndarray, x2: np.ndarray, alpha: float, dtype: np.dtype = F32) -> np.ndarray:
    """The specification's bits: fma in float64 rounded to odd, then once; NaN canonical."""
    out = np.empty(np.broadcast_shapes(x1.shape, x2.shape), dtype)
    with np.errstate(all="ignore"):
        _fp.store(out, elementwise.fma(np.full((), alpha, dtype), x2, x1, dtype))
    return out


def _crafted(alpha: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(x1, x2) whose products alpha * x2 sit at or next to half an ulp of x1, either way and of
    either sign: the float64 sums land exactly on a float32 midpoint (the exact sum a little off
    it, or on it), one float64 step beside it, or cancel into the subnormal range; x1 spans
    random normals, subnormals, both sides of the smallest normal and the largest float32 (the
    midpoint to inf); then every special value against every special value."""
    rng = np.random.default_rng(seed)
    x1 = (rng.standard_normal(600) * 3).astype(np.float32)
    x1 = np.concatenate(
        [x1, x1 * np.float32(2.0**-120), rng.integers(1, 1 << 23, 100).astype(np.uint32).view(np.float32),
         np.array([2.0**-126, 2.0**-125, 3.4028235e38, 1.0, 1 + 2.0**-23], np.float32)]
    )  # fmt: skip
    x1 = np.concatenate([x1, -x1])
    a = np.float32(alpha)
    with np.errstate(all="ignore"):
        _, e = np.frexp(x1.astype(np.float64))  # |x1| = m 2^e, 0.5 <= m < 1: float32 ulp 2^(e - 24)
        half_ulp = np.ldexp(1.0, np.maximum(e - 25, -150))  # a subnormal's: 2^-150
        cols = []
        for sign in (1.0, -1.0):
            x2 = (sign * half_ulp / np.float64(a)).astype(np.float32)
            cols += [x2, np.nextafter(x2, np.float32(np.inf)), np.nextafter(x2, np.float32(-np.inf))]
        cancel = (-x1.astype(np.float64) / np.float64(a)).astype(np.float32)  # sums near zero
        cols += [cancel, np.nextafter(cancel, np.float32(np.inf))]
    x1s = np.tile(x1, len(cols))
    x2s = np.concatenate(cols)
    e1, e2 = np.repeat(SPECIALS, SPECIALS.size), np.tile(SPECIALS, SPECIALS.size)
    return np.concatenate([x1s, e1]), np.concatenate([x2s, e2])


def _naive_misses(alpha: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(float64 sums, their straight rounding's wrong elements, the recipe) of the crafted set."""
    x1, x2 = _crafted(alpha, 1)
    with np.errstate(all="ignore"):
        s = np.float64(np.float32(alpha)) * x2.astype(np.float64) + x1.astype(np.float64)
        naive = s.astype(np.float32)
    spec = _spec(x1, x2, alpha)
    finite = np.isfinite(spec)
    wrong = np.flatnonzero(finite & (naive.view(np.uint32) != spec.view(np.uint32)))
    return s, wrong, spec


def test_crafted_cases_are_hard():
    """The crafted operands do reach the cases the shortcut must redo: float64 sums on a float32
    midpoint whose straight rounding differs from the recipe (normal and subnormal results,
    and the largest float32 against the midpoint to inf)."""
    s, wrong, spec = _naive_misses(1 + 2.0**-23)
    assert wrong.size > 100
    idx = elementwise._breakpoints(s, F32)
    assert idx is not None and np.isin(wrong, idx).all()
    assert (np.abs(spec[wrong]) == np.float32(3.4028235e38)).any()  # straight rounding gave inf
    s, wrong, spec = _naive_misses(TINY_ALPHA)
    subnormal = np.abs(spec[wrong]) < 2.0**-126
    assert np.count_nonzero(subnormal) > 10


@pytest.mark.parametrize("alpha", ALPHAS)
def test_fma_fast_float32_matches_fma(alpha):
    x1, x2 = _crafted(alpha, 2)
    a = np.full((), alpha, np.float32)
    with np.errstate(all="ignore"):
        fast, slow = elementwise.fma_fast(a, x2, x1, F32), elementwise.fma(a, x2, x1, F32)
    assert_bits_equal(fast, slow)  # NaN payloads included: both convert the same float64 NaN


def test_fma_fast_float16_matches_fma():
    """float16 (TBE's one rounding): every half as x2 against shifted halves, ones, the
    smallest subnormal and the largest half as x1 (the float16 midpoints, the overflow
    midpoint 65520 and the subnormal sums)."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    x1 = np.concatenate([np.roll(every, 12345), np.full(4096, 2.0**-24, np.float16), np.full(4096, 65504, np.float16)])
    x2 = np.concatenate([every, every[::16], every[1::16]])
    for alpha in (1.5, -0.3, 1.0009765625, 2.0, 3.0e4):
        a = np.full((), alpha, np.float16)
        with np.errstate(all="ignore"):
            assert_bits_equal(elementwise.fma_fast(a, x2, x1, F16), elementwise.fma(a, x2, x1, F16))


def _check(x1: np.ndarray, x2: np.ndarray, alpha: float, inplace: int | None = None) -> None:
    """axpy_float32 into a fresh output (or into x1 / x2 itself) against the specification."""
    expected = _spec(x1, x2, alpha)
    if inplace is None:
        out = np.full(expected.shape, np.float32(7.0))
    else:
        out = (x1, x2)[inplace].copy()
        x1, x2 = (out, x2) if inplace == 0 else (x1, out)
    with np.errstate(all="ignore"):
        elementwise.axpy_float32(x1, x2, np.float32(alpha), out)
    assert_bits_equal(out, expected)


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 2048 elements: many blocks (and a short last one) on small arrays."""
    monkeypatch.setattr(elementwise, "CHUNK", 2048)


@pytest.mark.usefixtures("small_blocks")
@pytest.mark.parametrize("alpha", ALPHAS)
def test_axpy_float32_layouts_match_spec(alpha):
    """Same shape (blocks, a short last one; and in place on either operand), a scalar x2 or x1
    (each special value), a row x2 or x1 ([C] and [1, C], tiled to a block), a row of crafted
    values against a matrix, and layouts the blocks do not take (a strided output, an
    overlapping input): all the recipe's bits."""
    x1, x2 = _crafted(alpha, 3)
    n = (x1.size // 96) * 96
    x1, x2 = x1[:n], x2[:n]
    _check(x1, x2, alpha)
    _check(x1, x2, alpha, inplace=0)
    _check(x1, x2, alpha, inplace=1)
    for v in SPECIALS[::3]:
        _check(x1, np.array([v]), alpha)
        _check(np.array(v), x2, alpha)
    m1, m2 = x1.reshape(-1, 96), x2.reshape(-1, 96)
    _check(m1, m2[5], alpha)
    _check(m1, m2[7:8], alpha)
    _check(m1[3], m2, alpha)
    wide = np.ascontiguousarray(m1[:, :48]).reshape(-1, 3, 16)  # a [16] row under [.., 3, 16]
    _check(wide, m2[0, :16], alpha)
    out = np.zeros((n, 2), np.float32)[:, 0]  # a strided output: whole arrays
    with np.errstate(all="ignore"):
        elementwise.axpy_float32(x1, x2, np.float32(alpha), out)
    assert_bits_equal(out, _spec(x1, x2, alpha))
    buf = np.concatenate([x1, x1[:5]])
    shifted_out, shifted_in = buf[5:], buf[:-5]  # overlapping, not the same: whole arrays
    expected = _spec(shifted_in.copy(), x2, alpha)
    with np.errstate(all="ignore"):
        elementwise.axpy_float32(shifted_in, x2, np.float32(alpha), shifted_out)
    assert_bits_equal(shifted_out, expected)


@pytest.mark.usefixtures("small_blocks")
def test_axpy_float32_random_blocks():
    """Random normals over several blocks (the layouts the bench times), an overflowing
    power-of-two product in the first block (the overflow flag sends it to the float64 route)
    and a NaN in the second (written as the canonical NaN)."""
    rng = np.random.default_rng(4)
    n = 3 * 4 * elementwise.CHUNK + 3072
    x1 = (rng.standard_normal(n) * 3).astype(np.float32)
    x2 = (rng.standard_normal(n) * 3).astype(np.float32)
    x1[10], x2[10] = -3.4028235e38, 3.4028235e38  # 2 * x2 overflows float32, the sum does not
    x2[4 * elementwise.CHUNK + 7] = np.float32(np.nan)
    for alpha in (2.0, -0.5, 1.7):
        _check(x1, x2, alpha)
        _check(x1.reshape(-1, 1024), x2[:1024], alpha)
        _check(x1, x2[:1], alpha)


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_axpy_int32_and_halves_match_spec(monkeypatch, recipe):
    """int32 (through float32, then a truncating cast) and the half types' "float32 fma, then
    the cast" (bfloat16; float16 on arch35) now take axpy_float32: the recipe's bits, against
    the unchanged fma, for alphas of every route (saturation and NaN, which gives 0, included)."""
    monkeypatch.setenv("ACLNN_PY_KERNELS", "numpy")
    rng = np.random.default_rng(6)
    i1 = rng.integers(-(2**31), 2**31, 3000, dtype=np.int64).astype(np.int32)
    i2 = np.roll(i1, 17)
    i1[:4], i2[:4] = [0, -1, 2**31 - 1, -(2**31)], [2**31 - 1, -(2**31), 0, 5]
    bits = rng.integers(0, 1 << 16, 3000, dtype=np.uint32).astype(np.uint16)
    halves = (
        [bits.view(np.float16), bits.view(elementwise._BF16)] if recipe == "arch35" else [bits.view(elementwise._BF16)]
    )
    for alpha in (2.0, -0.5, 3.0, 1.7, 1e30, np.nan):
        a = np.full((), alpha, np.float32)
        out = np.empty_like(i1)
        with np.errstate(all="ignore"):
            elementwise.axpy(recipe, alpha)([i1, i2], [out])
            expected = elementwise._trunc_int32(elementwise.fma(a, i2.astype(np.float32), i1.astype(np.float32), F32))
        assert_bits_equal(out, expected)
        for h in halves:
            h2 = np.roll(h, 5)
            out_h = np.empty_like(h)
            with np.errstate(all="ignore"):
                elementwise.axpy(recipe, alpha)([h, h2], [out_h])
                r32 = elementwise.fma(a, h2.astype(np.float32), h.astype(np.float32), F32)
                expected_h = np.empty_like(h)
                _fp.store(expected_h, r32.astype(h.dtype))
            assert_bits_equal(out_h, expected_h)
