"""The ReduceSum kernels (and the summation orders the Softmax kernels share).

Floating inputs are summed in float32 (float16 and bfloat16 are upcast exactly first, as both
CANN kernel families do) and the result is rounded once to the output dtype (half to even).
Integers are summed in their own dtype and wrap. The order of the float32 additions:

* ``arch35`` (Ascend950, the ATVOSS reduce template calling AscendC ``ReduceSum``): the axes are
  merged into alternating kept (A) / reduced (R) groups. ``AR`` and ``R`` use the AR order of
  one row (:func:`ar_sum`), ``RA`` and ``ARA`` the RA order over the rows (:func:`ra_sum`), with
  the whole reduced extent as one tile on one core. Other patterns (two or more reduced
  groups) put the kept axes first and sum the reduced elements, in row-major order, as one AR
  row. The real tiling splits large reductions into UB tiles and across cores (not ported);
* ``tbe`` (Ascend910B, 910_93, 910, 310P; the compiled TBE schedule is not public): the
  reduced elements of each output, in row-major order, go into 64 lanes (element k to lane
  k mod 64, lanes from +0.0, added in sequence), then the adjacent-pair tree of the lanes;
* ``aicpu`` (DOUBLE, complex, and the integer dtypes of the AI CPU): in sequence, row-major.

The reduction inside one 64-lane register (``Reduce<SUM>``, ``vcadd``) and inside one 8-lane
data block is taken to be the adjacent-pair tree ``((a0+a1)+(a2+a3))+...``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import accel
from ._fp import store

Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]

LANES = 64  # float32 lanes of one 256-byte vector register
BLOCK = 8  # float32 elements of one 32-byte data block (UB rows are padded to it)
FOLD = 16  # rows (or 64-lane chunks) the AscendC reduce folds per main loop


def _ceil(n: int, m: int) -> int:
    return -(-n // m) * m


def floor_pow2(n: int) -> int:
    """The largest power of two <= n (n >= 1)."""
    return 1 << (int(n).bit_length() - 1)


def pad_last(a: np.ndarray, width: int) -> np.ndarray:
    """``a`` with its last axis padded with +0.0 to ``width``."""
    if a.shape[-1] == width:
        return a
    out = np.zeros((*a.shape[:-1], width), dtype=a.dtype)
    out[..., : a.shape[-1]] = a
    return out


def pair_tree(a: np.ndarray) -> np.ndarray:
    """Sum the last axis (length a power of two) by the adjacent-pair tree."""
    while a.shape[-1] > 1:
        a = a[..., 0::2] + a[..., 1::2]
    return a[..., 0]


def halve(a: np.ndarray, axis: int) -> np.ndarray:
    """Sum ``axis`` (length a power of two) by halving: element i plus element i + n/2, repeated."""
    a = np.moveaxis(a, axis, 0)
    while a.shape[0] > 1:
        h = a.shape[0] // 2
        a = a[:h] + a[h:]
    return np.asarray(a[0])


def fold_tail(a: np.ndarray, axis: int) -> np.ndarray:
    """The AscendC first step: for n not a power of two, elements past the largest power of
    two m <= n are added onto the first n - m; the first m elements remain."""
    a = np.moveaxis(a, axis, 0)
    n = a.shape[0]
    m = floor_pow2(n)
    if m == n:
        return np.moveaxis(a, 0, axis)
    head = a[:m].copy()
    head[: n - m] += a[m:]
    return np.moveaxis(head, 0, axis)


def lanes_sum(rows: np.ndarray) -> np.ndarray:
    """The chosen TBE order for float32 rows (..., R): 64 lanes from +0.0, then pair_tree."""
    r = rows.shape[-1]
    if r == 0:
        return np.zeros(rows.shape[:-1], np.float32)
    chunks = np.array(pad_last(rows, _ceil(r, LANES)), copy=True).reshape(*rows.shape[:-1], -1, LANES)
    chunks[..., 0, :] += np.float32(0)  # the lanes start at +0.0 (a -0.0 first element becomes +0.0)
    # np.add.accumulate is sequential: lane l is ((0 + c0[l]) + c1[l]) + c2[l] + ...
    acc = np.cumsum(chunks, axis=-2, dtype=np.float32)[..., -1, :]
    return pair_tree(acc)


def _groups_of_16(chunks: np.ndarray) -> np.ndarray:
    """One AscendC main fold: each run of 16 consecutive entries of axis -2 summed by halving."""
    *lead, n, w = chunks.shape
    g = chunks.reshape(*lead, n // FOLD, FOLD, w)
    return halve(g, -2)


def _last_folds(chunks: np.ndarray) -> np.ndarray:
    """The tail folds on the first 1, 2, 4 or 8 entries of axis -2 (their count): halving."""
    return halve(chunks, -2)


def ar_sum(rows: np.ndarray) -> np.ndarray:
    """AscendC ``ReduceSum<float, AR, isReuseSource>`` (3510) of float32 rows (..., R).

    The row is padded with +0.0 to a whole 32-byte block (Rp). Rp <= 64: one 8-lane block
    reduce (Rp = 8), the 8-lane blocks added in sequence then a block reduce (Rp = 16, 24),
    or one 64-lane reduce (32 <= Rp <= 64). Rp > 64: the elements past the largest power of
    two m <= Rp are added onto the first ones, then the m/64 chunks are folded by runs of 16
    consecutive chunks (halving inside the run), then the last 2, 4 or 8 chunks by halving,
    then one 64-lane reduce."""
    r = rows.shape[-1]
    if r == 1:
        return np.array(rows[..., 0])
    rp = _ceil(r, BLOCK)
    x = pad_last(rows, rp)
    if rp <= LANES:
        if rp == BLOCK:
            return pair_tree(x)
        if rp < 4 * BLOCK:
            acc = x[..., :BLOCK]
            for k in range(1, rp // BLOCK):
                acc = x[..., k * BLOCK : (k + 1) * BLOCK] + acc
            return pair_tree(acc)
        return pair_tree(pad_last(x, LANES))
    head = fold_tail(x, -1)  # (..., m), m a power of two >= 64
    chunks = head.reshape(*head.shape[:-1], -1, LANES)
    while chunks.shape[-2] >= FOLD:
        chunks = _groups_of_16(chunks)
    return pair_tree(_last_folds(chunks))


def ra_sum(x: np.ndarray, a_padded: int) -> np.ndarray:
    """AscendC ``ReduceSum<float, RA, isReuseSource>`` (3510): float32 (..., R, A) summed over R.

    ``a_padded`` is A as the UB holds it (a whole 32-byte block). Rows past the largest power of
    two m <= R are added onto the first ones; then 32 < A <= 64 folds runs of 16 consecutive rows
    (halving inside the run) and the last 2, 4 or 8 rows by halving; any other A halves the m
    rows (row i plus row i + m/2, repeated)."""
    r = x.shape[-2]
    if r == 1:
        return np.array(x[..., 0, :])
    head = fold_tail(x, -2)
    if 4 * BLOCK < a_padded <= LANES:
        while head.shape[-2] >= FOLD:
            head = _groups_of_16(head)
        return _last_folds(head)
    return halve(head, -2)


# -- patterns -------------------------------------------------------------------------------------


def merged_pattern(shape: Sequence[int], axes: Sequence[int]) -> list[tuple[str, list[int]]]:
    """The shape's axes without size-1 ones, merged into alternating kept (A) / reduced (R)
    groups: [(kind, [axis, ...]), ...]."""
    groups: list[tuple[str, list[int]]] = []
    reduced = set(axes)
    for i, d in enumerate(shape):
        if d == 1:
            continue
        kind = "R" if i in reduced else "A"
        if groups and groups[-1][0] == kind:
            groups[-1][1].append(i)
        else:
            groups.append((kind, [i]))
    return groups


def _kept_first(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """x as (kept elements, reduced elements), both in row-major order."""
    red = sorted(set(axes))
    kept = [i for i in range(x.ndim) if i not in red]
    n_red = int(np.prod([x.shape[i] for i in red], dtype=np.int64))
    return np.transpose(x, kept + red).reshape(-1, n_red)


def _kept_shape(shape: Sequence[int], axes: Sequence[int]) -> tuple[int, ...]:
    red = set(axes)
    return tuple(d for i, d in enumerate(shape) if i not in red)


def sum_3510(x: np.ndarray, axes: Sequence[int]) -> tuple[np.ndarray, str]:
    """Float32 ``x`` summed over ``axes`` in the Ascend950 order; (result over the kept axes, pattern)."""
    kept = _kept_shape(x.shape, axes)
    groups = merged_pattern(x.shape, axes)
    pattern = "".join(k for k, _ in groups)
    if "R" not in pattern:
        return x.reshape(kept).copy(), pattern or "A"
    sizes = [int(np.prod([x.shape[i] for i in ax], dtype=np.int64)) for _, ax in groups]
    if pattern in ("R", "AR"):
        r = sizes[-1]
        return ar_sum(x.reshape(-1, r)).reshape(kept), pattern
    if pattern in ("RA", "ARA"):
        r, a = sizes[-2], sizes[-1]
        return ra_sum(x.reshape(-1, r, a), _ceil(a, BLOCK)).reshape(kept), pattern
    return ar_sum(_kept_first(x, axes)).reshape(kept), pattern


def sum_tbe(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """Float32 ``x`` summed over ``axes`` in the chosen TBE order (64 lanes, then pair_tree)."""
    return lanes_sum(_kept_first(x, axes)).reshape(_kept_shape(x.shape, axes))


def sum_sequential(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """``x`` summed over ``axes`` one element after another, in row-major order (its own dtype)."""
    rows = _kept_first(x, axes)
    kept = _kept_shape(x.shape, axes)
    if rows.shape[-1] == 0:
        return np.zeros(kept, x.dtype)
    return np.cumsum(rows, axis=-1, dtype=x.dtype)[:, -1].reshape(kept)


def _integer_sum(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """Two's complement sum in the element type (any order gives the same wrapped result)."""
    src = x.view(np.uint8).astype(np.int64) if x.dtype == np.bool_ else x
    dt = np.int64 if x.dtype == np.bool_ else x.dtype
    with np.errstate(over="ignore"):
        return np.asarray(np.sum(src, axis=tuple(axes), dtype=dt))


