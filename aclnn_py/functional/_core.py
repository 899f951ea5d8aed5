"""The machinery every functional wrapper uses: one :class:`Call` per API call.

A call runs exactly the C-style path — device memory, ``aclCreateTensor``/``aclCreateScalar``,
phase 1, workspace, phase 2 on the current context's default stream, synchronize, copy back,
release — so numbers, checks and messages are the emulator's, not a second implementation.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes
from .._ref import Ref
from .._status import aclError, status_name
from ..dtypes import aclDataType, aclFormat
from ..executor.api import aclDestroyAclOpExecutor
from ..runtime.api import (
    aclGetRecentErrMsg,
    aclInit,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from ..runtime.device import RT
from ..runtime.enums import aclrtMemcpyKind, aclrtMemMallocPolicy
from ..tensor import (
    aclCreateIntArray,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyIntArray,
    aclDestroyScalar,
    aclDestroyTensor,
    aclIntArray,
    aclScalar,
    aclTensor,
)


class AclnnError(RuntimeError):
    """A call failed: ``code`` (int), ``name`` (the C name) and ``message`` (what
    ``aclGetRecentErrMsg()`` returned, or None)."""

    def __init__(self, api: str, code: int, message: str | None) -> None:
        self.api = api
        self.code = int(code)
        self.name = status_name(code)
        self.message = message
        super().__init__(f"{api} failed with {self.name} ({self.code})" + (f": {message}" if message else ""))


def check(api: str, code: int) -> None:
    if code != 0:
        raise AclnnError(api, code, aclGetRecentErrMsg())


_init_lock = threading.Lock()


def prepare() -> None:
    """Initialise the runtime on first use; give a thread without a context device 0. Calls run
    on the current context's default stream, so they leave no stream behind."""
    with _init_lock:
        if not RT.initialized:
            code = aclInit(None)
            if code not in (0, aclError.ACL_ERROR_REPEAT_INITIALIZE):
                check("aclInit", code)
    if RT.current_context() is None:
        check("aclrtSetDevice", aclrtSetDevice(0))


def acl_dtype(a: np.ndarray, what: str) -> int:
    dt = dtypes.from_numpy_dtype(a.dtype)
    if dt is None:
        raise TypeError(f"{what}: numpy dtype {a.dtype} has no aclDataType")
    return int(aclDataType(dt))


def array(x: Any) -> np.ndarray:
    """A numpy array of ``x``: numpy arrays keep their dtype; Python floats become float32 (the
    emulator's float type), Python ints int64, Python bools bool. The shape is kept (0-d too)."""
    a = np.asarray(x)
    if a.dtype == np.float64 and not isinstance(x, (np.ndarray, np.generic)):
        a = a.astype(np.float32)
    return a


def scalar_dtype(value: Any) -> int:
    """The aclDataType a Python or numpy number becomes as an aclScalar."""
    if isinstance(value, (bool, np.bool_)):
        return int(aclDataType.ACL_BOOL)
    if isinstance(value, np.generic):
        return acl_dtype(np.asarray(value), "scalar")
    if isinstance(value, int):
        return int(aclDataType.ACL_INT64)
    if isinstance(value, complex):
        return int(aclDataType.ACL_COMPLEX64)
    return int(aclDataType.ACL_FLOAT)


