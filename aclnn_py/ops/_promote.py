"""The dtype helpers that several op_api files (ops-math, ops-nn) each carry a copy of.

``CombineCategoriesWithComplex``, ``InnerTypeToComplexType`` and ``GetScalarDefaultDtype`` stand
word for word in ``aclnn_eq_scalar.cpp``, ``aclnn_ne_scalar.cpp``, ``aclnn_le_scalar.cpp``,
``aclnn_add.cpp``, ``aclnn_mul.cpp``, ``aclnn_div.cpp`` (and more); ``GetCastedFloat`` in
``aclnn_add.cpp`` and ``aclnn_mul.cpp``. The copies are the same code, so they live here once.
"""

from __future__ import annotations

from .. import dtypes, scalars
from .._status import aclnnStatus
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX32,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_UNDEFINED,
)
from ..executor.checks import op_loge
from ..tensor import aclScalar

S = aclnnStatus

COMPLEX = dtypes.COMPLEX  # IsComplexType
FLOATING = dtypes.FLOATING  # IsFloatingType: the 8-, 6- and 4-bit floats count too

_TO_COMPLEX = {DT_BF16: DT_COMPLEX64, DT_FLOAT16: DT_COMPLEX32, DT_FLOAT: DT_COMPLEX64, DT_DOUBLE: DT_COMPLEX128}


def inner_type_to_complex(dt: int) -> int:
    """``InnerTypeToComplexType`` (only reached with a floating or complex type)."""
    if dt in COMPLEX:
        return dt
    if dt in _TO_COMPLEX:
        return _TO_COMPLEX[dt]
    op_loge(S.ACLNN_ERR_PARAM_INVALID, f"Unknown Complex ScalarType for [{dtypes.dt_name(dt)}]")
    return DT_UNDEFINED


def combine_categories(higher: int, lower: int) -> int:
    """``CombineCategoriesWithComplex(higher, lower)``: complex > floating > integral > bool; the
    tensor's dtype (``higher``) unless the scalar's category is higher."""
    if higher in COMPLEX:
        return higher
    if lower in COMPLEX:
        return inner_type_to_complex(higher) if higher in FLOATING else lower
    if higher in FLOATING:
        return higher
    if higher == DT_BOOL or lower in FLOATING:
        return dtypes.promote_type(higher, lower)
    return higher if higher != DT_UNDEFINED else lower


def scalar_default_dtype(dt: int) -> int:
    """``GetScalarDefaultDtype``: COMPLEX64 for a complex scalar, FLOAT for a floating one."""
    if dt in COMPLEX:
        return DT_COMPLEX64
    if dt in FLOATING:
        return DT_FLOAT
    return dt


def casted_float(dt: int, s: aclScalar) -> float:
    """``GetCastedFloat``: the scalar rounded to FLOAT16 or BFLOAT16, back as a float."""
    return float(scalars.to_fp16(s)) if dt == DT_FLOAT16 else float(scalars.to_bf16(s))
