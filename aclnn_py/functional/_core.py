"""The machinery every functional wrapper uses: one :class:`Call` per API call.

A call runs exactly the C-style path — device memory, ``aclCreateTensor``/``aclCreateScalar``,
phase 1, workspace, phase 2 on the current context's default stream, synchronize, copy back,
release — so numbers, checks and messages are the emulator's, not a second implementation.
"""

from __future__ import annotations

import functools
import inspect
import re
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from .. import dtypes
from .._ref import Ref
from .._status import aclError, aclnnStatus, status_name
from ..dtypes import aclDataType, aclFormat
from ..executor.api import aclDestroyAclOpExecutor
from ..executor.executor import aclOpExecutor
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

_PARAM_ERROR = "AclNN_Parameter_Error(EZ1001): "  # the headline of a parameter error (161001, 161002)


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
    """The aclDataType of ``a``'s elements; ACL_DT_UNDEFINED for a numpy dtype no aclDataType
    holds (strings, objects, float128 ...): a C caller could only pass that, and the operator's
    own dtype check then refuses it with CANN's message."""
    dt = dtypes.from_numpy_dtype(a.dtype)
    if dt is None:
        return int(aclDataType.ACL_DT_UNDEFINED)
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
        # A message left over from earlier work on this thread (a sanitizer warning of a call that
        # succeeded, a C-style call nobody asked about) must not become this call's message.
        aclGetRecentErrMsg()
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        try:
            self.release()
        except Exception as failure:
            if exc is None:
                raise
            # The call's own failure is the one to report; the release's is not lost either.
            warnings.warn(
                f"releasing the objects of a failed call failed too: {type(failure).__name__}: {failure}",
                RuntimeWarning,
                stacklevel=2,
            )

    def malloc(self, nbytes: int) -> int:
        ptr: Ref[int] = Ref()
        check("aclrtMalloc", aclrtMalloc(ptr, max(nbytes, 1), aclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST))
        self.ptrs.append(ptr.value)
        return int(ptr.value)

    def tensor(self, a: np.ndarray, dtype: int | None = None) -> aclTensor:
        """A device tensor holding ``a`` (of its dtype unless ``dtype`` relabels the bytes)."""
        a = np.ascontiguousarray(a) if a.ndim else np.array(a)
        ptr = self.malloc(a.nbytes)
        if a.nbytes and a.dtype.kind != "O":  # Python objects' pointers mean nothing on a device
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

    def scalar(self, value: Any, dtype: int | None = None) -> aclScalar | None:
        """An aclScalar holding ``value``; None (a null aclScalar*, which the operator's null check
        reports) for ``None``. A value no aclScalar can hold fails as aclCreateScalar reports it."""
        if value is None:
            return None
        dt = scalar_dtype(value) if dtype is None else dtype
        s = aclCreateScalar(value, dt)
        if s is None:
            raise AclnnError("aclCreateScalar", aclnnStatus.ACLNN_ERR_PARAM_INVALID, aclGetRecentErrMsg())
        self.scalars.append(s)
        return s

    def int_array(self, values: Sequence[int]) -> aclIntArray:
        """An aclIntArray of ``values`` (Python or numpy integers); anything else fails as
        aclCreateIntArray reports it."""
        vals = [int(v) if isinstance(v, np.integer) else v for v in values]
        arr = aclCreateIntArray(vals, len(vals))
        if arr is None:
            raise AclnnError("aclCreateIntArray", aclnnStatus.ACLNN_ERR_PARAM_INVALID, aclGetRecentErrMsg())
        self.arrays.append(arr)
        return arr

    def read(self, t: aclTensor) -> np.ndarray:
        """The tensor's contents, in its shape (0-d stays 0-d) and dtype."""
        npdt = dtypes.numpy_dtype(t.dtype)
        if npdt is None:
            raise AclnnError(
                "aclrtMemcpy", aclnnStatus.ACLNN_ERR_PARAM_INVALID,
                f"{_PARAM_ERROR}the result's dtype {dtypes.dt_name(t.dtype)} has no numpy dtype to read it into.\n",
            )  # fmt: skip
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
        executor = ex.value
        try:
            workspace = self.malloc(ws.value) if ws.value else None
            check(api, phase2(workspace, ws.value, executor, None))
        finally:
            # Phase 2 frees a one-shot executor when it launches it (or fails to); one it refused
            # before that, or never got (the workspace could not be allocated, phase 2 raised), is
            # still alive and the call's to destroy.
            if isinstance(executor, aclOpExecutor) and executor.state == "ready":
                aclDestroyAclOpExecutor(executor)
        check("aclrtSynchronizeStream", aclrtSynchronizeStream(None))

    def release(self) -> None:
        """Destroy the tensors, scalars and arrays, then free the memory: every object, even when
        releasing one raises (the first such exception is raised once all are done). Each object
        is released once, so a second call does nothing."""
        first: Exception | None = None
        steps: tuple[tuple[Callable[[Any], object], list[Any]], ...] = (
            (aclDestroyTensor, self.tensors),
            (aclDestroyScalar, self.scalars),
            (aclDestroyIntArray, self.arrays),
            (aclrtFree, self.ptrs),
        )
        for destroy, made in steps:
            while made:
                obj = made.pop(0)
                try:
                    destroy(obj)
                except Exception as exc:  # one failure must not keep the rest alive
                    first = first or exc
        if first is not None:
            raise first


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


# -- every failure an AclnnError --------------------------------------------------------------------

F = TypeVar("F", bound=Callable[..., Any])
_API_NAME = re.compile(r"``(aclnn\w+)``")
# What a bad argument makes Python raise before or around the C-style calls (a shape that is not
# one, an index out of range, a value int() cannot take ...); other exceptions are bugs, not the
# caller's, and go through unchanged.
_ARGUMENT_ERRORS = (TypeError, ValueError, IndexError, KeyError, OverflowError, AttributeError)


def reduction_code(api: str, reduction: Any) -> Any:
    """``"none"``/``"mean"``/``"sum"`` -> 0/1/2 (``aclnn*Loss``'s ``int64_t reduction``); any other
    value passes through unchanged, so the C-style call's own conversion and check report it.
    A string no C caller could pass fails in the same form, naming the choices."""
    if not isinstance(reduction, str):
        return reduction
    codes = {"none": 0, "mean": 1, "sum": 2}
    if reduction not in codes:
        raise AclnnError(
            api, aclnnStatus.ACLNN_ERR_PARAM_INVALID,
            f"{_PARAM_ERROR}Reduction should be 'none' (0), 'mean' (1) or 'sum' (2), but current is {reduction!r}.\n",
        )  # fmt: skip
    return codes[reduction]


def guarded(fn: F) -> F:
    """``fn`` with every failure an :class:`AclnnError`: the C-style calls' own failures already
    are (their code and message); a Python exception a bad argument raises on the way (a dtype
    numpy does not know, a dim that is not an integer, a non-array ``self`` of an in-place
    wrapper) becomes ACLNN_ERR_PARAM_INVALID with an EZ1001 message naming the API and the cause.
    A call that does not fit the signature stays a TypeError (nothing ran)."""
    doc = _API_NAME.search(fn.__doc__ or "")
    api = doc.group(1) if doc else fn.__name__
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        signature.bind(*args, **kwargs)
        try:
            return fn(*args, **kwargs)
        except _ARGUMENT_ERRORS as exc:
            message = f"{_PARAM_ERROR}{api}: {type(exc).__name__}: {exc}\n"
            raise AclnnError(api, aclnnStatus.ACLNN_ERR_PARAM_INVALID, message) from exc

    return call  # type: ignore[return-value]
