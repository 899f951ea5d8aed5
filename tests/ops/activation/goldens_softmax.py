"""Independent re-implementations of the SoftmaxV2 recipes, one element and one float32
operation at a time (Python floats rounded by ``r32``; float16 steps rounded exactly from the
rational value). The exponential is the same stand-in the emulator uses — numpy's float32
(float64 for the AI CPU) ``exp`` — since the chips' own is not reproducible.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
from goldens import r32, round_exact, round_to

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "math"))
import goldens_reduce_sum as G

UB = 253952  # Ascend950's unified buffer as the tiling reads it (8.1.RC1 platform file)
CORES = 64
TINY = 2.0**-126


def _exp32(values: list[float]) -> list[float]:
    return [float(v) for v in np.exp(np.array(values, dtype=np.float32))]


def _ftz(v: float) -> float:
    return 0.0 if abs(v) < TINY else v


def _below_pow2(v: int) -> int:
    """The largest power of two strictly below v (0 for v <= 1)."""
    p = 0 if v <= 1 else 1
    while p and p * 2 < v:
        p *= 2
    return p


def template(shape: tuple[int, ...], axis: int, itemsize: int) -> tuple[str, int, int, int]:
    """(template, a1, r, a0) as Ascend950's tiling chooses them."""
    if not shape:
        a1 = r = a0 = 1
    else:
        a1 = math.prod(shape[:axis])
        r = shape[axis]
        a0 = math.prod(shape[axis + 1 :])
    if r == 1:
        a1, a0 = 1, a1 * a0
    if a0 != 1:
        per = (itemsize * 2 + 8 + 4) * r + 8
        tile = 64 if itemsize == 4 else 128
        return ("ara_full_load" if UB // per // tile > 0 else "ara_recompute"), a1, r, a0
    if r <= 16 and not (CORES * 5 <= a1 <= CORES * 160):
        return "ar_small_r", a1, r, a0
    if r <= 16384:
        align = 32 // itemsize
        ra = -(-r // align) * align
        tmp = 0
        if r > 128:
            f = _below_pow2(-(-r // 64))
            tmp = -(-f // 8) * 8 * 4
        if (UB - 1024) // (ra * 4 + 4 * ra * itemsize + tmp) > 0:
            return "ar_full_load", a1, r, a0
    return "ar_recompute", a1, r, a0


def _sum_full_load(e: list[float]) -> float:
    r = len(e)

    def reg(vals: list[float]) -> float:
        return G.pair_tree(vals + [0.0] * (64 - len(vals)))

    def post(p: list[float]) -> float:
        if len(p) <= 64:
            return reg(p)
        return reg([G.add(p[i], p[64 + i]) if 64 + i < len(p) else p[i] for i in range(64)])

    if r <= 128:
        return post(e)
    c = -(-r // 64)
    fold = _below_pow2(c)
    parts = []
    for j in range(fold):
        a = e[64 * j : 64 * j + 64]
        k = j + fold  # the chunk folded onto chunk j, if any
        if k < c:
            b = e[64 * k : 64 * k + 64]
            a = [G.add(a[i], b[i]) if i < len(b) else a[i] for i in range(64)]
        parts.append(reg(a))
    return post(parts)


def _sum_recompute(e: list[float], itemsize: int) -> float:
    r = len(e)
    u = min(r, (UB - 32 - 32 - 2048) // (itemsize * 5 + 4) // 32 * 32)
    tiles = [e[i : i + u] for i in range(0, r, u)]
    b = _below_pow2(len(tiles))
    if b == 0:
        return G.ascendc_ar(tiles[0])
    partials = []
    for i in range(b):
        t = list(tiles[i])
        if b + i < len(tiles):
            other = tiles[b + i]
            t = [G.add(t[k], other[k]) if k < len(other) else t[k] for k in range(u)]
        partials.append(G.ascendc_ar(t))
    while len(partials) > 1:  # the binary-counter cache: a pairwise tree in tile order
        partials = [G.add(partials[2 * i + 1], partials[2 * i]) for i in range(len(partials) // 2)]
    return partials[0]


def _sum_ara(e: list[float]) -> float:
    """One lane of the ARA reduction (e: the r values of one column)."""
    r = len(e)
    g = [e[i] if i < r else 0.0 for i in range(max(r, 8) * 2)]
    if r <= 2:
        s = 0.0
        for v in e:
            s = G.add(s, v)
        return s
    if r <= 4:
        return G.add(G.add(g[0], g[2]), G.add(g[1], g[3]))
    if r <= 8:
        return G.add(G.add(G.add(g[0], g[4]), G.add(g[1], g[5])), G.add(G.add(g[2], g[6]), G.add(g[3], g[7])))
    q = _below_pow2(r)
    rows = [G.add(e[i], e[q + i]) if q + i < r else G.add(e[i], 0.0) for i in range(q)]
    ys = [G.pair_tree(rows[8 * k : 8 * k + 8]) for k in range(q // 8)]
    while len(ys) >= 4:
        ys = [G.add(G.add(ys[4 * j], ys[4 * j + 1]), G.add(ys[4 * j + 2], ys[4 * j + 3])) for j in range(len(ys) // 4)]
    return ys[0] if len(ys) == 1 else G.add(ys[0], ys[1])


def softmax_950(x: np.ndarray, axis: int) -> tuple[np.ndarray, str]:
    """Ascend950's result (rounded to x's dtype) and the template name."""
    name, a1, r, a0 = template(x.shape, axis, x.dtype.itemsize)
    v = x.astype(np.float32).reshape(a1, r, a0)
    out = np.zeros((a1, r, a0), np.float32)
    for i in range(a1):
        cols = []
        for k in range(a0):
            col = [float(t) for t in v[i, :, k]]
            m = max(col) if not any(c != c for c in col) else math.nan
            e = [_ftz(t) for t in _exp32([r32(c - m) for c in col])]
            cols.append(e)
        if name.startswith("ara"):
            sums = [_sum_ara(e) for e in cols]
        elif name == "ar_small_r":
            sums = [G.ascendc_ra([[t] for t in e], 64)[0] for e in cols]
        elif name == "ar_full_load":
            sums = [_sum_full_load(e) for e in cols]
        else:
            sums = [_sum_recompute(e, x.dtype.itemsize) for e in cols]
        for k, (e, s) in enumerate(zip(cols, sums)):
            for j in range(r):
                out[i, j, k] = _ftz(r32(e[j] / s)) if s == s else math.nan
    flat = [float(t) for t in out.reshape(-1)]
    return round_to(flat, x.dtype).reshape(x.shape), name


def softmax_tbe(x: np.ndarray, axis: int, reciprocal: bool = False) -> np.ndarray:
    """The TBE recipe: float16 subtracts in float16; the sum in 64 lanes; 310P multiplies."""
    xs = x.reshape(1) if x.ndim == 0 else x
    ax = 0 if x.ndim == 0 else axis
    moved = np.moveaxis(xs, ax, -1)
    out = np.zeros(moved.shape, np.float32)
    for idx in np.ndindex(moved.shape[:-1]):
        row = [float(t) for t in moved[idx].astype(np.float32)]
        m = max(row) if not any(c != c for c in row) else math.nan
        if x.dtype == np.float16 and m == m and all(math.isfinite(c) for c in row):
            d = [round_exact(Fraction(c) - Fraction(m), np.float16) for c in row]
        elif x.dtype == np.float16:
            d = [float(np.float16(np.float16(c) - np.float16(m))) for c in row]
        else:
            d = [r32(c - m) for c in row]
        e = _exp32(d)
        s = G.lanes64(e)
        if reciprocal:
            rec = r32(1.0 / s)
            out[idx] = [r32(t * rec) for t in e]
        else:
            out[idx] = [r32(t / s) for t in e]
    res = np.moveaxis(out, -1, ax).reshape(x.shape)
    return round_to([float(t) for t in res.reshape(-1)], x.dtype).reshape(x.shape)


def softmax_aicpu(x: np.ndarray, axis: int) -> np.ndarray:
    """The AI CPU double recipe: 1.0 for 0-d; else e * (1 / sequential sum)."""
    if x.ndim == 0:
        return np.ones((), np.float64)
    moved = np.moveaxis(x, axis, -1)
    out = np.zeros(moved.shape)
    for idx in np.ndindex(moved.shape[:-1]):
        row = [float(t) for t in moved[idx]]
        m = max(row) if not any(c != c for c in row) else math.nan
        e = [float(t) for t in np.exp(np.array([c - m for c in row]))]
        s = G.sequential(e)
        rec = 1.0 / s
        out[idx] = [t * rec for t in e]
    return np.moveaxis(out, -1, axis)


def reference(x: np.ndarray, axis: int) -> np.ndarray:
    """The float64 formula."""
    v = x.astype(np.float64)
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
