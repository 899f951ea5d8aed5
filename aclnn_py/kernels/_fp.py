"""Float helpers shared by the recipes, and the chunked runner for elementwise recipes."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

# elements per block: a recipe's temporaries (1 MiB of float32) stay in the L3 cache. 2^18 rather
# than 2^16 (which kept them in L2): ~10% less time on the float32 and bfloat16 numpy paths (geometric
# mean of two alternating bench runs at 2^24; Hardswish, SmoothL1Loss(Backward) 13-18%): each block
# costs ~10 us of Python and ufunc calls, and the passes stream from L3 about as fast as from L2
CHUNK = 1 << 18


def _raise_malloc_thresholds() -> None:
    """Allocate and free 16 MiB once, so that glibc keeps the recipes' freed temporaries.

    A block's temporaries (1 MiB of float32 each) are over glibc's initial threshold for
    mapping a chunk of its own (128 KiB), and the memory freed between blocks goes back to the
    system (trimmed when over twice that threshold): every block then page-faults its
    temporaries anew (float16 Hardswish on 2^22 elements: 10,240 faults and 61 ms a call; 0 and
    35 ms after this). glibc raises both thresholds when a mapped chunk of up to 32 MiB is freed
    (documented in mallopt(3), M_MMAP_THRESHOLD), as most long-running numpy programs, and the
    bench, do early anyway: this does it deliberately, once. Other allocators ignore it; a
    process that fixed the thresholds itself (mallopt, MALLOC_MMAP_THRESHOLD_) keeps them."""
    np.empty(16 << 20, np.uint8)  # never touched: no page is faulted in


_raise_malloc_thresholds()

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


def has_nan(block: np.ndarray) -> bool:
    """Whether a float block holds a NaN, by one reduction: numpy's maximum propagates a NaN
    operand (documented; every payload, signalling ones too: tested), and a max reduction is
    about 1.5x cheaper than ``np.isnan(block).any()`` (a mask pass, then a scan).

    Call it under ``np.errstate(invalid="ignore")``, as every kernel runs (a signalling NaN
    raises the invalid flag): entering an errstate here would cost more than the reduction of a
    block (~5 us)."""
    return block.size > 0 and bool(np.isnan(np.maximum.reduce(block, axis=None)))


CANONICAL_NAN = F32(np.nan)  # 0x7FC00000: 0x7E00 in float16, 0x7FC0 in bfloat16


def store(out: np.ndarray, r: np.ndarray) -> None:
    """Write a kernel's float32 result into ``out``, rounding once (half to even) to out's dtype.

    float32 -> float16 (numpy) and float32 -> bfloat16 (ml_dtypes) are both correctly rounded,
    half to even; overflow gives +-inf. Every NaN result is written as the canonical quiet NaN:
    which NaN an operation propagates is a detail of the instruction set (x86 keeps the first
    operand's, SIMD loops may swap operands), and the chip's is not documented."""
    with np.errstate(all="ignore"):
        # a real float result: one max reduction rules NaNs out (has_nan); else the mask itself
        if not (isinstance(r, np.ndarray) and r.dtype.kind == "f") or has_nan(r):
            nan = np.isnan(r)
            if nan.any():
                r = np.where(nan, CANONICAL_NAN, r)
        out[...] = r if out.dtype == np.float32 else r.astype(out.dtype)


def worth_blocks(out: np.ndarray) -> bool:
    """Whether a call writing ``out`` gains from a blocked fast form: above one block (CHUNK
    elements), where the recipe's whole-array temporaries leave the cache. A smaller call runs
    the recipe once: a fast form's layout work costs it more (10 elements: Hardswish 11 us as
    the recipe, 26 us as the fast form)."""
    return out.size > CHUNK


def run_elementwise(recipe: Callable[..., np.ndarray], inputs: list[np.ndarray], out: np.ndarray) -> None:
    """Apply an elementwise float32 recipe block by block and store the result.

    When the layout allows (:func:`blocks`: contiguous, each input of the output's size, a
    single element or a row broadcast, no overlap with the output but as the output itself) the
    recipe runs on blocks of about CHUNK elements: the numbers are the same (each element is
    computed alone, from the same operand values), the temporaries stay small and in the cache.
    Otherwise it runs once on the whole arrays."""
    parts = blocks(inputs, out) if out.size > CHUNK else None
    if parts is None:
        store(out, recipe(*inputs))
        return
    for block, ins in parts:
        store(block, recipe(*ins))


def aliases(inputs: Sequence[np.ndarray], out: np.ndarray) -> bool:
    """Whether an input overlaps the output other than as the very same view (same start,
    shape, strides and item size): blocks would then read what an earlier block wrote."""
    oi = out.__array_interface__
    for a in inputs:
        if a.size != 1 and np.may_share_memory(a, out):
            ai = a.__array_interface__
            same = ai["data"][0] == oi["data"][0] and a.shape == out.shape and a.strides == out.strides
            if not (same and a.dtype.itemsize == out.dtype.itemsize):
                return True
    return False


def run_ufunc(ufunc: Callable[..., np.ndarray], inputs: list[np.ndarray], out: np.ndarray) -> None:
    """``out = ufunc(*inputs)`` of one IEEE operation per element, NaN results canonical.

    For float32 inputs and output of the layouts :func:`blocks` takes (same shape, scalar
    operand, row broadcast) the ufunc writes straight into blocks of ``out`` and only a block
    holding a NaN is rewritten: the same numbers, without the temporaries. Anything else is
    :func:`run_elementwise`."""
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
    parts = None
    if out.dtype == np.float32 and all(a.dtype == np.float32 for a in inputs):
        parts = blocks(inputs, out)
    if parts is None:
        run_elementwise(ufunc, inputs, out)
        return
    with np.errstate(all="ignore"):
        for block, ins in parts:
            ufunc(*ins, out=block)
            if has_nan(block):
                block[np.isnan(block)] = CANONICAL_NAN


def _row_shape(a: np.ndarray, out_shape: tuple[int, ...]) -> bool:
    """Whether ``a``'s shape, without its leading 1s, is the output's trailing shape (a row
    broadcast: ``a`` repeats every ``a.size`` elements of the flat output)."""
    shape = a.shape
    while shape and shape[0] == 1:
        shape = shape[1:]
    k = len(shape)
    return 0 < k <= len(out_shape) and tuple(out_shape[len(out_shape) - k :]) == shape


Blocks = Iterator[tuple[np.ndarray, list[np.ndarray]]]


def blocks(
    inputs: Sequence[np.ndarray], out: np.ndarray, tile_scalars: bool = False, length: int | None = None
) -> Blocks | None:
    """The (output block, input blocks) pairs that cover ``out`` in pieces of about ``length``
    (CHUNK) elements, at most ``length`` each, or None when the layout does not allow them (the
    caller then computes once on the whole arrays).

    Allowed: a C-contiguous output and C-contiguous inputs that each have the output's size, a
    single element (a scalar operand) or a row shape (:func:`_row_shape`: a row or trailing
    block that repeats along the leading dimensions), none overlapping the output other than as
    the output itself (a block would then read what an earlier block wrote). Without row
    operands the blocks are flat slices of ``length`` elements. With them, each block is whole
    rows of the longest row's length ``m`` (length // m rows, at least one), still flat, and a row
    operand is passed tiled to the block's length (tiled once per call); when ``m`` exceeds
    ``length`` every row operand must have that length and a block is a piece of one row. Each
    element sees the same operand values as in one whole-array call, so an elementwise recipe
    gives the same numbers (every caller's recipe is per element: smooth_l1's arch35 takes its
    whole-tensor scalar-dout choice as an argument, not from a block's size).
    ``tile_scalars``: a single element is tiled too, as a row of one (some numpy loops, e.g.
    fmax/fmin, are slower with a scalar operand than with two arrays)."""
    n = out.size
    length = CHUNK if length is None else length
    if not out.flags.c_contiguous or aliases(inputs, out):
        return None
    kinds: list[int] = []  # 0: full size, 1: single element, 2: row
    m = 0
    for a in inputs:
        if not a.flags.c_contiguous:
            return None
        if a.size == n:
            kinds.append(0)
        elif a.size == 1:
            kinds.append(2 if tile_scalars else 1)
            m = max(m, 1) if tile_scalars else m
        elif _row_shape(a, out.shape):
            kinds.append(2)
            m = max(m, a.size)
        else:
            return None
    flat_out = out.reshape(-1)
    # a single element is copied: it may be an element of out, which an earlier block rewrites
    flats = [a.reshape(-1).copy() if a.size == 1 else a.reshape(-1) for a in inputs]
    if m == 0:
        return _flat_blocks(flat_out, flats, kinds, n, length)
    if m <= length:
        return _row_blocks(flat_out, flats, kinds, n, m, length)
    kinds = [1 if a.size == 1 else k for a, k in zip(flats, kinds)]  # long rows: scalars as they are
    if any(k == 2 and a.size != m for a, k in zip(flats, kinds)):
        return None
    return _long_row_blocks(flat_out, flats, kinds, n, m, length)


def _flat_blocks(flat_out: np.ndarray, flats: list[np.ndarray], kinds: list[int], n: int, length: int) -> Blocks:
    for start in range(0, n, length):
        stop = min(start + length, n)
        yield flat_out[start:stop], [a if k else a[start:stop] for a, k in zip(flats, kinds)]


def _row_blocks(flat_out: np.ndarray, flats: list[np.ndarray], kinds: list[int], n: int, m: int, length: int) -> Blocks:
    step = min(max(length // m, 1) * m, n)  # whole rows (n is whole rows too): a small call tiles little
    # each row operand tiled once to a whole block (it stays in the cache): the blocks are then
    # flat, as in the same-shape layout, and numpy runs its contiguous loops (about 1.3x faster
    # than broadcasting a row over a 2-d block)
    tiled = [np.tile(a, step // a.size) if k == 2 else a for a, k in zip(flats, kinds)]
    for start in range(0, n, step):
        stop = min(start + step, n)
        size = stop - start
        yield (
            flat_out[start:stop],
            [a[start:stop] if k == 0 else (t if k == 1 else t[:size]) for a, t, k in zip(flats, tiled, kinds)],
        )


def _long_row_blocks(
    flat_out: np.ndarray, flats: list[np.ndarray], kinds: list[int], n: int, m: int, length: int
) -> Blocks:
    for base in range(0, n, m):
        for col in range(0, m, length):
            end = min(col + length, m)
            start, stop = base + col, base + end
            ins = [a[start:stop] if k == 0 else (a if k == 1 else a[col:end]) for a, k in zip(flats, kinds)]
            yield flat_out[start:stop], ins


BlockKernel = Callable[[Sequence[np.ndarray], np.ndarray], None]


def run_blocks(
    kernel: BlockKernel,
    general: Callable[..., np.ndarray],
    inputs: Sequence[np.ndarray],
    out: np.ndarray,
    canonical: bool = False,
) -> bool:
    """Run a float32 block kernel (a recipe's fast form) over ``out`` in pieces of about CHUNK
    elements, any layout (inputs broadcast to out's shape, strided or not); False (nothing
    written) when the output is 0-d or empty or an input overlaps it, for the caller's general
    path.

    The layouts :func:`blocks` takes run in its flat blocks; any other in pieces cut along the
    leading axes. ``kernel(ins, r)`` writes the float32 result of one piece into ``r``, reading
    its float32 inputs before its last operation writes ``r`` (``r`` may be the output's own
    piece, which an input may be). A piece whose result holds a NaN is computed again by
    ``general`` (the exact recipe) and stored through :func:`store`, which writes the canonical
    NaN: so a kernel need only be exact for NaN-free results. ``canonical``: the kernel is exact
    for every input and writes each NaN as the canonical one itself (no check)."""
    if out.ndim == 0 or out.size == 0 or aliases(inputs, out):
        return False
    # a single element is copied: it may be an element of out, which an earlier piece rewrites
    inputs = [a.copy() if a.size == 1 else a for a in inputs]
    # the kernel writes the output's piece itself unless an input is that piece (the general
    # path may have to read it again) or the output is not float32 C-contiguous
    direct = (
        out.dtype == np.float32
        and out.flags.c_contiguous
        and not any(a.size > 1 and np.may_share_memory(a, out) for a in inputs)
    )
    # float32 buffers of the call, one per (slot, piece shape): slot -1 the result, i input i's
    # float32 copy (a new array a piece, 1 MiB, page-faults whenever malloc gives the memory back
    # between pieces)
    bufs: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def buffer(slot: int, shape: tuple[int, ...]) -> np.ndarray:
        buf = bufs.get((slot, shape))
        if buf is None:
            buf = bufs[slot, shape] = np.empty(shape, np.float32)
        return buf

    def up(ins: list[np.ndarray]) -> list[np.ndarray]:
        ups = []
        for i, v in enumerate(ins):
            if v.dtype != np.float32:
                buf = buffer(i, v.shape)
                np.copyto(buf, v)  # exact, as f32()
                v = buf
            ups.append(v)
        return ups

    def piece(ins: list[np.ndarray], o: np.ndarray) -> None:
        r = o if direct else buffer(-1, o.shape)
        kernel(ins, r)
        if not canonical and has_nan(r):
            store(o, general(*ins))
        elif not direct:
            o[...] = r if o.dtype == np.float32 else r.astype(o.dtype)

    parts = blocks(inputs, out)
    with np.errstate(all="ignore"):
        if parts is not None:  # same shape, single elements, rows: flat pieces
            for o, ins in parts:
                piece(up(ins), o)
        else:
            bviews = [np.broadcast_to(a, out.shape) for a in inputs]
            for idx in _pieces(out.shape):
                piece(up([v[idx] for v in bviews]), out[idx])
    return True


def _pieces(shape: tuple[int, ...]) -> Iterator[tuple[int | slice, ...]]:
    """Index tuples that cover an array of ``shape`` (ndim >= 1) in pieces of about CHUNK
    elements, cut along the leading axes (so every piece of a C-contiguous array is contiguous)."""
    inner = 1
    for n in shape[1:]:
        inner *= n
    if len(shape) > 1 and inner > CHUNK:
        for i in range(shape[0]):
            for sub in _pieces(shape[1:]):
                yield (i, *sub)
        return
    step = max(1, CHUNK // max(inner, 1))
    for i in range(0, shape[0], step):
        yield (slice(i, i + step),)
