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
from ._fp import F32, f32, run_elementwise, select

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
        if recipe == "tbe":
            run_elementwise(lambda p, lab, d: tbe(p, lab, d, sigma, reduction, shape), list(ins), outs[0])
        else:
            scalar = ins[2].size == 1
            run_elementwise(lambda p, lab, d: arch35(p, lab, d, sigma, reduction, shape, scalar), list(ins), outs[0])
        return "numpy"

    return compute
