"""The C ABI's adaptors for the functions that take C function pointers (capi/gen_rt.py ADAPTED;
:mod:`aclnn_py._cabi` merges :data:`ADAPTORS` into its table): host functions and report
callbacks on a stream, exception-information callbacks, the init/finalize callbacks, and the
device-state, stream-state and task-abort callbacks. Each C function becomes one Python callable,
kept for the process, so unregistering reaches the engine with the object it registered.
"""

from __future__ import annotations

import ctypes
from typing import Any

from ._cabi_core import H, _cstr

_HOST_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _launch_host_func(fn: Any, stream: int, func: int, args: int) -> int:
    # the C function runs when the stream reaches it, with its own argument; ctypes drops the GIL
    # around the call, so it may call ACL functions itself
    c_func = None if func == 0 else _HOST_FUNC(func)
    call = None if c_func is None else (lambda arg, c=c_func: c(arg))
    return int(fn(H.obj(stream), call, args or None))


def _launch_callback(fn: Any, func: int, userData: int, blockType: int, stream: int) -> int:
    # runs on the thread that calls aclrtProcessReport (a C thread, attached to Python)
    c_func = None if func == 0 else _HOST_FUNC(func)
    call = None if c_func is None else (lambda arg, c=c_func: c(arg))
    return int(fn(call, userData or None, blockType, H.obj(stream)))


# C exception callbacks, one Python wrapper per C function: Unregister must find the same object
_EXCEPTION_CALLBACKS: dict[int, Any] = {}
_EXCEPTION_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_uint64)


def _exception_callback(func: int) -> Any:
    if func == 0:
        return None
    wrapper = _EXCEPTION_CALLBACKS.get(func)
    if wrapper is None:
        c_func = _EXCEPTION_FUNC(func)

        def wrapper(info: object, c: Any = c_func) -> None:
            c(H.token(info))  # the C side reads it back with aclrtGet*FromExceptionInfo

        _EXCEPTION_CALLBACKS[func] = wrapper
    return wrapper


def _set_exception_callback(fn: Any, callback: int) -> int:
    return int(fn(_exception_callback(callback)))


# A C function pointer becomes one Python callable, kept for the process: registering and
# unregistering the same C function reach the engine as the same object.
_C_CALLBACKS: dict[tuple[str, int], Any] = {}
_INIT_FUNC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p)
_FINALIZE_FUNC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_STATE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p)
_STREAM_STATE_FUNC = ctypes.CFUNCTYPE(None, ctypes.c_uint64, ctypes.c_int32, ctypes.c_void_p)
_ABORT_FUNC = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_uint32, ctypes.c_void_p)


def _c_callback(kind: str, func: int) -> Any:
    if func == 0:
        return None
    wrapper = _C_CALLBACKS.get((kind, func))
    if wrapper is None:
        if kind == "init":
            c_init = _INIT_FUNC(func)

            def wrapper(text: str, size: int, data: object, c: Any = c_init) -> int:
                return int(c(text.encode("utf-8"), size, data))

        elif kind == "finalize":
            c_fin = _FINALIZE_FUNC(func)

            def wrapper(data: object, c: Any = c_fin) -> int:
                return int(c(data))

        elif kind == "state":
            c_state = _STATE_FUNC(func)

            def wrapper(device: int, state: int, data: object, c: Any = c_state) -> None:
                c(device, state, data)

        elif kind == "stream":
            c_stream = _STREAM_STATE_FUNC(func)

            def wrapper(stream: object, state: int, data: object, c: Any = c_stream) -> None:
                c(H.token(stream), state, data)  # the C side gets the stream's handle

        else:
            c_abort = _ABORT_FUNC(func)

            def wrapper(device: int, stage: int, timeout: int, data: object, c: Any = c_abort) -> int:
                return int(c(device, stage, timeout, data))

        _C_CALLBACKS[(kind, func)] = wrapper
    return wrapper


def _init_callback_register(fn: Any, type_: int, cbFunc: int, userData: int) -> int:
    return int(fn(type_, _c_callback("init", cbFunc), userData or None))


def _init_callback_unregister(fn: Any, type_: int, cbFunc: int) -> int:
    return int(fn(type_, _c_callback("init", cbFunc)))


def _finalize_callback_register(fn: Any, type_: int, cbFunc: int, userData: int) -> int:
    return int(fn(type_, _c_callback("finalize", cbFunc), userData or None))


def _finalize_callback_unregister(fn: Any, type_: int, cbFunc: int) -> int:
    return int(fn(type_, _c_callback("finalize", cbFunc)))


def _device_state_callback(fn: Any, regName: int, callback: int, args: int) -> int:
    return int(fn(_cstr(regName), _c_callback("state", callback), args or None))


def _stream_state_callback(fn: Any, regName: int, callback: int, args: int) -> int:
    return int(fn(_cstr(regName), _c_callback("stream", callback), args or None))


def _task_abort_callback(fn: Any, regName: int, callback: int, args: int) -> int:
    return int(fn(_cstr(regName), _c_callback("abort", callback), args or None))


ADAPTORS: dict[str, Any] = {
    "aclrtLaunchHostFunc": _launch_host_func,
    "aclrtLaunchCallback": _launch_callback,
    "aclrtSetExceptionInfoCallback": _set_exception_callback,
    "aclrtExceptionInfoCallbackRegister": _set_exception_callback,
    "aclrtExceptionInfoCallbackUnregister": _set_exception_callback,
    "aclInitCallbackRegister": _init_callback_register,
    "aclInitCallbackUnRegister": _init_callback_unregister,
    "aclFinalizeCallbackRegister": _finalize_callback_register,
    "aclFinalizeCallbackUnRegister": _finalize_callback_unregister,
    "aclrtRegDeviceStateCallback": _device_state_callback,
    "aclrtSetDeviceTaskAbortCallback": _task_abort_callback,
    "aclrtRegStreamStateCallback": _stream_state_callback,
}
