"""ScaledMaskedSoftmaxV2: softmax over the last dim of ``scale * x`` with masked positions set to
-10000, per chip.

Rows are the B*N*S rows of D elements; the mask (bool bytes, non-zero = masked) broadcasts over
B and N. Per row:

1. scale and mask: float32 ``s = x * float(scale)``; float16 multiplies in float16 by
   ``half(float(scale))`` (rounded to nearest even) and fills masked positions with
   ``half(-10000)`` before widening to float32; bfloat16 widens first. A masked position is
   -10000 whatever x holds (NaN, inf);
2. ``m = max(s)``, ``e = exp(s - m)`` (the subtraction rounded to float32, then the vector Exp);
3. ``S`` = the float32 sum of the row's ``e`` in the AscendC SoftMax order of the chip (``treeK``
   is the adjacent-pair tree ``((a0+a1)+(a2+a3))+...``, every add rounded to float32):

   * D <= 64 (both): tree64 of the D values (the other lanes +0);
   * ``v220`` (Ascend910B, 910_93), D > 64: 64 lanes ``acc = e[0:64]``, or for D >= 512
     ``acc[l] = tree8(e[8l : 8l+8])`` over the first 512; then ``acc += e[64c : 64c+64]`` for the
     following whole chunks, ``acc[l] += e[64n + l]`` for the tail; ``S = tree64(acc)``;
   * ``3510`` (Ascend950), D > 64: ``acc = +0``; ``acc += e[64c : 64c+64]`` chunk after chunk (the
     last one padded with +0); ``S = tree64(acc)``;

4. ``y = e / S`` (the vector Div), narrowed to x's dtype by round half to even.

The vector Exp and Div are the hardware's (at most 1 ulp from exact on Ascend950, unspecified on
the v220 chips): aclnn_py uses numpy's float32 ``exp`` and IEEE float32 division, so the results
are those of the chip's order of operations up to the last bit of ``e`` and ``y``. On Ascend950
both instructions flush subnormal results to zero (documented default), which aclnn_py does too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import accel
from ._fp import F32, f32, store
from .scaled_masked_softmax_grad_v2 import pair_tree

MASK_VAL = F32(-10000.0)
LANES = 64
BIG_BLOCK = 512  # SOFTMAX_FLOAT_SPECIAL_BLOCKREDUCE_LEN: from here v220 starts with blocks of 8
FLT_MIN = F32(np.finfo(np.float32).tiny)

ARCH_OF_NPU = {"DAV_2201": "v220", "DAV_3510": "3510"}


def scaled_masked(x: np.ndarray, mask: np.ndarray, scale: float) -> np.ndarray:
    """Step 1: the float32 ``s`` of x's shape (``scale`` is already a float32 value)."""
    masked = np.broadcast_to(mask.view(np.uint8) != 0, x.shape)
    with np.errstate(all="ignore"):
        if x.dtype == np.float16:
            s16 = x * np.float16(F32(scale))  # the half-precision Muls
            return np.asarray(np.where(masked, np.float16(MASK_VAL), s16), dtype=np.float32)
        s = f32(x) * F32(scale)
        return np.asarray(np.where(masked, MASK_VAL, s), dtype=np.float32)


def _pad(a: np.ndarray, width: int) -> np.ndarray:
    rows, d = a.shape
    if d == width:
        return a
    out = np.zeros((rows, width), np.float32)
    out[:, :d] = a
    return out


