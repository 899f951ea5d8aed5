"""``l0op::Minimum`` — ops-math ``math/minimum/op_api/minimum.cpp``: as Maximum (self's dtype
picks AI Core or the TF AI CPU kernel; the AI Core launch's status is not checked)."""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import DT_BF16, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT32, DT_INT64, DT_UINT8
from ..executor.executor import aclOpExecutor
from ..kernels import minmax
from ..tensor import aclTensor
from .maximum import launch_maxmin

AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_INT64, DT_BF16)
ASCEND950_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_BF16)


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``: Ascend950 its list, every other chip the common list."""
    return ASCEND950_DTYPE_SUPPORT_LIST if _soc.current().is_regbase else AICORE_DTYPE_SUPPORT_LIST


def minimum(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Minimum(self, other, executor)``."""
    return launch_maxmin(ex, "Minimum", self, other, self.dtype in aicore_dtypes(), minmax.maxmin(False))
