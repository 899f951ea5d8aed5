"""The accelerator's kernels for the elementwise, reduction and softmax families are bit-identical
to the numpy recipes (the specification), for every chip recipe, on random data and on the edges:
NaN (payloads too), infinities, signed zeros, subnormals, rounding ties, overflow.

Each test runs one launch computation on both paths (``ACLNN_PY_KERNELS``) and compares the bits;
the path each reports is checked too, so a silent fallback to numpy cannot pass for the
accelerator. Sizes stay small (speed is ``make bench``'s business) but cross the kernels' block
boundaries (4096 elements, 64 lanes, 16-chunk folds)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from helpers import assert_bits_equal

from aclnn_py.dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16
from aclnn_py.kernels import _fp, accel, cast, clamp, compare, div, elementwise, hard_swish, minmax, reduce_sum, sign
from aclnn_py.kernels import scaled_masked_softmax_v2 as smsf
from aclnn_py.kernels import smooth_l1_loss_grad_v2 as sl1b
from aclnn_py.kernels import smooth_l1_loss_v2 as sl1f
from aclnn_py.kernels import softmax as sm

pytest.importorskip("numba", reason="needs numba, the optional accelerator (pip install numba)")

BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
DTYPES = [F32, F16, BF16]
BITS = {F32: np.uint32, F16: np.uint16, BF16: np.uint16}
# signalling and quiet NaNs with payloads, infinities, zeros, subnormals, extremes, ties
EDGES = {
    F32: [0x7FC00000, 0xFFC00001, 0x7F800001, 0xFF812345, 0x7F800000, 0xFF800000, 0x00000000, 0x80000000,
          0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0x3F801000, 0x3F802000,
          0x3F808000, 0x477FE000, 0x477FF000, 0x33800000, 0x33000000, 0x38800000, 0xC0400000, 0x40400000],
    F16: [0x7E00, 0xFE01, 0x7C01, 0xFD23, 0x7C00, 0xFC00, 0x0000, 0x8000, 0x0001, 0x83FF, 0x0400, 0x7BFF,
          0xFBFF, 0x3C00, 0x3C01, 0xBC01, 0x4200, 0xC200, 0x3555, 0x0200],
    BF16: [0x7FC0, 0xFFC1, 0x7F81, 0xFF85, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x0001, 0x807F, 0x0080, 0x7F7F,
           0xFF7F, 0x3F80, 0x3F81, 0xBF81, 0x4040, 0xC040],
}  # fmt: skip


def values(dtype: np.dtype, n: int, seed: int, scale: float = 3.0) -> np.ndarray:
    """Edge bit patterns, subnormals, then random values (float32 rounded to the dtype)."""
    rng = np.random.default_rng(seed)
    edges = np.array(EDGES[dtype], BITS[dtype]).view(dtype)
    tiny = float(np.finfo(np.float32).tiny if dtype == F32 else (6e-5 if dtype == F16 else 1e-38))
    sub = (rng.uniform(-1, 1, 12) * tiny).astype(np.float32).astype(dtype)
    rand = (rng.standard_normal(max(n, 1)) * scale).astype(np.float32).astype(dtype)
    return np.concatenate([edges, sub, rand])[:n]


def both(monkeypatch, compute, ins, out_shape, out_dtype, *, inplace: int | None = None, compiled: bool = True):
    """(numpy result, numba result) of one launch computation; checks the paths they report
    (``compiled``: whether the accelerator takes this layout). ``inplace``: the output is input
    number ``inplace`` (a copy per path)."""
    results = {}
    for path in ("numpy", "numba"):
        monkeypatch.setenv(accel.ENV_VAR, path)
        args = [a if a.base is not None and not a.flags.c_contiguous else a.copy() for a in ins]
        out = args[inplace] if inplace is not None else np.zeros(out_shape, out_dtype)
        took = compute(args, [out])
        assert ("numba" in took) == (path == "numba" and compiled), (path, took)
        results[path] = out
    return results["numpy"], results["numba"]


def agree(monkeypatch, compute, ins, out_shape, out_dtype, **kw) -> None:
    """Both paths give the same bits (BOOL outputs: the same bytes)."""
    a, b = both(monkeypatch, compute, ins, out_shape, out_dtype, **kw)
    if a.dtype == np.bool_:  # the bytes
        assert np.array_equal(b.view(np.uint8), a.view(np.uint8))
    else:
        assert_bits_equal(b, a)


def ties(dtype: np.dtype, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs whose float32 sums, differences, products and quotients often land on or
    near a rounding tie of the dtype (mantissas with few bits, one bit apart)."""
    rng = np.random.default_rng(seed)
    keep = {F32: 24, F16: 11, BF16: 8}[dtype]
    m = rng.integers(1 << (keep - 1), 1 << keep, n).astype(np.float64)
    e = rng.integers(-6, 7, n).astype(np.float64)
    a = (m * 2.0 ** (e - keep + 1)) * rng.choice([-1.0, 1.0], n)
    b = (1.0 + 2.0 ** -rng.integers(1, keep + 2, n)) * 2.0 ** rng.integers(-keep - 2, 3, n)
    return a.astype(np.float32).astype(dtype), b.astype(np.float32).astype(dtype)