def row_sums(e: np.ndarray, arch: str) -> np.ndarray:
    """Step 3 for every row of ``e`` (rows, D)."""
    rows, d = e.shape
    if d <= LANES:
        return pair_tree(_pad(e, LANES))
    n, t = divmod(d, LANES)
    if arch == "3510":
        acc = np.zeros((rows, LANES), np.float32)
        padded = _pad(e, -(-d // LANES) * LANES)
        for c in range(padded.shape[1] // LANES):
            acc = acc + padded[:, c * LANES : (c + 1) * LANES]
        return pair_tree(acc)
    if d >= BIG_BLOCK:
        acc = pair_tree(e[:, :BIG_BLOCK].reshape(rows, LANES, 8))
        first = BIG_BLOCK // LANES
    else:
        acc = e[:, :LANES].copy()
        first = 1
    for c in range(first, n):
        acc = e[:, c * LANES : (c + 1) * LANES] + acc
    if t:
        acc[:, :t] = acc[:, :t] + e[:, n * LANES :]
    return pair_tree(acc)


def _flush_subnormals(a: np.ndarray) -> np.ndarray:
    return np.where(np.abs(a) < FLT_MIN, F32(0), a)


def softmax_rows(s: np.ndarray, arch: str) -> np.ndarray:
    """Steps 2-4 in float32 on (rows, D)."""
    with np.errstate(all="ignore"):
        m = np.max(s, axis=1, keepdims=True)
        e = np.exp(s - m)
        if arch == "3510":
            e = _flush_subnormals(e)
        y = e / row_sums(e, arch)[:, None]
        return _flush_subnormals(y) if arch == "3510" else y


def compute_f32(x: np.ndarray, mask: np.ndarray, scale: float, arch: str) -> np.ndarray:
    """The whole recipe; float32 of x's shape."""
    d = x.shape[-1]
    s = scaled_masked(x, mask, scale).reshape(-1, d)
    return softmax_rows(s, arch).reshape(x.shape)


EXP_BLOCK = 1 << 16  # elements per block of the compiled path


def _numba_path(x: np.ndarray, mask: np.ndarray, out: np.ndarray, scale: float, arch: str) -> bool:
    """The compiled path for a 4-d x (B, N, S, D) and a contiguous mask (B or 1, N or 1, S, D):
    block by block, the kernel writes ``s - max(s)`` as float32, numpy's ``np.exp`` takes the
    block (the recipe's exponential, bit for bit), the kernel sums, divides and stores."""
    nb = accel.use_numba(x.size)
    if nb is None or x.ndim != 4 or mask.ndim != 4 or x.size == 0 or out.shape != x.shape:
        return False
    b, n, s_dim, d = x.shape
    if mask.shape[2:] != (s_dim, d) or mask.shape[0] not in (1, b) or mask.shape[1] not in (1, n):
        return False
    kb, ob = accel.kind_and_bits(x), accel.kind_and_bits(out)
    if kb is None or ob is None or kb[0] != ob[0] or not mask.flags.c_contiguous or np.may_share_memory(x, out):
        return False
    kind, xb, ob16 = kb[0], kb[1].view(np.uint16), ob[1].view(np.uint16)  # one signature for the three kinds
    # numba is loaded (use_numba said so): the kernels' module may be imported now
    from . import _numba_softmax as smx

    m8 = mask.reshape(-1).view(np.uint8)
    if not m8.flags.writeable:
        m8 = m8.copy()
    sc = F32(scale)
    sc16 = F32(np.float16(sc))
    rows = b * n * s_dim
    per = max(1, EXP_BLOCK // d)
    e = np.empty(min(per, rows) * d, np.float32)
    with np.errstate(all="ignore"):
        for row0 in range(0, rows, per):
            cnt = min(per, rows - row0)
            blk = e[: cnt * d]
            smx.scaled_masked_prep(
                kind, xb, m8, row0, cnt, d, n, s_dim, mask.shape[0] != 1 or b == 1, mask.shape[1] != 1 or n == 1,
                sc, sc16, blk,
            )  # fmt: skip
            np.exp(blk, out=blk)
            smx.scaled_masked_finish(kind, arch == "3510", blk, ob16, row0, cnt, d)
    return True


def make(scale: float, arch: str) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation: inputs (x, mask), output y (x's shape and dtype)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, mask = ins
        if _numba_path(x, mask, outs[0], scale, arch):
            return "numba"
        store(outs[0], compute_f32(x, mask, scale, arch))
        return "numpy"

    return compute
