"""``l0op::Cast`` — ops-math ``math/cast/op_api/cast.cpp``.

Nothing when the dtype already matches. Otherwise the output (self's view shape, the new dtype,
self's storage format) comes from the AI Core ``Cast`` when the (source, destination) pair is in
the chip's list (chosen by NpuArch: Ascend310P first takes the three pairs it adds to Ascend910's
list), else from the AI CPU ``Cast`` when both dtypes are in its list (a complex source goes to
TensorFlow's kernel, attributes ``SrcT``/``DstT``/``Truncate``), else the op returns nullptr
without reporting anything (``CHECK_RET(IsAiCpuSupport(...))``): the caller's 561103.

The kernels' arithmetic per engine is in :mod:`aclnn_py.kernels.cast`.
"""

from __future__ import annotations

from .. import _errmsg, dtypes
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
from ..kernels import cast as cast_kernel
from ..tensor import aclTensor
from . import launch

_BY_NAME = {dtypes.dt_name(d).removeprefix("DT_"): d for d in range(dtypes.DT_MAX)} | {"BF16": DT_BF16}


def _pairs(text: str) -> tuple[tuple[int, int], ...]:
    """``"A>B C>D"`` -> ((DT_A, DT_B), (DT_C, DT_D)): a pair list in the source's order."""
    out = []
    for item in text.split():
        src, dst = item.split(">")
        out.append((_BY_NAME[src], _BY_NAME[dst]))
    return tuple(out)


