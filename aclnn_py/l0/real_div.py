"""``l0op::RealDiv`` — ops-math ``math/real_div/op_api/realdiv.cpp``: true division.

Three overloads differ only in the output dtype (C++ picks one by the third argument's type):

* ``RealDiv(self, other, int mode)`` (aclnnDiv, aclnnDivs: ``MODE_REAL_DIV`` = 0): FLOAT when
  mode is 0 and self is BOOL or INT32 (or mode 1 and BOOL), else self's dtype;
* ``RealDiv(self, other, bool isScalar)`` (the Ascend910B mixed-dtype paths): self's dtype when
  ``isScalar`` (and self is not BOOL) or when both dtypes agree (and are not BOOL), else FLOAT;
* ``RealDiv(self, other)``: FLOAT when self is BOOL or, on Ascend910B/910_93, both are INT32.

All three infer the broadcast shape (``BroadcastInferShape``: EZ1007, then ``Broadcast %s and %s
failed.``) and choose AI Core or AI CPU by **self's dtype alone**: Ascend950 FLOAT, FLOAT16,
BFLOAT16, BOOL, INT32, INT64; Ascend910B/910_93 FLOAT, FLOAT16, BFLOAT16, BOOL, INT32; every other
SoC (Ascend910, Ascend310P) FLOAT, FLOAT16, BFLOAT16, BOOL. Ascend950 reads strided views of its
AI Core dtypes (``IsRealDivSupportNonContiguous``).
"""

from __future__ import annotations

from .. import dtypes
from .. import soc as _soc
from .._status import aclnnStatus
from ..dtypes import DT_BF16, DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64
from ..executor import checks
from ..executor.checks import op_loge
from ..executor.executor import aclOpExecutor
from ..kernels import div as div_kernel
from ..tensor import aclTensor
from ._binary import elementwise as launch_elementwise

S = aclnnStatus
MODE_REAL_DIV = 0
MODE_TRUNC_DIV = 1

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16, DT_BOOL)
ASCEND910B_AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16, DT_BOOL, DT_INT32)
ASCEND950_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_BF16, DT_BOOL, DT_INT32, DT_INT64)


def _is_910b_family() -> bool:
    return _soc.current().family in ("Ascend910B", "Ascend910_93")


def aicore_dtypes() -> tuple[int, ...]:
    """The list ``IsAiCoreSupport`` checks self's dtype against on the current SoC."""
    if _soc.current().is_regbase:
        return ASCEND950_DTYPE_SUPPORT_LIST
    if _is_910b_family():
        return ASCEND910B_AICORE_DTYPE_SUPPORT_LIST
    return AICORE_DTYPE_SUPPORT_LIST


def is_real_div_support_non_contiguous(t: aclTensor) -> bool:
    """``IsRealDivSupportNonContiguous``: Ascend950 and an AI Core dtype."""
    return _soc.current().is_regbase and t.dtype in aicore_dtypes()


def _launch(ex: aclOpExecutor, self: aclTensor, other: aclTensor, out_dtype: int) -> aclTensor | None:
    shape = checks.broadcast_infer_shape(self.view_shape, other.view_shape)
    if shape is None:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Broadcast {dtypes.shape_str(self.view_shape)} and {dtypes.shape_str(other.view_shape)} failed.",
        )
        return None
    aicore = self.dtype in aicore_dtypes()
    compute = div_kernel.real_div(_soc.current().kernel_family, aicpu=not aicore)
    # RealDivAiCore ignores the launch status
    return launch_elementwise(ex, "RealDiv", [self, other], out_dtype, aicore, compute, shape=shape, failure=None)


def real_div(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::RealDiv(self, other, executor)``."""
    float_out = self.dtype == DT_BOOL or (_is_910b_family() and self.dtype == other.dtype == DT_INT32)
    return _launch(ex, self, other, DT_FLOAT if float_out else self.dtype)


def real_div_mode(self: aclTensor, other: aclTensor, mode: int, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::RealDiv(self, other, const int mode, executor)``."""
    float_out = (mode == MODE_REAL_DIV and self.dtype in (DT_BOOL, DT_INT32)) or (
        mode == MODE_TRUNC_DIV and self.dtype == DT_BOOL
    )
    return _launch(ex, self, other, DT_FLOAT if float_out else self.dtype)


def real_div_scalar(self: aclTensor, other: aclTensor, is_scalar: bool, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::RealDiv(self, other, bool isScalar, executor)``."""
    keep = self.dtype != DT_BOOL and (is_scalar or self.dtype == other.dtype)
    return _launch(ex, self, other, self.dtype if keep else DT_FLOAT)
