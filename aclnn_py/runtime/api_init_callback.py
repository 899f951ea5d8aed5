"""aclInitCallbackRegister / aclFinalizeCallbackRegister and their UnRegister calls
(``acl_rt.h``; CANN's aclrt_impl/init_callback_manager.cpp and callback_api.cpp).

A component registers a function under an ``aclRegisterCallbackType``; aclInit calls the
ACL_REG_TYPE_ACL_MODEL callbacks, then (with a configuration file) the ..._ACL_OP_EXECUTOR ones,
then ..._ACL_DVPP and ..._OTHER, each with the configuration text; aclFinalize calls
..._ACL_OP_COMPILER, ..._ACL_MODEL, ..._ACL_DVPP and ..._OTHER. A callback that fails stops the
walk and its code is the call's. Registering an init callback after aclInit runs it at once.
One callback per type, except ACL_REG_TYPE_OTHER, which takes any number.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .._capi import ApiError, c_api, describe
from ._checks import INTERNAL, PARAM, E, acl_inner, emu, int_arg
from .device import RT

ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_OP_EXECUTOR, ACL_REG_TYPE_ACL_OP_COMPILER = 0, 1, 3
ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER = 6, 0xFFFF
INIT_ORDER = (ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_OP_EXECUTOR, ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER)
FINALIZE_ORDER = (ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_MODEL, ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER)

_lock = threading.RLock()
_init: list[tuple[int, Callable[..., Any], object]] = []  # (type, callback, userData), in order
_finalize: list[tuple[int, Callable[..., Any], object]] = []


def _check_callable(cb: object, api: str) -> None:
    if not callable(cb):
        raise ApiError(PARAM, emu(f"{api}: cbFunc must be callable, got {describe(cb)}."))


def _register(table: list[tuple[int, Callable[..., Any], object]], t: int, cb: Callable[..., Any], data: object) -> int:
    if t != ACL_REG_TYPE_OTHER and any(kind == t for kind, _, _ in table):
        return E.ACL_ERROR_INTERNAL_ERROR  # one callback per type (no report)
    table.append((t, cb, data))
    return E.ACL_SUCCESS


def _unregister(table: list[tuple[int, Callable[..., Any], object]], t: int, cb: object) -> int:
    for i, (kind, fn, _) in enumerate(table):
        if kind == t and fn is cb:
            del table[i]
            return E.ACL_SUCCESS
    return E.ACL_ERROR_INTERNAL_ERROR  # the type, or the function under it, is not registered


@c_api(INTERNAL)
def aclInitCallbackRegister(type: int, cbFunc: Callable[..., Any] | None, userData: object = None) -> int:
    """Register ``cbFunc(configStr, len, userData) -> aclError`` for aclInit. After aclInit it
    runs at once (its result is ignored, as in CANN). NULL: 100000; a second callback for a
    type other than ACL_REG_TYPE_OTHER: 500000 (neither reported)."""
    t = int_arg(type, "type", -(2**31), 2**31 - 1)
    if cbFunc is None:
        return E.ACL_ERROR_INVALID_PARAM
    _check_callable(cbFunc, "aclInitCallbackRegister")
    with _lock:
        code = _register(_init, t, cbFunc, userData)
        if code == E.ACL_SUCCESS and RT.initialized:
            text = RT.config_text
            _call(cbFunc, text, len(text.encode()), userData)
    return code


@c_api(INTERNAL)
def aclInitCallbackUnRegister(type: int, cbFunc: Callable[..., Any] | None) -> int:
    """Remove an init callback: 100000 for NULL, 500000 when it is not registered under ``type``."""
    t = int_arg(type, "type", -(2**31), 2**31 - 1)
    if cbFunc is None:
        return E.ACL_ERROR_INVALID_PARAM
    with _lock:
        return _unregister(_init, t, cbFunc)


@c_api(INTERNAL)
def aclFinalizeCallbackRegister(type: int, cbFunc: Callable[..., Any] | None, userData: object = None) -> int:
    """Register ``cbFunc(userData) -> aclError`` for aclFinalize (same rules as the init ones)."""
    t = int_arg(type, "type", -(2**31), 2**31 - 1)
    if cbFunc is None:
        return E.ACL_ERROR_INVALID_PARAM
    _check_callable(cbFunc, "aclFinalizeCallbackRegister")
    with _lock:
        return _register(_finalize, t, cbFunc, userData)


@c_api(INTERNAL)
def aclFinalizeCallbackUnRegister(type: int, cbFunc: Callable[..., Any] | None) -> int:
    """Remove a finalize callback: 100000 for NULL, 500000 when it is not registered."""
    t = int_arg(type, "type", -(2**31), 2**31 - 1)
    if cbFunc is None:
        return E.ACL_ERROR_INVALID_PARAM
    with _lock:
        return _unregister(_finalize, t, cbFunc)


def _call(cb: Callable[..., Any], *args: object) -> int:
    result = cb(*args)
    return int(result) if isinstance(result, int) else E.ACL_SUCCESS


# What aclInit / aclFinalize report when a callback of a type fails (acl.cpp: ACL_LOG_INNER_ERROR,
# an EH9999 report); ACL_REG_TYPE_OTHER's failure is ACL_LOG_ERROR, a log line only.
_INIT_FAILED = {
    ACL_REG_TYPE_ACL_MODEL: "call acl_model init callback failed, ret:{}",
    ACL_REG_TYPE_ACL_OP_EXECUTOR: "call acl_op_executor init callback failed, ret:{}.",
    ACL_REG_TYPE_ACL_DVPP: "call acl_dvpp init callback failed, ret:{}",
}
_FINALIZE_FAILED = {
    ACL_REG_TYPE_ACL_OP_COMPILER: "call acl_op_compiler finalize callback failed, ret:{}",
    ACL_REG_TYPE_ACL_MODEL: "call acl_model finalize callback failed, ret:{}",
    ACL_REG_TYPE_ACL_DVPP: "call acl_dvpp finalize callback failed, ret:{}",
}


def notify_init(config_text: str, has_config_file: bool, kinds: tuple[int, ...] = INIT_ORDER) -> None:
    """Run the init callbacks of ``kinds`` in aclInit's order (the op-executor ones only with a
    configuration file); the first failure stops the walk and raises its code (with aclInit's
    report for the type)."""
    with _lock:
        size = len(config_text.encode())
        for kind in kinds:
            if kind == ACL_REG_TYPE_ACL_OP_EXECUTOR and not has_config_file:
                continue
            for t, cb, data in list(_init):
                if t == kind:
                    code = _call(cb, config_text, size, data)
                    if code != E.ACL_SUCCESS:
                        raise _failed(_INIT_FAILED, kind, code)


def notify_finalize() -> None:
    """Run the finalize callbacks in aclFinalize's order; the first failure stops the walk and
    raises its code (with aclFinalize's report for the type)."""
    with _lock:
        for kind in FINALIZE_ORDER:
            for t, cb, data in list(_finalize):
                if t == kind:
                    code = _call(cb, data)
                    if code != E.ACL_SUCCESS:
                        raise _failed(_FINALIZE_FAILED, kind, code)


def _failed(texts: dict[int, str], kind: int, code: int) -> ApiError:
    text = texts.get(kind)
    return ApiError(code) if text is None else ApiError(code, acl_inner(text.format(code)))


def reset() -> None:
    """Forget every registration (test isolation; not a CANN call)."""
    with _lock:
        _init.clear()
        _finalize.clear()


__all__ = [
    "aclFinalizeCallbackRegister",
    "aclFinalizeCallbackUnRegister",
    "aclInitCallbackRegister",
    "aclInitCallbackUnRegister",
]
