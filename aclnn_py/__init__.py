"""aclnn_py: a faithful emulator of Huawei CANN's aclnn operator API and AscendCL runtime.

``from aclnn_py import *`` gives the C names: the runtime (``aclInit``, ``aclrtMalloc`` ...),
the tensor API (``aclCreateTensor`` ...), the operators' two phases
(``aclnnHardswishBackwardGetWorkspaceSize`` / ``aclnnHardswishBackward`` ...), the enums with
CANN's values (``aclDataType``, ``aclFormat`` ...) and their members as constants
(``ACL_FLOAT``, ``ACL_SUCCESS``, ``ACLNN_ERR_PARAM_NULLPTR`` ...), and :class:`Ref` for
out-parameters.
"""

from __future__ import annotations

from enum import IntEnum

from . import trace
from ._ref import Ref
from ._status import ACL_ERROR_NONE, ACL_RT_SUCCESS, ACLNN_ERR_INNER_KEY_CONFILICT, OK, aclError, aclnnStatus
from .dtypes import aclDataType, aclDataTypeSize, aclFormat
from .executor.api import (
    aclDestroyAclOpExecutor,
    aclSetAclOpExecutorRepeatable,
    aclSetInputTensorAddr,
    aclSetOutputTensorAddr,
    aclSetTensorAddr,
)
from .executor.executor import aclOpExecutor
from .ops import registry as _registry
from .runtime.api import (
    aclFinalize,
    aclFinalizeReference,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateEvent,
    aclrtCreateEventWithFlag,
    aclrtCreateStream,
    aclrtCreateStreamWithConfig,
    aclrtDestroyContext,
    aclrtDestroyEvent,
    aclrtDestroyStream,
    aclrtEventElapsedTime,
    aclrtFree,
    aclrtFreeHost,
    aclrtGetCurrentContext,
    aclrtGetDevice,
    aclrtGetDeviceCount,
    aclrtGetMemInfo,
    aclrtGetRunMode,
    aclrtGetSocName,
    aclrtMalloc,
    aclrtMallocAlign32,
    aclrtMallocCached,
    aclrtMallocHost,
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtMemset,
    aclrtMemsetAsync,
    aclrtQueryEventStatus,
    aclrtRecordEvent,
    aclrtResetDevice,
    aclrtResetDeviceForce,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtStreamQuery,
    aclrtStreamWaitEvent,
    aclrtSynchronizeDevice,
    aclrtSynchronizeDeviceWithTimeout,
    aclrtSynchronizeEvent,
    aclrtSynchronizeEventWithTimeout,
    aclrtSynchronizeStream,
    aclrtSynchronizeStreamWithTimeout,
)
from .runtime.enums import (
    ACL_EVENT_CAPTURE_STREAM_PROGRESS,
    ACL_EVENT_DEVICE_USE_ONLY,
    ACL_EVENT_EXTERNAL,
    ACL_EVENT_IPC,
    ACL_EVENT_SYNC,
    ACL_EVENT_TIME_LINE,
    ACL_STREAM_CPU_SCHEDULE,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_FAST_LAUNCH,
    ACL_STREAM_FAST_SYNC,
    ACL_STREAM_HUGE,
    ACL_STREAM_PERSISTENT,
    aclLogLevel,
    aclMemType,
    aclrtCallbackBlockType,
    aclrtEventRecordedStatus,
    aclrtEventStatus,
    aclrtMemAttr,
    aclrtMemcpyKind,
    aclrtMemMallocPolicy,
    aclrtRunMode,
    aclrtStreamStatus,
)
from .tensor import (
    aclBoolArray,
    aclCreateBoolArray,
    aclCreateFloatArray,
    aclCreateIntArray,
    aclCreateScalar,
    aclCreateScalarList,
    aclCreateTensor,
    aclCreateTensorList,
    aclDestroyBoolArray,
    aclDestroyFloatArray,
    aclDestroyIntArray,
    aclDestroyScalar,
    aclDestroyScalarList,
    aclDestroyTensor,
    aclDestroyTensorList,
    aclFloatArray,
    aclGetBoolArraySize,
    aclGetDataType,
    aclGetFloatArraySize,
    aclGetFormat,
    aclGetIntArraySize,
    aclGetRawTensorAddr,
    aclGetScalarListSize,
    aclGetStorageShape,
    aclGetTensorListSize,
    aclGetViewOffset,
    aclGetViewShape,
    aclGetViewStrides,
    aclInitTensor,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclSetRawTensorAddr,
    aclTensor,
    aclTensorList,
)

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """The operator APIs of :mod:`aclnn_py.ops.registry`, loaded when first used (PEP 562)."""
    module = _registry.EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'aclnn_py' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_registry.EXPORTS))


_ENUMS: tuple[type[IntEnum], ...] = (
    aclError, aclnnStatus, aclDataType, aclFormat, aclrtMemMallocPolicy, aclrtMemcpyKind, aclrtMemAttr,
    aclrtRunMode, aclrtStreamStatus, aclrtEventRecordedStatus, aclrtEventStatus, aclrtCallbackBlockType,
    aclMemType, aclLogLevel,
)  # fmt: skip

# Every enum member is also a module constant, as the C headers' enumerators are.
_constants = {m.name: m for e in _ENUMS for m in e}
globals().update(_constants)

__all__ = sorted(
    {name for name in globals() if name.startswith(("acl", "ACL", "Ref", "OK"))}
    | set(_constants)
    | set(_registry.EXPORTS)
)
