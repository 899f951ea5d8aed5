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

from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import numpy as np

from . import accel
from ._fp import CHUNK, F32, f32, run_elementwise, select, store

EPS = F32(1e-6)
I32 = np.int32


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


def _blocks(shape: tuple[int, ...]) -> Iterator[tuple[int | slice, ...]]:
    """Index tuples that cover an array of ``shape`` (ndim >= 1) in pieces of about CHUNK
    elements, cut along the leading axes (so every piece of a C-contiguous array is contiguous)."""
    inner = 1
    for n in shape[1:]:
        inner *= n
    if len(shape) > 1 and inner > CHUNK:
        for i in range(shape[0]):
            for sub in _blocks(shape[1:]):
                yield (i, *sub)
        return
    step = max(1, CHUNK // max(inner, 1))
    for i in range(0, shape[0], step):
        yield (slice(i, i + step),)


def _overlaps(inputs: Sequence[np.ndarray], out: np.ndarray) -> bool:
    """Whether an input of more than one element shares memory with the output other than as
    the very same view (blocks would then read what an earlier block wrote)."""
    oi = out.__array_interface__
    for a in inputs:
        if a.size > 1 and np.may_share_memory(a, out):
            ai = a.__array_interface__
            same = ai["data"][0] == oi["data"][0] and a.shape == out.shape and a.strides == out.strides
            if not (same and a.dtype.itemsize == out.dtype.itemsize):
                return True
    return False


BlockKernel = Callable[[Sequence[np.ndarray], np.ndarray], None]


def run_blocks(
    kernel: BlockKernel,
    general: Callable[..., np.ndarray],
    inputs: Sequence[np.ndarray],
    out: np.ndarray,
    canonical: bool = False,
) -> bool:
    """Run a float32 block kernel over ``out`` (any layout: inputs broadcast to out's shape,
    strided or not) in pieces of about CHUNK elements; False (nothing written) when the output is
    0-d or empty or an input overlaps it, for the caller's general path.

    ``kernel(ins, r)`` writes the float32 result of one piece into ``r``, reading its float32
    inputs before its last operation writes ``r`` (``r`` may be the output's own piece, which
    an input may be). A piece whose result holds a NaN is computed again by ``general`` (the
    exact recipe) and stored through :func:`store`, which writes the canonical NaN: so a kernel
    need only be exact for NaN-free results. ``np.dot(r, r)`` is NaN exactly when r holds a NaN
    (a sum of squares adds no inf - inf), one fast read. ``canonical``: the kernel is exact for
    every input and writes each NaN as the canonical one itself (no check)."""
    if out.ndim == 0 or out.size == 0 or _overlaps(inputs, out):
        return False
    # the kernel writes the output's piece itself unless an input is that piece (the general
    # path may have to read it again) or the output is not float32 C-contiguous
    direct = (
        out.dtype == np.float32
        and out.flags.c_contiguous
        and not any(a.size > 1 and np.may_share_memory(a, out) for a in inputs)
    )
    scratch: dict[tuple[int, ...], np.ndarray] = {}

    def piece(ins: list[np.ndarray], o: np.ndarray) -> None:
        if direct:
            r = o
        elif o.shape in scratch:
            r = scratch[o.shape]
        else:
            r = scratch[o.shape] = np.empty(o.shape, np.float32)
        kernel(ins, r)
        flat = r.reshape(-1)
        if not canonical and np.isnan(np.dot(flat, flat)):
            store(o, general(*ins))
        elif not direct:
            o[...] = r if o.dtype == np.float32 else r.astype(o.dtype)

    flat = _flat_operands(inputs, out)
    with np.errstate(all="ignore"):
        if flat is not None:  # same shape, single elements, rows: flat pieces
            step, views, kinds = flat
            o_flat = out.reshape(-1)
            for start in range(0, out.size, step):
                stop = min(start + step, out.size)
                ins = [
                    f32(v[start:stop] if kind == "full" else v[: stop - start] if kind == "row" else v)
                    for v, kind in zip(views, kinds, strict=True)
                ]
                piece(ins, o_flat[start:stop])
        else:
            bviews = [np.broadcast_to(a, out.shape) for a in inputs]
            for idx in _blocks(out.shape):
                piece([f32(v[idx]) for v in bviews], out[idx])
    return True


def _flat_operands(inputs: Sequence[np.ndarray], out: np.ndarray) -> tuple[int, list[np.ndarray], list[str]] | None:
    """For a C-contiguous output whose inputs are C-contiguous and each of its size ("full"),
    a single element ("one") or a row of its trailing dims of at most CHUNK elements ("row", one
    row length): the piece length (a multiple of the row) and each input as the pieces read it (a
    row repeated to one piece, so every piece, starting at a multiple of the row, reads it
    contiguously); else None."""
    n = out.size
    if not out.flags.c_contiguous:
        return None
    row = 0
    kinds = []
    for a in inputs:
        if not a.flags.c_contiguous:
            return None
        if a.size == n:
            kinds.append("full")
        elif a.size == 1:
            kinds.append("one")
        else:
            dims = a.shape[next((i for i, d in enumerate(a.shape) if d != 1), a.ndim) :]
            if a.size > CHUNK or tuple(out.shape[out.ndim - len(dims) :]) != dims or row not in (0, a.size):
                return None
            row = a.size
            kinds.append("row")
    step = CHUNK // row * row if row else CHUNK
    views = [
        a.reshape(-1) if kind == "full" else np.tile(a.reshape(-1), step // row) if kind == "row" else a.reshape(())
        for a, kind in zip(inputs, kinds, strict=True)
    ]
    return step, views, kinds


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
