"""``l0op::Add`` — ops-math ``math/add/op_api/add.cpp``.

The output has the broadcast shape and self's dtype, except the four mixed pairs
(FLOAT16/BFLOAT16 with FLOAT), which the AI Core adds into FLOAT. AI Core when the pair is mixed
or both dtypes are in the chip's list, else AI CPU (INT16, DOUBLE, COMPLEX128 always;
COMPLEX64 on Ascend910/310P; BFLOAT16 there too, which the AI CPU kernel does not register: the
task fails on the stream).
"""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
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
from ..executor.executor import aclOpExecutor
from ..kernels import aicpu, elementwise
from ..tensor import aclTensor
from . import launch
from ._binary import by_arch
from ._binary import elementwise as launch_elementwise

AICORE_DTYPE_SUPPORT_LIST_910B = (
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT32,
    DT_INT8,
    DT_UINT8,
    DT_INT64,
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
)
AICORE_DTYPE_SUPPORT_LIST_910 = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BOOL, DT_INT8, DT_UINT8, DT_INT64)
# add_aicpu_def.cpp: no BFLOAT16 (it reaches the AI CPU on Ascend910/310P through aclnnAdds'
# scalar promotion) and no BOOL (always on the AI Core)
AICPU_DTYPES = (
    DT_INT8, DT_INT16, DT_UINT16, DT_UINT8, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64, DT_FLOAT, DT_FLOAT16,
    DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128,
)  # fmt: skip
MIX_DTYPES = frozenset({(DT_FLOAT16, DT_FLOAT), (DT_FLOAT, DT_FLOAT16), (DT_BF16, DT_FLOAT), (DT_FLOAT, DT_BF16)})


def aicore_dtypes() -> tuple[int, ...]:
    """``GetAiCoreDtypeSupportListBySocVersion``."""
    lists = {"DAV_2201": AICORE_DTYPE_SUPPORT_LIST_910B, "DAV_3510": AICORE_DTYPE_SUPPORT_LIST_910B}
    return tuple(by_arch(lists, AICORE_DTYPE_SUPPORT_LIST_910))


def is_mix(self: aclTensor, other: aclTensor) -> bool:
    return (self.dtype, other.dtype) in MIX_DTYPES


def is_add_support_non_contiguous(self: aclTensor, other: aclTensor) -> bool:
    """``IsAddSupportNonContiguous``: Ascend950's Add reads strided views of these dtypes."""
    supported = aicore_dtypes()
    return _soc.current().is_regbase and self.dtype in supported and other.dtype in supported


def add(self: aclTensor, other: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Add(self, other, executor)``."""
    mix = is_mix(self, other)
    supported = aicore_dtypes()
    aicore = mix or (self.dtype in supported and other.dtype in supported)
    out_dtype = DT_FLOAT if mix else self.dtype
    recipe = _soc.current().kernel_family
    compute = elementwise.add(recipe)
    if not aicore:  # add_aicpu_def.cpp: a dtype it does not register (BFLOAT16) fails the task
        compute = aicpu.registered("Add", AICPU_DTYPES, compute)
    failure = launch.checked("AddAiCore ADD_TO_LAUNCHER_LIST_AICORE failed.")
    return launch_elementwise(ex, "Add", [self, other], out_dtype, aicore, compute, failure=failure)
