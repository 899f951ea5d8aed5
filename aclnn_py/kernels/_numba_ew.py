# mypy: disallow-untyped-defs=False, warn-return-any=False
"""The accelerator's elementwise kernels: arithmetic (Add, Sub, Mul, RealDiv), the fused
multiply-add of Axpy, comparisons, Maximum/Minimum, float-to-float Cast, Sign, ClipByValueV2,
HardSwish and SmoothL1LossV2.

The conventions of :mod:`._numba`: arrays travel as their bits (uint32 for FLOAT, uint16 for
FLOAT16 and BFLOAT16, uint8 for BOOL), a kind (0 float32, 1 float16, 2 bfloat16) says how to
read them, every recipe computes in float32 exactly as the numpy recipe does (the specification,
which the tests compare bit for bit), and a result is rounded once, half to even, with NaN
written as the canonical quiet NaN. An input has the output's size, one element (a scalar
operand) or repeats along the output's trailing axes (a row broadcast); the launchers check
that (:func:`aclnn_py.kernels.accel.elementwise_views`), and anything else takes the numpy path.

Each kernel picks its loop once (kind, which operand is a scalar) and runs one pass over the
arrays; the per-element operation code (``op``) is loop-invariant, so LLVM unswitches it.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import types
from numba.extending import intrinsic

from ._numba import (
    BLOCK,
    F32,
    KIND_BF16,
    KIND_F16,
    KIND_F32,
    _block,
    _canon,
    _jit,
    _jit_in,
    _jit_inline,
    _narrow16,
    _widen16,
    tile,
)

ADD, SUB, MUL, DIV, DIV_FTZ = 0, 1, 2, 3, 4
EQ, NE, GT, GE, LT, LE = 0, 1, 2, 3, 4, 5
TINY = F32(2.0**-126)  # the smallest normal float32


# -- arithmetic -----------------------------------------------------------------------------------
# One small function per operation, each a plain loop over equal-size arrays: LLVM inlines the
# conversions and vectorises it (a loop that also branched on the operation, or a function
# holding many loops, was not vectorised: 3-10x slower). A scalar or row-broadcast operand is
# repeated into a block of about 4096 elements (:func:`._numba.tile`) and the same loop runs
# block by block.


@_jit_in
def _ftz(v):
    """A float32 subnormal becomes a zero of its sign (Ascend950's DivHighPrecision)."""
    return v * F32(0.0) if abs(v) < TINY else v


@_jit
def _add(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb, fo = a.view(np.float32), b.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(fa[i] + fb[i])
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _widen16(kind, a[i]) + _widen16(kind, b[i]))


@_jit_in
def _sub(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb, fo = a.view(np.float32), b.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(fa[i] - fb[i])
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _widen16(kind, a[i]) - _widen16(kind, b[i]))


@_jit_in
def _mul(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb, fo = a.view(np.float32), b.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(fa[i] * fb[i])
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _widen16(kind, a[i]) * _widen16(kind, b[i]))


@_jit_in
def _div(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb, fo = a.view(np.float32), b.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(fa[i] / fb[i])
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _widen16(kind, a[i]) / _widen16(kind, b[i]))


@_jit_in
def _div_ftz(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb, fo = a.view(np.float32), b.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(_ftz(_ftz(fa[i]) / _ftz(fb[i])))
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _ftz(_ftz(_widen16(kind, a[i])) / _ftz(_widen16(kind, b[i]))))


@_jit_inline
def _arith_same_size(op, kind, a, b, out):
    if op == ADD:
        _add(kind, a, b, out)
    elif op == SUB:
        _sub(kind, a, b, out)
    elif op == MUL:
        _mul(kind, a, b, out)
    elif op == DIV:
        _div(kind, a, b, out)
    else:
        _div_ftz(kind, a, b, out)


@_jit
def aliased(a, out):
    """Whether ``a`` is the output itself (an in-place call: aclnnInplaceAdd and the like)."""
    return a.size == out.size and a.ctypes.data == out.ctypes.data


@_jit
def staged(src, start, cnt, tmp, alias):
    """``src[start:start + cnt]``, copied into ``tmp`` first when src is the output itself: LLVM
    guards a vectorised loop with a check that its input and output do not overlap, and a loop
    whose input is its output fails it and runs scalar (3-5x slower for the half types)."""
    block = src[start : start + cnt]
    if alias:
        t = tmp[:cnt]
        for j in range(cnt):  # a loop: numba's slice assignment is 8x slower here
            t[j] = block[j]
        return t
    return block


# A single-element operand of the half types, held in a register as its float32 value: the
# repeated block (tile) costs each element a load and a widening of the same value, and those
# loops are compute-bound (bfloat16's integer rounding): 17-22% less work without memory traffic.


@_jit
def _add_scalar(kind, a, flip, s, out):
    """``(a ^ flip) + s``: Add (either side), Sub with the scalar second (s negated) or first
    (``flip`` 0x8000 negates a: ``s - a`` is ``s + (-a)`` in IEEE arithmetic, bit for bit)."""
    for i in range(out.size):
        out[i] = _narrow16(kind, _widen16(kind, np.uint16(a[i] ^ flip)) + s)


@_jit_in
def _mul_scalar(kind, a, s, out):
    for i in range(out.size):
        out[i] = _narrow16(kind, _widen16(kind, a[i]) * s)


@_jit_inline
def _half_with_scalar(op, kind, a, b, out):
    """The half types' ``a op b`` with a single-element operand (not the output), hoisted out of
    the loop; False when it has no such loop (a scalar dividend: the repeated block)."""
    s = _widen16(kind, b[0] if b.size == 1 else a[0])
    full = a if b.size == 1 else b
    if op == ADD:
        _add_scalar(kind, full, np.uint16(0), s, out)
    elif op == SUB:
        if b.size == 1:
            _add_scalar(kind, a, np.uint16(0), -s, out)
        else:
            _add_scalar(kind, b, np.uint16(0x8000), s, out)
    elif op == MUL:
        _mul_scalar(kind, full, s, out)
    elif b.size == 1:
        div_by_f32_scalar(op == DIV_FTZ, kind, a, s, out)
    else:
        return False
    return True


@_jit
def _arith_block(op, kind, a, b, out):
    """One block of :func:`binary_arith`, a call of its own: with the block loop and the views of
    the float32 halves in one function the float32 loop ran 10-40% slower (CPU A/B against the
    uint32 container); with the block's arrays as parameters it runs as the same-size call."""
    _arith_same_size(op, kind, a, b, out)


@_jit
def binary_arith(op, kind, a, b, out):
    """``out = a op b`` (ADD, SUB, MUL, DIV, DIV_FTZ) in float32, rounded once to the kind."""
    n = out.size
    ia, ib = aliased(a, out), aliased(b, out)
    if a.size == n and b.size == n and not (ia or ib):
        _arith_same_size(op, kind, a, b, out)
        return
    if kind != KIND_F32 and (a.size == 1 or b.size == 1) and not (ia or ib) and _half_with_scalar(op, kind, a, b, out):
        return
    m = max(a.size if a.size != n else 1, b.size if b.size != n else 1)
    blk = _block(kind, out, n, m)
    ra, rb = tile(a, blk), tile(b, blk)
    tmp = np.empty(blk if (ia or ib) else 0, out.dtype)
    for start in range(0, n, blk):
        cnt = min(blk, n - start)
        x = staged(a, start, cnt, tmp, ia) if a.size == n else ra[:cnt]
        y = staged(b, start, cnt, tmp, ib) if b.size == n else rb[:cnt]
        _arith_block(op, kind, x, y, out[start : start + cnt])


@_jit
def _div_by(kind, a, s, out):
    for i in range(out.size):
        out[i] = _narrow16(kind, _widen16(kind, a[i]) / s)


@_jit_in
def _div_by_ftz(kind, a, s, out):
    s = _ftz(s)
    for i in range(out.size):
        out[i] = _narrow16(kind, _ftz(_ftz(_widen16(kind, a[i])) / s))


@_jit
def div_by_f32_scalar(ftz, kind, a, s, out):
    """float16/bfloat16 ``a`` divided by a float32 scalar ``s`` (Divs keeps a float scalar in
    float32 for the half types), in float32, rounded once to the kind."""
    if ftz:
        _div_by_ftz(kind, a, s, out)
    else:
        _div_by(kind, a, s, out)


# -- comparisons ----------------------------------------------------------------------------------


@_jit_in
def _eq(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb = a.view(np.float32), b.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] == fb[i])
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) == _widen16(kind, b[i]))


