"""The Cast kernel: what each engine makes of a (source, destination) dtype pair.

The l0 op (``l0/cast.py``) picks the engine; a recipe is named after it:

* ``aicpu`` — ops-math's AI CPU kernel ``CastTask<T, S>``: ``static_cast<S>(x)`` compiled for
  the SoC's ARM cores (aarch64). Float -> integer truncates toward zero through a 32-bit (or
  64-bit) saturating conversion (``fcvtzs``/``fcvtzu``: NaN -> 0), then keeps the target's low
  bits; integers wrap; Eigen's half and bfloat16 are made from a float (integers are rounded to
  float first); a bool is read as its byte. Complex sources go to TensorFlow's kernel: the real
  part, then as from a real value.
* ``tbe-v220`` (Ascend910B, Ascend910_93), ``tbe-v200`` (Ascend310P), ``tbe-v100`` (Ascend910) —
  the built-in TBE ``cast.py``, path by path: float -> int32/int16/int64 truncate (the ``z``
  conversions) and saturate, NaN -> 0; float16/bfloat16 -> int8 and float16 -> uint8 keep the
  low byte of the truncated int32 (``vand 255`` / ``vmod 256``); float32/bfloat16 -> uint8 keep
  the low byte of a saturated int64; float32 -> int8 saturates; an integer narrowed to int8 or
  uint8 keeps its low bits, other direct integer conversions saturate (aclnn_py's reading of
  CANN's Cast system tests and AscendC's precision document, see the fidelity notes); int32 ->
  int8 is computed in float16 (``(x + 128) mod 256 - 128``: exact only inside (-2048, 1920), as
  CANN's document says); int32/int64 -> bfloat16 round twice (through float32); a bool is read
  as an int8.
* ``arch35`` (Ascend950) — ops-math's AscendC kernel, per the policy table
  ``op_kernel/arch35/cast_struct.h``: float -> int truncates and saturates to int32 (int64 for
  float32/bfloat16 -> uint8), then keeps the target's low bits; integer narrowing keeps the low
  bits; widening sign- or zero-extends as the source's signedness says; some pairs round twice
  (int32/int64/uint32 -> bfloat16, int64/uint32 -> float16).

Everywhere: a bool destination is ``x != 0`` (a NaN counts as true), except the TBE float32 ->
bool of Ascend910 and Ascend310P (``ceil(|x|)`` through int32: a NaN gives false). Float <->
float conversions are the same on every engine: round half to even, overflow to ±inf, through
float32 when neither side is float64 (float16 <-> bfloat16 is upcast exactly, then rounded once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ml_dtypes
import numpy as np

from .. import dtypes
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT8_E4M3FN,
    DT_FLOAT8_E5M2,
    DT_FLOAT16,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
)  # fmt: skip
from ._fp import blocks

RECIPES = ("aicpu", "tbe-v220", "tbe-v200", "tbe-v100", "arch35")

I8, I16, I32, I64 = np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32), np.dtype(np.int64)
U8, U32, U64 = np.dtype(np.uint8), np.dtype(np.uint32), np.dtype(np.uint64)
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
BF16 = np.dtype(ml_dtypes.bfloat16)

FLOATS = frozenset({DT_FLOAT16, DT_FLOAT, DT_BF16, DT_DOUBLE, DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN})
INTS = frozenset({DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64})
COMPLEX = frozenset({DT_COMPLEX64, DT_COMPLEX128})


def _np(dt: int) -> np.dtype:
    npdt = dtypes.numpy_dtype(dt)
    assert npdt is not None, dtypes.dt_name(dt)
    return npdt


# -- primitives -------------------------------------------------------------------------------------


def float_to_float(x: np.ndarray, dst: np.dtype) -> np.ndarray:
    """Round half to even, through float32 unless float64 is one side (each step rounds once)."""
    if x.dtype != F32 and x.dtype != F64 and dst != F64:
        x = x.astype(F32)
    return x.astype(dst)


def _wide(x: np.ndarray) -> np.ndarray:
    """A float array as float64 (exact for every float type here)."""
    return x.astype(F64)


def trunc_sat(v: np.ndarray, dst: np.dtype) -> np.ndarray:
    """Float -> integer: toward zero, NaN -> 0, saturated to ``dst``'s range."""
    info = np.iinfo(dst)
    t = np.trunc(v.astype(F64))
    t = np.where(np.isnan(t), 0.0, t)
    hi = t >= 2.0 ** (info.bits - (1 if info.min < 0 else 0))  # info.max + 1, a power of two
    lo = t < float(info.min)
    inside = np.where(hi | lo, 0.0, t).astype(dst)
    return np.where(hi, dst.type(info.max), np.where(lo, dst.type(info.min), inside))


