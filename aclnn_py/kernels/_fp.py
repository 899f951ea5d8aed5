"""Float helpers shared by the recipes, and the chunked runner for elementwise recipes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

CHUNK = 1 << 16  # elements per block: the temporaries of a recipe stay in the cache

F32 = np.float32


def f32(a: np.ndarray) -> np.ndarray:
    """Exact upcast of a float16/bfloat16/float32 array to float32 (a copy only if needed)."""
    return a if a.dtype == np.float32 else a.astype(np.float32)


def select(cond: np.ndarray, a: np.ndarray | np.floating, b: np.ndarray | np.floating) -> np.ndarray:
    """``np.where(cond, a, b)`` for float32 operands, as a bit select ``b ^ ((a ^ b) & mask)``.

    The same bits as np.where (nothing is computed, bits are chosen), but no branch per
    element: np.where is about 3x slower on the unpredictable masks these recipes make."""
    mask = np.negative(cond, dtype=np.int32).view(np.uint32)  # True -> all ones
    ab = np.asarray(a, dtype=np.float32).view(np.uint32)
    bb = np.asarray(b, dtype=np.float32).view(np.uint32)
    r = np.asarray(np.bitwise_and(np.bitwise_xor(ab, bb), mask))
    np.bitwise_xor(r, bb, out=r)
    return r.view(np.float32)


CANONICAL_NAN = F32(np.nan)  # 0x7FC00000: 0x7E00 in float16, 0x7FC0 in bfloat16


def store(out: np.ndarray, r: np.ndarray) -> None:
    """Write a kernel's float32 result into ``out``, rounding once (half to even) to out's dtype.

    float32 -> float16 (numpy) and float32 -> bfloat16 (ml_dtypes) are both correctly rounded,
    half to even; overflow gives +-inf. Every NaN result is written as the canonical quiet NaN:
    which NaN an operation propagates is a detail of the instruction set (x86 keeps the first
    operand's, SIMD loops may swap operands), and the chip's is not documented."""
    with np.errstate(all="ignore"):
        nan = np.isnan(r)
        if nan.any():
            r = np.where(nan, CANONICAL_NAN, r)
        out[...] = r if out.dtype == np.float32 else r.astype(out.dtype)


def run_elementwise(recipe: Callable[..., np.ndarray], inputs: list[np.ndarray], out: np.ndarray) -> None:
    """Apply an elementwise float32 recipe block by block and store the result.

    When every input is contiguous and either the output's size or a single element (no real
    broadcast), the recipe runs on blocks of CHUNK elements: the numbers are the same (each
    element is computed alone), the temporaries stay small and in the cache. Otherwise it runs
    once on the whole arrays."""
    n = out.size
    simple = out.flags.c_contiguous and all(a.flags.c_contiguous and a.size in (n, 1) for a in inputs)
    if not simple or n <= CHUNK:
        store(out, recipe(*inputs))
        return
    flat_out = out.reshape(-1)
    flats = [a.reshape(-1) for a in inputs]
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        store(flat_out[start:stop], recipe(*[a if a.size == 1 else a[start:stop] for a in flats]))


def _aliases(inputs: list[np.ndarray], out: np.ndarray) -> bool:
    """Whether an input overlaps the output other than as the output itself (blocks would then
    read what an earlier block wrote)."""
    for a in inputs:
        if a.size != 1 and np.may_share_memory(a, out):
            same = a.__array_interface__["data"][0] == out.__array_interface__["data"][0] and a.size == out.size
            if not (same and a.dtype.itemsize == out.dtype.itemsize):
                return True
    return False


def run_ufunc(ufunc: Callable[..., np.ndarray], inputs: list[np.ndarray], out: np.ndarray) -> None:
    """``out = ufunc(*inputs)`` of one IEEE operation per element, NaN results canonical.

    For float32 inputs and output of the simple layouts (see :func:`run_elementwise`) the ufunc
    writes straight into blocks of ``out`` and only a block holding a NaN is rewritten: the same
    numbers, without the temporaries. Anything else is :func:`run_elementwise`."""
    n = out.size
    if n <= CHUNK and out.dtype == np.float32 and all(a.dtype == np.float32 for a in inputs):
        # one block: the ufunc broadcasts and handles overlap itself (it buffers an input that
        # overlaps the output); a small call pays for no layout checks
        with np.errstate(all="ignore"):
            ufunc(*inputs, out=out)
            nan = np.isnan(out)
            if nan.any():
                out[nan] = CANONICAL_NAN
        return
    simple = (
        out.dtype == np.float32
        and out.flags.c_contiguous
        and all(a.dtype == np.float32 and a.flags.c_contiguous and a.size in (n, 1) for a in inputs)
        and not _aliases(inputs, out)
    )
    if not simple:
        run_elementwise(ufunc, inputs, out)
        return
    flat_out = out.reshape(-1)
    flats = [a.reshape(-1) for a in inputs]
    with np.errstate(all="ignore"):
        for start in range(0, n, CHUNK):
            stop = min(start + CHUNK, n)
            block = flat_out[start:stop]
            ufunc(*[a if a.size == 1 else a[start:stop] for a in flats], out=block)
            nan = np.isnan(block)
            if nan.any():
                block[nan] = CANONICAL_NAN
