"""The C ABI's adaptors for the model runtime instance and label chapters (aclmdlRI*, aclrt*Label*):
arrays of handles, a name written into the caller's buffer, the condition word's address, destroy
callbacks, the task parameter struct, the conditional task's struct passed by value (written by
hand in capi/src/aclnn_py_capi.cpp) and the label list's array (capi/gen_rt.py ADAPTED)."""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

from ._cabi_callbacks import _HOST_FUNC
from ._cabi_core import H, _ref, _u32
from ._ref import Ref


def _put_tokens(addr: int, objs: list[Any]) -> None:
    for i, obj in enumerate(objs):
        ctypes.c_uint64.from_address(addr + 8 * i).value = H.token(obj)


def _listing(fn: Any, first: int, array: int, count: int) -> int:
    """aclmdlRIGetStreams / aclmdlRIGetTasksByStream: ``*count`` is the array's size in, the
    number of entries out; the handles go into the caller's array."""
    n = _u32(count)
    items: list[Any] | None = None if array == 0 else [None] * (n.value if n is not None else 0)
    rc = int(fn(H.obj(first), items, n))
    if rc == 0 and items is not None and n is not None:
        _put_tokens(array, items[: n.value])
    return rc


def _get_name(fn: Any, modelRI: int, maxLen: int, name: int) -> int:
    ref = _ref(name)
    rc = int(fn(H.obj(modelRI), maxLen, ref))
    if rc == 0 and ref is not None and isinstance(ref.value, str):
        data = ref.value.encode("utf-8") + b"\0"
        ctypes.memmove(name, data, len(data))
    return rc


def _cond_ptr(fn: Any, handle: int, ptr: int) -> int:
    return int(fn(H.obj(handle), None if ptr == 0 else ctypes.c_uint64.from_address(ptr)))


# the Python callables made for each C destroy callback, by function address, so that
# aclmdlRIDestroyUnregisterCallback finds the one aclmdlRIDestroyRegisterCallback registered
_CALLBACKS: dict[int, Callable[[Any], None]] = {}


def _c_callback(func: int) -> Callable[[Any], None] | None:
    if func == 0:
        return None
    call = _CALLBACKS.get(func)
    if call is None:
        c_func = _HOST_FUNC(func)

        def call(arg: Any, c: Any = c_func) -> None:
            c(arg)

        _CALLBACKS[func] = call
    return call


def _register(fn: Any, modelRI: int, func: int, userData: int) -> int:
    return int(fn(H.obj(modelRI), _c_callback(func), userData or None))


def _unregister(fn: Any, modelRI: int, func: int) -> int:
    return int(fn(H.obj(modelRI), _c_callback(func)))


# aclmdlRITaskParams (acl_rt.h): type at 0, taskGrp at 16, the union at 72 (an event handle
# first, then its creation flag and the record/wait/reset flag)
_TYPE_AT, _GRP_AT, _UNION_AT = 0, 16, 72


def _task_params(fn: Any, task: int, params: int) -> int:
    ref: Ref[Any] | None = None if params == 0 else Ref()
    rc = int(fn(H.obj(task), ref))
    if rc == 0 and ref is not None and isinstance(ref.value, dict):
        info = ref.value
        ctypes.memset(params, 0, 200)
        ctypes.c_int32.from_address(params + _TYPE_AT).value = int(info["type"])
        ctypes.c_uint64.from_address(params + _GRP_AT).value = H.token(info.get("taskGrp"))
        event = info.get("event")
        if event is not None:
            ctypes.c_uint64.from_address(params + _UNION_AT).value = H.token(event)
            ctypes.c_uint32.from_address(params + _UNION_AT + 8).value = int(getattr(event, "flags", 0))
    return rc


def _set_params(fn: Any, task: int, params: int) -> int:
    return int(fn(H.obj(task), params or None))


def _kernel_attribute(fn: Any, task: int, attrId: int, attrValue: int) -> int:
    return int(fn(H.obj(task), attrId, attrValue or None))


def _add_cond_task(fn: Any, handle: int, kind: int, size: int, array: int, stream: int, flags: int) -> int:
    """The fields of the aclmdlRICondTaskParams passed by value; the sub-models go into the
    caller's modelRIArray."""
    subs: list[Any] | None = None if array == 0 else [None] * size
    params = {"handle": H.obj(handle), "type": kind, "size": size, "modelRIArray": subs}
    rc = int(fn(params, H.obj(stream), flags))
    if rc == 0 and subs is not None:
        _put_tokens(array, subs)
    return rc


def _label_list(fn: Any, labels: int, num: int, labelList: int) -> int:
    """aclrtCreateLabelList: ``num`` label handles read from the caller's array."""
    items = None if labels == 0 else [H.obj(t) for t in (ctypes.c_uint64 * min(num, 1 << 16)).from_address(labels)]
    ref = _ref(labelList)
    rc = int(fn(items, num, ref))
    if rc == 0 and ref is not None and ref.value is not None:
        ctypes.c_uint64.from_address(labelList).value = H.token(ref.value)
    return rc


ADAPTORS: dict[str, Any] = {
    "aclrtCreateLabelList": _label_list,
    "aclmdlRIGetStreams": _listing,
    "aclmdlRIGetTasksByStream": _listing,
    "aclmdlRIGetName": _get_name,
    "aclmdlRICondHandleGetCondPtr": _cond_ptr,
    "aclmdlRIDestroyRegisterCallback": _register,
    "aclmdlRIDestroyUnregisterCallback": _unregister,
    "aclmdlRITaskGetParams": _task_params,
    "aclmdlRITaskSetParams": _set_params,
    "aclmdlRIKernelTaskGetAttribute": _kernel_attribute,
    "aclmdlRIAddCondTask": _add_cond_task,
}
