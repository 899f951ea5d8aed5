"""``l0op::Mul`` — ops-math ``math/mul/op_api/mul.cpp``: broadcast shape; FLOAT for the mixed
FLOAT16/BFLOAT16 + FLOAT pairs, else self's dtype; AI Core by the chip's list (Ascend950 also
multiplies DOUBLE × DOUBLE on the AI Core), else AI CPU."""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX32,
    DT_COMPLEX64,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
)  # fmt: skip
from ..executor.executor import aclOpExecutor
from ..kernels import elementwise
from ..tensor import aclTensor
from ._binary import by_arch
from ._binary import elementwise as launch_elementwise
from .add import MIX_DTYPES

AICORE_2201 = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_BF16, DT_COMPLEX64, DT_BOOL)
AICORE_3510 = (
    DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_INT16, DT_COMPLEX32, DT_COMPLEX64, DT_BOOL,
)  # fmt: skip
AICORE_910 = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_BOOL)


def aicore_dtypes() -> tuple[int, ...]:
    return tuple(by_arch({"DAV_2201": AICORE_2201, "DAV_3510": AICORE_3510}, AICORE_910))


def is_aicore(self: aclTensor, other: aclTensor) -> bool:
    if (self.dtype, other.dtype) in MIX_DTYPES:
        return True
    if _soc.current().is_regbase and self.dtype == other.dtype == DT_DOUBLE:  # IsDoubleSupport
        return True
    supported = aicore_dtypes()
    return self.dtype in supported and other.dtype in supported


def mul(ex: aclOpExecutor, self: aclTensor, other: aclTensor) -> aclTensor | None:
    """``l0op::Mul(self, other, executor)``."""
    out_dtype = DT_FLOAT if (self.dtype, other.dtype) in MIX_DTYPES else self.dtype
    recipe = _soc.current().kernel_family
    return launch_elementwise(ex, "Mul", [self, other], out_dtype, is_aicore(self, other), elementwise.mul(recipe))
