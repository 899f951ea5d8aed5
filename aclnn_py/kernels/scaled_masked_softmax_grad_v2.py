"""ScaledMaskedSoftmaxGradV2: softmax backward over the last dim, then scale, then mask.

Rows are the B*N*S1 rows of length D; each row is padded with zeros to P = ceil(D/64)*64.
Inputs are upcast to float32; all arithmetic is float32, summed in the hardware's order:

``norm`` path (P <= 1024), AscendC SoftmaxGrad on v220::

    p   = y * g
    B_c = tree8 of each group of 8 in chunk c (8 values per 64-chunk)
    acc = B_0 + B_1 + ... (element-wise, sequential over chunks)
    s   = tree8(acc)
    out = y * (g - s)

``large`` path (P > 1024)::

    p   = g * y
    s   = zero-padded pair tree over chunks of (tree64 of each 64-chunk)
    out = p - y * s

then, on both paths: ``out *= float32(scale)`` unless float32(scale) == 1, and positions whose
mask byte is non-zero become +0.0 (after the scale, whatever the data). The mask broadcasts
over B and N. ``treeK`` is the adjacent-pair binary tree ``((a0+a1)+(a2+a3))+...``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import accel
from ._fp import F32, f32, select, store

ALIGN = 64
MAX_NORM_HEAD_DIM = 1024


def pair_tree(a: np.ndarray) -> np.ndarray:
    """Sum the last axis (length a power of two) by the adjacent-pair tree, in float32."""
    while a.shape[-1] > 1:
        a = a[..., 0::2] + a[..., 1::2]
    return a[..., 0]


def _pad_rows(p: np.ndarray, width: int) -> np.ndarray:
    rows, d = p.shape
    if d == width:
        return p
    out = np.zeros((rows, width), dtype=np.float32)
    out[:, :d] = p
    return out


def row_sums_norm(p: np.ndarray) -> np.ndarray:
    """Σ of each row of ``p`` (rows, D) in the norm path's blocked order."""
    rows, d = p.shape
    padded = _pad_rows(p, -(-d // ALIGN) * ALIGN)
    blocks = pair_tree(padded.reshape(rows, -1, 8, 8))  # (rows, chunks, 8)
    acc = blocks[:, 0, :]
    for c in range(1, blocks.shape[1]):
        acc = acc + blocks[:, c, :]
    return pair_tree(acc)


def row_sums_large(p: np.ndarray) -> np.ndarray:
    """Σ of each row in the large path's order: tree64 per chunk, then a zero-padded tree."""
    rows, d = p.shape
    padded = _pad_rows(p, -(-d // ALIGN) * ALIGN)
    partial = pair_tree(padded.reshape(rows, -1, ALIGN))  # (rows, chunks)
    chunks = partial.shape[1]
    width = 1 << (chunks - 1).bit_length()
    return pair_tree(_pad_rows(partial, width))


def compute_f32(grad: np.ndarray, y: np.ndarray, mask: np.ndarray, scale: float) -> np.ndarray:
    """The recipe; returns float32 of grad's shape. ``scale`` is already a float32 value."""
    with np.errstate(all="ignore"):
        shape = grad.shape
        d = shape[-1]
        g = f32(grad).reshape(-1, d)
        yf = f32(y).reshape(-1, d)
        if -(-d // ALIGN) * ALIGN <= MAX_NORM_HEAD_DIM:
            s = row_sums_norm(yf * g)
            out = yf * (g - s[:, None])
        else:
            p = g * yf
            s = row_sums_large(p)
            out = p - yf * s[:, None]
        out = out.reshape(shape)
        sc = F32(scale)
        if sc != F32(1):
            out = out * sc
        masked = mask.view(np.uint8) != 0  # at the mask's own shape: select broadcasts it
        return select(masked, F32(0), out)


def make(scale: float) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation: inputs (yGrad, y, mask), output xGrad in yGrad's dtype.
    Returns the kernel path it took."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        grad, y, mask = ins
        out = outs[0]
        nb = accel.use_numba()
        if nb is not None and mask.flags.c_contiguous:
            kb = accel.same_kind_bits(grad, y, out)
            if kb is not None:
                kind, (g, yb, o) = kb
                b, n, s, d = grad.shape
                sc = F32(scale)
                nb.scaled_masked_softmax_grad(
                    g, yb, mask.reshape(-1).view(np.uint8), o, kind, b * n * s, d,
                    mask.shape[0] != 1 or b == 1, mask.shape[1] != 1 or n == 1, n, s, sc, sc != F32(1),
                )  # fmt: skip
                return "numba"
        store(out, compute_f32(grad, y, mask, scale))
        return "numpy"

    return compute
