"""SmoothL1LossGradV2: the gradient of smooth-L1 loss, per chip.

Notation: p = predict (self), l = label (target), d = dout (gradOut), x = p - l, sigma = beta.
The three inputs arrive in one dtype (the promoted type), unbroadcast; the kernel broadcasts.

``tbe`` — the legacy built-in TBE kernel of Ascend910B / 910_93 / 910 / 310P::

    temp = x / (sigma + 1e-6)                 # float32 vadds then vdiv
    x    = x if x == x else 0                 # NaN x replaced by 0, after temp
    s1   = -1 if x <= -sigma else 0
    s2   =  1 if x >=  sigma else 0
    s3   = temp if |x| < sigma else 0
    r    = ((s1 + s2) + s3) * d
    mean: r = r * cof, cof = ((1f / dim0) / dim1) / ...   (float32 divisions over predict's dims,
          in order: the legacy op tiling's reduce_mean_cof)

``arch35`` — the ops-nn AscendC broadcast DAG of Ascend950::

    invSigma = NaN if |sigma| < 1e-6f (a float32 comparison) else float32(1 / sigma)
    tensor dout (numel > 1), strict:      pos = x > sigma,  neg = x < -sigma,  lin = 0 if |x| > sigma
    scalar dout (numel == 1), non-strict: pos = x >= sigma, neg = x <= -sigma, lin = 0 if |x| >= sigma
    lin  = x * invSigma otherwise
    r    = (((pos - neg) + lin) * d) * norm,  norm = float32(1 / (double) numel(predict)) for mean, else 1

Every operation is a float32 operation; the result is rounded once to the output dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from . import accel
from ._fp import F32, BlockKernel, f32, run_blocks, run_elementwise, select

EPS = F32(1e-6)


def inv_sigma(sigma: float) -> np.float32:
    """arch35 tiling: ``fabsf(sigma) < 1e-6f ? NAN : 1 / sigma``, compared in float32 (so
    beta = 1e-6, which is 1e-6f, is not below the threshold)."""
    s = np.float32(sigma)
    return cast(np.float32, np.float32(np.nan) if np.abs(s) < EPS else np.float32(1) / s)


def tbe_mean_factor(shape: Sequence[int]) -> np.float32:
    """The legacy op tiling's ``reduce_mean_cof``: 1.0f divided by each dim of predict in turn,
    in float32 (one ulp away from float32(1/numel) for some shapes, e.g. (5, 23))."""
    cof = np.float32(1)
    for d in shape:
        cof = np.float32(cof / np.float32(d))
    return cast(np.float32, cof)


def arch35_mean_factor(shape: Sequence[int]) -> np.float32:
    """The arch35 tiling: ``(float)(1.0 / (double)numel)``."""
    n = 1
    for d in shape:
        n *= int(d)
    return cast(np.float32, np.float32(1.0 / float(n)))


def tbe(
    predict: np.ndarray, label: np.ndarray, dout: np.ndarray, sigma: float, reduction: str, shape: Sequence[int]
) -> np.ndarray:
    """The TBE recipe; returns the float32 result in the broadcast shape."""
    with np.errstate(all="ignore"):
        p, lab, d = f32(predict), f32(label), f32(dout)
        s = F32(sigma)
        x = np.asarray(p - lab)
        temp = x / (s + EPS)
        x = select(x == x, x, F32(0))
        neg_s = s * F32(-1)
        s1 = select(x <= neg_s, F32(-1), F32(0))
        s2 = select(x >= s, F32(1), F32(0))
        s3 = select(np.abs(x) < s, temp, F32(0))
        r = ((s1 + s2) + s3) * d  # broadcasts x's shape with dout's
        if reduction == "mean":
            r = r * tbe_mean_factor(shape)
        return np.asarray(r, dtype=np.float32)


def arch35(
    predict: np.ndarray,
    label: np.ndarray,
    dout: np.ndarray,
    sigma: float,
    reduction: str,
    shape: Sequence[int],
    scalar_dout: bool | None = None,
) -> np.ndarray:
    """The Ascend950 DAG recipe; returns the float32 result in the broadcast shape.
    ``scalar_dout``: whether the whole dout tensor has one element (default: this dout's size)."""
    if scalar_dout is None:
        scalar_dout = dout.size == 1
    with np.errstate(all="ignore"):
        p, lab, d = f32(predict), f32(label), f32(dout)
        s = F32(sigma)
        inv = inv_sigma(sigma)
        norm = arch35_mean_factor(shape) if reduction == "mean" else F32(1)
        x = p - lab
        ax = np.abs(x)
        if scalar_dout:  # chosen by the whole dout tensor, not by a block of it
            pos = select(x >= s, F32(1), F32(0))
            neg = select(x <= -s, F32(-1), F32(0))
            lin = select(ax >= s, F32(0), x * inv)
        else:
            pos = select(x > s, F32(1), F32(0))
            neg = select(x < -s, F32(-1), F32(0))
            lin = select(ax > s, F32(0), x * inv)
        r = ((pos + neg) + lin) * d
        r = r * norm
        return np.asarray(r, dtype=np.float32)


RECIPES = {"tbe": tbe, "arch35": arch35}


def _numba_launcher(
    recipe: str, sigma: float, reduction: str, shape: Sequence[int]
) -> Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], bool]:
    """The compiled recipe with its scalar arguments fixed once per launch: a function that runs
    it when the layout allows (same shape, single-element or row-broadcast operands) and says
    whether it ran."""
    s = F32(sigma)
    mean = reduction == "mean"
    if recipe == "tbe":
        consts: tuple[Any, ...] = (s, EPS, tbe_mean_factor(shape), mean)
    else:
        consts = (s, inv_sigma(sigma), arch35_mean_factor(shape) if mean else F32(1))

    def launch(predict: np.ndarray, label: np.ndarray, dout: np.ndarray, out: np.ndarray) -> bool:
        n = out.size
        nb = accel.use_numba(n)
        if nb is None or not all(accel.broadcast_ok(a, n, out.shape) for a in (predict, label, dout)):
            return False
        predict, label, dout = accel.contiguous_inputs(out, predict, label, dout)
        kb = accel.same_kind_bits(predict, label, dout, out)
        if kb is None:
            return False
        kind, (p, lab, d, o) = kb
        if recipe == "tbe":
            nb.smooth_l1_tbe(p, lab, d, o, kind, *consts)
        else:
            nb.smooth_l1_arch35(p, lab, d, o, kind, *consts, dout.size == 1)
        return True

    return launch