@_jit_in
def _ne(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb = a.view(np.float32), b.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] != fb[i])
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) != _widen16(kind, b[i]))


@_jit_in
def _gt(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb = a.view(np.float32), b.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] > fb[i])
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) > _widen16(kind, b[i]))


@_jit_in
def _ge(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb = a.view(np.float32), b.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] >= fb[i])
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) >= _widen16(kind, b[i]))


@_jit_inline
def _cmp_same_size(op, kind, a, b, out):
    """LT and LE are GT and GE with the operands swapped (the same IEEE predicate)."""
    if op == EQ:
        _eq(kind, a, b, out)
    elif op == NE:
        _ne(kind, a, b, out)
    elif op == GT:
        _gt(kind, a, b, out)
    elif op == GE:
        _ge(kind, a, b, out)
    elif op == LT:
        _gt(kind, b, a, out)
    else:
        _ge(kind, b, a, out)


# A broadcast operand is read as float32 once: a single element is held in a register and
# every element compared with it; a row is widened into a float32 block of about BLOCK elements
# (its repeats) and the loop runs block by block. (Repeating the operand's bits, as the arithmetic
# does, and comparing two same-size blocks left these BOOL loops at 1.4-1.7x the copy bound on an
# AVX-512 machine: the operand was widened again for every element, and the float32 view was
# taken of each block's slice.) a < x is -a > -x exactly (negation is exact, a NaN stays
# unordered), so the GT and GE loops serve the four orders with a factor of +1 or -1.


@_jit_in
def _oriented(op, scalar_right):
    """(EQ, NE, GT or GE; the factor +1 or -1) such that ``a op x`` (``x op a`` when not
    ``scalar_right``) is ``pred(f * a, f * x)``."""
    if not scalar_right:  # x op a is a op' x, op' the mirrored order
        op = LT if op == GT else GT if op == LT else LE if op == GE else GE if op == LE else op
    if op == LT:
        return GT, F32(-1.0)
    if op == LE:
        return GE, F32(-1.0)
    return op, F32(1.0)


@_jit_in
def _eq_s(kind, a, x, out):
    if kind == KIND_F32:
        fa = a.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] == x)
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) == x)


@_jit_in
def _ne_s(kind, a, x, out):
    if kind == KIND_F32:
        fa = a.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] != x)
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) != x)


@_jit_in
def _gt_s(kind, a, f, x, out):
    """``f * a > x`` (x already multiplied by f)."""
    if kind == KIND_F32:
        fa = a.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] * f > x)
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) * f > x)


@_jit_in
def _ge_s(kind, a, f, x, out):
    """``f * a >= x`` (x already multiplied by f)."""
    if kind == KIND_F32:
        fa = a.view(np.float32)
        for i in range(out.size):
            out[i] = np.uint8(fa[i] * f >= x)
    else:
        for i in range(out.size):
            out[i] = np.uint8(_widen16(kind, a[i]) * f >= x)