# The AI Core pair lists of cast.cpp, in its order (source>destination; duplicates kept).
ASCEND910_AICORE_DTYPE_SUPPORT_LIST = _pairs("""
FLOAT16>FLOAT FLOAT16>INT32 FLOAT>FLOAT16 FLOAT>INT32 INT32>FLOAT16 INT32>FLOAT INT32>INT8 INT32>UINT8
INT32>BOOL INT8>FLOAT16 INT8>FLOAT INT8>INT32 UINT8>FLOAT16 UINT8>FLOAT UINT8>INT32 BOOL>FLOAT16 BOOL>FLOAT
BOOL>INT32 BOOL>UINT8 FLOAT16>UINT8 FLOAT16>INT8 FLOAT16>BOOL INT64>INT32 INT32>INT64 UINT1>FLOAT16
INT64>FLOAT16 FLOAT>BOOL BOOL>FLOAT UINT8>INT64 INT64>UINT8 BOOL>INT64 INT64>BOOL BOOL>INT8 INT8>BOOL
""")
ASCEND910B_AICORE_DTYPE_SUPPORT_LIST = _pairs("""
FLOAT16>FLOAT FLOAT16>INT32 FLOAT>FLOAT16 FLOAT>INT32 INT32>FLOAT16 INT32>FLOAT INT32>INT8 INT32>UINT8
INT32>BOOL INT8>FLOAT16 INT8>FLOAT INT8>INT32 UINT8>FLOAT16 UINT8>FLOAT UINT8>INT32 BOOL>FLOAT16 BOOL>FLOAT
BOOL>INT32 BOOL>UINT8 FLOAT16>UINT8 INT64>FLOAT FLOAT>INT64 INT64>INT32 INT32>INT64 FLOAT>BF16 BF16>FLOAT
BF16>INT32 BF16>FLOAT16 FLOAT16>BF16 FLOAT16>INT8 FLOAT16>BOOL UINT1>FLOAT16 INT64>FLOAT16 FLOAT>BOOL
BOOL>FLOAT UINT8>INT64 INT64>UINT8 BOOL>INT64 INT64>BOOL INT16>FLOAT16 FLOAT16>INT16 BF16>BOOL BF16>INT8
BF16>UINT8 BOOL>BF16 INT32>BF16 INT64>BF16 INT8>BF16 UINT8>BF16 FLOAT>UINT8 BOOL>INT8 INT8>BOOL FLOAT>INT16
INT16>FLOAT FLOAT>INT8 INT64>UINT32 INT64>INT16 INT64>UINT16 INT64>INT8 INT32>UINT32 INT32>INT16 INT32>UINT16
UINT32>INT64 UINT32>INT32 UINT32>INT16 UINT32>UINT16 UINT32>INT8 UINT32>UINT8 INT16>INT64 INT16>INT32
INT16>UINT32 INT16>UINT16 INT16>INT8 INT16>UINT8 UINT16>INT64 UINT16>INT32 UINT16>UINT32 UINT16>INT16
UINT16>INT8 UINT16>UINT8 INT8>INT64 INT8>UINT32 INT8>INT16 INT8>UINT16 INT8>UINT8 UINT8>UINT32 UINT8>INT16
UINT8>UINT16 UINT8>INT8 FLOAT16>INT64 BF16>INT64
""")
REGBASE_AICORE_DTYPE_SUPPORT_LIST = _pairs("""
FLOAT16>FLOAT FLOAT16>INT32 FLOAT>FLOAT16 FLOAT>INT32 INT32>FLOAT16 INT32>FLOAT INT32>INT8 INT32>UINT8
INT32>BOOL INT8>FLOAT16 INT8>FLOAT INT8>INT32 UINT8>FLOAT16 UINT8>FLOAT UINT8>INT32 BOOL>FLOAT16 BOOL>FLOAT
BOOL>INT32 BOOL>UINT8 FLOAT16>UINT8 INT64>FLOAT FLOAT>INT64 INT64>INT32 INT32>INT64 FLOAT>BF16 BF16>FLOAT
BF16>INT32 BF16>FLOAT16 FLOAT16>BF16 FLOAT16>INT8 FLOAT16>BOOL UINT1>FLOAT16 INT64>FLOAT16 FLOAT>BOOL
INT16>FLOAT UINT8>INT64 INT64>UINT8 BOOL>INT64 INT64>BOOL INT16>FLOAT16 FLOAT16>INT16 BF16>BOOL BF16>INT8
BF16>UINT8 BOOL>BF16 INT32>BF16 INT64>BF16 INT8>BF16 UINT8>BF16 FLOAT>UINT8 BOOL>INT8 INT8>BOOL
FLOAT>FLOAT8_E4M3FN FLOAT8_E4M3FN>FLOAT FLOAT>FLOAT8_E5M2 FLOAT8_E5M2>FLOAT FLOAT>HIFLOAT8 HIFLOAT8>FLOAT
FLOAT16>HIFLOAT8 HIFLOAT8>FLOAT16 BF16>HIFLOAT8 BF16>FLOAT8_E4M3FN BF16>FLOAT8_E5M2 BF16>COMPLEX64
FLOAT16>FLOAT8_E4M3FN FLOAT16>FLOAT8_E5M2 FLOAT16>COMPLEX32 FLOAT>COMPLEX64 HIFLOAT8>BF16 FLOAT8_E5M2>BF16
FLOAT8_E5M2>FLOAT16 FLOAT8_E4M3FN>BF16 FLOAT8_E4M3FN>FLOAT16 INT8>INT64 INT8>UINT32 INT8>INT16 INT8>UINT16
INT8>UINT8 INT16>INT64 INT16>INT32 INT16>UINT32 INT16>UINT16 INT16>INT8 INT16>UINT8 INT32>UINT32 INT32>INT16
INT32>UINT16 INT64>UINT32 INT64>INT16 INT64>UINT16 INT64>INT8 UINT8>UINT32 UINT8>INT16 UINT8>UINT16 UINT8>INT8
UINT16>INT64 UINT16>INT32 UINT16>UINT32 UINT16>INT16 UINT16>INT8 UINT16>UINT8 UINT32>INT64 UINT32>INT32
UINT32>INT16 UINT32>UINT16 UINT32>INT8 UINT32>UINT8 FLOAT>INT8 FLOAT>INT16 FLOAT4_E2M1>HIFLOAT8
FLOAT4_E2M1>FLOAT8_E5M2 FLOAT4_E2M1>FLOAT8_E4M3FN FLOAT4_E2M1>FLOAT16 FLOAT4_E2M1>FLOAT FLOAT4_E2M1>BF16
FLOAT4_E1M2>HIFLOAT8 FLOAT4_E1M2>FLOAT8_E5M2 FLOAT4_E1M2>FLOAT8_E4M3FN FLOAT4_E1M2>FLOAT16 FLOAT4_E1M2>FLOAT
FLOAT4_E1M2>BF16 HIFLOAT8>FLOAT4_E2M1 FLOAT8_E5M2>FLOAT4_E2M1 FLOAT8_E4M3FN>FLOAT4_E2M1 FLOAT16>FLOAT4_E2M1
FLOAT>FLOAT4_E2M1 BF16>FLOAT4_E2M1 HIFLOAT8>FLOAT4_E1M2 FLOAT8_E5M2>FLOAT4_E1M2 FLOAT8_E4M3FN>FLOAT4_E1M2
FLOAT16>FLOAT4_E1M2 FLOAT>FLOAT4_E1M2 BF16>FLOAT4_E1M2 COMPLEX64>BF16 COMPLEX64>FLOAT COMPLEX32>FLOAT16
BF16>INT64 BF16>INT16 FLOAT16>INT64 INT16>BF16 BOOL>INT16 INT16>BOOL UINT8>BOOL UINT16>BOOL UINT32>BOOL
UINT16>FLOAT16 UINT16>FLOAT UINT16>BF16 UINT32>FLOAT16 UINT32>FLOAT UINT32>BF16 COMPLEX64>COMPLEX32
COMPLEX32>COMPLEX64 DOUBLE>FLOAT DOUBLE>BF16 INT64>DOUBLE INT32>INT4 DOUBLE>INT32 DOUBLE>INT64
""")
ASCEND310P_SUPPORT_910_NOT_SUPPORT_LIST = _pairs("FLOAT>INT16 FLOAT>INT8 INT16>FLOAT")
AICPU_DTYPE_SUPPORT_LIST = (
    DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_INT8, DT_INT16, DT_UINT16, DT_UINT8, DT_INT32, DT_INT64, DT_UINT32,
    DT_UINT64, DT_DOUBLE, DT_COMPLEX64, DT_COMPLEX128, DT_BF16,
)  # fmt: skip

