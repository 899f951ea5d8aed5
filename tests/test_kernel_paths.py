"""The numba accelerator is bit-identical to the numpy recipes (the specification)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from helpers import assert_bits_equal

from aclnn_py.kernels import accel
from aclnn_py.kernels import hard_swish_grad as hs
from aclnn_py.kernels import scaled_masked_softmax_grad_v2 as smsb
from aclnn_py.kernels import smooth_l1_loss_grad_v2 as sl1

pytest.importorskip("numba", reason="needs numba, the optional accelerator (pip install numba)")

BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.dtype(np.float32), np.dtype(np.float16), BF16]
EDGE_BITS = {
    4: [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
        0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x3F800000, 0xBF800000, 0x40400000, 0xC0400000],
    2: [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE01,
        0x3C00, 0xBC00, 0x4200, 0xC200],
}  # fmt: skip
BF16_EDGES = [
    0x0000,
    0x8000,
    0x0001,
    0x807F,
    0x0080,
    0x7F7F,
    0xFF7F,
    0x7F80,
    0xFF80,
    0x7FC0,
    0xFFC1,
    0x3F80,
    0xBF80,
    0x4040,
    0xC040,
]


def _values(dtype: np.dtype, n: int, seed: int, scale: float = 4.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    random = (rng.standard_normal(n) * scale).astype(np.float32).astype(dtype)
    if dtype == BF16:
        edges = np.array(BF16_EDGES, np.uint16).view(BF16)
    else:
        edges = np.array(EDGE_BITS[dtype.itemsize], {4: np.uint32, 2: np.uint16}[dtype.itemsize]).view(dtype)
    subnormal = (rng.uniform(-1, 1, 16) * float(np.finfo(np.float32).tiny if dtype == np.float32 else 6e-5)).astype(
        dtype
    )
    return np.concatenate([edges, subnormal, random])[:n]


def _both(monkeypatch, compute, ins, out_dtype, shape):
    results = {}
    for path in ("numpy", "numba"):
        monkeypatch.setenv(accel.ENV_VAR, path)
        out = np.zeros(shape, out_dtype)
        results[path] = (compute(ins, [out]), out)
    assert results["numba"][0] == "numba" and results["numpy"][0] == "numpy"
    return results["numpy"][1], results["numba"][1]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("sigma", [0.0, 1.0, 1.7, 1e-7, 1e-6])
def test_smooth_l1_paths_agree(monkeypatch, dtype, recipe, reduction, sigma):
    p = _values(dtype, 300, 1)
    lab = np.roll(_values(dtype, 300, 2), 3)
    lab[:20] = p[:20]  # x == 0
    lab[20:30] = (p[20:30].astype(np.float32) - np.float32(sigma)).astype(dtype)  # around |x| == sigma
    for d in (_values(dtype, p.size, 3, 1.0), np.array(1.5, dtype)):  # tensor and scalar dout
        compute = sl1.make(recipe, sigma, reduction, p.shape)
        a, b = _both(monkeypatch, compute, [p, lab, d], dtype, p.shape)
        assert_bits_equal(b, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_hardswish_paths_agree(monkeypatch, dtype, recipe):
    x = np.concatenate([_values(dtype, 400, 4), np.array([-3, 3, -2.9999998, 3.0000002], np.float32).astype(dtype)])
    g = _values(dtype, x.size, 5, 1.0)
    a, b = _both(monkeypatch, hs.make(recipe), [g, x], dtype, x.shape)
    assert_bits_equal(b, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("d", [1, 5, 64, 200, 1024, 1025, 3000])
@pytest.mark.parametrize("mask_bn", [(2, 3), (1, 3), (2, 1), (1, 1)])
def test_softmax_grad_paths_agree(monkeypatch, dtype, d, mask_bn):
    rng = np.random.default_rng(d)
    shape = (2, 3, 2, d)
    g = (rng.standard_normal(shape) * 3).astype(np.float32).astype(dtype)
    y = rng.uniform(0, 1, shape).astype(np.float32).astype(dtype)
    g.reshape(-1)[:6] = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40], np.float32).astype(dtype)
    mask = rng.uniform(0, 1, (*mask_bn, 2, d)) < 0.3
    for scale in (1.0, 0.3):
        a, b = _both(monkeypatch, smsb.make(scale), [g, y, mask], dtype, shape)
        assert_bits_equal(b, a)


@pytest.mark.parametrize(
    "arch,d",
    [(a, d) for a in ("v200", "3510") for d in (64, 640, 1024, 1088, 4096, 5000) if a == "3510" or d % 64 == 0],
)
def test_softmax_grad_paths_agree_on_every_architecture(monkeypatch, arch, d):
    rng = np.random.default_rng(d)
    shape = (1, 2, 2, d)
    for dtype in DTYPES:
        g = (rng.standard_normal(shape) * 3).astype(np.float32).astype(dtype)
        y = rng.uniform(0, 1, shape).astype(np.float32).astype(dtype)
        g.reshape(-1)[:5] = np.array([np.inf, 0.0, -0.0, 1e-40, -1e-40], np.float32).astype(dtype)
        mask = rng.uniform(0, 1, (1, 2, 2, d)) < 0.3
        a, b = _both(monkeypatch, smsb.make(0.3, arch), [g, y, mask], dtype, shape)
        assert_bits_equal(b, a)


def test_column_broadcast_falls_back_to_numpy_and_a_row_does_not(monkeypatch):
    """A row broadcast (the operand repeats along the trailing axes) runs compiled; a column
    broadcast ([3, 1] against [3, 4]) takes the numpy path."""
    monkeypatch.setenv(accel.ENV_VAR, "numba")
    p = np.ones((3, 4), np.float32)
    out = np.zeros((3, 4), np.float32)
    launch = sl1.make("tbe", 1.0, "none", (3, 4))
    assert launch([p, np.zeros((3, 1), np.float32), np.ones(1, np.float32)], [out]) == "numpy"
    assert launch([p, np.zeros(4, np.float32), np.ones(1, np.float32)], [out]) == "numba"


def test_path_selection(monkeypatch):
    monkeypatch.setenv(accel.ENV_VAR, "numpy")
    assert accel.backend() == "numpy"
    monkeypatch.setenv(accel.ENV_VAR, "auto")
    assert accel.backend() == "numba"
    monkeypatch.setenv(accel.ENV_VAR, "fast")
    with pytest.raises(ValueError):
        accel.backend()


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_blocks_give_the_same_numbers_as_whole_arrays(monkeypatch, dtype):
    """The numpy path runs large elementwise calls in blocks; the numbers must not change."""
    from aclnn_py.kernels import _fp

    monkeypatch.setattr(_fp, "CHUNK", 1 << 14)  # small blocks: a small test
    n = _fp.CHUNK * 3 + 17
    x = _values(dtype, n, 7)
    g = _values(dtype, n, 8, 1.0)
    monkeypatch.setenv(accel.ENV_VAR, "numpy")
    out = np.zeros(n, dtype)
    assert hs.make("tbe")([g, x], [out]) == "numpy"
    whole = np.zeros(n, dtype)
    _fp.store(whole, hs.tbe(g, x))
    assert_bits_equal(out, whole)
    lab = _values(dtype, n, 9)
    for recipe in ("tbe", "arch35"):
        out = np.zeros(n, dtype)
        assert sl1.make(recipe, 0.7, "mean", (n,))([x, lab, np.array(2.0, dtype)], [out]) == "numpy"
        _fp.store(whole, sl1.RECIPES[recipe](x, lab, np.array(2.0, dtype), 0.7, "mean", (n,)))
        assert_bits_equal(out, whole)


def _f16_narrowers():
    from aclnn_py.kernels import _numba as nb

    paths = {"soft": lambda blk, n, out: nb._narrow_f16_soft(blk, blk.view(np.float32), n, out)}
    if nb.HAVE_F16C:
        paths["f16c"] = lambda blk, n, out: nb._narrow_f16_hw(blk.view(np.float32), n, out)
    return paths


@pytest.mark.parametrize("path", ["soft", "f16c"])
def test_the_float16_rounding_matches_numpy_on_every_tie_pattern(path):
    """numba's float32 -> float16 store (the results' one rounding) against numpy's cast: every
    sign/exponent/top-mantissa pattern, with the dropped bits just below, at and above the tie,
    for the portable branch-free code and the hardware conversion (F16C hosts)."""
    narrow = _f16_narrowers().get(path)
    if narrow is None:
        pytest.skip("needs a CPU with F16C (the x86 half-precision conversion instructions)")
    high = np.arange(1 << 16, dtype=np.uint32) << np.uint32(16)
    low = np.array([0x0000, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x3000, 0xFFFF], np.uint32)
    bits = (high[:, None] | low[None, :]).reshape(-1)
    values = bits.view(np.float32)
    with np.errstate(over="ignore"):
        expected = np.where(np.isnan(values), np.uint16(0x7E00), values.astype(np.float16).view(np.uint16))
    out = np.empty(bits.size, np.uint16)
    for start in range(0, bits.size, 4096):
        count = min(4096, bits.size - start)
        narrow(bits[start : start + count].copy(), count, out[start : start + count])
    assert np.array_equal(out, expected)


@pytest.mark.parametrize("path", ["table", "f16c"])
def test_the_float16_widening_is_exact_for_every_half(path):
    """Every one of the 65536 halves widens to numpy's float32; a NaN stays a NaN of the same
    sign (F16C quietens a signalling NaN, which no result can show: NaN results are canonical)."""
    from aclnn_py.kernels import _numba as nb

    if path == "f16c" and not nb.HAVE_F16C:
        pytest.skip("needs a CPU with F16C (the x86 half-precision conversion instructions)")
    halves = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    out = np.empty(halves.size, np.uint32)
    (nb._widen_f16_hw if path == "f16c" else nb._widen_f16_table)(halves, halves.size, out)
    expected = halves.view(np.float16).astype(np.float32)
    nan = np.isnan(expected)
    assert np.array_equal(out[~nan], expected.view(np.uint32)[~nan])
    assert np.isnan(out[nan].view(np.float32)).all()
    assert np.array_equal(out[nan] >> 31, expected.view(np.uint32)[nan] >> 31)


def test_select_is_np_where_bit_for_bit():
    """The recipes' bit select gives np.where's bits: arrays and scalars, broadcast, 0-d, NaN
    payloads, infinities and signed zeros."""
    from aclnn_py.kernels._fp import select

    rng = np.random.default_rng(5)
    a = rng.integers(0, 2**32, 1000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    b = rng.integers(0, 2**32, 1000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    cond = rng.random(1000) < 0.5
    cases = [
        (cond, a, b),
        (cond, np.float32(-0.0), b),
        (cond, a, np.float32(np.inf)),
        (cond, np.float32(1), np.float32(0)),
        (cond.reshape(10, 100), a[:100], b.reshape(10, 100)),  # broadcast
        (np.array(True), np.float32(2), np.float32(3)),  # 0-d
    ]
    for c, x, y in cases:
        got = select(c, x, y)
        want = np.where(c, x, y).astype(np.float32)
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_the_portable_float16_conversions_run_the_kernels_bit_exactly(tmp_path):
    """On an F16C host the kernels use the hardware conversions; compile them again without
    (ACLNN_PY_F16C=0, a fresh numba cache) and run float16 comparisons in a child: the
    conversions themselves on every half and every tie pattern, and every half to and from every
    float type through the cast kernels. With ACLNN_PY_SLOW_TESTS=1 (``make test-slow``) also TBE
    float16 Axpy's one rounding on every half, every float16 kernel path of this file and the fused
    softmax rows: compiling them all again takes a minute of CPU, too much for ``make test``."""
    import os
    import subprocess
    import sys

    from aclnn_py.kernels import _numba as nb

    if os.environ.get(nb.F16C_ENV_VAR) == "0":
        assert not nb.HAVE_F16C
        pytest.skip("the accelerator already uses the portable float16 conversions here: nothing to compare")
    # the child reads its own summary line: options meant for this run (PYTEST_ADDOPTS: -q, --durations
    # ...) would change it
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    env.update({nb.F16C_ENV_VAR: "0", "NUMBA_CACHE_DIR": str(tmp_path)})
    tests = os.path.dirname(os.path.abspath(__file__))
    here = os.path.join(tests, "test_kernel_paths.py")
    families = os.path.join(tests, "test_kernel_paths_families.py")
    softmax = os.path.join(tests, "test_kernel_paths_softmax.py")
    targets = [
        f"{here}::test_the_float16_rounding_matches_numpy_on_every_tie_pattern",
        f"{here}::test_the_float16_widening_is_exact_for_every_half",
        f"{families}::test_float_cast_paths_agree_on_every_half_and_every_tie[float16]",
    ]
    if os.environ.get("ACLNN_PY_SLOW_TESTS") == "1":
        targets += [
            f"{families}::test_axpy_float16_round_to_odd_on_every_half",
            f"{families}::test_half_maximum_minimum_on_every_half",
            f"{families}::test_half_arithmetic_with_a_scalar_on_every_half",
            here,
            # the fused softmax rows (last axis, both recipes) and the other axes: one compile each
            f"{softmax}::test_softmax_last_axis_every_length[tbe-False-float16]",
            f"{softmax}::test_softmax_last_axis_every_length[arch35-False-float16]",
            f"{softmax}::test_softmax_other_axes[tbe-False-float16]",
        ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *targets,
         "-k", "float16 and not bfloat16 and not portable", "--rootdir", os.path.dirname(tests)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    import re

    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed is not None and int(passed.group(1)) >= len(targets), done.stdout[-3000:]


def test_helpers_without_a_cpython_wrapper_are_called_only_from_jitted_code():
    """``_jit_in`` helpers have no CPython wrapper (a faster compile), and calling one from Python
    crashes the interpreter: no module, test or bench may name one outside jitted code."""
    import ast
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1]
    kernels = root / "aclnn_py" / "kernels"
    modules = sorted(kernels.glob("_numba*.py"))
    inner: set[str] = set()
    python_level: list[tuple[str, ast.FunctionDef]] = []
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                decorators = {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
                # an @overload(...) typing function returns the implementation numba compiles
                decorators |= {
                    d.func.id
                    for d in node.decorator_list
                    if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "overload"
                }
                if "_jit_in" in decorators:
                    inner.add(node.name)
                elif not decorators & {"_jit", "_jit_inline", "intrinsic", "overload"}:
                    python_level.append((path.name, node))
    assert inner, "no _jit_in helper found: the scan is out of date"
    misuse = [
        f"{name}: {node.name} uses {ref.id}"
        for name, node in python_level
        for ref in ast.walk(node)
        if isinstance(ref, ast.Name) and ref.id in inner
    ]
    # the names the code gives these modules (``nb``, ``nb.ew``, ``red`` ...); other modules have
    # numpy functions of the same names (sign._compare_sign)
    aliases = {"nb", "ew", "ex", "red", "smx", "_numba", "_numba_ew", "_numba_exp", "_numba_reduce", "_numba_softmax"}
    others = [p for d in ("aclnn_py", "tests", "bench") for p in (root / d).rglob("*.py") if p not in modules]
    for path in others:
        text = path.read_text(encoding="utf-8")
        if not any(name in text for name in inner):  # most files: nothing to parse
            continue
        for ref in ast.walk(ast.parse(text)):
            if isinstance(ref, ast.Attribute) and ref.attr in inner:
                base = ref.value
                if (isinstance(base, ast.Name) and base.id in aliases) or (
                    isinstance(base, ast.Attribute) and base.attr in aliases
                ):
                    misuse.append(f"{path.relative_to(root)}:{ref.lineno} names {ref.attr}")
            elif isinstance(ref, ast.ImportFrom) and (ref.module or "").split(".")[-1] in aliases:
                misuse += [
                    f"{path.relative_to(root)}:{ref.lineno} imports {a.name}" for a in ref.names if a.name in inner
                ]
    assert misuse == [], "\n".join(misuse)
