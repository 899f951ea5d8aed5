"""SmoothL1LossV2: the smooth-L1 loss of ``predict`` and ``label`` (one dtype, one shape), per chip.

Element-wise part, in float32 (fp16/bf16 inputs widened exactly), d = p - l, sigma = beta::

    h = d * 0.5 ; sq = h * d ; m1 = sq * inv
    a = |d| ; m2 = a + (-0.5 * sigma)
    r = m1 if a < sigma else m2

``tbe`` (Ascend910B / 910_93 / 910 / 310P): ``inv = 1.0f / sigma`` (sigma = 0 gives +inf, never
selected). ``arch35`` (Ascend950): ``inv = 0 if fabsf(sigma) < 1e-6f else 1 / sigma`` (the
tiling's float32 comparison). ``h * d`` and ``d * h`` are the same float32 product.

Reductions (mean, sum) add the float32 losses of every element into one float32, then mean
multiplies by a factor:

* ``tbe``: the order of the closed TBE reduce schedule is not public. aclnn_py adds in 64
  float32 lanes: ``acc = +0``, then ``acc += r[64c : 64c + 64]`` chunk after chunk (the last
  chunk padded with +0), then the adjacent-pair tree of the 64 lanes — the vector-add-then-vcadd
  pattern of the AscendC reductions (a choice, see the fidelity notes). The mean factor is the
  legacy op tiling's ``reduce_mean_cof``: 1.0f divided by each of predict's dims in turn.
* ``arch35``: the atvoss reduce template's in-UB order for the pattern [1, N] when the whole row
  is one chunk on one core (:func:`sum_arch35`); the mean factor is
  ``(float)(1.0 / (double)N)``. How the template splits a row that exceeds one UB chunk or
  spreads it over cores depends on the chip's UB size and core count and is not modelled.

The result is rounded once to predict's dtype (round half to even).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np

from . import accel
from ._fp import F32, BlockKernel, f32, run_blocks, run_elementwise, select, store
from .scaled_masked_softmax_grad_v2 import pair_tree
from .smooth_l1_loss_grad_v2 import arch35_mean_factor, tbe_mean_factor

HALF = F32(0.5)
NEG_HALF = F32(-0.5)
EPS = F32(1e-6)
LANES = 64  # float32 lanes of one vector register (256 bytes)
BLOCK = 8  # float32 values of one 32-byte data block


def _f32(v: object) -> np.float32:
    return cast(np.float32, np.float32(v))  # type: ignore[arg-type]


def inv_sigma_tbe(sigma: float) -> np.float32:
    """``1.0 / sigma`` on the TBE scalar unit (float32; 0 gives +inf, so does a sigma under
    about 2.9e-39, whose reciprocal overflows)."""
    with np.errstate(divide="ignore", over="ignore"):
        return _f32(F32(1) / F32(sigma))


def inv_sigma_arch35(sigma: float) -> np.float32:
    """The arch35 tiling's ``MultiplyValue``: 0 when ``fabsf(sigma) < 1e-6f``, else ``1 / sigma``."""
    s = F32(sigma)
    return _f32(0) if np.abs(s) < EPS else _f32(F32(1) / s)


def loss(predict: np.ndarray, label: np.ndarray, sigma: float, inv: np.float32) -> np.ndarray:
    """The element-wise loss in float32 (shared by both recipes; ``inv`` is theirs)."""
    with np.errstate(all="ignore"):
        p, lab = f32(predict), f32(label)
        s = F32(sigma)
        d = np.asarray(p - lab)
        h = d * HALF
        m1 = (h * d) * inv
        a = np.abs(d)
        m2 = a + NEG_HALF * s
        return select(a < s, m1, m2)


