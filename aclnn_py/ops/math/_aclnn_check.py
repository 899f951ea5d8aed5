"""Checks ops-math's reductions share, side by side with ``common/inc/op_api/aclnn_check.h``
(``IsReduceNonContiguousSupport``, ``CheckShapeAndScalarSame``) and the opbase ``op::Validate``
they start from (``src/nnopbase/composite_op/utils/tensor_view_utils.cpp``)."""

from __future__ import annotations

from collections.abc import Sequence

from ... import dtypes
from ..._status import aclnnStatus
from ...executor.checks import op_loge
from ...l0.contiguous import view_fits_storage
from ...tensor import aclTensor

S = aclnnStatus
ACL_ERROR_INVALID_PARAM = 100000  # the code IsReduceNonContiguousSupport logs with (acl_base.h)


def validate(x: aclTensor) -> bool:
    """``op::Validate``: the view's element range lies inside its storage; logs ``ViewShape
    overlap.`` when it does not."""
    if view_fits_storage(x):
        return True
    op_loge(S.ACLNN_ERR_PARAM_INVALID, "ViewShape overlap.")
    return False


def is_reduce_non_contiguous_support(x: aclTensor, dims: Sequence[int]) -> bool:
    """``op::IsReduceNonContiguousSupport``: a view the strided reduce reads without a copy (a
    plain or strided slice): inside its storage (else both ``Validate``'s line and ``INvalid
    input tensor: ...``), rank 1-4, not only size-1 dims reduced (empty ``dims``: every dim), the
    last stride positive, no overlapping, as_strided or transposed dims."""
    if not validate(x):
        op_loge(ACL_ERROR_INVALID_PARAM, f"INvalid input tensor: {x!r}")
        return False
    shape, strides, n = x.view_shape, x.strides, x.rank
    if n > 4 or n < 1:
        return False
    reduced = [d + n if d < 0 else d for d in dims] if dims else list(range(n))
    if all(shape[d] == 1 for d in reduced):  # a pure copy is not supported
        return False
    if strides[n - 1] <= 0:
        return False
    for i in range(n - 1, 0, -1):
        if (shape[i] - 1) * strides[i] >= strides[i - 1]:
            return False  # overlapping, as_strided or transposed
    return all(strides[i] >= strides[i + 1] for i in range(n - 1))


def check_shape_and_scalar_same(t0: aclTensor, t1: aclTensor) -> bool:
    """``CheckShapeAndScalarSame``: equal view shapes, or one element each."""
    if t0.view_shape == t1.view_shape or (t0.numel() == 1 and t1.numel() == 1):
        return True
    op_loge(
        S.ACLNN_ERR_PARAM_INVALID,
        f"The tensor's shape[{dtypes.shape_str(t0.view_shape)}] is not equal with "
        f"shape[{dtypes.shape_str(t1.view_shape)}].",
    )
    return False
