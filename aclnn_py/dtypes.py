"""Data types and formats: ``aclDataType``, ``aclFormat`` and the tables opbase keeps for them.

Two numberings exist in CANN and both are here:

* ``aclDataType`` / ``aclFormat``: the public values of ``acl_base_rt.h``;
* the internal ``ge::DataType`` numbering that an aclTensor stores and every error message
  prints (``DT_FLOAT``, ``DT_BFLOAT16`` ...). It equals the public value except
  ``ACL_DT_UNDEFINED (-1)``, which becomes ``DT_UNDEFINED (28)``.

Also: element sizes (opbase ``TypeSize`` in bits, and the runtime's ``aclDataTypeSize`` with its
quirks), the numpy / ml_dtypes dtype of each type, CANN's promotion table (``PromoteType``),
``CanCast``, and ``BroadcastInferShape``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import ml_dtypes
import numpy as np

from ._status import _CEnum


class aclDataType(_CEnum):
    """Public data type values (``acl_base_rt.h``)."""

    ACL_DT_UNDEFINED = -1
    ACL_FLOAT = 0
    ACL_FLOAT16 = 1
    ACL_INT8 = 2
    ACL_INT32 = 3
    ACL_UINT8 = 4
    ACL_INT16 = 6
    ACL_UINT16 = 7
    ACL_UINT32 = 8
    ACL_INT64 = 9
    ACL_UINT64 = 10
    ACL_DOUBLE = 11
    ACL_BOOL = 12
    ACL_STRING = 13
    ACL_COMPLEX64 = 16
    ACL_COMPLEX128 = 17
    ACL_BF16 = 27
    ACL_INT4 = 29
    ACL_UINT1 = 30
    ACL_COMPLEX32 = 33
    ACL_HIFLOAT8 = 34
    ACL_FLOAT8_E5M2 = 35
    ACL_FLOAT8_E4M3FN = 36
    ACL_FLOAT8_E8M0 = 37
    ACL_FLOAT6_E3M2 = 38
    ACL_FLOAT6_E2M3 = 39
    ACL_FLOAT4_E2M1 = 40
    ACL_FLOAT4_E1M2 = 41


class aclFormat(_CEnum):
    """Public format values (``acl_base_rt.h``); note ``ACL_FRACTAL_Z_3D`` has no ``FORMAT_``."""

    ACL_FORMAT_UNDEFINED = -1
    ACL_FORMAT_NCHW = 0
    ACL_FORMAT_NHWC = 1
    ACL_FORMAT_ND = 2
    ACL_FORMAT_NC1HWC0 = 3
    ACL_FORMAT_FRACTAL_Z = 4
    ACL_FORMAT_NC1HWC0_C04 = 12
    ACL_FORMAT_HWCN = 16
    ACL_FORMAT_NDHWC = 27
    ACL_FORMAT_FRACTAL_NZ = 29
    ACL_FORMAT_NCDHW = 30
    ACL_FORMAT_NDC1HWC0 = 32
    ACL_FRACTAL_Z_3D = 33
    ACL_FORMAT_NC = 35
    ACL_FORMAT_NCL = 47
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54


# ---------------------------------------------------------------------------------------------
# Internal (ge::DataType) numbering
# ---------------------------------------------------------------------------------------------

DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT32, DT_UINT8 = 0, 1, 2, 3, 4
DT_INT16, DT_UINT16, DT_UINT32, DT_INT64, DT_UINT64 = 6, 7, 8, 9, 10
DT_DOUBLE, DT_BOOL, DT_STRING = 11, 12, 13
DT_COMPLEX64, DT_COMPLEX128, DT_BF16, DT_UNDEFINED = 16, 17, 27, 28
DT_INT4, DT_UINT1, DT_INT2, DT_UINT2, DT_COMPLEX32 = 29, 30, 31, 32, 33
DT_HIFLOAT8, DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_FLOAT8_E8M0 = 34, 35, 36, 37
DT_FLOAT6_E3M2, DT_FLOAT6_E2M3, DT_FLOAT4_E2M1, DT_FLOAT4_E1M2 = 38, 39, 40, 41
DT_HIFLOAT4, DT_MAX = 42, 43

_DT_NAMES = {
    DT_FLOAT: "DT_FLOAT",
    DT_FLOAT16: "DT_FLOAT16",
    DT_INT8: "DT_INT8",
    DT_INT16: "DT_INT16",
    DT_UINT16: "DT_UINT16",
    DT_UINT8: "DT_UINT8",
    DT_INT32: "DT_INT32",
    DT_INT64: "DT_INT64",
    DT_UINT32: "DT_UINT32",
    DT_UINT64: "DT_UINT64",
    DT_BOOL: "DT_BOOL",
    DT_DOUBLE: "DT_DOUBLE",
    DT_COMPLEX32: "DT_COMPLEX32",
    DT_COMPLEX64: "DT_COMPLEX64",
    DT_COMPLEX128: "DT_COMPLEX128",
    DT_STRING: "DT_STRING",
    DT_INT4: "DT_INT4",
    DT_UINT1: "DT_UINT1",
    DT_HIFLOAT8: "DT_HIFLOAT8",
    DT_FLOAT8_E5M2: "DT_FLOAT8_E5M2",
    DT_FLOAT8_E4M3FN: "DT_FLOAT8_E4M3FN",
    DT_FLOAT8_E8M0: "DT_FLOAT8_E8M0",
    DT_FLOAT6_E3M2: "DT_FLOAT6_E3M2",
    DT_FLOAT6_E2M3: "DT_FLOAT6_E2M3",
    DT_HIFLOAT4: "DT_HIFLOAT4",
    DT_FLOAT4_E2M1: "DT_FLOAT4_E2M1",
    DT_FLOAT4_E1M2: "DT_FLOAT4_E1M2",
    DT_UNDEFINED: "DT_UNDEFINED",
    DT_BF16: "DT_BFLOAT16",
}

# The ge values that ToAclDataType maps back to a public value; anything else -> ACL_DT_UNDEFINED.
_TO_ACL = frozenset(int(d) for d in aclDataType if d != aclDataType.ACL_DT_UNDEFINED)


def to_op_dtype(acl_value: int) -> int:
    """``ToOpDataType``: the value an aclTensor stores for a public dtype (no range check)."""
    return DT_UNDEFINED if acl_value == -1 else int(acl_value)


def to_acl_dtype(dt: int) -> aclDataType:
    """``ToAclDataType``: the public value reported by ``aclGetDataType``."""
    return aclDataType(dt) if dt in _TO_ACL else aclDataType.ACL_DT_UNDEFINED


def dt_name(dt: int) -> str:
    """``op::ToString(DataType)``: the name used in every message (``UNDEFINED`` if unknown)."""
    return _DT_NAMES.get(dt, "UNDEFINED")


def dt_list_str(dts: Sequence[int]) -> str:
    """A dtype support list as CANN prints it: ``[DT_FLOAT,DT_FLOAT16,]``."""
    return "[" + "".join(dt_name(d) + "," for d in dts) + "]"


# Element width in bits (opbase TypeSize); unknown types count as 16 bytes (sizeof complex128).
_BITS = {
    DT_FLOAT: 32, DT_FLOAT16: 16, DT_INT8: 8, DT_INT32: 32, DT_UINT8: 8, DT_INT16: 16,
    DT_UINT16: 16, DT_UINT32: 32, DT_INT64: 64, DT_UINT64: 64, DT_DOUBLE: 64, DT_BOOL: 8,
    DT_COMPLEX64: 64, DT_COMPLEX128: 128, DT_BF16: 16, DT_COMPLEX32: 32, DT_HIFLOAT8: 8,
    DT_FLOAT8_E5M2: 8, DT_FLOAT8_E4M3FN: 8, DT_FLOAT8_E8M0: 8, DT_INT4: 4, DT_UINT1: 1,
    DT_INT2: 2, DT_UINT2: 2, DT_FLOAT6_E3M2: 6, DT_FLOAT6_E2M3: 6, DT_FLOAT4_E2M1: 4,
    DT_FLOAT4_E1M2: 4, DT_HIFLOAT4: 4,
}  # fmt: skip


def element_bits(dt: int) -> int:
    """Width of one element in bits (opbase ``TypeSize``)."""
    return _BITS.get(dt, 128)


def shape_bytes(numel: int, dt: int) -> int:
    """Bytes of ``numel`` elements (``CalcShapeBytes``: sub-byte types round up)."""
    return (numel * element_bits(dt) + 7) // 8


def item_size(dt: int) -> int:
    """Bytes per element for byte-addressable types (sub-byte types count as 1)."""
    return max(1, element_bits(dt) // 8)


_ACL_SIZE = {
    aclDataType.ACL_STRING: 0, aclDataType.ACL_DT_UNDEFINED: 0,
    aclDataType.ACL_UINT1: 1, aclDataType.ACL_INT4: 1, aclDataType.ACL_BOOL: 1,
    aclDataType.ACL_INT8: 1, aclDataType.ACL_UINT8: 1, aclDataType.ACL_HIFLOAT8: 1,
    aclDataType.ACL_FLOAT8_E5M2: 1, aclDataType.ACL_FLOAT8_E4M3FN: 1, aclDataType.ACL_FLOAT8_E8M0: 1,
    aclDataType.ACL_FLOAT16: 2, aclDataType.ACL_INT16: 2, aclDataType.ACL_UINT16: 2, aclDataType.ACL_BF16: 2,
    aclDataType.ACL_FLOAT: 4, aclDataType.ACL_INT32: 4, aclDataType.ACL_UINT32: 4,
    aclDataType.ACL_COMPLEX32: 4, aclDataType.ACL_COMPLEX128: 16,
    aclDataType.ACL_INT64: 8, aclDataType.ACL_UINT64: 8, aclDataType.ACL_DOUBLE: 8, aclDataType.ACL_COMPLEX64: 8,
}  # fmt: skip


def aclDataTypeSize(dataType: int) -> int:
    """``size_t aclDataTypeSize(aclDataType)``, including the runtime's default branch of 8
    (which is what FLOAT6_*/FLOAT4_* and unknown values report)."""
    try:
        return _ACL_SIZE.get(aclDataType(int(dataType)), 8)
    except (ValueError, TypeError):
        return 8


# numpy dtypes; None = storage-only (numpy cannot hold it: packed sub-byte types, COMPLEX32,
# HIFLOAT8, STRING). ml_dtypes supplies bf16 and the 8-bit floats.
_NUMPY: dict[int, np.dtype | None] = {
    DT_FLOAT: np.dtype(np.float32),
    DT_FLOAT16: np.dtype(np.float16),
    DT_INT8: np.dtype(np.int8),
    DT_INT32: np.dtype(np.int32),
    DT_UINT8: np.dtype(np.uint8),
    DT_INT16: np.dtype(np.int16),
    DT_UINT16: np.dtype(np.uint16),
    DT_UINT32: np.dtype(np.uint32),
    DT_INT64: np.dtype(np.int64),
    DT_UINT64: np.dtype(np.uint64),
    DT_DOUBLE: np.dtype(np.float64),
    DT_BOOL: np.dtype(np.bool_),
    DT_COMPLEX64: np.dtype(np.complex64),
    DT_COMPLEX128: np.dtype(np.complex128),
    DT_BF16: np.dtype(ml_dtypes.bfloat16),
    DT_FLOAT8_E5M2: np.dtype(ml_dtypes.float8_e5m2),
    DT_FLOAT8_E4M3FN: np.dtype(ml_dtypes.float8_e4m3fn),
    DT_FLOAT8_E8M0: np.dtype(ml_dtypes.float8_e8m0fnu),
}

STORAGE_ONLY = frozenset(
    {DT_STRING, DT_INT4, DT_UINT1, DT_INT2, DT_UINT2, DT_COMPLEX32, DT_HIFLOAT8,
     DT_FLOAT6_E3M2, DT_FLOAT6_E2M3, DT_FLOAT4_E2M1, DT_FLOAT4_E1M2, DT_HIFLOAT4}
)  # fmt: skip


def numpy_dtype(dt: int) -> np.dtype | None:
    """The numpy dtype holding one element of ``dt`` (None for storage-only types)."""
    return _NUMPY.get(dt)


_FROM_NUMPY = {v: k for k, v in _NUMPY.items() if v is not None}


def from_numpy_dtype(dtype: np.dtype) -> int | None:
    """The internal dtype for a numpy dtype, or None."""
    return _FROM_NUMPY.get(np.dtype(dtype))


# ---------------------------------------------------------------------------------------------
# PromoteType and CanCast (opbase data_type_utils.h)
# ---------------------------------------------------------------------------------------------

_PROMOTE_AXIS = [
    DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT32, DT_UINT8, DT_INT16, DT_UINT16, DT_UINT32,
    DT_INT64, DT_UINT64, DT_DOUBLE, DT_BOOL, DT_COMPLEX64, DT_COMPLEX128, DT_BF16, DT_COMPLEX32,
]  # fmt: skip
_ABBR = {
    "F32": DT_FLOAT, "F16": DT_FLOAT16, "I8": DT_INT8, "I32": DT_INT32, "U8": DT_UINT8,
    "I16": DT_INT16, "U16": DT_UINT16, "U32": DT_UINT32, "I64": DT_INT64, "U64": DT_UINT64,
    "F64": DT_DOUBLE, "B": DT_BOOL, "C64": DT_COMPLEX64, "C128": DT_COMPLEX128,
    "BF16": DT_BF16, "C32": DT_COMPLEX32, "-": DT_UNDEFINED,
}  # fmt: skip
# Rows = a, columns = b, in _PROMOTE_AXIS order. Not symmetric (U16/U32/U64 vs complex).
_PROMOTE_ROWS = """
F32  F32  F32  F32  F32  F32  -    -    F32  -    F64  F32  C64  C128 F32  C64
F32  F16  F16  F16  F16  F16  -    -    F16  -    F64  F16  C64  C128 F32  C32
F32  F16  I8   I32  I16  I16  -    -    I64  -    F64  I8   C64  C128 BF16 C32
F32  F16  I32  I32  I32  I32  -    -    I64  -    F64  I32  C64  C128 BF16 C32
F32  F16  I16  I32  U8   I16  -    -    I64  -    F64  U8   C64  C128 BF16 C32
F32  F16  I16  I32  I16  I16  -    -    I64  -    F64  I16  C64  C128 BF16 C32
-    -    -    -    -    -    U16  -    -    -    -    -    C64  C128 -    -
-    -    -    -    -    -    -    U32  -    -    -    -    C64  C128 -    -
F32  F16  I64  I64  I64  I64  -    -    I64  -    F64  I64  C64  C128 BF16 C32
-    -    -    -    -    -    -    -    -    U64  -    -    C128 C128 -    -
F64  F64  F64  F64  F64  F64  -    -    F64  -    F64  F64  C128 C128 F64  C128
F32  F16  I8   I32  U8   I16  -    -    I64  -    F64  B    C64  C128 BF16 C32
C64  C64  C64  C64  C64  C64  -    -    C64  -    C128 C64  C64  C128 C64  C64
C128 C128 C128 C128 C128 C128 -    -    C128 -    C128 C128 C128 C128 C128 C128
F32  F32  BF16 BF16 BF16 BF16 -    -    BF16 -    F64  BF16 C64  C128 BF16 C64
C64  C32  C32  C32  C32  C32  -    -    C32  -    C128 C32  C64  C128 C64  C32
"""


def _build_promote_table() -> list[list[int]]:
    # The real array is [DT_MAX][DT_MAX] with only rows/cols 0..33 filled: the rest is zero,
    # i.e. DT_FLOAT. Inside 0..33, types without a row in the source table are UNDEFINED.
    table = [[DT_FLOAT] * DT_MAX for _ in range(DT_MAX)]
    for a in range(34):
        for b in range(34):
            table[a][b] = DT_UNDEFINED
    rows = [line.split() for line in _PROMOTE_ROWS.strip().splitlines()]
    for a, row in zip(_PROMOTE_AXIS, rows):
        for b, cell in zip(_PROMOTE_AXIS, row):
            table[a][b] = _ABBR[cell]
    return table


_PROMOTE = _build_promote_table()


def promote_type(a: int, b: int) -> int:
    """``op::PromoteType(a, b)``: DT_UNDEFINED when the pair cannot promote."""
    if not (0 <= a < DT_MAX and 0 <= b < DT_MAX):
        return DT_UNDEFINED
    if a == b:
        return a
    return _PROMOTE[a][b]


_COMPLEX = frozenset({DT_COMPLEX32, DT_COMPLEX64, DT_COMPLEX128})
_FLOATING = frozenset(
    {DT_DOUBLE, DT_FLOAT, DT_BF16, DT_FLOAT16, DT_HIFLOAT8, DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN,
     DT_FLOAT8_E8M0, DT_FLOAT6_E3M2, DT_FLOAT6_E2M3, DT_FLOAT4_E2M1, DT_FLOAT4_E1M2}
)  # fmt: skip
_INTEGRAL = frozenset({DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64})


FLOATING = _FLOATING  # IsFloatingType (the float8/6/4 types included)
INTEGRAL = _INTEGRAL  # IsIntegralType(t, false)
COMPLEX = _COMPLEX
# The narrow floats (8 bits and less) that scalar conversion does not produce.
NARROW_FLOATING = _FLOATING - {DT_DOUBLE, DT_FLOAT, DT_BF16, DT_FLOAT16}


def can_cast(src: int, dst: int) -> bool:
    """``op::CanCast(from, to)``: no complex->real, no floating->integral, nothing->bool but bool."""
    if src in _COMPLEX and dst not in _COMPLEX:
        return False
    if src in _FLOATING and dst in _INTEGRAL:
        return False
    return not (dst == DT_BOOL and src != DT_BOOL)


# ---------------------------------------------------------------------------------------------
# Formats
# ---------------------------------------------------------------------------------------------

FORMAT_MAX = 255
FORMAT_ND = int(aclFormat.ACL_FORMAT_ND)
FORMAT_FRACTAL_NZ = int(aclFormat.ACL_FORMAT_FRACTAL_NZ)

_FORMAT_NAMES = {
    0: "NCHW", 1: "NHWC", 2: "ND", 3: "NC1HWC0", 4: "FRACTAL_Z", 12: "NC1HWC0_C04", 16: "HWCN",
    27: "NDHWC", 29: "FRACTAL_NZ", 30: "NCDHW", 32: "NDC1HWC0", 33: "FRACTAL_Z_3D", 35: "NC",
    47: "NCL", 50: "FRACTAL_NZ_C0_16", 51: "FRACTAL_NZ_C0_32", 52: "FRACTAL_NZ_C0_2",
    53: "FRACTAL_NZ_C0_4", 54: "FRACTAL_NZ_C0_8", FORMAT_MAX: "UNDEFINED",
}  # fmt: skip
_PRIVATE_FORMATS = frozenset({3, 4, 12, 29, 32, 33, 50, 51, 52, 53, 54})
_TO_ACL_FORMAT = frozenset(int(f) for f in aclFormat if f != aclFormat.ACL_FORMAT_UNDEFINED)


def to_op_format(acl_value: int) -> int:
    """``ToOpFormat``: ACL_FORMAT_UNDEFINED becomes FORMAT_MAX (255); others are kept."""
    return FORMAT_MAX if acl_value == -1 else int(acl_value)


def to_acl_format(fmt: int) -> aclFormat:
    """``ToAclFormat``: the value ``aclGetFormat`` reports."""
    return aclFormat(fmt) if fmt in _TO_ACL_FORMAT else aclFormat.ACL_FORMAT_UNDEFINED


def format_name(fmt: int) -> str:
    """``op::ToString(Format)`` (``RESERVED`` for values it does not know)."""
    return _FORMAT_NAMES.get(fmt, "RESERVED")


def is_private_format(fmt: int) -> bool:
    """Private (hardware-tiled) formats: NC1HWC0, FRACTAL_Z, FRACTAL_NZ and relatives."""
    return fmt in _PRIVATE_FORMATS


# ---------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------


def shape_str(shape: Sequence[int]) -> str:
    """``op::ToString(Shape)``: ``[2, 3]``, rank 0 -> ``[]``."""
    return "[" + ", ".join(str(int(d)) for d in shape) + "]"


def numel(shape: Sequence[int]) -> int:
    """Product of the dims (1 for rank 0)."""
    n = 1
    for d in shape:
        n *= int(d)
    return n


@functools.lru_cache(maxsize=4096)
def _contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = int(shape[i + 1]) * strides[i + 1]
    return tuple(strides)


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides in elements (``ToContiguousStrides``; zero dims are not special-cased)."""
    return _contiguous_strides(shape if isinstance(shape, tuple) else tuple(shape))


