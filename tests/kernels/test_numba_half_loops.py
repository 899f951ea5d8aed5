"""The compiled half-type loops of issue 19 (``aclnn_py/kernels/_numba_ew.py``): TBE float16
Axpy's routes around rounding to odd (alpha a power of two, a short scalar product) and the
bfloat16 HardSwish loop, each against the numpy specification bit for bit."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from aclnn_py.kernels import elementwise, hard_swish

nb = pytest.importorskip("aclnn_py.kernels._numba")
ew = nb.ew

F16 = np.dtype(np.float16)
BF16 = np.dtype(ml_dtypes.bfloat16)
EVERY = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)  # every 16-bit pattern


def test_short_products_need_no_rounding_to_odd() -> None:
    """``_short``'s claim on every float16 c (``_plain_sum_rounds_right`` compares the plain
    float32 sum with the rounding to odd on all 65536 patterns): products of 11 significant
    bits (random significands and signs at every exponent from 2^-48 to 2^32, the tiniest and
    largest included) round the same; the test can fail: 12-bit values that sit on a float16
    midpoint (1 + 2^-11, with c = 2^-24 lost in the float32 sum) do not."""
    rng = np.random.default_rng(19)
    exps = np.arange(-58, 23)  # significand 2^10..2^11-1 times 2^k: 2^-48 <= |v| < 2^33
    sig = rng.integers(1 << 10, 1 << 11, exps.size * 3)
    v = (sig * np.exp2(np.repeat(exps, 3)) * rng.choice([-1.0, 1.0], sig.size)).astype(np.float32)
    v = np.concatenate([v, np.array([2.0**-48, -(2.0**-48), 65504.0 * 32768.0, 1.5, 0.0, np.inf], np.float32)])
    assert all(ew._short(x) for x in v)
    assert all(ew._plain_sum_rounds_right(x) for x in v)
    long12 = np.array([1 + 2.0**-11, -(1 + 2.0**-11), 3 * 2.0**-12 + 2.0**-22], np.float32)
    assert not any(ew._short(x) for x in long12)
    assert not any(ew._plain_sum_rounds_right(x) for x in long12[:2])


def _spec(alpha: float, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """TBE float16 Axpy's bits by the specification (float64, rounded to odd, then to float16)."""
    with np.errstate(all="ignore"):
        r = elementwise.fma(np.full((), alpha, F16), x2, x1, F16)
    return np.where(np.isnan(r), np.uint16(0x7E00), r.view(np.uint16))


def _kernel(alpha: float, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    out = np.empty(max(x1.size, x2.size), np.uint16)  # flat operands, as the launchers pass them
    ew.axpy(ew.AXPY_F16_ONCE, nb.KIND_F16, np.float32(np.float16(alpha)), x1.view(np.uint16), x2.view(np.uint16), out)
    return out


# powers of two (the route to the fused multiply-add), zero, infinity (an alpha above 65504),
# and alphas whose product with a scalar x2 may or may not be short
@pytest.mark.parametrize("alpha", [2.0, -0.5, 2.0**-24, 32768.0, 0.0, -0.0, np.inf, 1.5, 1.0009765625])
def test_axpy_routes_agree_with_the_specification(alpha: float) -> None:
    """Every half as x1 against scalars x2 (short products and long ones), a row x2, a scalar
    x1 and a same-shape x2 of every half in another order."""
    every = EVERY.view(F16)
    for v in (2.0, 1.5, -3.0, 1.0009765625, 2.0**-24, 65504.0, np.inf, np.nan, 0.0, -0.0):
        x2 = np.array([v], F16)
        np.testing.assert_array_equal(_kernel(alpha, every, x2), _spec(alpha, every, x2), err_msg=f"x2={v}")
        np.testing.assert_array_equal(_kernel(alpha, x2, every), _spec(alpha, x2, every), err_msg=f"x1={v}")
    row = np.roll(every, 777)[:256]  # the launchers pass flat arrays: the row repeats along them
    tiled = np.tile(row, every.size // row.size)
    np.testing.assert_array_equal(_kernel(alpha, every, row), _spec(alpha, every, tiled))
    np.testing.assert_array_equal(_kernel(alpha, row, every), _spec(alpha, tiled, every))
    other = np.roll(every, 12345)
    np.testing.assert_array_equal(_kernel(alpha, every, other), _spec(alpha, every, other))


def test_axpy_large_scalar_call_checks_the_plain_sum_on_every_half() -> None:
    """A call of PLAIN_CHECK_MIN elements or more with a long scalar product checks the plain
    sum on every half first: 3 * 683 = 2049 is a float16 midpoint (2049 + 2^-24 loses the
    2^-24 in float32): the check fails and the rounding to odd runs; 1.7 * 1.7 (as float16)
    passes and the plain loop runs. Either way the large call gives the small call's bits (a
    small call rounds to odd, checked against the specification above), element for element."""
    every = EVERY.view(F16)
    reps = ew.PLAIN_CHECK_MIN // every.size
    big = np.tile(every, reps)
    for alpha, x2, plain in ((3.0, 683.0, False), (1.7, 1.7, True)):
        p = np.float32(np.float16(alpha)) * np.float32(np.float16(x2))
        assert ew._plain_sum_rounds_right(p) == plain
        one = np.array([x2], F16)
        small = _kernel(alpha, every, one)
        np.testing.assert_array_equal(small, _spec(alpha, every, one))
        np.testing.assert_array_equal(_kernel(alpha, big, one), np.tile(small, reps))


def test_axpy_in_place_with_a_power_of_two_alpha() -> None:
    """out is x1 itself (aclnnInplaceAdd): the route stages blocks as the other modes do."""
    every = EVERY.view(F16)
    x1 = np.roll(every, 3).copy()
    want = _spec(2.0, x1, every)
    bits = x1.view(np.uint16)
    ew.axpy(ew.AXPY_F16_ONCE, nb.KIND_F16, np.float32(2.0), bits, every.view(np.uint16), bits)
    np.testing.assert_array_equal(bits, want)


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_hardswish_bfloat16_on_every_half(recipe: str) -> None:
    """The bfloat16 HardSwish loops on every bfloat16 pattern (NaN payloads of both signs,
    infinities, signed zeros, subnormals, the ties of the final rounding), in place too."""
    x = EVERY.view(BF16)
    spec = hard_swish.tbe(x) if recipe == "tbe" else hard_swish.arch35(x)
    with np.errstate(all="ignore"):
        if recipe == "tbe":
            want = np.where(np.isnan(spec), np.float32(np.nan), spec).astype(BF16).view(np.uint16)
            want = np.where(np.isnan(spec), np.uint16(0x7FC0), want)
        else:
            want = hard_swish.narrow_half_away(spec, BF16).view(np.uint16)
    out = np.empty(x.size, np.uint16)
    ew.hardswish(recipe == "arch35", nb.KIND_BF16, EVERY, out)
    np.testing.assert_array_equal(out, want)
    inplace = EVERY.copy()
    ew.hardswish(recipe == "arch35", nb.KIND_BF16, inplace, inplace)
    np.testing.assert_array_equal(inplace, want)
    # an odd length (the last element alone), and operands off 4-byte alignment (element loop)
    ew.hardswish(recipe == "arch35", nb.KIND_BF16, EVERY[:-1], out[:-1])
    np.testing.assert_array_equal(out[:-1], want[:-1])
    ew.hardswish(recipe == "arch35", nb.KIND_BF16, EVERY[1:], out[:-1])
    np.testing.assert_array_equal(out[:-1], want[1:])
