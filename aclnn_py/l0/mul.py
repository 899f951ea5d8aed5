"""``l0op::Mul`` — ops-math ``math/mul/op_api/mul.cpp``.

The output has the broadcast shape (``OP_CHECK_BROADCAST_AND_INFER_SHAPE``) and self's dtype,
except the four mixed pairs (FLOAT16/BFLOAT16 with FLOAT, either order), which the AI Core
multiplies into FLOAT. AI Core when the pair is mixed, when both dtypes are in the NpuArch's list,
or for DOUBLE x DOUBLE on Ascend950 (``IsDoubleSupport``: its SIMT software multiply); otherwise
AI CPU (INT16, DOUBLE, COMPLEX128 on Ascend910B/910_93; also COMPLEX64 on Ascend910/310P;
COMPLEX128 only on Ascend950). Ascend950's kernel reads strided views of inputs of rank <= 4
(``IsMulSupportNonContiguous``).
"""

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
from ..executor import checks
from ..executor.executor import aclOpExecutor
from ..kernels import mul as mul_kernel
from ..tensor import aclTensor
from ._binary import by_arch
from ._binary import elementwise as launch_elementwise

ASCEND910_AICORE_DTYPE_SUPPORT_LIST = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_BOOL)
ASCEND910B_AICORE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_BF16, DT_COMPLEX64, DT_BOOL,
)  # fmt: skip
REGBASE_AICORE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT32, DT_INT8, DT_UINT8, DT_INT64, DT_INT16, DT_COMPLEX32, DT_COMPLEX64, DT_BOOL,
)  # fmt: skip
MIX_DTYPES = frozenset({(DT_FLOAT16, DT_FLOAT), (DT_FLOAT, DT_FLOAT16), (DT_BF16, DT_FLOAT), (DT_FLOAT, DT_BF16)})
DIM_FOUR = 4


def aicore_dtypes() -> tuple[int, ...]:
    """``GetAiCoreDtypeSupportListBySocVersion`` (by NpuArch; DAV_2002 = Ascend310P is the default)."""
    lists = {
        "DAV_2201": ASCEND910B_AICORE_DTYPE_SUPPORT_LIST,
        "DAV_3510": REGBASE_AICORE_DTYPE_SUPPORT_LIST,
        "DAV_1001": ASCEND910_AICORE_DTYPE_SUPPORT_LIST,
    }
    return tuple(by_arch(lists, ASCEND910_AICORE_DTYPE_SUPPORT_LIST))


def is_mix(self: aclTensor, other: aclTensor) -> bool:
    return (self.dtype, other.dtype) in MIX_DTYPES


def is_double_support(self: aclTensor, other: aclTensor) -> bool:
    """``IsDoubleSupport``: Ascend950 multiplies DOUBLE x DOUBLE on the AI Core."""
    return _soc.current().is_regbase and self.dtype == other.dtype == DT_DOUBLE


def _is_aicore_support(t: aclTensor) -> bool:
    return t.dtype in aicore_dtypes()


def is_mul_support_non_contiguous(self: aclTensor, other: aclTensor) -> bool:
    """``IsMulSupportNonContiguous``: Ascend950, both ranks <= 4, AI Core dtypes (or DOUBLE x DOUBLE)."""
    template = all(t.rank <= DIM_FOUR for t in (self, other)) and _soc.current().is_regbase
    return template and ((_is_aicore_support(self) and _is_aicore_support(other)) or is_double_support(self, other))


def is_aicore(self: aclTensor, other: aclTensor) -> bool:
    return (
        is_mix(self, other)
        or (_is_aicore_support(self) and _is_aicore_support(other))
        or is_double_support(self, other)
    )


def mul(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Mul(self, other, executor)``."""
    shape = checks.broadcast_and_infer_shape(self, other, "self", "other")
    if shape is None:
        return None
    out_dtype = DT_FLOAT if is_mix(self, other) else self.dtype
    aicore = is_aicore(self, other)
    compute = mul_kernel.mul(_soc.current().kernel_family, simt_double=aicore and is_double_support(self, other))
    # MulAiCore ignores the launch status
    return launch_elementwise(ex, "Mul", [self, other], out_dtype, aicore, compute, shape=shape, failure=None)
