"""SmoothL1LossGradV2's and SmoothL1LossV2's fast numpy forms give the general recipes' bits.

Each fast form (chosen once per launch from the scalars) is compared with the unchanged general
recipe, run on the whole arrays and stored as before, on arrays holding every special value:
+-0, +-inf, NaNs (quiet, signalling, with payloads, both signs), subnormals, x exactly at
+-sigma and one ulp either side (and at the TBE divisor sigma + 1e-6), and random normals; for
sigma in {0, -0, tiny, 1e-6, 1, huge, inf, nan, negative, ...}, both recipes, every reduction,
tensor and scalar dout, and the broadcast and strided layouts the blocks cut."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from helpers import float32_specials

from aclnn_py.kernels import _fp, accel
from aclnn_py.kernels import smooth_l1_loss_grad_v2 as sl1b
from aclnn_py.kernels import smooth_l1_loss_v2 as sl1f

F32 = np.float32
SPECIALS = float32_specials()
SIGMAS = [0.0, -0.0, 1e-45, 1e-7, 1e-6, 1e-3, 0.5, 1.0, 1.7, 2.0, 3.0, 1e30, 3.4e38, np.inf, np.nan, -1.0]


@pytest.fixture(autouse=True)
def _numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(accel.ENV_VAR, "numpy")


def _around(v: float) -> list[np.float32]:
    """v as a float32 and its neighbours, both signs."""
    f = F32(v)
    out = []
    for a in (np.nextafter(f, F32(-np.inf)), f, np.nextafter(f, F32(np.inf))):
        out += [a, -a]
    return out


def _predict_label(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """predict of special values and of x at the thresholds (label +0 or -0), then random pairs."""
    s = F32(sigma) if np.isfinite(F32(sigma)) else F32(1)
    with np.errstate(all="ignore"):
        edges = [*_around(s), *_around(F32(s + F32(1e-6))), *_around(F32(0.5) * s), *_around(np.nextafter(s, F32(0)))]
    p = np.concatenate([SPECIALS, np.array(edges, F32)])
    p = np.concatenate([p, p])
    lab = np.zeros_like(p)
    lab[p.size // 2 :] = F32(-0.0)
    rng = np.random.default_rng(7)
    scale = min(max(float(abs(s)), 1e-3), 1e37)
    rp = (rng.standard_normal(200) * 2 * scale).astype(F32)
    rl = (rng.standard_normal(200) * scale).astype(F32)
    rl[:17] = SPECIALS
    return np.concatenate([p, rp]), np.concatenate([lab, rl])


def _dout(n: int) -> np.ndarray:
    rng = np.random.default_rng(3)
    d = rng.standard_normal(n).astype(F32)
    d[: SPECIALS.size] = SPECIALS[::-1]
    d[SPECIALS.size : SPECIALS.size + 4] = [0.0, -0.0, np.inf, -np.inf]
    return d


def _grad_reference(recipe, sigma, reduction, shape, ins, out):
    if recipe == "tbe":
        r = sl1b.tbe(*ins, sigma, reduction, shape)
    else:
        r = sl1b.arch35(*ins, sigma, reduction, shape, ins[2].size == 1)
    _fp.store(out, np.broadcast_to(r, out.shape))


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint32 if a.dtype.itemsize == 4 else np.uint16)


def _assert_kernel_exact(r: np.ndarray, ref: np.ndarray, what: object) -> None:
    """The runner's contract for a block kernel: NaN exactly where the recipe gives NaN (the
    piece is then recomputed), the recipe's bits everywhere else."""
    ref = np.broadcast_to(np.asarray(ref, F32), r.shape)
    nan = np.isnan(ref)
    assert np.array_equal(np.isnan(r), nan), what
    assert np.array_equal(_bits(r[~nan]), _bits(np.ascontiguousarray(ref[~nan]))), what


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_grad_block_kernel_on_special_values(recipe):
    """The fast form itself (no NaN fallback) against the general recipe, element by element."""
    chosen = set()
    for sigma in SIGMAS:
        p, lab = _predict_label(sigma)
        for scalar in (False, True):
            d = np.array(F32(-2.5)) if scalar else _dout(p.size)
            for reduction in ("none", "mean", "sum"):
                kernel = sl1b._fast_kernel(recipe, sigma, reduction, p.shape, scalar)
                if kernel is None:
                    continue
                chosen.add(sigma)
                r = np.empty(p.shape, F32)
                with np.errstate(all="ignore"):  # the runner's, around every piece
                    kernel([p, lab, d], r)
                if recipe == "tbe":
                    ref = sl1b.tbe(p, lab, d, sigma, reduction, p.shape)
                else:
                    ref = sl1b.arch35(p, lab, d, sigma, reduction, p.shape, scalar)
                _assert_kernel_exact(r, ref, (sigma, scalar, reduction))
    # the general recipe keeps sigma <= 0, inf, NaN (and arch35's NaN or unbounded invSigma)
    assert {1.0, 0.5, 1.7, 1e30}.issubset(chosen)
    assert not chosen & {0.0, np.inf, -1.0} and not any(np.isnan(s) for s in chosen)


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_loss_block_kernel_on_special_values(recipe):
    chosen = set()
    for sigma in SIGMAS:
        p, lab = _predict_label(sigma)
        inv = sl1f.INV_SIGMA[recipe](sigma)
        fast = sl1f._fast_loss(sigma, inv)
        if fast is None:
            continue
        kernel = fast()
        chosen.add(sigma)
        r, ref = np.empty(p.shape, F32), np.empty(p.shape, F32)
        with np.errstate(all="ignore"):
            kernel([p, lab], r)
        _assert_kernel_exact(r, sl1f.loss(p, lab, sigma, inv), sigma)
        # it writes the canonical NaN itself (the runner does not look for NaNs after it)
        assert sl1f._nan_add_positive_quiet()
        _loss_reference(recipe, sigma, p, lab, ref)
        assert np.array_equal(_bits(r), _bits(ref)), sigma
    assert {1.0, 0.5, 2.0}.issubset(chosen) and not chosen & {0.0, np.inf, -1.0}


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_grad_fast_form_matches_the_general_recipe(recipe):
    for sigma in SIGMAS:
        p, lab = _predict_label(sigma)
        for reduction in ("none", "mean", "sum"):
            for d in (_dout(p.size), np.array(F32(1.5)), np.array(F32(-0.0)), np.array(F32(np.inf))):
                compute = sl1b.make(recipe, sigma, reduction, p.shape)
                out, ref = np.empty(p.shape, F32), np.empty(p.shape, F32)
                assert compute([p, lab, d], [out]) == "numpy"
                _grad_reference(recipe, sigma, reduction, p.shape, [p, lab, d], ref)
                assert np.array_equal(_bits(out), _bits(ref)), (sigma, reduction, d.size)


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_grad_fast_form_on_every_layout(monkeypatch, recipe):
    """Row broadcast, single-element operands, strided views, a float16 output, pieces of whole
    rows and pieces within a row (CHUNK made small), and an output that is the dout input."""
    monkeypatch.setattr(_fp, "CHUNK", 256)
    rng = np.random.default_rng(11)
    rows, cols = 12, 100  # pieces of two rows
    x2 = (rng.standard_normal((rows, cols)) * 2).astype(F32)
    x2.reshape(-1)[: SPECIALS.size] = SPECIALS
    row = rng.standard_normal(cols).astype(F32)
    g2 = rng.standard_normal((rows, cols)).astype(F32)
    g2.reshape(-1)[-4:] = [0.0, -0.0, np.inf, np.nan]
    big = (rng.standard_normal((rows, 2 * cols)) * 2).astype(F32)
    deep = (rng.standard_normal((3, 2, 300)) * 2).astype(F32)  # rows over CHUNK: cut within rows
    cases = [
        [x2, row, g2],  # row broadcast label
        [row, x2, g2],  # row broadcast predict
        [x2, np.ones((1, 1), F32), g2],  # single-element label
        [x2, row, np.array(F32(0.5))],  # scalar dout
        [big[:, ::2], x2, g2],  # strided predict
        [x2.reshape(-1), g2.reshape(-1), g2.reshape(-1)],  # same shape, flat pieces
        [deep, deep[:, :, ::-1], deep[0, 0]],
    ]
    for sigma in (1.0, 0.3):
        assert sl1b._fast_kernel(recipe, sigma, "none", (4,), False) is not None
        for ins in cases:
            shape = np.broadcast_shapes(*(a.shape for a in ins))
            for reduction in ("none", "mean"):
                compute = sl1b.make(recipe, sigma, reduction, ins[0].shape)
                for out_dtype in (F32, np.float16):
                    out, expect = np.empty(shape, out_dtype), np.empty(shape, out_dtype)
                    compute(ins, [out])
                    _grad_reference(recipe, sigma, reduction, ins[0].shape, ins, expect)
                    assert np.array_equal(_bits(out), _bits(expect)), (sigma, reduction, out_dtype)
        # the output is the dout buffer itself
        d = g2.copy()
        ref = np.empty_like(d)
        _grad_reference(recipe, sigma, "none", x2.shape, [x2, row, d.copy()], ref)
        sl1b.make(recipe, sigma, "none", x2.shape)([x2, row, d], [d])
        assert np.array_equal(_bits(d), _bits(ref))
        # a single-element dout that is an element of the output, with a strided predict (the
        # pieces cut along the leading axes): every piece reads dout as it was before the call
        out = np.empty((2 * rows, cols), F32)
        out[0, 0] = F32(5.0)
        dout = out.reshape(-1)[:1]
        p_t = np.ascontiguousarray((rng.standard_normal((cols, 2 * rows)) * 2).astype(F32)).T
        lab = rng.standard_normal((2 * rows, cols)).astype(F32)
        ref = np.empty_like(out)
        _grad_reference(recipe, sigma, "none", p_t.shape, [p_t, lab, dout.copy()], ref)
        fast = sl1b._fast_kernel(recipe, sigma, "none", p_t.shape, True)
        assert fast is not None
        extra = {} if recipe == "tbe" else {"scalar_dout": True}
        general = functools.partial(sl1b.RECIPES[recipe], sigma=sigma, reduction="none", shape=p_t.shape, **extra)
        assert _fp.run_blocks(fast, general, [p_t, lab, dout], out)  # the fast form ran
        assert np.array_equal(_bits(out), _bits(ref))


