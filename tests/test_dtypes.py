"""dtype tables: names, sizes, numpy mapping, PromoteType (the whole table), CanCast, broadcast."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from aclnn_py import aclDataType, aclDataTypeSize, dtypes
from aclnn_py.dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX32,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_HIFLOAT8,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_MAX,
    DT_UINT8,
    DT_UINT16,
    DT_UINT32,
    DT_UINT64,
    DT_UNDEFINED,
)  # fmt: skip

# The promotion table exactly as the reference notes print it (opbase data_type_utils.h).
REFERENCE_TABLE = """
| a \\ b | F32 | F16 | I8 | I32 | U8 | I16 | U16 | U32 | I64 | U64 | F64 | B | C64 | C128 | BF16 | C32 |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
| **F32** | F32 | F32 | F32 | F32 | F32 | F32 | - | - | F32 | - | F64 | F32 | C64 | C128 | F32 | C64 |
| **F16** | F32 | F16 | F16 | F16 | F16 | F16 | - | - | F16 | - | F64 | F16 | C64 | C128 | F32 | C32 |
| **I8** | F32 | F16 | I8 | I32 | I16 | I16 | - | - | I64 | - | F64 | I8 | C64 | C128 | BF16 | C32 |
| **I32** | F32 | F16 | I32 | I32 | I32 | I32 | - | - | I64 | - | F64 | I32 | C64 | C128 | BF16 | C32 |
| **U8** | F32 | F16 | I16 | I32 | U8 | I16 | - | - | I64 | - | F64 | U8 | C64 | C128 | BF16 | C32 |
| **I16** | F32 | F16 | I16 | I32 | I16 | I16 | - | - | I64 | - | F64 | I16 | C64 | C128 | BF16 | C32 |
| **U16** | - | - | - | - | - | - | U16 | - | - | - | - | - | C64 | C128 | - | - |
| **U32** | - | - | - | - | - | - | - | U32 | - | - | - | - | C64 | C128 | - | - |
| **I64** | F32 | F16 | I64 | I64 | I64 | I64 | - | - | I64 | - | F64 | I64 | C64 | C128 | BF16 | C32 |
| **U64** | - | - | - | - | - | - | - | - | - | U64 | - | - | C128 | C128 | - | - |
| **F64** | F64 | F64 | F64 | F64 | F64 | F64 | - | - | F64 | - | F64 | F64 | C128 | C128 | F64 | C128 |
| **B** | F32 | F16 | I8 | I32 | U8 | I16 | - | - | I64 | - | F64 | B | C64 | C128 | BF16 | C32 |
| **C64** | C64 | C64 | C64 | C64 | C64 | C64 | - | - | C64 | - | C128 | C64 | C64 | C128 | C64 | C64 |
| **C128** | C128 | C128 | C128 | C128 | C128 | C128 | - | - | C128 | - | C128 | C128 | C128 | C128 | C128 | C128 |
| **BF16** | F32 | F32 | BF16 | BF16 | BF16 | BF16 | - | - | BF16 | - | F64 | BF16 | C64 | C128 | BF16 | C64 |
| **C32** | C64 | C32 | C32 | C32 | C32 | C32 | - | - | C32 | - | C128 | C32 | C64 | C128 | C64 | C32 |
"""
ABBR = {
    "F32": DT_FLOAT, "F16": DT_FLOAT16, "I8": DT_INT8, "I32": DT_INT32, "U8": DT_UINT8, "I16": DT_INT16,
    "U16": DT_UINT16, "U32": DT_UINT32, "I64": DT_INT64, "U64": DT_UINT64, "F64": DT_DOUBLE, "B": DT_BOOL,
    "C64": DT_COMPLEX64, "C128": DT_COMPLEX128, "BF16": DT_BF16, "C32": DT_COMPLEX32, "-": DT_UNDEFINED,
}  # fmt: skip


def _parse_reference():
    lines = [ln for ln in REFERENCE_TABLE.strip().splitlines() if ln.startswith("|")]
    cols = [c.strip() for c in lines[0].strip("|").split("|")][1:]
    table = {}
    for line in lines[2:]:
        cells = [c.strip().strip("*") for c in line.strip("|").split("|")]
        for col, cell in zip(cols, cells[1:]):
            table[(ABBR[cells[0]], ABBR[col])] = ABBR[cell]
    return table


def test_whole_promotion_table_matches_the_reference():
    table = _parse_reference()
    assert len(table) == 256
    for (a, b), expected in table.items():
        assert dtypes.promote_type(a, b) == expected, (dtypes.dt_name(a), dtypes.dt_name(b))


def test_promotion_quirks():
    # not symmetric for unsigned vs complex
    assert dtypes.promote_type(DT_UINT16, DT_COMPLEX64) == DT_COMPLEX64
    assert dtypes.promote_type(DT_COMPLEX64, DT_UINT16) == DT_UNDEFINED
    assert dtypes.promote_type(DT_UINT64, DT_COMPLEX64) == DT_COMPLEX128
    # BF16 + C32 = C64 in code (the doc says C32)
    assert dtypes.promote_type(DT_BF16, DT_COMPLEX32) == DT_COMPLEX64
    # rows/cols 34..42 were never filled: zero = DT_FLOAT for two different types
    assert dtypes.promote_type(DT_HIFLOAT8, DT_INT8) == DT_FLOAT
    assert dtypes.promote_type(DT_FLOAT16, 41) == DT_FLOAT
    assert dtypes.promote_type(DT_HIFLOAT8, DT_HIFLOAT8) == DT_HIFLOAT8
    # unused types inside 0..33 cannot promote; out of range -> undefined
    for t in (5, 13, 14, 15, 18, 26, 28, 29, 30, 31, 32):
        assert dtypes.promote_type(t, DT_FLOAT) == DT_UNDEFINED
        assert dtypes.promote_type(DT_FLOAT, t) == DT_UNDEFINED
    assert dtypes.promote_type(-1, DT_FLOAT) == DT_UNDEFINED
    assert dtypes.promote_type(DT_FLOAT, DT_MAX) == DT_UNDEFINED
    assert dtypes.promote_type(13, 34) == DT_FLOAT


COMPLEX = {DT_COMPLEX32, DT_COMPLEX64, DT_COMPLEX128}
FLOATING = {DT_DOUBLE, DT_FLOAT, DT_BF16, DT_FLOAT16, 34, 35, 36, 37, 38, 39, 40, 41}
INTEGRAL = {DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64}


def test_can_cast_rules_for_every_pair():
    for src, dst in itertools.product(range(DT_MAX), range(DT_MAX)):
        expected = not (
            (src in COMPLEX and dst not in COMPLEX)
            or (src in FLOATING and dst in INTEGRAL)
            or (dst == DT_BOOL and src != DT_BOOL)
        )
        assert dtypes.can_cast(src, dst) == expected, (src, dst)
    assert dtypes.can_cast(DT_BOOL, DT_FLOAT) and dtypes.can_cast(DT_INT32, DT_FLOAT16)
    assert dtypes.can_cast(DT_FLOAT, DT_COMPLEX64) and not dtypes.can_cast(DT_FLOAT, DT_INT32)


def test_dtype_names_as_messages_print_them():
    assert dtypes.dt_name(DT_BF16) == "DT_BFLOAT16"
    assert dtypes.dt_name(DT_FLOAT) == "DT_FLOAT"
    assert dtypes.dt_name(DT_UNDEFINED) == "DT_UNDEFINED"
    assert dtypes.dt_name(18) == "UNDEFINED"  # DT_QINT8 is not in the name map
    assert dtypes.dt_name(99) == "UNDEFINED"
    assert dtypes.dt_list_str([DT_FLOAT, DT_FLOAT16, DT_BF16]) == "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,]"
    assert dtypes.dt_list_str([]) == "[]"
    assert dtypes.shape_str([2, 3]) == "[2, 3]" and dtypes.shape_str([]) == "[]"


def test_format_names_and_mapping():
    assert dtypes.format_name(2) == "ND" and dtypes.format_name(33) == "FRACTAL_Z_3D"
    assert dtypes.format_name(255) == "UNDEFINED" and dtypes.format_name(7) == "RESERVED"
    assert dtypes.to_op_format(-1) == 255 and dtypes.to_op_format(29) == 29
    assert dtypes.to_acl_format(255) == -1 and dtypes.to_acl_format(47) == 47
    assert dtypes.is_private_format(29) and not dtypes.is_private_format(2)


def test_dtype_mapping_public_internal():
    assert dtypes.to_op_dtype(-1) == DT_UNDEFINED
    assert dtypes.to_op_dtype(27) == DT_BF16
    assert dtypes.to_acl_dtype(DT_UNDEFINED) == aclDataType.ACL_DT_UNDEFINED
    assert dtypes.to_acl_dtype(18) == aclDataType.ACL_DT_UNDEFINED
    assert dtypes.to_acl_dtype(99) == aclDataType.ACL_DT_UNDEFINED
    for d in aclDataType:
        if d != aclDataType.ACL_DT_UNDEFINED:
            assert dtypes.to_acl_dtype(dtypes.to_op_dtype(d)) == d


def test_element_sizes():
    assert dtypes.element_bits(DT_FLOAT) == 32 and dtypes.element_bits(DT_BF16) == 16
    assert dtypes.element_bits(29) == 4 and dtypes.element_bits(30) == 1  # INT4, UINT1
    assert dtypes.element_bits(DT_UNDEFINED) == 128 and dtypes.element_bits(13) == 128  # unknown -> 16 bytes
    assert dtypes.shape_bytes(3, 29) == 2  # ceil(12 bits / 8)
    assert dtypes.shape_bytes(5, DT_FLOAT) == 20


def test_acl_data_type_size_including_its_quirks():
    assert aclDataTypeSize(aclDataType.ACL_FLOAT) == 4
    assert aclDataTypeSize(aclDataType.ACL_BF16) == 2
    assert aclDataTypeSize(aclDataType.ACL_STRING) == 0
    assert aclDataTypeSize(aclDataType.ACL_DT_UNDEFINED) == 0
    assert aclDataTypeSize(aclDataType.ACL_INT4) == 1
    assert aclDataTypeSize(aclDataType.ACL_COMPLEX32) == 4
    assert aclDataTypeSize(aclDataType.ACL_COMPLEX64) == 8
    assert aclDataTypeSize(aclDataType.ACL_FLOAT4_E2M1) == 8  # the runtime's default branch
    assert aclDataTypeSize(12345) == 8


def test_numpy_dtypes():
    assert dtypes.numpy_dtype(DT_BF16) == np.dtype(ml_dtypes.bfloat16)
    assert dtypes.numpy_dtype(DT_BOOL).itemsize == 1
    for dt in dtypes.STORAGE_ONLY:
        assert dtypes.numpy_dtype(dt) is None
    for dt, npdt in dtypes._NUMPY.items():
        assert npdt is not None and npdt.itemsize * 8 == dtypes.element_bits(dt)


@pytest.mark.parametrize(
    "a,b,expected",
    [
        ([4, 2], [4, 2], (4, 2)),
        ([4, 1], [1, 2], (4, 2)),
        ([2], [3, 2], (3, 2)),
        ([], [3], (3,)),
        ([1], [0], (0,)),
        ([0, 1], [1, 5], (0, 5)),
        ([3, 2], [2, 2], None),
        ([2, 0], [3], None),
    ],
)
def test_broadcast_infer_shape(a, b, expected):
    shape, why = dtypes.broadcast_infer_shape(a, b)
    assert shape == expected
    if expected is None:
        assert why is not None


def test_broadcast_failure_names_the_larger_shape_and_the_failing_dims_value():
    # opbase scans from the last dimension and prints the larger shape's value there
    _, why = dtypes.broadcast_infer_shape([2, 3], [4, 2, 4])
    assert why.larger == (4, 2, 4) and why.smaller == (2, 3) and why.dim == 4
    _, why = dtypes.broadcast_infer_shape([5, 3], [2, 3])  # tie: b is the larger one
    assert why.larger == (2, 3) and why.dim == 2
    _, why = dtypes.broadcast_infer_shape([3, 2], [4, 2])
    assert why.dim == 4
    _, why = dtypes.broadcast_infer_shape([3, 5], [4, 6])  # the last dimension fails first
    assert why.dim == 6
    _, why = dtypes.broadcast_infer_shape([7, 3, 4], [5, 4])
    assert why.larger == (7, 3, 4) and why.smaller == (5, 4) and why.dim == 3