# The AI Core kernel each chip family runs (its arithmetic: kernels/cast.py).
AICORE_RECIPE = {
    "Ascend910B": "tbe-v220",
    "Ascend910_93": "tbe-v220",
    "Ascend950": "arch35",
    "Ascend910": "tbe-v100",
    "Ascend310P": "tbe-v200",
}


def is_aicore_support(src: int, dst: int) -> bool:
    """``IsAiCoreSupport``: the pair is in the list of the chip's NpuArch."""
    soc = _soc.current()
    pair = (src, dst)
    if soc.npu_arch == "DAV_2002" and pair in ASCEND310P_SUPPORT_910_NOT_SUPPORT_LIST:
        return True
    if soc.npu_arch == "DAV_2201":
        return pair in ASCEND910B_AICORE_DTYPE_SUPPORT_LIST
    if soc.is_regbase:
        return pair in REGBASE_AICORE_DTYPE_SUPPORT_LIST
    return pair in ASCEND910_AICORE_DTYPE_SUPPORT_LIST


def is_aicpu_support(src: int, dst: int) -> bool:
    """``IsAiCpuSupport``: both dtypes are in the AI CPU list."""
    return src in AICPU_DTYPE_SUPPORT_LIST and dst in AICPU_DTYPE_SUPPORT_LIST


def engine(src: int, dst: int) -> str | None:
    """Where ``l0op::Cast`` runs a pair on the chip in effect: ``AiCore``, ``AiCpu`` or None
    (neither: the op fails)."""
    if is_aicore_support(src, dst):
        return "AiCore"
    return "AiCpu" if is_aicpu_support(src, dst) else None


def cast(x: aclTensor, dst: int, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Cast(self, dstDtype, executor)``."""
    name = dtypes.dt_name(dst)
    step = ex.step("Cast", [x], dst_type=name)
    if x.dtype == dst:
        step.outputs = [x]
        step.note = f"no kernel: already {name}"
        return x
    where = engine(x.dtype, dst)
    if where is None:
        return None  # CHECK_RET(IsAiCpuSupport(...)): nothing reported
    if dtypes.numpy_dtype(x.dtype) is None or dtypes.numpy_dtype(dst) is None:
        _errmsg.report(
            "aclnn_py",
            f"the Cast kernel from {dtypes.dt_name(x.dtype)} to {name} is not emulated: aclnn_py keeps "
            f"{dtypes.dt_name(x.dtype if dtypes.numpy_dtype(x.dtype) is None else dst)} as raw storage only",
            None,
        )
        return None
    out = ex.alloc_tensor(x.view_shape, dst, x.storage_format)
    if where == "AiCore":
        recipe = AICORE_RECIPE[_soc.current().family]
        compute = cast_kernel.make(x.dtype, dst, recipe)
        failure = launch.checked("Cast ADD_TO_LAUNCHER_LIST_AICORE failed.")
        if launch.aicore(ex, step, "Cast", [x], [out], compute, failure=failure, dst_type=name) is None:
            return None
    elif x.dtype in (DT_COMPLEX64, DT_COMPLEX128):  # TensorFlow's kernel
        compute = cast_kernel.make(x.dtype, dst, "aicpu")
        launch.aicpu(ex, step, "Cast", [x], [out], compute, SrcT=dtypes.dt_name(x.dtype), DstT=name, Truncate=False)
    else:
        launch.aicpu(ex, step, "Cast", [x], [out], cast_kernel.make(x.dtype, dst, "aicpu"), dst_type=name)
    step.outputs = [out]
    return out