# -- the numpy path's fast forms -------------------------------------------------------------------
#
# Both recipes are ``r = (g * d) * k`` where g, the sum of the three selects, is a sign (+-1)
# beyond the threshold and a linear term (+0 added) within it. For the ordinary scalars (decided
# once per launch) g is computed in four whole-block operations instead of ~20, and the exact
# recipe above stays the path of every other scalar (sigma <= 0, inf, NaN, ...). The proof:
#
# Lemma. For float32 y > 0 and 0 <= z <= prev(y) (the float below y): z / y rounds to at most
# 1 - 2**-24 < 1, because prev(y) / y <= 1 - 2**-24 (the gap below y is at least y * 2**-24), the
# bound is a float32, and rounding is monotone. For z >= y, z / y rounds to at least 1.
#
# So with w = x / s (s > 0 finite; no division when s == 1): |x| < s  <=>  |w| < 1, hence
# q = trunc(w) is +-0 within the threshold and an integer >= 1 in magnitude with x's sign beyond
# it (+-inf for x = +-inf, NaN for NaN x). With u the linear term (TBE: x / (s + 1e-6); arch35:
# x * invSigma), both of x's sign or +-0 and |u| <= 1 within the threshold (TBE: the lemma, as
# s + 1e-6 >= s; arch35: checked once, fl(s * invSigma) <= 1):
#
#     g = clip((u + 0) + q, -1, 1)
#
# within: (u + 0) is never -0, adding +-0 keeps it, and the clip keeps |u| <= 1: g = u + 0, which
# is the recipe's ((0 + 0) + u) (+0 + u == u + 0, -0 included); beyond: u + 0 and q have one sign
# and |q| >= 1, so the sum is >= 1 in magnitude (no cancellation; inf when it overflows) and the
# clip gives +-1, the recipe's ((+-1 + 0) + 0); NaN x: the recipe turns x into 0 (TBE) or keeps
# it out of every strict comparison (arch35), so it takes u = NaN, and here u and q are NaN and
# clip keeps NaN. The arch35 tensor-dout form compares strictly (|x| > s): w = x / next(s) then,
# since |x| > s <=> |x| >= next(s) and s = prev(next(s)).