_NARROW = frozenset({"float16", "bfloat16", "float32"})


def block_of(shape: Sequence[int], axes: Sequence[int]) -> tuple[int, int, int] | None:
    """x as (a1, r, a0) around its reduced axes when they form one block (axes between them are
    reduced or of size 1): the reduced elements of each output are then r apart by a0, in
    row-major order. None otherwise."""
    red = sorted(set(axes))
    if not red:
        return None
    first, last = red[0], red[-1]
    if any(i not in red and shape[i] != 1 for i in range(first, last + 1)):
        return None
    a1 = int(np.prod(shape[:first], dtype=np.int64))
    r = int(np.prod([shape[i] for i in red], dtype=np.int64))
    a0 = int(np.prod(shape[last + 1 :], dtype=np.int64))
    return a1, r, a0


def _numba_sum(recipe: str, x: np.ndarray, red: Sequence[int], out: np.ndarray) -> str | None:
    """The compiled sum in the recipe's order, when x is contiguous and the pattern is one the
    accelerator knows (TBE: one block of reduced axes; Ascend950: R, AR, RA, ARA); the path taken,
    or None."""
    nb = accel.use_numba(x.size)
    kb = None if nb is None or x.size == 0 or out.size == 0 else accel.kind_and_bits(x)
    if nb is None or kb is None:
        return None
    kind, bits = kb[0], kb[1].view(np.uint16)  # one kernel signature for the three kinds
    if recipe == "tbe":
        block = block_of(x.shape, red)
        if block is None:
            return None
        a1, r, a0 = block
        res = np.empty(a1 * a0, np.float32)
        if a0 == 1:
            nb.red.lanes_rows(kind, bits, a1, r, res)
        else:
            nb.red.lanes_cols(kind, bits, a1, r, a0, res)
        path = "tbe lanes"
    else:
        groups = merged_pattern(x.shape, red)
        pattern = "".join(k for k, _ in groups)
        if pattern not in ("R", "AR", "RA", "ARA"):
            return None
        sizes = [int(np.prod([x.shape[i] for i in ax], dtype=np.int64)) for _, ax in groups]
        if pattern in ("R", "AR"):
            r = sizes[-1]
            res = np.empty(x.size // r, np.float32)
            nb.red.ar_rows(kind, bits, x.size // r, r, res)
        else:
            r, a = sizes[-2], sizes[-1]
            res = np.empty(x.size // r, np.float32)
            nb.red.ra_cols(kind, bits, x.size // (r * a), r, a, 4 * BLOCK < _ceil(a, BLOCK) <= LANES, res)
        path = f"arch35 {pattern}"
    ob = accel.kind_and_bits(out)
    if ob is not None and ob[0] == kind and out.size == res.size:
        nb.red.store_f32(kind, res, ob[1].view(np.uint16))
    else:
        store(out, res.reshape(out.shape))
    return f"numba {path}"


def make(recipe: str, axes: Sequence[int], keep_dims: bool) -> Compute:
    """The launch computation of ReduceSum (``recipe``: ``arch35``, ``tbe`` or ``aicpu``);
    ``axes`` are normalised (non-negative)."""
    red = tuple(sorted(set(axes)))

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        with np.errstate(all="ignore"):
            if x.dtype.name in _NARROW and recipe != "aicpu":
                fast = _numba_sum(recipe, x, red, out)
                if fast is not None:
                    return fast
                xf = x.astype(np.float32)
                if recipe == "arch35":
                    r, pattern = sum_3510(xf, red)
                    path = f"arch35 {pattern}"
                else:
                    r, path = sum_tbe(xf, red), "tbe lanes"
                store(out, np.asarray(r, np.float32).reshape(out.shape))
                return path
            if x.dtype.kind in "iub":
                out[...] = _integer_sum(x, red).reshape(out.shape)
                return "integer"
            out[...] = sum_sequential(x, red).reshape(out.shape)
            return "sequential"

    return compute