@_jit_in
def _cmp_scalar(op, kind, a, x, scalar_right, out):
    """``a op x`` or ``x op a`` for a float32 value x."""
    op, f = _oriented(op, scalar_right)
    if op == EQ:
        _eq_s(kind, a, x, out)
    elif op == NE:
        _ne_s(kind, a, x, out)
    elif op == GT:
        _gt_s(kind, a, f, x * f, out)
    else:
        _ge_s(kind, a, f, x * f, out)


@_jit_in
def _eq_r(kind, a, start, f, r, out):
    if kind == KIND_F32:
        x = a.view(np.float32)[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(x[j] == r[j])
    else:
        h = a[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(_widen16(kind, h[j]) == r[j])


@_jit_in
def _ne_r(kind, a, start, f, r, out):
    if kind == KIND_F32:
        x = a.view(np.float32)[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(x[j] != r[j])
    else:
        h = a[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(_widen16(kind, h[j]) != r[j])


@_jit_in
def _gt_r(kind, a, start, f, r, out):
    """``f * a[start + j] > r[j]`` (r already multiplied by f)."""
    if kind == KIND_F32:
        x = a.view(np.float32)[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(x[j] * f > r[j])
    else:
        h = a[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(_widen16(kind, h[j]) * f > r[j])


@_jit_in
def _ge_r(kind, a, start, f, r, out):
    """``f * a[start + j] >= r[j]`` (r already multiplied by f)."""
    if kind == KIND_F32:
        x = a.view(np.float32)[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(x[j] * f >= r[j])
    else:
        h = a[start : start + out.size]
        for j in range(out.size):
            out[j] = np.uint8(_widen16(kind, h[j]) * f >= r[j])


@_jit_in
def _cmp_rows(op, kind, a, row, scalar_right, w, out):
    """``a op row`` or ``row op a`` for a row broadcast (``row`` repeats along ``a``)."""
    op, f = _oriented(op, scalar_right)
    n = out.size
    m = row.size // w
    blk = min(n, max(1, BLOCK // m) * m)
    r = np.empty(blk, np.float32)
    for j in range(m):
        v = (row.view(np.float32)[j] if kind == KIND_F32 else _widen16(kind, row[j])) * f
        for k in range(j, blk, m):
            r[k] = v
    for start in range(0, n, blk):
        cnt = min(blk, n - start)
        o = out[start : start + cnt]
        if op == EQ:
            _eq_r(kind, a, start, f, r, o)
        elif op == NE:
            _ne_r(kind, a, start, f, r, o)
        elif op == GT:
            _gt_r(kind, a, start, f, r, o)
        else:
            _ge_r(kind, a, start, f, r, o)


@_jit
def compare(op, kind, a, b, out):
    """BOOL bytes ``a op b`` (EQ ... LE) of the exact float32 values. float32 inputs may come as
    uint16 halves (one compiled signature for the three kinds): two input units per output byte."""
    n = out.size
    w = 2 if kind == KIND_F32 and a.itemsize == 2 else 1
    na = n * w
    if a.size == na and b.size == na:
        _cmp_same_size(op, kind, a, b, out)
        return
    right = a.size == na
    big, small = (a, b) if right else (b, a)
    if small.size == w:
        x = small.view(np.float32)[0] if kind == KIND_F32 else _widen16(kind, small[0])
        _cmp_scalar(op, kind, big, x, right, out)
    else:
        _cmp_rows(op, kind, big, small, right, w, out)


# -- Maximum / Minimum (maxNum / minNum, -0 below +0) ------------------------------------------------


@_jit_in
def _max_num(a, b):
    """maxNum with ordered zeros: the number of a (NaN, number) pair; of two zeros -0 only for two
    -0 (their sum). Also ClipByValueV2's max. Written as selects (no branch per element)."""
    r = b if (b > a) | (a != a) else a
    return a + b if (a == 0) & (b == 0) else r


@_jit_in
def _min_num(a, b):
    """minNum with ordered zeros: of two zeros +0 only for two +0 (minus the sum of their negations)."""
    r = b if (b < a) | (a != a) else a
    return -((-a) + (-b)) if (a == 0) & (b == 0) else r


# float16/bfloat16 maxNum/minNum choose one operand, so the result is that operand's bits (a
# number rounds to itself): no conversion at all. Their bits are sign and magnitude, so the
# order of two numbers is the order of the bits read as int16, reversed when both are negative
# (a larger magnitude is a smaller value), and -0 (0x8000) comes out below +0: of two zeros max
# gives -0 only for two -0, min +0 only for two +0, as IEEE's maxNum/minNum with ordered zeros.
# A NaN (magnitude bits above the infinity's) loses to a number; two NaN give the canonical NaN,
# as the rounding of a NaN result writes it. Integer compares and selects on 16-bit lanes: about
# a third of the work of widening both operands to float32 (which kept this loop compute-bound,
# 1.2-1.5x the copy bound of a scalar or row operand with no memory traffic at all).
_NAN16 = (np.uint16(0), np.uint16(0x7E00), np.uint16(0x7FC0))  # by kind: -, float16, bfloat16
_INF16 = (np.uint16(0), np.uint16(0x7C00), np.uint16(0x7F80))


@_jit_in
def _pick16(ha, hb, take_b, inf, nan):
    """``hb`` where ``take_b`` (b's value is the larger for max, the smaller for min) or ``ha`` is
    NaN, ``ha`` where hb is NaN, the canonical NaN for two."""
    na = (ha & np.uint16(0x7FFF)) > inf
    nb = (hb & np.uint16(0x7FFF)) > inf
    r = hb if (take_b | na) & (not nb) else ha
    return nan if na & nb else r


@_jit
def _max(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb, fo = a.view(np.float32), b.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(_max_num(fa[i], fb[i]))
    else:
        inf, nan = _INF16[kind], _NAN16[kind]
        for i in range(out.size):
            ha, hb = a[i], b[i]
            sa, sb = np.int16(ha), np.int16(hb)
            out[i] = _pick16(ha, hb, (sb > sa) != ((sa & sb) < 0), inf, nan)


@_jit_in
def _min(kind, a, b, out):
    if kind == KIND_F32:
        fa, fb, fo = a.view(np.float32), b.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(_min_num(fa[i], fb[i]))
    else:
        inf, nan = _INF16[kind], _NAN16[kind]
        for i in range(out.size):
            ha, hb = a[i], b[i]
            sa, sb = np.int16(ha), np.int16(hb)
            out[i] = _pick16(ha, hb, (sb < sa) != ((sa & sb) < 0), inf, nan)


@_jit
def _maxmin_block(is_max, kind, a, b, out):
    """One block of :func:`maxmin` (a call of its own: see :func:`_arith_block`)."""
    if is_max:
        _max(kind, a, b, out)
    else:
        _min(kind, a, b, out)


@_jit
def maxmin(is_max, kind, a, b, out):
    """maxNum / minNum (a NaN loses to a number; -0 below +0; both commute, so a single-element
    operand goes second)."""
    n = out.size
    if a.size != n:
        a, b = b, a
    ia, ib = aliased(a, out), aliased(b, out)
    if b.size == n and not (ia or ib):
        if is_max:
            _max(kind, a, b, out)
        else:
            _min(kind, a, b, out)
        return
    blk = _block(kind, out, n, b.size if b.size != n else 1)
    rep = tile(b, blk)
    tmp = np.empty(blk if (ia or ib) else 0, out.dtype)
    for start in range(0, n, blk):
        cnt = min(blk, n - start)
        x = staged(a, start, cnt, tmp, ia)
        y = staged(b, start, cnt, tmp, ib) if b.size == n else rep[:cnt]
        _maxmin_block(is_max, kind, x, y, out[start : start + cnt])


# -- the fused multiply-add of Axpy ---------------------------------------------------------------

AXPY_F32, AXPY_F16_ONCE, AXPY_TWICE = 0, 1, 2


@intrinsic
def _fma32(typingctx, a, b, c):
    """``a * b + c`` rounded once to float32 (IEEE fusedMultiplyAdd: LLVM's llvm.fma, the CPU's
    FMA instruction where it has one, a correctly rounded library call otherwise)."""
    sig = types.float32(types.float32, types.float32, types.float32)

    def codegen(context, builder, signature, args):
        return builder.fma(*args)

    return sig, codegen


@_jit_in
def _axpy_f32(alpha, x1, x2, fo):
    for i in range(fo.size):
        fo[i] = _canon(_fma32(alpha, x2[i], x1[i]))  # type: ignore[call-arg]  # numba passes typingctx


@_jit
def _axpy_twice(kind, alpha, x1, x2, out):
    for i in range(out.size):
        out[i] = _narrow16(kind, _fma32(alpha, _widen16(kind, x2[i]), _widen16(kind, x1[i])))  # type: ignore[call-arg]


@_jit_in
def _sum_to_odd(p, c):
    """``p + c`` rounded to odd in float32, for p = alpha * x2 and c = x1 of :func:`_axpy_once`:
    truncated towards zero, then the last bit set when anything was lost (so an inexact result
    is the odd one of the two float32 numbers around the exact sum). s = p + c rounded to
    nearest and TwoSum's error e = (p + c) - s (exact: binary arithmetic, round to nearest, no
    overflow) give it in integer selects on s's bits, branch-free:

    * e > 0 or e < 0 (an ordered not-equal: a NaN e is not let through) says the sum was
      inexact: the last bit is set;
    * e * s < 0 says s was rounded up in magnitude: the truncation is one step below s in
      magnitude, its bits minus 1 (an odd s stays itself, being the odd neighbour already: its
      bits minus 1, or'ed with 1). The product cannot underflow here: alpha and x2 are float16
      values, multiples of 2^-24, so p is a multiple of 2^-48, x1 one of 2^-24, and so are the
      exact sum, s (a sum below 2^-25 in magnitude fits float32 exactly, and above it float32's
      spacing is a multiple of 2^-48) and e: a nonzero e and s (a nonzero sum of floats never
      rounds to zero) are each at least 2^-48, their product at least 2^-96, above float32's
      2^-126; nor overflow (|s| < 2^33, |e| <= half an ulp of s). A zero e gives a zero product.
    * An infinite or NaN s gives a NaN e: both compares are false and s comes out unchanged.

    (Against the sign-bit form, (bits(e) ^ bits(s)) >> 31 masked by e != 0, one vector
    operation less: the product's compare is the whole mask.)"""
    s = p + c
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    sb = np.float32(s).view(np.uint32)
    down = np.uint32(0xFFFFFFFF) if e * s < 0 else np.uint32(0)  # -1: s is above the sum in magnitude
    low = np.uint32(1) if (e > 0) | (e < 0) else np.uint32(0)  # ordered: not for a NaN e
    return np.uint32((sb + down) | low).view(np.float32)


@_jit
def _axpy_once(alpha, x1, x2, out):
    """TBE float16: ``alpha * x2 + x1`` rounded once to float16, by an exact argument in float32
    (the specification, :func:`aclnn_py.kernels.elementwise.fma`, computes in float64):

    1. alpha (already rounded to float16) and x2 are float16 values: p = alpha * x2 has at most
       11 + 11 = 22 significant bits and 2^-48 <= |p| < 2^32 (or is 0), so float32 holds it
       exactly, away from its subnormals and its overflow (an infinite alpha or x2 gives an
       infinite or NaN p, and both paths then follow IEEE's rules for the specials).
    2. r = p + x1 rounded to odd in float32 (:func:`_sum_to_odd`; |p + x1| < 2^33: no overflow).
    3. Rounding to odd at 24 bits, then to nearest even at float16's 11, is the one correct
       rounding of the exact sum, since 24 >= 11 + 2 (Boldo and Melquiond, "Emulation of a FMA
       and correctly-rounded sums: proved algorithms using rounding to odd", IEEE TC 2008):
       every float16 number and midpoint is a float32 number with its last bit 0, so an odd r
       is never on one and lies on the exact sum's side of each. float16's subnormals (a grid
       of 2^-24) and its overflow threshold 65520 (a midpoint of the extended grid) are float32
       numbers with their last bits 0 too, so they are covered.
    4. The float16 store rounds half to even (F16C's vcvtps2ph, or :func:`._numba._f16_soft`),
       NaN written canonical; an exact zero sum keeps IEEE's sign (-0 only for -0 + -0).

    One branch-free pass that LLVM vectorises (the earlier version flagged inexact midpoints
    and redid them in float64: 2-4x the copy bound); ``test_axpy_float16_round_to_odd_*``
    checks it against the float64 specification on every float16 x2, millions of random
    pairs and the midpoint cases."""
    for i in range(out.size):
        p = alpha * _widen16(KIND_F16, x2[i])
        out[i] = _narrow16(KIND_F16, _sum_to_odd(p, _widen16(KIND_F16, x1[i])))


@_jit
def _axpy_once_scalar_x2(p, x1, out):
    """:func:`_axpy_once` with x2 a single element: p = alpha * x2 computed once (exact)."""
    for i in range(out.size):
        out[i] = _narrow16(KIND_F16, _sum_to_odd(p, _widen16(KIND_F16, x1[i])))


@_jit
def _short(v):
    """Whether the float32 ``v`` has at most 11 significant bits (the low 13 of its 23 stored
    ones zero; true of 0, of the infinities and of every NaN widened from float16). For v a
    product alpha * x2 (|v| >= 2^-48 or 0: never a float32 subnormal) and any float16 c, the
    plain float32 sum then rounds right: RN16(RN32(v + c)) = RN16(v + c), so TBE's one rounding
    needs no rounding to odd (:func:`_sum_to_odd`), and its loop is Add's (6 instructions per 8
    elements against 16-18: ``bench/arith_bound.py --asm``).

    Proof. A zero or non-finite term makes both sides the same IEEE operation; else let
    x = v + c (exact, |x| < 2^33: float32 does not overflow), 2^j the smaller of the two terms'
    last bits, S the term with that last bit and B the other; S and B have at most 11
    significant bits, so |S| < 2^(j+11), and x is a multiple of 2^j. RN16's boundaries are the
    float16 midpoints and 65520 (where it overflows): in [2^E, 2^(E+1)), E >= -14, odd multiples
    of 2^(E-11) (12 significant bits, 65520 = 4095 * 2^4 included); below 2^-14 odd multiples of
    2^-25. Every boundary is a float32 number and RN32 is monotonic, so RN32(x) and x are on the
    same side of every boundary unless RN32(x) = m for a boundary m != x, which needs
    0 < |x - m| <= ulp32(m)/2 <= 2^(E-24) (E = m's exponent). No such m exists:

    * m's last bit L at most 2^j: x - m is a multiple of L > 2^(E-24) (L = 2^(E-11), or 2^-25
      with E <= -15), so x = m;
    * L > 2^j: x - m is a nonzero multiple of 2^j, so j <= E - 24 and |S| < 2^(E-13). For
      E >= -14, |B - m| <= |S| + |x - m| < 2^(E-12): B's leading bit is at least 2^(E-1), its
      last bit (11 bits at most) at least 2^(E-11) = L, so B - m is a multiple of L below L/2,
      B = m: but m has 12 significant bits. For E <= -15, |x - m| <= 2^-39 gives j <= -39,
      |S| < 2^-28: S is not a nonzero float16, so S = v and B = c, a multiple of 2^-24, at
      least 2^-25 from m (an odd multiple of 2^-25), yet |c - m| < 2^-28 + 2^-39.

    ``test_numba_half_loops.py`` checks the claim on every float16 c for random 11-bit
    significands at every exponent the product can have (every significand, both signs, was
    checked once: 0 of 2^10 * 2 * 81 * 65536 sums differ), and that 12-bit ones do fail."""
    return (np.float32(v).view(np.uint32) & np.uint32(0x1FFF)) == 0


# calls from this size on check a long scalar product on every half first (about 30 us: 5% of
# the rounding to odd of 2^21 elements in memory, which the plain loop does in about 25% less)
PLAIN_CHECK_MIN = 1 << 21


@_jit
def _plain_sum_rounds_right(p):
    """Whether Add's plain float32 sum, rounded to float16, gives for this p (the launch asks
    for products that are not :func:`_short`) the bits of the rounding to odd on each of the
    65536 float16 patterns c: each output of a scalar-x2 call is a function of (p, c) alone, so
    then it does on every element of the call. A long product fails when some c puts p + c within half a float32
    ulp of a float16 midpoint without being on it (for alpha 1.7 and 2000 normal x2, 291 did)."""
    diff = np.uint32(0)
    for h in range(np.uint32(1 << 16)):  # no early exit, 32-bit lanes: the loop vectorises
        c = _widen16(KIND_F16, np.uint16(h))
        diff = np.uint32(diff | np.uint32(_narrow16(KIND_F16, p + c) ^ _narrow16(KIND_F16, _sum_to_odd(p, c))))
    return diff == 0


@_jit_in
def _axpy_once_by_scalar(p, x1, out):
    """TBE float16 Axpy with x2 a single element (p = alpha * x2, exact): Add's register-scalar
    loop when p is :func:`_short`, or when a large call finds that it rounds right for this p
    on every half (:func:`_plain_sum_rounds_right`); :func:`_axpy_once_scalar_x2` otherwise."""
    if _short(p) or (out.size >= PLAIN_CHECK_MIN and _plain_sum_rounds_right(p)):
        _add_scalar(KIND_F16, x1, np.uint16(0), p, out)
    else:
        _axpy_once_scalar_x2(p, x1, out)


@_jit_in
def _axpy_once_scalar_x1(alpha, c, x2, out):
    """:func:`_axpy_once` with x1 a single element (its value ``c``, widened once)."""
    for i in range(out.size):
        out[i] = _narrow16(KIND_F16, _sum_to_odd(alpha * _widen16(KIND_F16, x2[i]), c))


@_jit_in
def _axpy_same_size(mode, kind, alpha, x1, x2, out):
    """Axpy / AxpyV2 (scalar alpha, x1 and x2 of out's size):
    AXPY_F32 (float32, one rounding: the CPU's fused multiply-add, which is the correctly
    rounded ``alpha * x2 + x1`` the recipe's float64 rounded to odd computes), AXPY_F16_ONCE
    (TBE float16: alpha already rounded to float16, one rounding to float16: :func:`_axpy_once`),
    AXPY_TWICE (the float32 fused multiply-add, then rounded to the half type)."""
    if kind == KIND_F32:
        _axpy_f32(alpha, x1.view(np.float32), x2.view(np.float32), out.view(np.float32))
    elif mode == AXPY_F16_ONCE:
        _axpy_once(alpha, x1, x2, out)
    else:
        _axpy_twice(kind, alpha, x1, x2, out)


@_jit
def _axpy_block(mode, kind, alpha, x1, x2, out):
    """One block of :func:`axpy` (a call of its own: see :func:`_arith_block`)."""
    _axpy_same_size(mode, kind, alpha, x1, x2, out)


@_jit
def axpy(mode, kind, alpha, x1, x2, out):
    """Axpy / AxpyV2 with a scalar alpha; x1 or x2 may be a single element or a row (repeated).
    TBE float16 (AXPY_F16_ONCE) rounds to odd only where it must: not for an alpha of one
    significant bit, nor for a single-element x2 whose product is :func:`_short` or passes
    :func:`_plain_sum_rounds_right` (the same bits, proved or checked)."""
    n = out.size
    i1, i2 = aliased(x1, out), aliased(x2, out)
    if mode == AXPY_F16_ONCE:
        # a scalar x2: alpha * x2 computed once (exact), out of the loop (about 10%)
        if x1.size == n and x2.size == 1 and not i1:
            _axpy_once_by_scalar(alpha * _widen16(KIND_F16, x2[0]), x1, out)
            return
        if (np.float32(alpha).view(np.uint32) & np.uint32(0x7FFFFF)) == 0:
            # alpha 0, a power of two or infinite: every alpha * x2 is :func:`_short`, so the one
            # rounding is the float32 fused multiply-add (exact product) rounded to float16
            mode = AXPY_TWICE
    if x1.size == n and x2.size == n and not (i1 or i2):
        _axpy_same_size(mode, kind, alpha, x1, x2, out)
        return
    if mode == AXPY_F16_ONCE and x2.size == n and x1.size == 1 and not i2:
        _axpy_once_scalar_x1(alpha, _widen16(KIND_F16, x1[0]), x2, out)
        return
    blk = _block(kind, out, n, max(x1.size if x1.size != n else 1, x2.size if x2.size != n else 1))
    r1, r2 = tile(x1, blk), tile(x2, blk)
    tmp = np.empty(blk if (i1 or i2) else 0, out.dtype)
    for start in range(0, n, blk):
        cnt = min(blk, n - start)
        a = staged(x1, start, cnt, tmp, i1) if x1.size == n else r1[:cnt]
        b = staged(x2, start, cnt, tmp, i2) if x2.size == n else r2[:cnt]
        _axpy_block(mode, kind, alpha, a, b, out[start : start + cnt])


# -- Cast between float types -----------------------------------------------------------------------


@_jit
def cast_float(src_kind, dst_kind, src, dst):
    """float32/float16/bfloat16 -> another of them: exact widening, one rounding half to even.
    Returns the number of NaN inputs (their bits are numpy's to choose: the caller rewrites them)."""
    n = dst.size
    nans = 0
    if src_kind == KIND_F32:
        fs = src.view(np.float32)
        for i in range(n):
            v = fs[i]
            nans += v != v
            dst[i] = _narrow16(dst_kind, v)
        return nans
    if dst_kind == KIND_F32:
        fd = dst.view(np.float32)
        for i in range(n):
            v = _widen16(src_kind, src[i])
            nans += v != v
            fd[i] = v
        return nans
    for i in range(n):
        v = _widen16(src_kind, src[i])
        nans += v != v
        dst[i] = _narrow16(dst_kind, v)
    return nans


# -- Sign -----------------------------------------------------------------------------------------

SIGN_COMPARE, SIGN_SCALED_NAN0, SIGN_SCALED = 0, 1, 2


@_jit_in
def _sign(mode, kind, x):
    if mode == SIGN_COMPARE:  # (x > 0) - (x < 0): NaN and -0 give +0
        return F32(1.0) if x > 0 else (F32(-1.0) if x < 0 else F32(0.0))
    # min(max(x, -tiny), tiny) * 2^k, every step exact; the vector max/min keep the number of a
    # (NaN, number) pair; SIGN_SCALED_NAN0 (Ascend310P) replaces NaN by +0 first
    if mode == SIGN_SCALED_NAN0 and x != x:
        x = F32(0.0)
    tiny = F32(2.0**-126) if kind == KIND_F32 else F32(2.0**-24)
    r = -tiny if (x != x or -tiny > x) else x
    r = tiny if tiny < r else r
    if kind == KIND_F32:
        return ((r * F32(2.0**62)) * F32(2.0**62)) * F32(4.0)
    return (r * F32(2.0**12)) * F32(2.0**12)


@_jit_in
def _compare_sign(x):
    return F32(1.0) if x > 0 else (F32(-1.0) if x < 0 else F32(0.0))


@_jit_in
def _sign_compare(kind, x, out):
    if kind == KIND_F32:
        fx, fo = x.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _compare_sign(fx[i])
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _compare_sign(_widen16(kind, x[i])))


@_jit_in
def _sign_scaled(mode, kind, x, out):
    if kind == KIND_F32:
        fx, fo = x.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _sign(mode, kind, fx[i])
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _sign(mode, kind, _widen16(kind, x[i])))


@_jit
def sign(mode, kind, x, out):
    if mode == SIGN_COMPARE:
        _sign_compare(kind, x, out)
    else:
        _sign_scaled(mode, kind, x, out)


# -- ClipByValueV2 (AI Core) --------------------------------------------------------------------------


@_jit_in
def _clamp_zeros(kind, x, lo, hi, out):
    if kind == KIND_F32:
        fx, fo = x.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(_min_num(_max_num(fx[i], lo), hi))
    else:
        for i in range(out.size):
            out[i] = _narrow16(kind, _min_num(_max_num(_widen16(kind, x[i]), lo), hi))


@_jit_in
def _max_nonzero(a, b):
    return b if (b > a) | (a != a) else a


@_jit_in
def _min_nonzero(a, b):
    return b if (b < a) | (a != a) else a


@_jit_in
def _clamp_plain(kind, x, lo, hi, out):
    """Bounds that are not zero: no pair of zeros can meet, maxNum/minNum are plain selects."""
    if kind == KIND_F32:
        fx, fo = x.view(np.float32), out.view(np.float32)
        for i in range(fo.size):
            fo[i] = _canon(_min_nonzero(_max_nonzero(fx[i], lo), hi))
    else:
        # the result is x itself, lo or hi: x's own bits, or the bounds narrowed once (the same
        # bits as narrowing each result: x's value is a half value, and a NaN x loses to lo,
        # which is not NaN here, so no result is NaN)
        lo16, hi16 = _narrow16(kind, lo), _narrow16(kind, hi)
        for i in range(out.size):
            h = x[i]
            xf = _widen16(kind, h)
            low = (lo > xf) | (xf != xf)
            v = lo if low else xf
            out[i] = hi16 if hi < v else (lo16 if low else h)


@_jit
def clamp(kind, x, lo, hi, out):
    """``min_num(max_num(x, lo), hi)`` with float32 bounds ``lo``, ``hi``."""
    if lo != 0 and hi != 0 and lo == lo and hi == hi:
        _clamp_plain(kind, x, lo, hi, out)
    else:
        _clamp_zeros(kind, x, lo, hi, out)


# -- HardSwish ------------------------------------------------------------------------------------


@_jit_in
def _narrow_f16_half_away(r):
    """float32 -> float16 bits, ties away from zero (NaN canonical): nearest even, then a tie that
    went towards zero moves one step out (:func:`aclnn_py.kernels.hard_swish.narrow_half_away`)."""
    if r != r:
        return np.uint16(0x7E00)
    h = _narrow16(KIND_F16, r)
    back = _widen16(KIND_F16, h)
    d = r - back
    away_bits = h if (h & np.uint16(0x7FFF)) == np.uint16(0x7C00) else np.uint16(h + np.uint16(1))
    gap = abs(_widen16(KIND_F16, away_bits) - back)
    tie = d != 0 and abs(d) * F32(2.0) == gap and (d < 0) == (np.float32(r).view(np.int32) < 0)
    return away_bits if tie else h


@_jit_in
def _narrow_bf16_half_away(r):
    if r != r:
        return np.uint16(0x7FC0)
    b = np.float32(r).view(np.uint32)
    sign = b & np.uint32(0x80000000)
    mag = (b & np.uint32(0x7FFFFFFF)) + np.uint32(0x8000)
    return np.uint16((sign | mag) >> np.uint32(16))


@_jit_in
def _hardswish_tbe(x):
    t = x + F32(3.0)
    t = F32(0.0) if t < 0 else t  # np.maximum(t, 0): NaN stays NaN
    t = F32(6.0) if t > 6 else t
    t = t * F32(1.0 / 6.0)
    return x * t


@_jit_in
def _hardswish_arch35(x):
    t = x + F32(3.0)
    t = F32(6.0) if t > 6 else t
    t = F32(0.0) if t < 0 else t
    xm = F32(-3.0) if x < -3 else x
    return (xm * t) * F32(1.0 / 6.0)


@_jit_in
def _bf16_rounded(f):
    """:func:`._numba._narrow16` to bfloat16 (half to even, NaN canonical) without its final
    shift: float32 bits whose high half is the result."""
    b = np.uint32(np.float32(f).view(np.uint32) if f == f else np.uint32(0x7FC00000))
    return np.uint32(b + np.uint32(0x7FFF) + np.uint32((b >> np.uint32(16)) & np.uint32(1)))


# bfloat16 pairs as uint32 words need the first element in the low half
_LITTLE = sys.byteorder == "little"


@_jit
def _hardswish_tbe_bf16_pairs(x, out):
    """TBE bfloat16 HardSwish on two elements a uint32 word (x and out 4-byte aligned, a
    little-endian host: element 2i is word i's low half): word << 16 and word & 0xFFFF0000 are
    the two elements widened, and the rounded results' high halves go back with one shift, one
    mask and an or. Per element element-wise as :func:`_hardswish_tbe` then ``_narrow16``, the
    same bits; what changes is the packing: 14 vector instructions per 8 elements against 16.5
    (a load and a shift to widen each 8 of them, a shift, a pack and a permute to store:
    ``bench/arith_bound.py --asm``), 20% less time from L1 (4.2 -> 3.4 ms for 2^24 elements)."""
    m = out.size // 2 * 2
    xw, ow = x[:m].view(np.uint32), out[:m].view(np.uint32)
    for i in range(ow.size):
        w = xw[i]
        lo = _bf16_rounded(_hardswish_tbe(np.uint32(w << np.uint32(16)).view(np.float32)))
        hi = _bf16_rounded(_hardswish_tbe(np.uint32(w & np.uint32(0xFFFF0000)).view(np.float32)))
        # every operation in uint32 (numba widens integer arithmetic to 64 bits: half the lanes)
        ow[i] = np.uint32(np.uint32(lo >> np.uint32(16)) | np.uint32(hi & np.uint32(0xFFFF0000)))
    if m < out.size:
        out[m] = _narrow16(KIND_BF16, _hardswish_tbe(_widen16(KIND_BF16, x[m])))


@_jit
def hardswish(arch35, kind, x, out):
    """HardSwish forward: the TBE recipe rounds half to even, Ascend950's narrows the half types
    half away from zero (CAST_ROUND). In place (aclnnInplaceHardswish): block by block through
    a copy (see :func:`staged`)."""
    n = out.size
    if aliased(x, out):
        blk = _block(kind, out, n, 1)
        tmp = np.empty(blk, out.dtype)
        for start in range(0, n, blk):
            cnt = min(blk, n - start)
            _hardswish(arch35, kind, staged(x, start, cnt, tmp, True), out[start : start + cnt])
        return
    _hardswish(arch35, kind, x, out)


@_jit_in
def _hardswish(arch35, kind, x, out):
    n = out.size
    if kind == KIND_F32:
        fx, fo = x.view(np.float32), out.view(np.float32)
        if arch35:
            for i in range(fo.size):
                fo[i] = _canon(_hardswish_arch35(fx[i]))
        else:
            for i in range(fo.size):
                fo[i] = _canon(_hardswish_tbe(fx[i]))
        return
    if not arch35:
        if kind == KIND_BF16 and _LITTLE and (x.ctypes.data | out.ctypes.data) % 4 == 0:
            _hardswish_tbe_bf16_pairs(x, out)
            return
        for i in range(n):
            out[i] = _narrow16(kind, _hardswish_tbe(_widen16(kind, x[i])))
    elif kind == KIND_F16:
        for i in range(n):
            out[i] = _narrow_f16_half_away(_hardswish_arch35(_widen16(kind, x[i])))
    else:
        for i in range(n):
            out[i] = _narrow_bf16_half_away(_hardswish_arch35(_widen16(kind, x[i])))


# -- SmoothL1LossV2 --------------------------------------------------------------------------------


@_jit_in
def _smooth_l1(p, lab, sigma, m2_bias, inv):
    d = p - lab
    h = d * F32(0.5)
    m1 = (h * d) * inv
    a = abs(d)
    m2 = a + m2_bias
    return m1 if a < sigma else m2


@_jit
def smooth_l1_loss(kind, p, lab, out, sigma, m2_bias, inv):
    """The element-wise loss (``m2_bias`` = float32(-0.5) * sigma, ``inv`` the recipe's 1/sigma)
    into ``out`` (the kind's bits, or float32 bits for the reductions: ``out_f32``)."""
    n = out.size
    if kind == KIND_F32:
        fp, fl, fo = p.view(np.float32), lab.view(np.float32), out.view(np.float32)
        for i in range(n):
            fo[i] = _canon(_smooth_l1(fp[i], fl[i], sigma, m2_bias, inv))
        return
    for i in range(n):
        out[i] = _narrow16(kind, _smooth_l1(_widen16(kind, p[i]), _widen16(kind, lab[i]), sigma, m2_bias, inv))


@_jit
def smooth_l1_loss_f32(kind, p, lab, res, sigma, m2_bias, inv):
    """The element-wise losses as float32 values (for the reductions)."""
    n = res.size
    if kind == KIND_F32:
        fp, fl = p.view(np.float32), lab.view(np.float32)
        for i in range(n):
            res[i] = _smooth_l1(fp[i], fl[i], sigma, m2_bias, inv)
        return
    for i in range(n):
        res[i] = _smooth_l1(_widen16(kind, p[i]), _widen16(kind, lab[i]), sigma, m2_bias, inv)


@_jit
def narrow_half_away(kind, src, out):
    """float32 values -> float16/bfloat16 bits, ties away from zero (the rounding of Ascend950's
    HardSwish stores), as an array loop for the tests."""
    for i in range(out.size):
        out[i] = _narrow_f16_half_away(src[i]) if kind == KIND_F16 else _narrow_bf16_half_away(src[i])