# -- Add, Sub, Mul, RealDiv ----------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_arithmetic_paths_agree(monkeypatch, dtype, recipe):
    n = 4100  # a scalar operand runs in blocks of 4096
    a, b = values(dtype, n, 1), np.roll(values(dtype, n, 2), 7)
    ta, tb = ties(dtype, n, 3)
    s = np.array(values(dtype, 40, 4)[30], dtype)
    kernels = {
        "add": elementwise.add(recipe),
        "sub": elementwise.sub(recipe),
        "mul": elementwise.mul(recipe),
        "div": div.real_div(recipe),
    }
    for compute in kernels.values():
        for x, y in ((a, b), (ta, tb), (a, s), (s, b), (a[:1], b[:1])):
            shape = x.shape if x.size >= y.size else y.shape
            agree(monkeypatch, compute, [x, y], shape, dtype)
        agree(monkeypatch, compute, [a, b], a.shape, dtype, inplace=0)  # aclnnInplaceAdd & co.
    # every scalar special value against every edge value (the ftz and NaN rules)
    edges = np.array(EDGES[dtype], BITS[dtype]).view(dtype)
    for v in edges:
        for compute in kernels.values():
            agree(monkeypatch, compute, [edges, np.array(v, dtype)], edges.shape, dtype)


@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_half_divided_by_a_float32_scalar_agrees(monkeypatch, dtype, recipe):
    """Divs of a half tensor keeps its scalar in float32 (RealDiv of mixed dtypes)."""
    x = values(dtype, 4100, 24)
    scalars = np.array(EDGES[F32], np.uint32).view(np.float32)
    for v in (*scalars, np.float32(0.1), np.float32(3.0), np.float32(1e-40), np.float32(-7.5e-39)):
        with np.errstate(all="ignore"):
            agree(monkeypatch, div.real_div(recipe), [x, np.array(v, np.float32)], x.shape, dtype)


def test_arch35_division_flushes_subnormals_on_both_paths(monkeypatch):
    tiny = np.float32(np.finfo(np.float32).tiny)
    x = np.array([tiny / 4, -tiny / 4, 1.0, tiny * 3, 1.0], np.float32)
    y = np.array([1.0, 1.0, tiny / 2, 4.0, 1e38], np.float32)
    a, b = both(monkeypatch, div.real_div("arch35"), [x, y], x.shape, F32)
    assert_bits_equal(b, a)
    assert np.signbit(b[1]) and b[0] == 0 and np.isinf(b[2]) and b[4] == 0  # flushed operands, result


