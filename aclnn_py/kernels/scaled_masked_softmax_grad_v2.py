"""ScaledMaskedSoftmaxGradV2: softmax backward over the last dim, then scale, then mask.

Rows are the B*N*S1 rows of length D; each row is padded with zeros to P = ceil(D/64)*64.
Inputs are upcast to float32; all arithmetic is float32, summed in the order of the AscendC
SoftmaxGrad of each architecture (``treeK`` is the adjacent-pair tree ``((a0+a1)+(a2+a3))+...``,
``W_c`` the tree64 of the c-th 64-element chunk of ``p``):

``norm`` path (P <= 1024), ``p = y * g``, ``out = y * (g - s)`` with ``s`` by architecture:

* ``v220`` (Ascend910B, Ascend910_93): ``B_c`` = tree8 of each group of 8 in chunk c;
  ``acc = B_0 + B_1 + ...`` (8 lanes, chunk after chunk); ``s = tree8(acc)``;
* ``v200`` (Ascend310P): ``s = ((W_0 + W_1) + W_2) + ...`` (chunk sums added in sequence);
* ``3510`` (Ascend950): 64 lanes from +0.0, ``acc[l] += p[64c + l]`` chunk after chunk;
  ``s = tree64(acc)``.

``large`` path (P > 1024), every architecture: ``p = g * y``, ``s = tree64`` of the chunk sums
in a 64-slot tree whose unused slots are 0, ``out = p - y * s``. On ``3510`` the second
reduction takes 64 lanes at most, so for D > 4096 ``s`` covers the first 4096 columns only
(what the kernel computes; the sanitizer reports it).

then, on both paths: ``out *= float32(scale)`` unless float32(scale) == 1, and positions whose
mask byte is non-zero become +0.0 (after the scale, whatever the data). The mask broadcasts
over B and N.

On ``v200`` with D not a multiple of 64 the kernel's row copies are mis-sized (its behaviour is
undefined): the output is left as the poison pattern (0xFF bytes, NaN) and the sanitizer says so.
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


ARCHS = ("v220", "v200", "3510")
ARCH_OF_NPU = {"DAV_2201": "v220", "DAV_2002": "v200", "DAV_3510": "3510"}
REGBASE_REDUCE_LANES = 64  # the 3510 second reduction: one 64-lane register


def arch_for(npu_arch: str) -> str:
    """The SoftmaxGrad implementation compiled for an NPU architecture."""
    return ARCH_OF_NPU[npu_arch]


def undefined_on(arch: str, d: int) -> bool:
    """The kernel's behaviour is undefined: 310P's row copies assume D % 64 == 0."""
    return arch == "v200" and d % ALIGN != 0


def row_sums_norm(p: np.ndarray, arch: str = "v220") -> np.ndarray:
    """Σ of each row of ``p`` (rows, D) in the norm path's order of ``arch``."""
    rows, d = p.shape
    padded = _pad_rows(p, -(-d // ALIGN) * ALIGN)
    if arch == "v220":
        blocks = pair_tree(padded.reshape(rows, -1, 8, 8))  # (rows, chunks, 8)
        acc = blocks[:, 0, :]
        for c in range(1, blocks.shape[1]):
            acc = acc + blocks[:, c, :]
        return pair_tree(acc)
    if arch == "v200":
        chunk_sums = pair_tree(padded.reshape(rows, -1, ALIGN))  # (rows, chunks)
        s = chunk_sums[:, 0]
        for c in range(1, chunk_sums.shape[1]):
            s = s + chunk_sums[:, c]
        return s
    lanes = padded.reshape(rows, -1, ALIGN)
    acc = np.zeros((rows, ALIGN), np.float32)
    for c in range(lanes.shape[1]):
        acc = acc + lanes[:, c, :]
    return pair_tree(acc)


def row_sums_large(p: np.ndarray, arch: str = "v220") -> np.ndarray:
    """Σ of each row in the large path's order: tree64 per chunk, then a 64-slot tree."""
    rows, d = p.shape
    padded = _pad_rows(p, -(-d // ALIGN) * ALIGN)
    partial = pair_tree(padded.reshape(rows, -1, ALIGN))  # (rows, chunks)
    if arch == "3510":
        partial = partial[:, :REGBASE_REDUCE_LANES]
    return pair_tree(_pad_rows(partial, ALIGN))


def compute_f32(grad: np.ndarray, y: np.ndarray, mask: np.ndarray, scale: float, arch: str = "v220") -> np.ndarray:
    """The recipe; returns float32 of grad's shape. ``scale`` is already a float32 value."""
    with np.errstate(all="ignore"):
        shape = grad.shape
        d = shape[-1]
        g = f32(grad).reshape(-1, d)
        yf = f32(y).reshape(-1, d)
        if -(-d // ALIGN) * ALIGN <= MAX_NORM_HEAD_DIM:
            s = row_sums_norm(yf * g, arch)
            out = yf * (g - s[:, None])
        else:
            p = g * yf
            s = row_sums_large(p, arch)
            out = p - yf * s[:, None]
        out = out.reshape(shape)
        sc = F32(scale)
        if sc != F32(1):
            out = out * sc
        masked = mask.view(np.uint8) != 0  # at the mask's own shape: select broadcasts it
        return select(masked, F32(0), out)


def make(scale: float, arch: str = "v220") -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation: inputs (yGrad, y, mask), output xGrad in yGrad's dtype.
    Returns the kernel path it took."""
    arch_index = ARCHS.index(arch)

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        grad, y, mask = ins
        out = outs[0]
        if undefined_on(arch, grad.shape[-1]):
            out.view(np.uint8)[...] = 0xFF  # mis-sized row copies: nothing defined is written
            return "undefined"
        nb = accel.use_numba(outs[0].size)
        if nb is not None and mask.flags.c_contiguous:
            kb = accel.same_kind_bits(grad, y, out)
            if kb is not None:
                kind, (g, yb, o) = kb
                b, n, s, d = grad.shape
                sc = F32(scale)
                nb.scaled_masked_softmax_grad(
                    g, yb, mask.reshape(-1).view(np.uint8), o, kind, b * n * s, d,
                    mask.shape[0] != 1 or b == 1, mask.shape[1] != 1 or n == 1, n, s, sc, sc != F32(1), arch_index,
                )  # fmt: skip
                return "numba"
        store(out, compute_f32(grad, y, mask, scale, arch))
        return "numpy"

    return compute