def int_sat(a: np.ndarray, dst: np.dtype) -> np.ndarray:
    """Integer -> integer, saturated to ``dst``'s range."""
    info = np.iinfo(dst)
    if a.dtype.kind == "u":
        w = a.astype(U64)
        return np.where(w > np.uint64(info.max), dst.type(info.max), w.astype(dst))
    w = a.astype(I64)
    return np.clip(w, max(info.min, -(2**63)), min(info.max, 2**63 - 1)).astype(dst)


def int_to_float(a: np.ndarray, dst: np.dtype, *, twice: bool) -> np.ndarray:
    """Integer -> float, round half to even: once from the exact value, or ``twice`` (to float32
    first, then to ``dst``)."""
    if dst in (F32, F64):
        return a.astype(dst)
    if twice or a.dtype.itemsize <= 2:  # up to 16 bits float32 holds the value exactly
        return a.astype(F32).astype(dst)
    return a.astype(F64).astype(dst)  # float64 holds these exactly; one rounding to float16


def _nonzero(x: np.ndarray) -> np.ndarray:
    if x.dtype in (F16, BF16):
        x = x.astype(F32)
    return np.asarray(x != 0, dtype=np.bool_)


def _r16(v: np.ndarray) -> np.ndarray:
    """float64 values rounded to float16 (half to even, overflow to ±inf), back as float64."""
    return v.astype(F16).astype(F64)


def _floor_mod(v: np.ndarray, m: float) -> np.ndarray:
    """TBE ``vmod``: ``v - floor(v / m) * m`` (an infinity gives NaN)."""
    return np.asarray(np.mod(v, m))


# -- AI CPU (aarch64 static_cast, Eigen half / bfloat16, TensorFlow for complex sources) -----------


def _aicpu(x: np.ndarray, s: int, d: int) -> np.ndarray:
    dst = _np(d)
    if s == DT_BOOL:
        x, s = x.view(U8), DT_UINT8  # the byte, zero-extended
    if s in COMPLEX:
        if d in COMPLEX:
            return x.astype(dst)
        x = x.real  # TensorFlow's Cast: the real part, then as from a real value
        s = DT_FLOAT if x.dtype == F32 else DT_DOUBLE
    if d == DT_BOOL:
        return _nonzero(x)
    if s in FLOATS:
        if d in FLOATS:
            return float_to_float(x, dst)
        if d in COMPLEX:
            return (x if x.dtype in (F32, F64) else x.astype(F32)).astype(dst)
        # fcvtzs / fcvtzu into a 32-bit (64-bit for 64-bit targets) register, then the low bits
        bits = max(32, dst.itemsize * 8)
        reg = np.dtype(f"{'i' if dst.kind == 'i' else 'u'}{bits // 8}")
        return trunc_sat(x, reg).astype(dst)
    if d in FLOATS:
        return int_to_float(x, dst, twice=True)  # Eigen: static_cast<float> first
    return x.astype(dst)  # integer -> integer or complex: C conversions


# -- TBE (Ascend910B / 910_93: v220; Ascend310P: v200; Ascend910: v100) ---------------------------


def _tbe_int32_to_int8(x: np.ndarray) -> np.ndarray:
    """In float16: ``((f16(x) + 128) mod 256) - 128``, then to int8."""
    a = _r16(x.astype(F64))
    b = _r16(a + 128.0)
    with np.errstate(invalid="ignore"):
        c = _r16(_floor_mod(b, 256.0))
    return trunc_sat(_r16(c - 128.0), I8)


def _tbe_v100_to_uint8(x: np.ndarray) -> np.ndarray:
    """Ascend910's int -> uint8: to float16, ``mod 256`` in float16, then to uint8."""
    a = _r16(int_sat(x, I32).astype(F64))
    with np.errstate(invalid="ignore"):
        return trunc_sat(_r16(_floor_mod(a, 256.0)), U8)


