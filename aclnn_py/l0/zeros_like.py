"""``l0op::ZerosLike`` — ops-math ``math/zero_op/op_api/zero_op.cpp``.

The output takes self's *storage* shape and format and its dtype. Nothing is launched for an
empty output. The AI Core kernel is chosen by SocVersion (Ascend910B/910_93 their list, the
regbase Ascend950 its own, every other chip Ascend910's); any other dtype goes to TensorFlow's
AI CPU ``ZerosLike``, which first refuses more than 8 dims (reported, then nullptr).
"""

from __future__ import annotations

from .. import _errmsg, dtypes
from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_FLOAT,
    DT_FLOAT4_E1M2,
    DT_FLOAT4_E2M1,
    DT_FLOAT8_E4M3FN,
    DT_FLOAT8_E5M2,
    DT_FLOAT16,
    DT_HIFLOAT8,
    DT_INT8,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
)  # fmt: skip
from ..executor import checks
from ..executor.executor import aclOpExecutor
from ..kernels import fill as fill_kernel
from ..tensor import aclTensor
from . import launch

AICORE910_DTYPE_SUPPORT_LIST = (DT_INT8, DT_INT32, DT_INT64, DT_UINT8, DT_FLOAT16, DT_FLOAT, DT_BOOL)
AICORE910B_DTYPE_SUPPORT_LIST = (DT_INT8, DT_INT32, DT_INT64, DT_UINT8, DT_FLOAT16, DT_FLOAT, DT_BOOL, DT_BF16)
AICORE950_DTYPE_SUPPORT_LIST = (
    DT_INT8, DT_INT32, DT_INT64, DT_UINT8, DT_FLOAT16, DT_FLOAT, DT_BOOL, DT_BF16, DT_FLOAT8_E5M2,
    DT_FLOAT8_E4M3FN, DT_HIFLOAT8, DT_FLOAT4_E1M2, DT_FLOAT4_E2M1,
)  # fmt: skip
MAX_DIM_LEN = 8


def aicore_dtypes() -> tuple[int, ...]:
    """``IsAiCoreSupport``'s list, by SocVersion."""
    soc = _soc.current()
    if soc.family in ("Ascend910B", "Ascend910_93"):
        return AICORE910B_DTYPE_SUPPORT_LIST
    if soc.is_regbase:
        return AICORE950_DTYPE_SUPPORT_LIST
    return AICORE910_DTYPE_SUPPORT_LIST


def sub_byte_not_emulated(op: str, dt: int) -> bool:
    """Packed types (two FLOAT4 per byte) reach no kernel of the emulator: report it honestly."""
    if dtypes.element_bits(dt) >= 8:
        return False
    _errmsg.report(
        "aclnn_py",
        f"the {op} kernel for {dtypes.dt_name(dt)} is not emulated: aclnn_py keeps packed sub-byte types "
        "as raw storage only",
        None,
    )
    return True


def launch_inputs(self: aclTensor) -> list[aclTensor]:
    """The kernel's input argument as the launch records it. ZerosLike and OnesLike read only the
    shape of self, never its data: an intermediate is listed (it keeps its workspace buffer alive
    through the launch, as CANN's argument does), the caller's own memory is not (so that filling
    a tensor never written before is no read of uninitialised memory)."""
    return [self] if self.from_workspace else []


def zeros_like(self: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ZerosLike(self, executor)``."""
    step = ex.step("ZerosLike", [self])
    out = ex.alloc_tensor(self.storage_shape, self.dtype, self.storage_format)
    step.outputs = [out]
    if out.is_empty():
        step.note = "no kernel: empty output"
        return out
    if sub_byte_not_emulated("ZerosLike", self.dtype):
        return None
    zeros = fill_kernel.constant(0)
    ins = launch_inputs(self)
    if self.dtype in aicore_dtypes():
        failure = launch.checked_static("ZerosLike ADD_TO_LAUNCHER_LIST_AICORE failed.")
        if launch.aicore(ex, step, "ZerosLike", ins, [out], zeros, failure=failure) is None:
            return None
        return out
    if not checks.check_max_dim(self, MAX_DIM_LEN, "self"):
        return None
    launch.aicpu(ex, step, "ZerosLike", ins, [out], zeros)
    return out
