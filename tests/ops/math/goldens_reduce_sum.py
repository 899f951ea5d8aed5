"""Independent re-implementations of the ReduceSum summation orders, one float32 add at a time.

Each function takes the reduced elements of one output as a list of Python floats (already
float32 values) and returns their float32 sum; every addition is rounded by ``r32`` (a double
add rounded once to float32 is the correctly rounded float32 add). Written as plain loops over
indices, not as the array folds of ``aclnn_py.kernels.reduce_sum``.
"""

from __future__ import annotations

import math

from goldens import r32


def add(a: float, b: float) -> float:
    return r32(a + b)


def pair_tree(values: list[float]) -> float:
    """((v0 + v1) + (v2 + v3)) + ... over a power-of-two count."""
    vals = list(values)
    while len(vals) > 1:
        vals = [add(vals[2 * i], vals[2 * i + 1]) for i in range(len(vals) // 2)]
    return vals[0]


def halving(rows: list[list[float]]) -> list[float]:
    """Row i plus row i + n/2, repeated (n a power of two); rows are lists of lanes."""
    while len(rows) > 1:
        h = len(rows) // 2
        rows = [[add(a, b) for a, b in zip(rows[i], rows[i + h])] for i in range(h)]
    return rows[0]


def _pow2_floor(n: int) -> int:
    p = 1
    while p * 2 <= n:
        p *= 2
    return p


def _fold_tail(rows: list[list[float]]) -> list[list[float]]:
    """Rows past the largest power of two m <= n added onto the first n - m rows."""
    m = _pow2_floor(len(rows))
    out = [list(r) for r in rows[:m]]
    for i in range(len(rows) - m):
        out[i] = [add(a, b) for a, b in zip(out[i], rows[m + i])]
    return out


def _sixteens(rows: list[list[float]]) -> list[list[float]]:
    """Each run of 16 consecutive rows summed by halving."""
    return [halving(rows[g : g + 16]) for g in range(0, len(rows), 16)]


def ascendc_ar(row: list[float]) -> float:
    """AscendC ReduceSum<float, AR> (3510) of one row, padded with zeros to a multiple of 8."""
    if len(row) == 1:
        return row[0]
    rp = -(-len(row) // 8) * 8
    x = row + [0.0] * (rp - len(row))
    if rp == 8:
        return pair_tree(x)
    if rp < 32:
        acc = x[:8]
        for k in range(1, rp // 8):
            acc = [add(b, a) for a, b in zip(acc, x[8 * k : 8 * k + 8])]
        return pair_tree(acc)
    if rp <= 64:
        return pair_tree(x + [0.0] * (64 - rp))
    m = _pow2_floor(rp)
    head = [x[i] if i >= rp - m else add(x[i], x[m + i]) for i in range(m)]
    chunks = [head[c : c + 64] for c in range(0, m, 64)]
    while len(chunks) >= 16:
        chunks = _sixteens(chunks)
    return pair_tree(halving(chunks))


def ascendc_ra(rows: list[list[float]], a_padded: int) -> list[float]:
    """AscendC ReduceSum<float, RA> (3510) over rows (lists of A lanes)."""
    if len(rows) == 1:
        return list(rows[0])
    head = _fold_tail(rows)
    if 32 < a_padded <= 64:
        while len(head) >= 16:
            head = _sixteens(head)
    return halving(head)


def lanes64(values: list[float]) -> float:
    """The chosen TBE order: lane k % 64 accumulates element k (lanes from +0.0), then the tree."""
    lanes = [0.0] * 64
    for k, v in enumerate(values):
        lanes[k % 64] = add(lanes[k % 64], v)
    return pair_tree(lanes)


def sequential(values: list[float]) -> float:
    """Left to right in double precision (the AI CPU order; Python floats are doubles)."""
    s = values[0]
    for v in values[1:]:
        s = s + v
    return s


def error_bound(values: list[float]) -> float:
    """A bound on |float32 sum - exact sum| that holds for every order used here: at most
    ceil(n/64) + 8 rounded additions lie on any path from an element to the result."""
    n = len(values)
    depth = math.ceil(n / 64) + 8
    return depth * 2.0**-24 * sum(abs(v) for v in values)
