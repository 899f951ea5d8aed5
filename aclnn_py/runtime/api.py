"""The AscendCL runtime (``acl.h`` / ``acl_rt.h`` / ``acl_base.h``): every chapter's functions,
re-exported under their C names.

The functions live in one module per chapter of CANN's ``acl_rt.h``: devices and contexts
(:mod:`.api_device`), streams (:mod:`.api_stream`), events and notifies (:mod:`.api_event`),
memory (:mod:`.api_memory`, copies and fills in :mod:`.api_memcpy`), errors and system
information (:mod:`.api_system`), kernel launches (:mod:`.api_kernel`) and the
``aclDataBuffer`` family of ``acl_base.h`` (:mod:`.api_buffer`); what they share is in
:mod:`._checks`.
"""

from __future__ import annotations

from ._checks import drain, need_context, resolve_stream, submit
from .api_device import (
    aclrtCreateContext,
    aclrtDestroyContext,
    aclrtGetCurrentContext,
    aclrtGetDevice,
    aclrtGetDeviceCount,
    aclrtResetDevice,
    aclrtResetDeviceForce,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSynchronizeDevice,
    aclrtSynchronizeDeviceWithTimeout,
)
from .api_event import (
    aclrtCreateEvent,
    aclrtCreateEventWithFlag,
    aclrtDestroyEvent,
    aclrtEventElapsedTime,
    aclrtQueryEventStatus,
    aclrtRecordEvent,
    aclrtStreamWaitEvent,
    aclrtSynchronizeEvent,
    aclrtSynchronizeEventWithTimeout,
)
from .api_memcpy import (
    aclrtMemcpy,
    aclrtMemcpyAsync,
    aclrtMemset,
    aclrtMemsetAsync,
)
from .api_memory import (
    aclrtFree,
    aclrtFreeHost,
    aclrtGetMemInfo,
    aclrtMalloc,
    aclrtMallocAlign32,
    aclrtMallocCached,
    aclrtMallocHost,
    malloc_size,
)
from .api_stream import (
    aclrtCreateStream,
    aclrtCreateStreamWithConfig,
    aclrtDestroyStream,
    aclrtStreamQuery,
    aclrtSynchronizeStream,
    aclrtSynchronizeStreamWithTimeout,
)
from .api_system import (
    aclFinalize,
    aclFinalizeReference,
    aclGetRecentErrMsg,
    aclInit,
    aclrtGetRunMode,
    aclrtGetSocName,
)

__all__ = [
    "aclFinalize",
    "aclFinalizeReference",
    "aclGetRecentErrMsg",
    "aclInit",
    "aclrtCreateContext",
    "aclrtCreateEvent",
    "aclrtCreateEventWithFlag",
    "aclrtCreateStream",
    "aclrtCreateStreamWithConfig",
    "aclrtDestroyContext",
    "aclrtDestroyEvent",
    "aclrtDestroyStream",
    "aclrtEventElapsedTime",
    "aclrtFree",
    "aclrtFreeHost",
    "aclrtGetCurrentContext",
    "aclrtGetDevice",
    "aclrtGetDeviceCount",
    "aclrtGetMemInfo",
    "aclrtGetRunMode",
    "aclrtGetSocName",
    "aclrtMalloc",
    "aclrtMallocAlign32",
    "aclrtMallocCached",
    "aclrtMallocHost",
    "aclrtMemcpy",
    "aclrtMemcpyAsync",
    "aclrtMemset",
    "aclrtMemsetAsync",
    "aclrtQueryEventStatus",
    "aclrtRecordEvent",
    "aclrtResetDevice",
    "aclrtResetDeviceForce",
    "aclrtSetCurrentContext",
    "aclrtSetDevice",
    "aclrtStreamQuery",
    "aclrtStreamWaitEvent",
    "aclrtSynchronizeDevice",
    "aclrtSynchronizeDeviceWithTimeout",
    "aclrtSynchronizeEvent",
    "aclrtSynchronizeEventWithTimeout",
    "aclrtSynchronizeStream",
    "aclrtSynchronizeStreamWithTimeout",
    "drain",
    "malloc_size",
    "need_context",
    "resolve_stream",
    "submit",
]