class Call:
    """Device resources of one call, released at the end whatever happens (``with Call() as c``)."""

    def __init__(self) -> None:
        self.ptrs: list[int] = []
        self.tensors: list[aclTensor] = []
        self.scalars: list[aclScalar] = []
        self.arrays: list[aclIntArray] = []

    def __enter__(self) -> Call:
        prepare()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def malloc(self, nbytes: int) -> int:
        ptr: Ref[int] = Ref()
        check("aclrtMalloc", aclrtMalloc(ptr, max(nbytes, 1), aclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST))
        self.ptrs.append(ptr.value)
        return int(ptr.value)

    def tensor(self, a: np.ndarray, dtype: int | None = None) -> aclTensor:
        """A device tensor holding ``a`` (of its dtype unless ``dtype`` relabels the bytes)."""
        a = np.ascontiguousarray(a) if a.ndim else np.array(a)
        ptr = self.malloc(a.nbytes)
        if a.nbytes:
            kind = aclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE
            check("aclrtMemcpy", aclrtMemcpy(ptr, a.nbytes, a.reshape(-1), a.nbytes, kind))
        shape = list(a.shape)
        dt = acl_dtype(a, "tensor") if dtype is None else dtype
        t = aclCreateTensor(shape, len(shape), dt, None, 0, aclFormat.ACL_FORMAT_ND, shape, len(shape), ptr)
        assert t is not None
        self.tensors.append(t)
        return t

    def output(self, shape: Sequence[int], npdt: Any) -> aclTensor:
        """A zero-filled device tensor for a result."""
        return self.tensor(np.zeros(tuple(shape), dtype=np.dtype(npdt)))

    def scalar(self, value: Any, dtype: int | None = None) -> aclScalar:
        dt = scalar_dtype(value) if dtype is None else dtype
        s = aclCreateScalar(value, dt)
        if s is None:
            raise AclnnError("aclCreateScalar", 561000, aclGetRecentErrMsg())
        self.scalars.append(s)
        return s

    def int_array(self, values: Sequence[int]) -> aclIntArray:
        vals = [int(v) for v in values]
        arr = aclCreateIntArray(vals, len(vals))
        assert arr is not None
        self.arrays.append(arr)
        return arr

    def read(self, t: aclTensor) -> np.ndarray:
        """The tensor's contents, in its shape (0-d stays 0-d) and dtype."""
        npdt = dtypes.numpy_dtype(t.dtype)
        assert npdt is not None
        out = np.empty(t.view_shape, dtype=npdt)
        if out.nbytes:
            assert t.storage.addr is not None
            kind = aclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST
            check("aclrtMemcpy", aclrtMemcpy(out.reshape(-1), out.nbytes, t.storage.addr, out.nbytes, kind))
        return out

    def run(self, api: str, *args: Any) -> None:
        """Phase 1 (``<api>GetWorkspaceSize(*args, ...)``), the workspace, phase 2, synchronize."""
        import aclnn_py

        phase1 = getattr(aclnn_py, api + "GetWorkspaceSize")
        phase2 = getattr(aclnn_py, api)
        ws: Ref[int] = Ref(0)
        ex: Ref[Any] = Ref()
        check(api + "GetWorkspaceSize", phase1(*args, ws, ex))
        try:
            workspace = self.malloc(ws.value) if ws.value else None
        except AclnnError:
            aclDestroyAclOpExecutor(ex.value)
            raise
        check(api, phase2(workspace, ws.value, ex.value, None))
        check("aclrtSynchronizeStream", aclrtSynchronizeStream(None))

    def release(self) -> None:
        for t in self.tensors:
            aclDestroyTensor(t)
        for s in self.scalars:
            aclDestroyScalar(s)
        for a in self.arrays:
            aclDestroyIntArray(a)
        for p in self.ptrs:
            aclrtFree(p)


def broadcast_shape(*arrays: np.ndarray) -> tuple[int, ...]:
    """The broadcast shape of the inputs (numpy's rules; a failure is left to the operator's own
    check, which reports CANN's message: the inputs' first shape is returned then)."""
    try:
        return tuple(np.broadcast_shapes(*(a.shape for a in arrays)))
    except ValueError:
        return tuple(arrays[0].shape)


def promoted(*arrays: np.ndarray) -> np.dtype:
    """``PromoteType`` of the arrays' dtypes, as a numpy dtype (float32 when undefined)."""
    dt = acl_dtype(arrays[0], "input")
    for a in arrays[1:]:
        dt = dtypes.promote_type(dt, acl_dtype(a, "input"))
    return dtypes.numpy_dtype(dt) or np.dtype(np.float32)