def _padded_chunks(r: np.ndarray) -> np.ndarray:
    """r's float32 values as rows of 64 lanes, the last row padded with +0."""
    flat = np.ascontiguousarray(r, dtype=np.float32).reshape(-1)
    chunks = -(-flat.size // LANES)
    padded = np.zeros(max(chunks, 1) * LANES, np.float32)
    padded[: flat.size] = flat
    return padded.reshape(-1, LANES)


def sum_tbe_reference(r: np.ndarray) -> np.float32:
    """The chosen TBE order spelt out: 64 lanes from +0 accumulated chunk by chunk, then tree64
    (the specification :func:`sum_tbe` computes; kept for the tests)."""
    acc = np.zeros(LANES, np.float32)
    with np.errstate(all="ignore"):
        for row in _padded_chunks(r):
            acc = acc + row
        return _f32(pair_tree(acc))


def sum_tbe(r: np.ndarray) -> np.float32:
    """The chosen TBE order: 64 lanes from +0 accumulated chunk by chunk, then tree64.

    ``np.add.reduce`` over axis 0 of the C-ordered [chunks, 64] array, from ``initial`` +0:
    numpy's reduction iterates the reduced (outer) axis in order and adds each row into the 64
    accumulators, one float32 addition per lane and row, the loop of
    :func:`sum_tbe_reference` (pairwise summation applies to a reduction along the contiguous
    inner axis only); the tests compare the two bit for bit."""
    with np.errstate(all="ignore"):
        acc = np.add.reduce(_padded_chunks(r), axis=0, initial=F32(0))
        return _f32(pair_tree(acc))


def _halve(blocks: np.ndarray) -> np.ndarray:
    """Fold a power-of-two number of rows (axis -2) by halves: row i += row i + n/2, until one."""
    while blocks.shape[-2] > 1:
        n = blocks.shape[-2] // 2
        blocks = blocks[..., :n, :] + blocks[..., n:, :]
    return blocks[..., 0, :]


def sum_arch35(r: np.ndarray) -> np.float32:
    """The atvoss ``ReduceSum<float, AR, isReuseSource>`` of one row in one UB chunk (asc-devkit
    ``reduce_common_ar_reuse_align(_less_than_vl)_3510_impl.h``). The row is padded with +0 to
    R, a multiple of 8 (one 32-byte block):

    * N == 1: the element itself;
    * R == 8: tree8; R in {16, 24}: the blocks added in turn, then tree8;
    * 32 <= R <= 64: tree64 of the R lanes (the others +0);
    * R > 64: with M the largest power of two <= R, ``v[j] = x[j] + x[M + j]`` for j < R - M;
      the M/64 blocks of 64 are folded by halves in groups of 16 consecutive blocks (pairs
      (i, i+8), (i, i+4), (i, i+2), (i, i+1)) as often as 16 divides their number, the 2, 4 or 8
      left over by halves too, and the last block by tree64.
    """
    flat = np.ascontiguousarray(r, dtype=np.float32).reshape(-1)
    n = flat.size
    if n == 1:
        return _f32(flat[0])
    width = -(-n // BLOCK) * BLOCK
    x = np.zeros(width, np.float32)
    x[:n] = flat
    with np.errstate(all="ignore"):
        if width <= LANES:
            if width < 4 * BLOCK:  # 8, 16 or 24: data blocks added lane-wise, then tree8
                acc = x[:BLOCK]
                for b in range(1, width // BLOCK):
                    acc = x[b * BLOCK : (b + 1) * BLOCK] + acc
                return _f32(pair_tree(acc))
            return _f32(pair_tree(np.concatenate([x, np.zeros(LANES - width, np.float32)])))
        main = 1 << (width.bit_length() - 1)
        v = x[:main].copy()
        tail = width - main
        v[:tail] = v[:tail] + x[main:]
        blocks = v.reshape(-1, LANES)
        folds = blocks.shape[0].bit_length() - 1
        for _ in range(folds // 4):
            blocks = _halve(blocks.reshape(-1, 16, LANES))
        return _f32(pair_tree(_halve(blocks[None])[0]))


INV_SIGMA = {"tbe": inv_sigma_tbe, "arch35": inv_sigma_arch35}

# -- the numpy path's fast form of the element-wise loss ---------------------------------------------
#
# The select of :func:`loss` costs five whole-block operations; for the ordinary scalars it is two
# integer ones. With m1 = ((d * 0.5) * d) * inv (>= +0 or NaN) and m2 = |d| + b (b = -0.5 * sigma),
# and c1 = m1 at |d| = sigma, both functions of a = |d| that rounding keeps monotone:
#
#     r = max(min(m1, c1), m2)      on the float32 bits read as int32
#
# Read as int32, floats >= +0 are ordered as their values and every negative float is below them.
# Within (a < sigma): m1 <= c1 (monotone), so min(m1, c1) = m1; and m1 >= m2, so max = m1. Beyond
# (a >= sigma): min(m1, c1) = c1 (m1 >= c1, inf included) and m2 >= m2(sigma) >= c1, so max = m2.
# NaN d: m2 = |NaN| + b is a quiet NaN of sign + (x86 and ARM propagate the NaN operand, quieted;
# checked once, :func:`_nan_add_positive_quiet`), bits in [0x7FC00000, 0x7FFFFFFF], above every
# finite and inf: min(m2, 0x7FC00000) leaves every other value and makes it the canonical NaN,
# which then wins the max. So the kernel writes the recipe's result, canonical NaN included.
#
# m1 >= m2 within the threshold is checked once per launch: mathematically m1 - m2 = (sigma - a)**2
# / (2 sigma); m1 has three roundings (d * 0.5 is exact for 2**-60 <= sigma, a near sigma; inv is
# 1 / sigma rounded) and m2 one, together under sigma * 2**-23 of error; so for a <= sigma * (1 -
# 2**-10), where the difference is at least sigma * 2**-21, the rounded m1 is above the rounded
# m2 (and for a < sigma / 2, m2 < 0 <= m1 anyway). The launch evaluates every float32 a in
# [sigma * (1 - 2**-10), sigma) (about 2**14 values) and takes the fast form only if m1 >= m2 for
# all of them, and m2(sigma) >= c1.

I32 = np.int32
WINDOW = 2.0**-10
CANONICAL_BITS = I32(0x7FC00000)


@functools.cache
def _nan_add_positive_quiet() -> bool:
    """Whether |NaN| + finite gives a quiet NaN of sign + here, for every kind of NaN (else the
    fast loss lets the runner find and recompute NaN pieces)."""
    nans = np.array([0x7FC00000, 0xFFC00001, 0x7F800001, 0xFFA00001, 0x7FC12345], np.uint32).view(np.float32)
    with np.errstate(all="ignore"):
        r = (np.abs(nans) + F32(-0.5)).view(np.uint32)
    return bool(np.all((r >= 0x7FC00000) & (r <= 0x7FFFFFFF)))


def _m1_m2(a: np.ndarray, sigma: np.float32, inv: np.float32) -> tuple[np.ndarray, np.ndarray]:
    """The recipe's two branches at d = a (float32 arrays)."""
    with np.errstate(all="ignore"):
        return ((a * HALF) * a) * inv, np.abs(a) + NEG_HALF * sigma


@functools.lru_cache(maxsize=64)
def _fast_loss(sigma: float, inv: np.float32) -> Callable[[], BlockKernel] | None:
    """The fast form of :func:`loss` for these scalars, or None when they need the general one:
    a function giving a kernel with its own scratch (one per launch: launches may run at once on
    different streams' threads). Cached: the window check costs ~150 us, and every phase 1 that
    misses the op cache builds the computation."""
    s = F32(sigma)
    if not (np.isfinite(s) and F32(2.0**-60) <= s <= F32(2.0**60) and np.isfinite(inv) and inv > 0):
        return None
    top = np.array([s], np.float32)
    c1, m2s = (v[0] for v in _m1_m2(top, s, inv))
    if not m2s >= c1:
        return None
    lo = np.array([s * F32(1 - WINDOW)], np.float32).view(np.uint32)[0]
    window = np.arange(lo, top.view(np.uint32)[0], dtype=np.uint32).view(np.float32)
    m1, m2 = _m1_m2(window, s, inv)
    if not np.all(m1 >= m2):
        return None
    cap = I32(np.array([c1], np.float32).view(I32)[0])
    bias = NEG_HALF * s
    mul = None if inv == 1 else inv  # m1 * 1 == m1 (a NaN m1 of either sign loses to m2's anyway)

    def new_kernel() -> BlockKernel:
        # scratch and the two bounds as whole arrays: numpy's int32 minimum of two arrays is a
        # vector loop, with a scalar operand it is about twice as slow
        bufs: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}

        def kernel(ins: Sequence[np.ndarray], r: np.ndarray) -> None:
            p, lab = ins
            if r.shape not in bufs:
                bufs[r.shape] = (
                    np.empty(r.shape, np.float32),
                    np.empty(r.shape, np.float32),
                    np.full(r.shape, cap, I32),
                    np.full(r.shape, CANONICAL_BITS, I32),
                )
            d, m, caps, canon = bufs[r.shape]
            np.subtract(p, lab, out=d)
            np.multiply(d, HALF, out=m)
            np.multiply(m, d, out=m)  # h * d
            if mul is not None:
                np.multiply(m, mul, out=m)
            mi = m.view(I32)
            np.minimum(mi, caps, out=mi)
            np.abs(d, out=d)
            np.add(d, bias, out=d)  # m2
            di = d.view(I32)
            np.minimum(di, canon, out=di)
            np.maximum(mi, di, out=r.view(I32))

        return kernel

    return new_kernel


def reduce(r: np.ndarray, recipe: str, reduction: str, shape: Sequence[int]) -> np.float32:
    """Sum (and for mean, scale) the float32 losses ``r`` of predict's ``shape``."""
    tbe = recipe == "tbe"
    total = sum_tbe(r) if tbe else sum_arch35(r)
    if reduction == "sum":
        return total
    factor = tbe_mean_factor(shape) if tbe else arch35_mean_factor(shape)
    with np.errstate(all="ignore"):
        return _f32(total * factor)


def make(
    recipe: str, sigma: float, reduction: str, shape: Sequence[int]
) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation: inputs (predict, label), output the loss in predict's dtype (of
    predict's shape for ``none``, 0-d otherwise). Returns the kernel path it took."""
    inv = INV_SIGMA[recipe](sigma)
    shape = tuple(shape)
    s32 = F32(sigma)
    m2_bias = NEG_HALF * s32

    def _numba_path(predict: np.ndarray, label: np.ndarray, out: np.ndarray) -> bool:
        nb = accel.use_numba(predict.size)
        if nb is None or predict.shape != label.shape or predict.size == 0:
            return False
        if reduction == "none":
            views = accel.elementwise_views(out, predict, label)
            if views is None or predict.size != out.size:
                return False
            kind, o, (p, lab) = views
            nb.ew.smooth_l1_loss(kind, p, lab, o, s32, m2_bias, inv)
            return True
        kb = accel.same_kind_bits(predict, label)
        if kb is None:
            return False
        kind, (p, lab) = kb
        losses = np.empty(predict.size, np.float32)
        nb.ew.smooth_l1_loss_f32(kind, p, lab, losses, s32, m2_bias, inv)
        total = F32(nb.red.sum_lanes_flat(losses) if recipe == "tbe" else nb.red.sum_ar_flat(losses))
        if reduction == "mean":
            factor = tbe_mean_factor(shape) if recipe == "tbe" else arch35_mean_factor(shape)
            with np.errstate(all="ignore"):
                total = _f32(total * factor)
        store(out, np.asarray(total, dtype=np.float32).reshape(out.shape))
        return True

    fast = _fast_loss(sigma, inv)

    def general(p: np.ndarray, lab: np.ndarray) -> np.ndarray:
        return loss(p, lab, sigma, inv)

    def losses(predict: np.ndarray, label: np.ndarray, out: np.ndarray) -> None:
        """The element-wise losses into ``out`` (predict's shape), by the fast form when it may."""
        if fast is None or not run_blocks(fast(), general, [predict, label], out, _nan_add_positive_quiet()):
            run_elementwise(general, [predict, label], out)

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        predict, label, out = ins[0], ins[1], outs[0]
        if _numba_path(predict, label, out):
            return "numba"
        if reduction == "none":
            losses(predict, label, out)
        else:
            r = np.empty(np.broadcast_shapes(predict.shape, label.shape), np.float32)
            losses(predict, label, r)  # float32 losses (a NaN canonical: the sum is NaN either way)
            total = reduce(r, recipe, reduction, shape)
            store(out, np.asarray(total, dtype=np.float32).reshape(out.shape))
        return "numpy"

    return compute