def _trunc_ratio(x: np.ndarray, threshold: np.float32, q: np.ndarray) -> None:
    """q = trunc(x / threshold): +-0 where |x| < threshold, an integer >= 1 in magnitude (x's
    sign) elsewhere (the lemma above; x / 1 == x)."""
    if threshold == 1:
        np.trunc(x, out=q)
        return
    np.divide(x, threshold, out=q)
    np.trunc(q, out=q)


def _fast_kernel(
    recipe: str, sigma: float, reduction: str, shape: Sequence[int], scalar_dout: bool
) -> BlockKernel | None:
    """The fast form of the recipe for these scalars, or None when they need the general one."""
    with np.errstate(all="ignore"):
        s = F32(sigma)
        if not (np.isfinite(s) and s > 0):
            return None
        if recipe == "tbe":
            divide, lin = True, F32(s + EPS)  # u = x / (s + 1e-6), a divisor >= s
            thr = s  # beyond: |x| >= s (s1, s2 compare non-strictly)
            k = tbe_mean_factor(shape) if reduction == "mean" else None
        else:
            inv = inv_sigma(sigma)
            if not (np.isfinite(inv) and inv > 0 and F32(s * inv) <= 1):
                return None
            divide, lin = False, inv  # u = x * invSigma
            thr = s if scalar_dout else np.nextafter(s, F32(np.inf))  # tensor dout: |x| > s
            if not np.isfinite(thr):
                return None
            k = arch35_mean_factor(shape) if reduction == "mean" else None
            if k is not None and k == 1:
                k = None  # norm 1 (no mean, or one element): r * 1 == r, NaN pieces aside
    bufs: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}

    def kernel(ins: Sequence[np.ndarray], r: np.ndarray) -> None:
        p, lab, d = ins
        if r.shape not in bufs:
            bufs[r.shape] = (np.empty(r.shape, np.float32), np.empty(r.shape, np.float32))
        x, q = bufs[r.shape]
        np.subtract(p, lab, out=x)
        _trunc_ratio(x, thr, q)
        if divide:
            np.divide(x, lin, out=x)
        elif lin != 1:  # x * 1 == x (a NaN aside, whose piece the general path redoes)
            np.multiply(x, lin, out=x)
        np.add(x, F32(0), out=x)
        np.add(x, q, out=x)
        np.clip(x, F32(-1), F32(1), out=x)
        np.multiply(x, d, out=r)
        if k is not None:
            np.multiply(r, k, out=r)

    return kernel


def make(
    recipe: str, sigma: float, reduction: str, shape: Sequence[int]
) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation: inputs (predict, label, dout), output gradient (promoted dtype);
    ``shape`` is predict's (the mean factor's). Returns the kernel path it took."""
    shape = tuple(shape)
    numba_path = _numba_launcher(recipe, sigma, reduction, shape)

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        if numba_path(ins[0], ins[1], ins[2], outs[0]):
            return "numba"
        scalar = ins[2].size == 1
        if recipe == "tbe":

            def general(p: np.ndarray, lab: np.ndarray, d: np.ndarray) -> np.ndarray:
                return tbe(p, lab, d, sigma, reduction, shape)
        else:

            def general(p: np.ndarray, lab: np.ndarray, d: np.ndarray) -> np.ndarray:
                return arch35(p, lab, d, sigma, reduction, shape, scalar)

        fast = _fast_kernel(recipe, sigma, reduction, shape, scalar)
        if fast is None or not run_blocks(fast, general, ins, outs[0]):
            run_elementwise(general, list(ins), outs[0])
        return "numpy"

    return compute