def _tbe_float_to_int(x: np.ndarray, s: int, d: int, gen: str) -> np.ndarray:
    dst = _np(d)
    v = _wide(x)
    if d == DT_INT8 and s != DT_FLOAT:  # vand 255 of the truncated int32: the low byte
        return trunc_sat(v, I32).astype(I8)
    if d == DT_UINT8 and s == DT_FLOAT16:
        t = trunc_sat(v, I32).astype(F64)
        with np.errstate(invalid="ignore"):
            if gen == "tbe-v100":  # through float16, mod 256 there
                return trunc_sat(_r16(_floor_mod(_r16(t), 256.0)), U8)
            return trunc_sat(_floor_mod(t.astype(F32).astype(F64), 256.0), U8)  # through float32
    if d == DT_UINT8:  # float32 / bfloat16: trunc to a saturated int64, then its low byte
        return trunc_sat(v, I64).astype(U8)
    return trunc_sat(v, dst)  # int32/int16/int64 (trunc mode); float32 -> int8 through int16: all saturate


def _tbe(x: np.ndarray, s: int, d: int, gen: str) -> np.ndarray:
    dst = _np(d)
    bool_src = s == DT_BOOL
    if bool_src:
        x, s = x.view(I8), DT_INT8  # cast.py reads a bool as an int8
    if d == DT_BOOL:
        if s == DT_FLOAT and gen != "tbe-v220":  # ceil(|x|) through int32: a NaN gives 0
            return np.asarray(~np.isnan(x) & (x != 0), dtype=np.bool_)
        return _nonzero(x)
    if s in FLOATS and d in FLOATS:
        return float_to_float(x, dst)
    if s in FLOATS:
        return _tbe_float_to_int(x, s, d, gen)
    if d in FLOATS:  # int64/int32 -> bfloat16 and int64 -> float16 through float32
        return int_to_float(x, dst, twice=(s == DT_INT64 and d != DT_FLOAT) or d == DT_BF16)
    if s == DT_INT32 and d == DT_INT8:
        return _tbe_int32_to_int8(x)
    if d == DT_UINT8 and gen == "tbe-v100" and s in (DT_INT32, DT_INT64):
        return _tbe_v100_to_uint8(x)
    if bool_src and d == DT_UINT8 and gen != "tbe-v220":  # through float16 and its absolute value
        return np.abs(x.astype(I16)).astype(U8)
    if d in (DT_INT8, DT_UINT8):  # to a byte: the low bits (CANN's Cast system tests expect them)
        return x.astype(dst)
    return int_sat(x, dst)


# -- Ascend950 (arch35) ---------------------------------------------------------------------------


def _arch35(x: np.ndarray, s: int, d: int) -> np.ndarray:
    dst = _np(d)
    if s == DT_BOOL:
        x, s = x.view(I8), DT_INT8  # the policy table maps a bool source to int8
    if d == DT_BOOL:
        return _nonzero(x)
    if s in COMPLEX:  # complex64 -> float32 / bfloat16: the real part
        return float_to_float(x.real, dst)
    if d in COMPLEX:  # float32 / bfloat16 -> complex64: (x, +0)
        return x.astype(F32).astype(dst)
    if s in FLOATS and d in FLOATS:
        return float_to_float(x, dst)
    if s in FLOATS:
        v = _wide(x)
        if d in (DT_INT32, DT_INT64):
            return trunc_sat(v, dst)
        if d == DT_UINT8 and s != DT_FLOAT16:  # MIRCRO_CAST_DEINTER: through a saturated int64
            return trunc_sat(v, I64).astype(U8)
        return trunc_sat(v, I32).astype(dst)  # through a saturated int32, then the low bits
    if d in FLOATS:
        twice = d == DT_BF16 and s in (DT_INT32, DT_INT64, DT_UINT32)
        twice = twice or (d == DT_FLOAT16 and s in (DT_INT64, DT_UINT32))
        return int_to_float(x, dst, twice=twice)
    return x.astype(dst)  # extension, bit reinterpretation or the low bits


# -- entry points ---------------------------------------------------------------------------------


def cast_array(x: np.ndarray, src: int, dst: int, recipe: str) -> np.ndarray:
    """``x`` (holding ``src`` elements) converted to ``dst`` by ``recipe``'s kernel."""
    with np.errstate(all="ignore"):
        if recipe == "aicpu":
            return _aicpu(x, src, dst)
        if recipe == "arch35":
            return _arch35(x, src, dst)
        if recipe in ("tbe-v220", "tbe-v200", "tbe-v100"):
            return _tbe(x, src, dst, recipe)
    raise ValueError(f"unknown Cast recipe {recipe!r}")


_HALF_FLOATS = {DT_FLOAT: 0, DT_FLOAT16: 1, DT_BF16: 2}  # the compiled kernels' kinds