# -- comparisons ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_comparison_paths_agree(monkeypatch, dtype):
    n = 4100
    a = values(dtype, n, 5)
    b = a.copy()
    b[n // 2 :] = values(dtype, n - n // 2, 6)  # equal halves, then random pairs
    edges = np.array(EDGES[dtype], BITS[dtype]).view(dtype)
    ex, ey = np.repeat(edges, edges.size), np.tile(edges, edges.size)  # every pair of edges
    for op in compare.OPS:
        compute = compare.make(op)
        for x, y in ((a, b), (ex, ey), (a, b[3:4].reshape(())), (a[5:6].reshape(()), b)):
            shape = x.shape if x.size >= y.size else y.shape
            agree(monkeypatch, compute, [x, y], shape, np.bool_)


# -- every layout of the two-operand kernels --------------------------------------------------------

# (rows, columns): rows shorter than a 4096 block (repeated into one) and longer (one row a block)
LAYOUT_SHAPES = [(70, 123), (3, 5000)]


def layouts(dtype: np.dtype, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(x, y) operand pairs of every layout: same shape, a scalar operand either side,
    a row broadcast either side (as [C] and [1, C]), and strided views (gathered, then compiled;
    a strided output takes the numpy path: ``strided_output``)."""
    cases = []
    for r, c in LAYOUT_SHAPES:
        x = values(dtype, r * c, seed).reshape(r, c)
        y = np.roll(values(dtype, r * c, seed + 1), 13).reshape(r, c)
        row = y[r // 2].copy()
        wide = values(dtype, r * c * 2, seed + 2).reshape(r, 2 * c)
        cases += [
            (x, y), (x, np.array(y[1, 2], dtype)), (np.array(x[2, 1], dtype), y),
            (x, row), (row.reshape(1, c), y), (x, wide[:, ::2]), (wide[:, 1::2], y),
        ]  # fmt: skip
    return cases


def out_shape_of(x: np.ndarray, y: np.ndarray) -> tuple[int, ...]:
    return np.broadcast_shapes(x.shape, y.shape)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_two_operand_kernels_agree_on_every_layout(monkeypatch, dtype):
    kernels = [elementwise.add("tbe"), elementwise.sub("arch35"), elementwise.mul("tbe"), div.real_div("tbe"),
               div.real_div("arch35"), minmax.maxmin(True), minmax.maxmin(False), elementwise.axpy("tbe", 1.7),
               elementwise.axpy("arch35", -0.3)]  # fmt: skip
    for x, y in layouts(dtype, 30):
        for compute in kernels:
            agree(monkeypatch, compute, [x, y], out_shape_of(x, y), dtype)
            if x.shape == out_shape_of(x, y) and x.flags.c_contiguous:  # in place (aclnnInplaceAdd & co.)
                agree(monkeypatch, compute, [x, y], x.shape, dtype, inplace=0)
            if y.shape == out_shape_of(x, y) and y.flags.c_contiguous:
                agree(monkeypatch, compute, [x, y], y.shape, dtype, inplace=1)
        for op in ("Equal", "Greater", "LessEqual"):
            agree(monkeypatch, compare.make(op), [x, y], out_shape_of(x, y), np.bool_)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_smooth_l1_backward_agrees_on_every_layout(monkeypatch, dtype, recipe):
    """SmoothL1LossGradV2 (three operands): each one a scalar or a row, or strided."""
    for x, y in layouts(dtype, 40):
        shape = out_shape_of(x, y)
        g = values(dtype, int(np.prod(shape)), 41, 1.0).reshape(shape)
        for reduction in ("none", "mean"):
            compute = sl1b.make(recipe, 1.0, reduction, shape)
            agree(monkeypatch, compute, [x, y, g], shape, dtype)
            agree(monkeypatch, compute, [g, x, y], shape, dtype)  # dout broadcast
    p = values(dtype, 900, 42).reshape(30, 30)
    for d in (np.array(0.5, dtype), values(dtype, 30, 43)):
        agree(monkeypatch, sl1b.make(recipe, 1.0, "sum", p.shape), [p, p[::-1].copy(), d], p.shape, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_strided_output_takes_the_numpy_path(monkeypatch, dtype):
    x, y = values(dtype, 600, 50).reshape(20, 30), values(dtype, 600, 51).reshape(20, 30)
    results = []
    for path in ("numpy", "numba"):
        monkeypatch.setenv(accel.ENV_VAR, path)
        wide = np.zeros((20, 60), dtype)
        assert elementwise.add("tbe")([x, y], [wide[:, ::2]]) == "numpy"
        results.append(wide)
    assert_bits_equal(results[1], results[0])


def test_small_calls_import_no_accelerator_under_auto(monkeypatch):
    """Under ``auto`` a call below LAZY_MIN_ELEMENTS does not import numba (it takes numpy);
    the first call of LAZY_MIN_ELEMENTS does, and from then on small calls take it too;
    ``numba`` asks for the accelerator whatever the size."""
    import os
    import subprocess
    import sys

    code = (
        "import sys, numpy as np\n"
        "from aclnn_py.kernels import accel, elementwise\n"
        "a = np.ones(8, np.float32)\n"
        "add = elementwise.add('tbe')\n"
        "print(add([a, a], [np.zeros(8, np.float32)]), 'numba' in sys.modules)\n"
        "big = np.ones(accel.LAZY_MIN_ELEMENTS, np.float32)\n"
        "print(add([big, big], [np.zeros_like(big)]), 'numba' in sys.modules)\n"
        "print(add([a, a], [np.zeros(8, np.float32)]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != accel.ENV_VAR}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.stdout.split("\n")[:3] == ["numpy False", "numba True", "numba"], done.stderr
    monkeypatch.setenv(accel.ENV_VAR, "numba")
    assert elementwise.add("tbe")([np.ones(8, np.float32)] * 2, [np.zeros(8, np.float32)]) == "numba"


# -- Maximum / Minimum ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_maximum_minimum_paths_agree(monkeypatch, dtype):
    n = 4100
    a, b = values(dtype, n, 7), np.roll(values(dtype, n, 8), 11)
    edges = np.array(EDGES[dtype], BITS[dtype]).view(dtype)
    ex, ey = np.repeat(edges, edges.size), np.tile(edges, edges.size)  # (-0, +0), (NaN, x) ...
    for is_max in (True, False):
        compute = minmax.maxmin(is_max)
        for x, y in ((a, b), (ex, ey), (a, np.array(0, dtype)), (np.array(-0.0, dtype), a)):
            shape = x.shape if x.size >= y.size else y.shape
            agree(monkeypatch, compute, [x, y], shape, dtype)


@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
def test_half_arithmetic_with_a_scalar_on_every_half(monkeypatch, dtype):
    """The half types' Add, Sub, Mul and Div with a single-element operand hold it in a register
    (Sub as an addition of the negated operand, Div through the float32-divisor loop): every half
    (NaN payloads, infinities, both zeros, subnormals) against each edge value and a few ties as
    the scalar, on either side, both recipes: both paths give the same bits."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype)
    scalars = np.concatenate([np.array(EDGES[dtype], BITS[dtype]).view(dtype), ties(dtype, 6, 5)[0]])
    kernels = [elementwise.add("tbe"), elementwise.sub("tbe"), elementwise.sub("arch35"), elementwise.mul("tbe"),
               div.real_div("tbe"), div.real_div("arch35")]  # fmt: skip
    with np.errstate(all="ignore"):
        for v in scalars:
            one = np.array(v, dtype)
            for compute in kernels:
                agree(monkeypatch, compute, [every, one], every.shape, dtype)
                agree(monkeypatch, compute, [one, every], every.shape, dtype)


@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
def test_half_maximum_minimum_on_every_half(monkeypatch, dtype):
    """The half types' Maximum/Minimum compare sign-and-magnitude bits as integers: every half
    (NaN payloads, infinities, both zeros, subnormals) against every half shifted, and against
    each edge value as the other operand (a scalar, either side, and a row): both paths give
    the same bits. Signalling NaNs made quiet (see test_broadcast_operands_of_edge_values_agree)."""
    with np.errstate(all="ignore"):
        every = _quiet(np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype))
        edges = _quiet(np.array(EDGES[dtype], BITS[dtype]).view(dtype))
    for is_max in (True, False):
        compute = minmax.maxmin(is_max)
        for k in (1, 4097, 32768):
            agree(monkeypatch, compute, [every, np.roll(every, k)], every.shape, dtype)
        for v in edges:
            one = np.array(v, dtype)
            agree(monkeypatch, compute, [every, one], every.shape, dtype)
            agree(monkeypatch, compute, [one, every], every.shape, dtype)
        full = every[: (every.size // edges.size) * edges.size].reshape(-1, edges.size)
        agree(monkeypatch, compute, [full, edges], full.shape, dtype)
        agree(monkeypatch, compute, [edges, full], full.shape, dtype)


# -- Axpy (Add and Sub with alpha): the fused multiply-add -------------------------------------------


def _axpy_hard_cases(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray, float]:
    """x1, x2 and an alpha where one rounding differs from two: for float16 (TBE's one rounding)
    the float32 sum is inexact and a float16 tie; for float32 the product's low bits decide."""
    if dtype == F16:  # 1.5 * 683 = 1024.5, a float16 tie; +-2^-20 decides which way
        x2 = np.array([683, 683, -683, 683, 1365, 45, 1], np.float32)
        x1 = np.array([2**-20, -(2**-20), 2**-20, 0.0, 2**-24, 2**-18, 65504], np.float32)
        return x1.astype(dtype), x2.astype(dtype), 1.5
    eps = 2.0**-12
    x2 = np.array([1 + eps, 1 - eps, 3.0, 2**-130, 3e38, -(1 + eps)], np.float32)
    x1 = np.array([-1.0, -1.0, 2**-23, 2**-149, 3e38, 1.0], np.float32)
    return x1.astype(dtype), x2.astype(dtype), 1 + eps


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_axpy_paths_agree(monkeypatch, dtype, recipe):
    n = 4100
    x1, x2 = values(dtype, n, 9), np.roll(values(dtype, n, 10), 5)
    t1, t2 = ties(dtype, n, 11)
    h1, h2, h_alpha = _axpy_hard_cases(dtype)
    for alpha in (1.7, 2.0, -0.3, 1e-3, 3.0e4, 1e-30, h_alpha):
        compute = elementwise.axpy(recipe, alpha)
        for p, q in ((x1, x2), (t1, t2), (h1, h2), (x1, x2[:1].reshape(())), (x1[:1].reshape(()), x2)):
            shape = p.shape if p.size >= q.size else q.shape
            agree(monkeypatch, compute, [p, q], shape, dtype)


def test_axpy_float16_one_rounding_on_every_half(monkeypatch):
    """TBE float16 Axpy rounds alpha * x2 + x1 once: the compiled path takes the float32 fused
    multiply-add and redoes only float16 midpoints and the ends of the range. Every half as x2,
    against x1 of every half (shifted), of ones and of the smallest subnormal."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(F16)
    for x1 in (np.roll(every, 12345), np.ones_like(every), np.full_like(every, 2.0**-24)):
        for alpha in (1.5, -0.3, 1e-3, 3.0e4, 1.0009765625):
            with np.errstate(all="ignore"):
                agree(monkeypatch, elementwise.axpy("tbe", alpha), [x1, every], every.shape, F16)


def _axpy_once_spec(alpha: np.float16, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """The float16 bits the specification gives for TBE float16 Axpy (elementwise.fma in float64,
    rounded to odd, then once to float16; NaN canonical as the store writes it)."""
    with np.errstate(all="ignore"):
        r = elementwise.fma(np.full((), alpha, F16), x2, x1, F16)
    return np.where(np.isnan(r), np.uint16(0x7E00), r.view(np.uint16))


def _axpy_once_kernel(alpha: np.float16, x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    from aclnn_py.kernels import _numba as nb

    out = np.empty(np.broadcast_shapes(x1.shape, x2.shape), np.uint16)
    nb.ew.axpy(nb.ew.AXPY_F16_ONCE, nb.KIND_F16, np.float32(alpha), x1.view(np.uint16), x2.view(np.uint16), out)
    return out


# alphas after TBE's rounding to float16: ties-prone (1.5, 1 + 2^-10), small, large, subnormal,
# the largest half, infinity (a float alpha above 65504 rounds to it)
_ONCE_ALPHAS = [1.5, -0.3, 1e-3, 3.0e4, 1.0009765625, -(2.0**-24), 65504.0, np.inf, 2.0, -1.0]


def test_axpy_float16_round_to_odd_on_every_half():
    """The compiled TBE float16 Axpy (float32 sum rounded to odd, then one rounding to float16)
    against the float64 specification: every float16 as x2 (NaN payloads, infinities, zeros,
    subnormals) with x1 every half (in four shifts), the tiniest subnormals of both signs (the
    sums that sit next to a float16 midpoint), ones, the largest half, for every alpha above;
    and the constants as a single-element operand on either side."""
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(F16)
    partners = [np.roll(every, k) for k in (1, 12345, 32768, 54321)]
    partners += [np.full_like(every, v) for v in (2.0**-24, -(2.0**-24), 1.0, -1.0, 65504.0, -(2.0**-14), 0.0, -0.0)]
    for alpha in _ONCE_ALPHAS:
        a16 = np.float16(alpha)
        for x1 in partners:
            np.testing.assert_array_equal(_axpy_once_kernel(a16, x1, every), _axpy_once_spec(a16, x1, every))
            np.testing.assert_array_equal(_axpy_once_kernel(a16, every, x1), _axpy_once_spec(a16, every, x1))
        for v in partners[4:]:  # a single-element operand (hoisted out of the loop), either side
            one = v[:1]
            np.testing.assert_array_equal(_axpy_once_kernel(a16, one, every), _axpy_once_spec(a16, one, every))
            np.testing.assert_array_equal(_axpy_once_kernel(a16, every, one), _axpy_once_spec(a16, every, one))


def test_axpy_float16_round_to_odd_on_random_pairs_and_midpoints():
    """Millions of random bit pairs (every exponent equally likely), and pairs built so that
    alpha * x2 is a float16 midpoint and x1 pushes the exact sum just off it either way, or
    cancels most of it (the cases a wrong rounding of the float32 sum would get wrong)."""
    rng = np.random.default_rng(2026)
    n = 1 << 21
    for alpha in _ONCE_ALPHAS[:6]:
        a16 = np.float16(alpha)
        x1 = rng.integers(0, 1 << 16, n, dtype=np.uint32).astype(np.uint16).view(F16)
        x2 = rng.integers(0, 1 << 16, n, dtype=np.uint32).astype(np.uint16).view(F16)
        np.testing.assert_array_equal(_axpy_once_kernel(a16, x1, x2), _axpy_once_spec(a16, x1, x2))
    # 1.5 * (odd integer) is a multiple of 0.5 with an odd last bit: a float16 midpoint above 1024
    x2 = np.arange(683, 2048, 2, dtype=np.float32).astype(F16)
    tiny = np.array([2.0**-24, -(2.0**-24), 2.0**-14, -(2.0**-14), 2.0**-10, -(2.0**-10), 0.25, -0.25], F16)
    x2s, x1s = np.repeat(x2, tiny.size), np.tile(tiny, x2.size)
    np.testing.assert_array_equal(
        _axpy_once_kernel(np.float16(1.5), x1s, x2s), _axpy_once_spec(np.float16(1.5), x1s, x2s)
    )
    # cancellation: x1 close to -alpha * x2 (the sum's low bits decide everything)
    x2 = rng.standard_normal(n).astype(F16)
    x1 = (-(x2.astype(np.float32) * np.float32(np.float16(1.7))) * (1 + rng.integers(-8, 9, n) * 2.0**-11)).astype(F16)
    np.testing.assert_array_equal(_axpy_once_kernel(np.float16(1.7), x1, x2), _axpy_once_spec(np.float16(1.7), x1, x2))


def _edge_layouts(dtype: np.dtype, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """A full operand of edge values, rounding ties and random values against every edge value
    as a scalar (either side) and against a row of edge values (either side, [C] and [1, C]):
    the broadcast operand repeated into a block (``_numba.tile``)."""
    edges = np.array(EDGES[dtype], BITS[dtype]).view(dtype)
    c = edges.size
    t1, t2 = ties(dtype, 40 * c, seed)
    full = np.concatenate([np.tile(edges, 10), t1, values(dtype, 200 * c, seed + 1)])
    full = full[: (full.size // c) * c].reshape(-1, c)
    cases = []
    for v in edges:
        cases += [(full, np.array(v, dtype)), (np.array(v, dtype), full)]
    cases += [(full, edges), (edges.reshape(1, c), full), (full, t2[:c]), (t2[:c], full)]
    return cases


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_broadcast_operands_of_edge_values_agree(monkeypatch, dtype):
    """Every edge value (NaN payloads, infinities, signed zeros, subnormals, extremes) as the
    scalar or row operand of Add, Sub, Mul, Div (both recipes), the comparisons, Axpy (TBE's
    one rounding for float16, float32 then the half type otherwise), Maximum and Minimum, on
    either side and in place: both paths give the same bits."""
    kernels = [elementwise.add("tbe"), elementwise.sub("arch35"), elementwise.mul("tbe"), div.real_div("tbe"),
               div.real_div("arch35"), elementwise.axpy("tbe", 1.5), elementwise.axpy("arch35", -0.3),
               elementwise.axpy("tbe", 3.0e4), minmax.maxmin(True), minmax.maxmin(False)]  # fmt: skip
    with np.errstate(all="ignore"):
        for x, y in _edge_layouts(dtype, 60):
            shape = out_shape_of(x, y)
            for compute in kernels[:8]:
                agree(monkeypatch, compute, [x, y], shape, dtype)
            full = 0 if x.shape == shape else 1
            agree(monkeypatch, kernels[0], [x, y], shape, dtype, inplace=full)
            agree(monkeypatch, kernels[5], [x, y], shape, dtype, inplace=full)
            # Maximum/Minimum with quiet NaNs only: the numpy recipe's np.fmax/np.fmin answer a
            # signalling NaN by the element's place (its SIMD body lets the number win, the
            # scalar tail, C's fmax, returns NaN), so the specification itself is not settled there
            qx, qy = _quiet(x), _quiet(y)
            for compute in kernels[8:]:
                agree(monkeypatch, compute, [qx, qy], shape, dtype)
                agree(monkeypatch, compute, [qx, qy], shape, dtype, inplace=full)
            for op in compare.OPS:
                agree(monkeypatch, compare.make(op), [x, y], shape, np.bool_)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_smooth_l1_backward_broadcast_edge_values_agree(monkeypatch, dtype):
    """SmoothL1LossGradV2 (TBE): every edge value as a scalar or row label or predict, against
    edge values, ties and random values, for a positive sigma (the shorter loop, and a broadcast
    label widened once per call), a zero and a negative one (the recipe's own operations), and
    one that makes |x| == sigma exact for many pairs; none and mean."""
    with np.errstate(all="ignore"):
        for x, y in _edge_layouts(dtype, 70):
            shape = out_shape_of(x, y)
            g = values(dtype, int(np.prod(shape)), 71, 1.0).reshape(shape)
            for sigma in (1.0, 0.5, 0.0, -1.0, 3.0e-5):
                for reduction in ("none", "mean"):
                    agree(monkeypatch, sl1b.make("tbe", sigma, reduction, shape), [x, y, g], shape, dtype)


def _quiet(a: np.ndarray) -> np.ndarray:
    """``a`` with every signalling NaN made quiet (the quiet bit set, sign and payload kept)."""
    bits = a.view(BITS[a.dtype]).copy()
    quiet = {F32: 0x00400000, F16: 0x0200, BF16: 0x0040}[a.dtype]
    bits[np.isnan(a)] |= BITS[a.dtype](quiet)
    return bits.view(a.dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_axpy_v2_paths_agree(monkeypatch, dtype):
    """Ascend950's AxpyV2 (alpha a tensor; the compiled path takes a one-element alpha)."""
    x1, x2 = values(dtype, 300, 12), values(dtype, 300, 13)
    h1, h2, h_alpha = _axpy_hard_cases(dtype)
    for alpha in (1.7, -2.5, h_alpha):
        al = np.array(alpha, np.float32).astype(dtype)
        agree(monkeypatch, elementwise.axpy_v2(), [x1, x2, al], x1.shape, dtype)
        agree(monkeypatch, elementwise.axpy_v2(), [h1, h2, al], h1.shape, dtype)


# -- Cast between float types -----------------------------------------------------------------------

_DT = {F32: DT_FLOAT, F16: DT_FLOAT16, BF16: DT_BF16}


@pytest.mark.parametrize("src", DTYPES, ids=str)
def test_float_cast_paths_agree_on_every_half_and_every_tie(monkeypatch, src):
    """Every float16 and bfloat16 value (NaN payloads included) and every float32 pattern of the
    16 high bits with the dropped bits below, at and above each tie, to every other float type."""
    if src == F32:
        high = np.arange(1 << 16, dtype=np.uint32) << np.uint32(16)
        low = np.array([0x0000, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x7FFF, 0x8000, 0x8001, 0xFFFF], np.uint32)
        x = (high[:, None] | low[None, :]).reshape(-1).view(np.float32)
    else:
        x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(src)
    for dst in DTYPES:
        if dst != src:
            with np.errstate(all="ignore"):
                agree(monkeypatch, cast.make(_DT[src], _DT[dst], "tbe-v220"), [x], x.shape, dst)


# -- Sign, Clamp, HardSwish, SmoothL1LossV2 ------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["v220", "v200", "v100", "arch35"])
def test_sign_paths_agree(monkeypatch, dtype, recipe):
    x = values(dtype, 600, 14)
    agree(monkeypatch, sign.make(recipe), [x], x.shape, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_clamp_paths_agree(monkeypatch, dtype):
    x = values(dtype, 700, 15)
    nan = np.nan
    for lo, hi in ((-1.0, 2.0), (0.0, 1.0), (-0.0, 0.0), (-1.0, -0.0), (nan, 1.0), (1.0, nan), (3.0, -3.0),
                   (-np.inf, np.inf), (1e-40, 5.0)):  # fmt: skip
        bounds = [np.array(lo, np.float32).astype(dtype), np.array(hi, np.float32).astype(dtype)]
        agree(monkeypatch, clamp.aicore(), [x, *bounds], x.shape, dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_hardswish_paths_agree(monkeypatch, dtype, recipe):
    x = np.concatenate([values(dtype, 700, 16, 5.0), np.array([-3, 3, -2.9999998, 3.0000002, 6, -6], dtype)])
    agree(monkeypatch, hard_swish.make(recipe), [x], x.shape, dtype)
    big = np.concatenate([x] * 7)  # in place (aclnnInplaceHardswish), across blocks of 4096
    agree(monkeypatch, hard_swish.make(recipe), [big], big.shape, dtype, inplace=0)


@pytest.mark.parametrize("dtype", [F16, BF16], ids=str)
def test_half_away_rounding_matches_numpy_on_every_tie_pattern(dtype):
    """Ascend950 HardSwish's store (ties away from zero) against the numpy recipe: every pattern
    of the 16 high bits with the dropped bits just below, at and above the ties."""
    from aclnn_py.kernels import _numba as nb

    high = np.arange(1 << 16, dtype=np.uint32) << np.uint32(16)
    low = np.array([0x0000, 0x0FFF, 0x1000, 0x1001, 0x7FFF, 0x8000, 0x8001], np.uint32)
    r = (high[:, None] | low[None, :]).reshape(-1).view(np.float32)
    got = np.empty(r.size, np.uint16)
    nb.ew.narrow_half_away(1 if dtype == F16 else 2, r, got)
    assert_bits_equal(got.view(dtype), hard_swish.narrow_half_away(r, dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_smooth_l1_loss_paths_agree(monkeypatch, dtype, recipe):
    for n in (1, 7, 24, 64, 300, 4500):  # the Ascend950 sum's branches: one element, blocks, folds
        p = values(dtype, n, 17)
        lab = np.roll(values(dtype, n, 18), 3)
        for sigma in (0.0, 1.0, 1e-7, 2.5):
            for reduction in ("none", "mean", "sum"):
                shape = p.shape if reduction == "none" else ()
                agree(monkeypatch, sl1f.make(recipe, sigma, reduction, p.shape), [p, lab], shape, dtype)


# -- ReduceSum -----------------------------------------------------------------------------------------

# (shape, axes): AR rows of every length class (1, <= 64 in 8-blocks, folds of 16 chunks twice),
# RA / ARA with the 16-row folds (33..64 columns) and without, several reduced axes, size-1 axes
REDUCE_CASES = [
    ((4, 5), (1,)), ((3, 13), (1,)), ((3, 24), (1,)), ((3, 40), (1,)), ((2, 65), (1,)),
    ((2, 1500), (1,)), ((2, 17000), (1,)), ((300, 7), (0,)), ((40, 33), (0,)), ((300, 48), (0,)),
    ((17, 1100), (0,)), ((3, 50, 40), (1,)), ((2, 3, 4, 5), (1, 2)), ((3, 1, 4, 6), (1, 2)),
    ((6,), (0,)), ((2, 3, 70), (1, 2)),
]  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_reduce_sum_paths_agree(monkeypatch, dtype, recipe):
    rng = np.random.default_rng(19)
    for shape, axes in REDUCE_CASES:
        x = (rng.standard_normal(shape) * 3).astype(np.float32)
        x.reshape(-1)[: min(x.size, 4)] = [-0.0, 1e-40, 2.0**-130, 7.0][: min(x.size, 4)]
        x = x.astype(dtype)
        out_shape = tuple(d for i, d in enumerate(shape) if i not in axes)
        agree(monkeypatch, reduce_sum.make(recipe, axes, False), [x], out_shape, dtype)
    # all -0.0 (the +0.0 padding and lanes decide the zero's sign), infinities and NaN
    for fill in (-0.0, np.inf, np.nan):
        x = np.full((3, 70), fill, np.float32).astype(dtype)
        x[1, 5] = -np.inf
        for axes in ((1,), (0,)):
            out_shape = (3,) if axes == (1,) else (70,)
            agree(monkeypatch, reduce_sum.make(recipe, axes, False), [x], out_shape, dtype)


# -- SoftmaxV2 -----------------------------------------------------------------------------------------

SOFTMAX_CASES = [
    ((6, 2), 1), ((300, 7), 1), ((30, 16), 1), ((6, 17), 1), ((4, 100), 1), ((3, 128), 1), ((3, 129), 1),
    ((3, 1000), 1), ((2, 20000), 1), ((9, 5, 40), 1), ((40, 6), 0), ((3, 9, 5), 1), ((2, 3, 7), 1),
    ((2, 2, 3), 1), ((5, 4, 2), 1), ((2, 20, 3), 1),
]  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe,reciprocal", [("tbe", False), ("tbe", True), ("arch35", False)])
def test_softmax_paths_agree(monkeypatch, dtype, recipe, reciprocal):
    """Every Ascend950 template (small R, full load, recompute, ARA) and the TBE lanes, last and
    inner axes; the exponential is numpy's on both paths (the compiled path runs numpy's exp
    algorithm compiled in, checked against np.exp once per process, or np.exp on blocks where
    they differ: the same bits wherever an element sits in the array)."""
    rng = np.random.default_rng(20)
    for shape, axis in SOFTMAX_CASES:
        x = (rng.standard_normal(shape) * 4).astype(np.float32)
        x.reshape(-1)[:4] = [-0.0, 1e-40, 80.0, -80.0]
        x = x.astype(dtype)
        agree(monkeypatch, sm.make(recipe, axis, reciprocal), [x], shape, dtype)
    x = np.array([[1.0, np.inf, 2.0], [np.nan, 1.0, 0.0], [-np.inf, -np.inf, 0.0], [-np.inf] * 3], np.float32)
    agree(monkeypatch, sm.make(recipe, 1, reciprocal), [x.astype(dtype)], x.shape, dtype)


# -- ScaledMaskedSoftmaxV2 --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("arch", ["v220", "3510"])
def test_scaled_masked_softmax_paths_agree(monkeypatch, dtype, arch):
    rng = np.random.default_rng(21)
    for d, mask_bn in ((5, (1, 3)), (64, (2, 3)), (100, (2, 1)), (512, (1, 1)), (600, (2, 3)), (1030, (1, 3))):
        shape = (2, 3, 2, d)
        x = (rng.standard_normal(shape) * 4).astype(np.float32)
        x.reshape(-1)[:4] = [np.nan, np.inf, -0.0, 1e-40]
        x = x.astype(dtype)
        mask = rng.uniform(0, 1, (*mask_bn, 2, d)) < 0.3
        for scale in (1.0, 0.3):
            agree(monkeypatch, smsf.make(scale, arch), [x, mask], shape, dtype)


# -- the numpy path's blocks ------------------------------------------------------------------------


def test_the_numpy_blocks_give_the_numbers_of_whole_arrays(monkeypatch):
    """The numpy path now runs these float32 recipes in blocks written straight into the output;
    the numbers are those of the whole-array formulas."""
    monkeypatch.setenv(accel.ENV_VAR, "numpy")
    for module in (_fp, elementwise, minmax, sign):  # small blocks: a small test
        monkeypatch.setattr(module, "CHUNK", 1 << 14)
    n = _fp.CHUNK * 2 + 17
    a, b = values(F32, n, 22), np.roll(values(F32, n, 23), 9)
    b[100:110] = -a[100:110]  # exact zeros of both signs
    with np.errstate(all="ignore"):
        whole = {
            "add": np.add(a, b),
            "max": minmax._float_maxmin(a, b, True),
            "min": minmax._float_maxmin(a, b, False),
            "sign": sign._compare_sign(a).astype(np.float32),
            "clamp": clamp._recipe(a, np.array(-1.5, np.float32), np.array(2.5, np.float32)),
        }
    runs = {
        "add": (elementwise.add("tbe"), [a, b]),
        "max": (minmax.maxmin(True), [a, b]),
        "min": (minmax.maxmin(False), [a, b]),
        "sign": (sign.make("v220"), [a]),
        "clamp": (clamp.aicore(), [a, np.array(-1.5, np.float32), np.array(2.5, np.float32)]),
    }
    for name, (compute, ins) in runs.items():
        out = np.zeros(n, np.float32)
        assert compute(ins, [out]) == "numpy"
        expected = np.zeros(n, np.float32)
        _fp.store(expected, whole[name])
        assert_bits_equal(out, expected)


def test_overlapping_output_takes_the_numpy_path(monkeypatch):
    """An output that overlaps an input other than exactly is left to numpy (whole arrays)."""
    monkeypatch.setenv(accel.ENV_VAR, "numba")
    buf = np.arange(20, dtype=np.float32)
    assert elementwise.add("tbe")([buf[:10], buf[2:12]], [buf[1:11]]) == "numpy"
    assert elementwise.add("tbe")([buf[:10], buf[10:]], [buf[:10]]) == "numba"  # in place: fine
