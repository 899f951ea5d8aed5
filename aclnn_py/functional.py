"""The Pythonic layer: numpy arrays in, numpy arrays out, exceptions instead of status codes.

Each function runs exactly the C-style path — device memory, ``aclCreateTensor``, phase 1,
workspace, phase 2 on a stream, synchronize, copy back, release — so the numbers, the checks and
the messages are the emulator's, not a second implementation:

    >>> import numpy as np
    >>> from aclnn_py import functional as F
    >>> F.hardswish_backward(np.ones(3, np.float32), np.array([-3, 0, 3], np.float32)).tolist()
    [-0.5, 0.5, 1.5]

A failing call raises :class:`AclnnError` carrying the status code, its name and the message
``aclGetRecentErrMsg()`` returned. The runtime is initialised on first use (``aclInit``), a
thread without a current context gets device 0, and the work runs on its default stream.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes
from ._ref import Ref
from ._status import aclError, status_name
from .dtypes import aclDataType, aclFormat
from .executor.api import aclDestroyAclOpExecutor
from .ops.hardswish_backward import aclnnHardswishBackward, aclnnHardswishBackwardGetWorkspaceSize
from .ops.scaled_masked_softmax_backward import (
    aclnnScaledMaskedSoftmaxBackward,
    aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize,
)
from .ops.smooth_l1_loss_backward import aclnnSmoothL1LossBackward, aclnnSmoothL1LossBackwardGetWorkspaceSize
from .runtime.api import (
    aclGetRecentErrMsg,
    aclInit,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from .runtime.device import RT
from .runtime.enums import aclrtMemcpyKind, aclrtMemMallocPolicy
from .tensor import aclCreateTensor, aclDestroyTensor, aclTensor

__all__ = ["AclnnError", "hardswish_backward", "scaled_masked_softmax_backward", "smooth_l1_loss_backward"]

REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


class AclnnError(RuntimeError):
    """A call failed: ``code`` (int), ``name`` (the C name) and ``message`` (what
    ``aclGetRecentErrMsg()`` returned, or None)."""

    def __init__(self, api: str, code: int, message: str | None) -> None:
        self.api = api
        self.code = int(code)
        self.name = status_name(code)
        self.message = message
        super().__init__(f"{api} failed with {self.name} ({self.code})" + (f": {message}" if message else ""))


def _check(api: str, code: int) -> None:
    if code != 0:
        raise AclnnError(api, code, aclGetRecentErrMsg())


_init_lock = threading.Lock()


def _prepare() -> None:
    """Initialise the runtime on first use; give a thread without a context device 0. Calls run
    on the current context's default stream, so they leave no stream behind."""
    with _init_lock:
        if not RT.initialized:
            code = aclInit(None)
            if code not in (0, aclError.ACL_ERROR_REPEAT_INITIALIZE):
                _check("aclInit", code)
    if RT.current_context() is None:
        _check("aclrtSetDevice", aclrtSetDevice(0))


def _acl_dtype(a: np.ndarray, what: str) -> int:
    dt = dtypes.from_numpy_dtype(a.dtype)
    if dt is None:
        raise TypeError(f"{what}: numpy dtype {a.dtype} has no aclDataType")
    return int(aclDataType(dt))


class _Call:
    """Device resources of one call, released at the end whatever happens."""

    def __init__(self) -> None:
        self.ptrs: list[int] = []
        self.tensors: list[aclTensor] = []

    def malloc(self, nbytes: int) -> int:
        ptr: Ref[int] = Ref()
        _check("aclrtMalloc", aclrtMalloc(ptr, max(nbytes, 1), aclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST))
        self.ptrs.append(ptr.value)
        return int(ptr.value)

    def tensor(self, a: np.ndarray, acl_dtype: int) -> aclTensor:
        _prepare()
        a = np.ascontiguousarray(a)
        ptr = self.malloc(a.nbytes)
        if a.nbytes:
            kind = aclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE
            _check("aclrtMemcpy", aclrtMemcpy(ptr, a.nbytes, a, a.nbytes, kind))
        shape = list(a.shape)
        t = aclCreateTensor(shape, len(shape), acl_dtype, None, 0, aclFormat.ACL_FORMAT_ND, shape, len(shape), ptr)
        assert t is not None
        self.tensors.append(t)
        return t

    def read(self, t: aclTensor, npdt: np.dtype) -> np.ndarray:
        out = np.empty(t.view_shape, dtype=npdt)
        if out.nbytes:
            assert t.storage.addr is not None
            kind = aclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST
            _check("aclrtMemcpy", aclrtMemcpy(out, out.nbytes, t.storage.addr, out.nbytes, kind))
        return out

    def run(self, api: str, phase1: Callable[..., int], phase2: Callable[..., int], *args: Any) -> None:
        _prepare()
        ws: Ref[int] = Ref(0)
        ex: Ref[Any] = Ref()
        _check(api + "GetWorkspaceSize", phase1(*args, ws, ex))
        try:
            workspace = self.malloc(ws.value) if ws.value else None
        except AclnnError:
            aclDestroyAclOpExecutor(ex.value)
            raise
        _check(api, phase2(workspace, ws.value, ex.value, None))
        _check("aclrtSynchronizeStream", aclrtSynchronizeStream(None))

    def release(self) -> None:
        for t in self.tensors:
            aclDestroyTensor(t)
        for p in self.ptrs:
            aclrtFree(p)