def _loss_reference(recipe, sigma, p, lab, out):
    _fp.store(out, sl1f.loss(p, lab, sigma, sl1f.INV_SIGMA[recipe](sigma)))


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_loss_fast_form_matches_the_general_recipe(recipe):
    for sigma in SIGMAS:
        p, lab = _predict_label(sigma)
        out, ref = np.empty(p.shape, F32), np.empty(p.shape, F32)
        assert sl1f.make(recipe, sigma, "none", p.shape)([p, lab], [out]) == "numpy"
        _loss_reference(recipe, sigma, p, lab, ref)
        assert np.array_equal(_bits(out), _bits(ref)), sigma
        for reduction in ("mean", "sum"):
            out0 = np.empty((), F32)
            sl1f.make(recipe, sigma, reduction, p.shape)([p, lab], [out0])
            r = sl1f.reduce(sl1f.loss(p, lab, sigma, sl1f.INV_SIGMA[recipe](sigma)), recipe, reduction, p.shape)
            expect = np.empty((), F32)
            _fp.store(expect, np.asarray(r, F32))
            assert _bits(out0) == _bits(expect), (sigma, reduction)


@pytest.mark.parametrize("recipe", ["tbe", "arch35"])
def test_loss_fast_form_every_float_near_sigma(recipe):
    """Every float32 |x| within 2**-9 of sigma (the window the launch checks) and a strided,
    float16 and several-block layout."""
    for sigma in (1.0, 0.5, 3.0, 1e-6, 1.7, 1e-3):
        # 1.7 and 1e-3 have an |x| just under sigma where the rounded m2 exceeds m1: the
        # launch's window check sends them to the general recipe
        fast = sl1f._fast_loss(sigma, sl1f.INV_SIGMA[recipe](sigma))
        assert (fast is None) == (sigma in (1.7, 1e-3)), sigma
        s = F32(sigma)
        lo = F32(s * F32(1 - 2**-9)).view(np.uint32)
        hi = np.nextafter(s, F32(np.inf)).view(np.uint32) + 64
        a = np.arange(lo, hi, dtype=np.uint32).view(F32)
        p = np.concatenate([a, -a])
        lab = np.zeros_like(p)
        out, ref = np.empty(p.shape, F32), np.empty(p.shape, F32)
        sl1f.make(recipe, sigma, "none", p.shape)([p, lab], [out])
        _loss_reference(recipe, sigma, p, lab, ref)
        assert np.array_equal(_bits(out), _bits(ref)), sigma
    rng = np.random.default_rng(5)
    big = (rng.standard_normal((40, 2 * 2048)) * 2).astype(F32)
    big.reshape(-1)[: SPECIALS.size] = SPECIALS
    lab = rng.standard_normal((40, 2048)).astype(F32)  # strided predict, two CHUNKs
    for out_dtype in (F32, np.float16):
        out, ref = np.empty(lab.shape, out_dtype), np.empty(lab.shape, out_dtype)
        sl1f.make(recipe, 1.0, "none", lab.shape)([big[:, ::2], lab], [out])
        _loss_reference(recipe, 1.0, big[:, ::2], lab, ref)
        assert np.array_equal(_bits(out), _bits(ref))


def test_sum_tbe_is_the_lane_loop():
    """The vectorised TBE sum adds in the order of the spelt-out lane loop, bit for bit."""
    rng = np.random.default_rng(9)
    for n in (1, 5, 63, 64, 65, 1000, 4097, 70001):
        x = (rng.standard_normal(n) * np.exp(rng.uniform(-30, 30, n))).astype(F32)
        x[: min(n, 3)] = [-0.0, 1e-45, -3e38][: min(n, 3)]
        assert _bits(np.array(sl1f.sum_tbe(x))) == _bits(np.array(sl1f.sum_tbe_reference(x))), n
    for special in (SPECIALS, np.array([np.inf, -np.inf], F32), np.array([-0.0, -0.0], F32)):
        a, b = np.empty((), F32), np.empty((), F32)
        _fp.store(a, np.asarray(sl1f.sum_tbe(special)))
        _fp.store(b, np.asarray(sl1f.sum_tbe_reference(special)))
        assert _bits(a) == _bits(b)