def _float_cast_numba(x: np.ndarray, out: np.ndarray, src: int, dst: int) -> bool:
    """float32/float16/bfloat16 -> another of them, compiled, when both are contiguous: the kernel
    rounds (half to even, the same on every engine); a NaN's bits are numpy's (payloads, quiet
    bits), so the positions of NaN inputs are written again by the numpy cast."""
    from . import accel

    if src not in _HALF_FLOATS or dst not in _HALF_FLOATS or not (x.flags.c_contiguous and out.flags.c_contiguous):
        return False
    if x.size != out.size or np.may_share_memory(x, out):
        return False
    nb = accel.use_numba(x.size)
    if nb is None:
        return False
    bits = {0: np.uint32, 1: np.uint16, 2: np.uint16}
    xs = x.reshape(-1).view(bits[_HALF_FLOATS[src]])
    if not xs.flags.writeable:
        xs = xs.copy()
    os_ = out.reshape(-1).view(bits[_HALF_FLOATS[dst]])
    if nb.ew.cast_float(_HALF_FLOATS[src], _HALF_FLOATS[dst], xs, os_):
        flat = x.reshape(-1)
        nan = np.isnan(flat.astype(F32)) if flat.dtype == BF16 else np.isnan(flat)
        out.reshape(-1)[nan] = float_to_float(flat[nan], out.dtype)
    return True


_SCALE_F16 = F32.type(2.0**112)  # a float16's magnitude bits at float32's place: its value / 2**112
_F16_BITS_MASK = np.int32(-0x70002000)  # 0x8FFFE000: the sign, and the 15 magnitude bits shifted by 13
_INF_NAN_REBIAS = np.int32(0x38000000)  # exponent 0x8F (2**16 after the scale) + 0x70 -> 0xFF


def _f16_to_f32_fast(x: np.ndarray, out: np.ndarray) -> bool:
    """float16 -> float32 by integer and float operations, block by block into ``out``: numpy's
    own conversion is a scalar loop here, about 8x slower than a copy. False when the call
    does not qualify (contiguous, one size, ``out`` apart from ``x``); numpy's cast runs then.

    The bits are numpy's ``astype`` (every one of the 65536 float16 values is tested):

    * the float16 read as int16 and widened to int32 sign-extends, so ``<< 13`` puts the
      magnitude bits at 27..13 and the sign in bits 31..28; ``& 0x8FFFE000`` keeps the sign
      bit and the magnitude: as a float32 that is the value times 2**-112 for every finite
      float16 (a subnormal one is a float32 subnormal with the same integer significand;
      zero is ±0.0);
    * ``* 2**112`` is then exact (a power of two, the result is a float16's value);
    * an infinity or NaN (exponent 0x1F) comes out of that as ±2**16 * 1.m: adding 0x38000000
      to its bits makes the exponent 0xFF and keeps the payload (numpy does not quiet a
      signalling NaN either). Only a block with such a value is fixed up: it holds an int16
      >= 0x7C00 (a positive one) or a uint16 >= 0xFC00 (a negative one)."""
    if x.dtype != F16 or out.dtype != F32 or x.size != out.size:
        return False
    parts = blocks([x], out)  # contiguous, apart (an overlap of two item sizes is never the same view)
    if parts is None:
        return False
    for o, (h,) in parts:
        w, hi = o.view(np.int32), h.view(np.int16)
        np.copyto(w, hi)  # sign-extends
        np.left_shift(w, np.int32(13), out=w)
        np.bitwise_and(w, _F16_BITS_MASK, out=w)
        np.multiply(o, _SCALE_F16, out=o)
        if np.maximum.reduce(hi) >= 0x7C00 or np.maximum.reduce(hi.view(np.uint16)) >= 0xFC00:
            special = np.abs(o) >= F32.type(65536.0)  # 2**16 * 1.m: the exponent 0x1F
            w[special] += _INF_NAN_REBIAS
    return True


def make(src: int, dst: int, recipe: str) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    """A launch computation casting its input (``src``) into its output (``dst``)."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        if _float_cast_numba(x, out, src, dst):
            return "numba"
        if src == DT_FLOAT16 and dst == DT_FLOAT and _f16_to_f32_fast(x, out):
            return "numpy"
        if src in _HALF_FLOATS and dst in _HALF_FLOATS and (src == DT_FLOAT or dst == DT_FLOAT):
            with np.errstate(all="ignore"):
                np.copyto(out, x, casting="unsafe")  # float_to_float in one step: one rounding, no temporary
            return "numpy"
        outs[0][...] = cast_array(ins[0], src, dst, recipe)
        return "numpy"

    return compute