def _array(x: Any, what: str) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype == np.float64 and not isinstance(x, np.ndarray):
        a = a.astype(np.float32)  # Python floats: the emulator's float type is float32
    return a


def smooth_l1_loss_backward(
    grad_out: Any,
    self: Any,
    target: Any,
    *,
    reduction: str | int = "mean",
    beta: float = 1.0,
    out_dtype: Any = None,
) -> np.ndarray:
    """``aclnnSmoothL1LossBackward``: the gradient of smooth-L1 loss w.r.t. ``self``.

    ``reduction`` is ``"none"``/``"mean"``/``"sum"`` (or 0/1/2, passed through unchecked so the
    operator's own check runs); the result has the broadcast shape and, unless ``out_dtype`` is
    given, the promoted dtype of the inputs."""
    g, s, t = (_array(v, n) for v, n in ((grad_out, "grad_out"), (self, "self"), (target, "target")))
    red = REDUCTIONS[reduction] if isinstance(reduction, str) else int(reduction)
    dts = [_acl_dtype(v, n) for v, n in ((g, "grad_out"), (s, "self"), (t, "target"))]
    shape = np.broadcast_shapes(g.shape, s.shape, t.shape)
    if out_dtype is None:
        promoted = dtypes.promote_type(dtypes.promote_type(dts[0], dts[1]), dts[2])
        npdt = dtypes.numpy_dtype(promoted) or np.dtype(np.float32)
    else:
        npdt = np.dtype(out_dtype)
    call = _Call()
    try:
        gt, st, tt = call.tensor(g, dts[0]), call.tensor(s, dts[1]), call.tensor(t, dts[2])
        out = call.tensor(np.zeros(shape, npdt), _acl_dtype(np.zeros(0, npdt), "out_dtype"))
        call.run(
            "aclnnSmoothL1LossBackward", aclnnSmoothL1LossBackwardGetWorkspaceSize, aclnnSmoothL1LossBackward,
            gt, st, tt, red, beta, out,
        )  # fmt: skip
        return call.read(out, npdt)
    finally:
        call.release()


def hardswish_backward(grad_output: Any, self: Any) -> np.ndarray:
    """``aclnnHardswishBackward``: ``grad_output * hardswish'(self)``, in self's dtype."""
    g, s = _array(grad_output, "grad_output"), _array(self, "self")
    call = _Call()
    try:
        gt, st = call.tensor(g, _acl_dtype(g, "grad_output")), call.tensor(s, _acl_dtype(s, "self"))
        out = call.tensor(np.zeros(s.shape, s.dtype), _acl_dtype(s, "self"))
        call.run("aclnnHardswishBackward", aclnnHardswishBackwardGetWorkspaceSize, aclnnHardswishBackward, gt, st, out)
        return call.read(out, s.dtype)
    finally:
        call.release()


def scaled_masked_softmax_backward(
    grad_output: Any, y: Any, mask: Any, *, scale: float = 1.0, fix_triu_mask: bool = False
) -> np.ndarray:
    """``aclnnScaledMaskedSoftmaxBackward``: softmax backward over the last dim, times ``scale``,
    zero where ``mask`` (bool, broadcast over the first two dims) is set."""
    g, yy, m = _array(grad_output, "grad_output"), _array(y, "y"), np.asarray(mask)
    call = _Call()
    try:
        gt, yt = call.tensor(g, _acl_dtype(g, "grad_output")), call.tensor(yy, _acl_dtype(yy, "y"))
        mt = call.tensor(m, _acl_dtype(m, "mask"))
        out = call.tensor(np.zeros(g.shape, g.dtype), _acl_dtype(g, "grad_output"))
        call.run(
            "aclnnScaledMaskedSoftmaxBackward",
            aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize, aclnnScaledMaskedSoftmaxBackward,
            gt, yt, mt, scale, fix_triu_mask, out,
        )  # fmt: skip
        return call.read(out, dtypes.numpy_dtype(out.dtype) or g.dtype)
    finally:
        call.release()