class BroadcastFailure:
    """Why ``broadcast_infer_shape`` failed: the larger shape, the smaller one, and the value of the
    first failing dimension of the larger shape, scanning from the right (what EZ1007 prints)."""

    __slots__ = ("dim", "larger", "smaller")

    def __init__(self, larger: tuple[int, ...], smaller: tuple[int, ...], dim: int) -> None:
        self.larger, self.smaller, self.dim = larger, smaller, dim


def broadcast_infer_shape(
    a: Sequence[int], b: Sequence[int]
) -> tuple[tuple[int, ...], None] | tuple[None, BroadcastFailure]:
    """``BroadcastInferShape``: NumPy rules, right-aligned, scanned from the last dimension; the
    larger shape is the one with more dims (``b`` on a tie); 1 against 0 gives 0."""
    ta, tb = tuple(int(d) for d in a), tuple(int(d) for d in b)
    larger, smaller = (ta, tb) if len(ta) > len(tb) else (tb, ta)
    out = list(larger)
    shift = len(larger) - len(smaller)
    for i in range(len(smaller) - 1, -1, -1):
        j = i + shift
        dl, ds = larger[j], smaller[i]
        if dl == ds or ds == 1:
            continue
        if dl == 1:
            out[j] = ds
            continue
        return None, BroadcastFailure(larger, smaller, dl)
    return tuple(out), None
