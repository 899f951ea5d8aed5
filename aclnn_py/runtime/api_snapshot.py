"""Process snapshots of ``acl_rt.h`` (aclrtSnapShotProcessLock / Backup / Restore / Unlock and the
stage callbacks): checkpointing an NPU process, on CANN so that a checkpoint tool (CRIU, say) can
save the host process while the runtime has saved the device's side.

The checks and the state machine are CANN's (``src/acl/aclrt_impl/snapshot.cpp``; the runtime's
``api_c_snapshot.cc``, ``api_error.cc``, ``api_impl.cc``, ``global_state_manager.cc``,
``snapshot_callback_manager.cc``): RUNNING -> Lock -> LOCKED -> Backup -> BACKED_UP; Restore from
BACKED_UP back to LOCKED; Unlock from LOCKED or BACKED_UP to RUNNING. The callbacks of a stage run
in their order of registration, once per open device, before (``*_PRE``) or after (``*_POST``) the
step; one returning non-zero fails the step with 507912. While the process is locked, CANN's rt
functions that modify device resources wait (``GLOBAL_STATE_WAIT_IF_LOCKED``, global_state_manager.hpp:
about a third of them); the queries, the synchronizes and the snapshot calls do not.
:func:`wait_if_locked` is that wait; :mod:`._lock_gated` (generated from CANN's source by
``tools/gen_lock_gated.py``) says which ACL functions reach it.

What is emulated in one process: Backup saves the contents of every live device allocation and
mapped range of the simulated memory (the driver's ProcessResBackup of device memory); Restore
writes them back into the allocations that still exist at the same addresses (in one process the
device memory hardly changes between the two, the copies, sets and launches being held; the restore
matters to a process image restored elsewhere). Each runtime call that waits on CANN waits in
:func:`wait_if_locked` while the process is locked (installed as ``_checks.SNAPSHOT_GATE`` when
this chapter loads, called by ``_checks.rt_api`` for the functions ``_lock_gated`` does not list
in NOT_GATED); the others run on.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from .._capi import ApiError, as_pointer, describe
from . import _checks, _rt_features
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_reason,
    drain,
    emu,
    fb_inner,
    fb_invalid,
    int_arg,
    rt_api,
    rt_inner,
    rt_value,
    silent,
)
from .device import RT
from .memory import SPACE, called_from_c, on_reset
from .stream import running_task

# aclrtSnapShotStage
LOCK_PRE, BACKUP_PRE, BACKUP_POST, RESTORE_PRE, RESTORE_POST, UNLOCK_POST = range(6)
STAGE_NAMES = (
    "RT_SNAPSHOT_LOCK_PRE", "RT_SNAPSHOT_BACKUP_PRE", "RT_SNAPSHOT_BACKUP_POST", "RT_SNAPSHOT_RESTORE_PRE",
    "RT_SNAPSHOT_RESTORE_POST", "RT_SNAPSHOT_UNLOCK_POST",
)  # fmt: skip
# aclrtProcessState, and the runtime's BACKED_UP
RUNNING, LOCKED, BACKED_UP = 0, 1, 2
_PID_REASON = "pid must be current process pid, cross-process operation is not supported"
_C_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_int32, ctypes.c_void_p)


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.unlocked = threading.Condition(self.lock)  # notified when the state returns to RUNNING
        self.owner: int | None = None  # the thread that locked the process
        # One step (Lock, Backup, Restore, Unlock) at a time, from its check to its transition:
        # an Unlock from another thread waits for a Backup in progress (re-entrant: a stage
        # callback may call the steps itself, and the step then sees the state it left)
        self.step = threading.RLock()
        self.draining = False  # a Backup waits for the streams' queued work
        self.state = RUNNING
        self.callbacks: dict[int, list[tuple[object, Callable[[int, Any], int], object]]] = {}
        self.saved: list[tuple[int, int, bytes]] = []  # (start, size, contents) of the backup
        self.c_funcs: dict[int, Any] = {}  # a C function pointer's ctypes wrapper, kept for the process


STATE = _State()


def _reset() -> None:
    with STATE.unlocked:
        STATE.state = RUNNING
        STATE.owner = None
        STATE.draining = False
        STATE.unlocked.notify_all()  # a call waiting for the unlock goes on
    STATE.callbacks.clear()
    STATE.saved = []


on_reset(_reset)


def state() -> int:
    """The process state (rtSnapShotProcessGetState): RUNNING, LOCKED or BACKED_UP."""
    return STATE.state


def wait_if_locked(api: str) -> None:
    """``GLOBAL_STATE_WAIT_IF_LOCKED``, which CANN's rt functions that modify device resources call
    first: while the process is locked for a snapshot, such a call waits until it is unlocked.
    Another thread's call waits here; the locking thread's own call would wait forever on CANN, so
    it is refused instead, as the emulator refuses a synchronize that can never return (the calls
    that do not wait on CANN, the snapshot calls among them, never come here: _lock_gated)."""
    if STATE.state == RUNNING:
        return
    in_task = running_task()
    with STATE.unlocked:
        if STATE.state == RUNNING:
            return
        if STATE.owner == threading.get_ident():
            raise ApiError(
                E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                emu(
                    f"{api} would never return: the calling thread locked the process for a snapshot "
                    "(aclrtSnapShotProcessLock), and CANN holds this call (its rt function waits: "
                    "GLOBAL_STATE_WAIT_IF_LOCKED) until aclrtSnapShotProcessUnlock. Unlock first."
                ),
            )
        # a stream's task (a host function) waiting here while a Backup waits for that stream
        # would wait for ever: it is refused instead, once the Backup begins to wait
        STATE.unlocked.wait_for(lambda: STATE.state == RUNNING or (in_task and STATE.draining))
        if STATE.state != RUNNING:
            raise ApiError(
                E.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                emu(
                    f"{api} would never return: it runs in a stream's task while "
                    "aclrtSnapShotProcessBackup waits for that stream's work, and CANN holds this "
                    "call (its rt function waits: GLOBAL_STATE_WAIT_IF_LOCKED) until "
                    "aclrtSnapShotProcessUnlock."
                ),
            )


# the rt functions that modify device resources wait first while the process is locked (_lock_gated)
_checks.SNAPSHOT_GATE = wait_if_locked


def _check_pid(api: str, pid: object) -> None:
    p = int_arg(pid, "pid", -(2**31), 2**31 - 1)
    if p != os.getpid():
        raise ApiError(PARAM, acl_reason(api, p, "pid", _PID_REASON))


def _must_be_null(api: str, obj: object, name: str) -> None:
    if obj is not None and as_pointer(obj) not in (None, 0):
        raise ApiError(
            PARAM,
            ("EH0012", f"{api} failed. Parameter {name} is invalid. Reason: {name} is a reserved parameter and must be "
                       "nullptr."),
        )  # fmt: skip


def _feature() -> None:
    """CheckSnapShotFeatureSupport: 207000 (a WARN log; the thread's last error is set)."""
    if not _rt_features.has("RT_FEATURE_DFX_PROCESS_SNAPSHOT"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


def _invoke(stage: int, rt_fn: str) -> None:
    """SnapshotCallbackManager::InvokeCallbacks: each callback of the stage, for each open device.
    A failing one: the lambda's inner report (snapshot_callback_manager.cc:118), then the rt
    wrapper's (``rt_fn``'s ERROR_RETURN_WITH_EXT_ERRCODE)."""
    devices = _open_devices()
    for _, func, args in list(STATE.callbacks.get(stage, [])):
        for dev in devices:
            ret = int(func(dev, args)) & 0xFFFFFFFF
            if ret != 0:
                raise ApiError(
                    E.ACL_ERROR_RT_SNAPSHOT_CALLBACK_FAILED,
                    rt_inner(
                        f"snapshot call back func execution failed, drv devId={dev}, user devId={dev}, "
                        f"stage:{STAGE_NAMES[stage]}, error={ret:#x}",
                        "operator()",
                        "snapshot_callback_manager.cc",
                        118,
                    ),
                    fb_inner(rt_fn, "snapshot callback function execution failed"),
                )


def _out_of_order(code: int, rt_fn: str, reason: str) -> ApiError:
    """A step from the wrong state: CANN only logs the state (GlobalStateManager::Locked/Unlocked,
    ApiErrorDecorator::SnapShotProcessBackup/Restore), and the rt wrapper's
    ERROR_RETURN_WITH_EXT_ERRCODE (api_c_snapshot.cc) reports FuncErrorReason's default: EE9999
    "<rtFn> execution failed, reason=<errcode_manage.cc's text>", and sets the last error."""
    return ApiError(code, fb_inner(rt_fn, reason))


def _open_devices() -> list[int]:
    """The devices of the process that are open (set, or with a context: ProcessForAllOpenDevice)."""
    return sorted(int(d.ident) for d in RT.devices.values() if d.primary is not None or d.contexts)


def _contexts() -> list[Any]:
    return [c for d in RT.devices.values() for c in ([d.primary] if d.primary else []) + d.contexts]


def _device_memory() -> list[Any]:
    return [a for a in SPACE.live() if a.kind in ("device", "mapped")]


# ---------------------------------------------------------------------------------------------
# the calls
# ---------------------------------------------------------------------------------------------


@rt_api
def aclrtSnapShotProcessLock(pid: int, reserve: object) -> int:
    """Lock the process for a snapshot (RUNNING -> LOCKED), after the LOCK_PRE callbacks."""
    api = "aclrtSnapShotProcessLock"
    _check_pid(api, pid)
    _must_be_null(api, reserve, "reserve")
    _feature()
    with STATE.step:
        _invoke(LOCK_PRE, "rtSnapShotProcessLock")
        with STATE.lock:
            if STATE.state != RUNNING:  # "current state is not the running state"
                raise _out_of_order(E.ACL_ERROR_SNAPSHOT_LOCK_FAILED, "rtSnapShotProcessLock", "snapshot lock failed")
            STATE.state = LOCKED
            STATE.owner = threading.get_ident()
    return E.ACL_SUCCESS


@rt_api
def aclrtSnapShotProcessUnlock(pid: int, reserve: object) -> int:
    """Let the process run again (LOCKED or BACKED_UP -> RUNNING), then the UNLOCK_POST callbacks."""
    api = "aclrtSnapShotProcessUnlock"
    _check_pid(api, pid)
    _must_be_null(api, reserve, "reserve")
    _feature()
    with STATE.step:
        with STATE.lock:
            if STATE.state not in (LOCKED, BACKED_UP):
                raise _out_of_order(
                    E.ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, "rtSnapShotProcessUnlock", "snapshot unlock failed"
                )
            STATE.state = RUNNING
            STATE.owner = None
            STATE.unlocked.notify_all()
        _invoke(UNLOCK_POST, "rtSnapShotProcessUnlock")
    return E.ACL_SUCCESS


@rt_api
def aclrtSnapShotProcessBackup(pid: int, args: object) -> int:
    """Save the device side of the locked process (LOCKED -> BACKED_UP): the BACKUP_PRE callbacks,
    the contents of every device allocation, the BACKUP_POST callbacks."""
    api = "aclrtSnapShotProcessBackup"
    _check_pid(api, pid)
    _must_be_null(api, args, "args")
    _feature()
    with STATE.step:
        if STATE.state != LOCKED:  # "current state is not the locked state"
            raise _out_of_order(E.ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "rtSnapShotProcessBackup", "snapshot backup failed")
        _invoke(BACKUP_PRE, "rtSnapShotProcessBackup")
        with STATE.unlocked:
            STATE.draining = True
            STATE.unlocked.notify_all()  # a stream's task waiting for the unlock is refused now
        try:
            for ctx in _contexts():  # the device memory as the queued work leaves it
                for st in ctx.all_streams():
                    drain(st)
        finally:
            STATE.draining = False
        STATE.saved = [(a.start, a.size, a.buf.tobytes()) for a in _device_memory()]
        _invoke(BACKUP_POST, "rtSnapShotProcessBackup")
        with STATE.lock:
            if STATE.state != LOCKED:  # a stage callback unlocked the process
                raise _out_of_order(
                    E.ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "rtSnapShotProcessBackup", "snapshot backup failed"
                )
            STATE.state = BACKED_UP
    return E.ACL_SUCCESS


@rt_api
def aclrtSnapShotProcessRestore(pid: int, args: object) -> int:
    """Bring the device side back from the backup (BACKED_UP -> LOCKED): the RESTORE_PRE callbacks,
    the saved contents written into the allocations that still exist at the same addresses, the
    RESTORE_POST callbacks."""
    api = "aclrtSnapShotProcessRestore"
    _check_pid(api, pid)
    _must_be_null(api, args, "args")
    _feature()
    with STATE.step:
        if STATE.state != BACKED_UP:
            raise _out_of_order(
                E.ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "rtSnapShotProcessRestore", "snapshot restore failed"
            )
        _invoke(RESTORE_PRE, "rtSnapShotProcessRestore")
        for start, size, data in STATE.saved:
            alloc = SPACE.find(start)
            if alloc is not None and alloc.start == start and alloc.size == size:
                alloc.buf[:] = np.frombuffer(data, dtype=np.uint8)
        _invoke(RESTORE_POST, "rtSnapShotProcessRestore")
        with STATE.lock:
            if STATE.state != BACKED_UP:  # a stage callback unlocked the process
                raise _out_of_order(
                    E.ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "rtSnapShotProcessRestore", "snapshot restore failed"
                )
            STATE.state = LOCKED
    return E.ACL_SUCCESS


def _callable(api: str, callback: object) -> tuple[object, Callable[[int, Any], int]]:
    """(the key callbacks are compared by, the function to call)."""
    if callable(callback):
        return callback, callback
    addr = as_pointer(callback)
    if addr is not None and addr > 0 and called_from_c():
        wrapper = STATE.c_funcs.get(addr)
        if wrapper is None:
            c_func = _C_CALLBACK(addr)

            def wrapper(device: int, data: object, c: Any = c_func) -> int:
                return int(c(device, data if isinstance(data, int) else None))

            STATE.c_funcs[addr] = wrapper
        return addr, wrapper
    raise ApiError(PARAM, emu(f"{api}: callback must be a function, got {describe(callback)}."))


_REG = "Registering the callback function related to snapshot operations"
_UNREG = "Deregistering the callback function related to snapshot operations"


def _stage(desc: str, stage: object, rt_fn: str) -> int:
    s = int_arg(stage, "stage", -(2**31), 2**31 - 1)
    if not LOCK_PRE <= s <= UNLOCK_POST:
        raise ApiError(RT_PARAM, rt_value(desc, s, "stage", f"[0, {UNLOCK_POST}]"), fb_invalid(rt_fn))
    return s


def _null_callback(desc: str, rt_fn: str) -> ApiError:
    return ApiError(
        RT_PARAM, ("EE1004", f"{desc} failed because callback cannot be a NULL pointer."), fb_invalid(rt_fn)
    )


@rt_api
def aclrtSnapShotCallbackRegister(stage: int, callback: object, args: object) -> int:
    """Call ``callback(deviceId, args)`` at ``stage`` of every snapshot step, for each open device
    (once per function and stage; a non-zero return fails the step)."""
    rt_fn = "rtSnapShotCallbackRegister"
    _feature()
    s = _stage(_REG, stage, rt_fn)
    if callback is None or (isinstance(callback, int) and as_pointer(callback) in (None, 0)):
        raise _null_callback(_REG, rt_fn)
    key, func = _callable("aclrtSnapShotCallbackRegister", callback)
    with STATE.lock:
        registered = STATE.callbacks.setdefault(s, [])
        if any(k == key for k, _, _ in registered):
            raise ApiError(
                E.ACL_ERROR_RT_SNAPSHOT_REGISTER_CALLBACK_FAILED,
                ("EE1017", f"{_REG} failed. Parameter callback is invalid. Reason: The callback function "
                           f"{_address(key)} has been registered for stage {STAGE_NAMES[s]} and cannot be registered "
                           "again."),
            )  # fmt: skip
        registered.append((key, func, args))
    return E.ACL_SUCCESS


@rt_api
def aclrtSnapShotCallbackUnregister(stage: int, callback: object) -> int:
    """Remove a callback of aclrtSnapShotCallbackRegister from ``stage``."""
    rt_fn = "rtSnapShotCallbackUnregister"
    _feature()
    s = _stage(_UNREG, stage, rt_fn)
    if callback is None or (isinstance(callback, int) and as_pointer(callback) in (None, 0)):
        raise _null_callback(_UNREG, rt_fn)
    key, _ = _callable("aclrtSnapShotCallbackUnregister", callback)
    with STATE.lock:
        if s not in STATE.callbacks:
            raise ApiError(
                RT_PARAM,
                ("EE1017", f"{_UNREG} failed. Parameter callback is invalid. Reason: no callback was registered for "
                           f"stage {STAGE_NAMES[s]}."),
            )  # fmt: skip
        registered = STATE.callbacks[s]
        index = next((i for i, (k, _, _) in enumerate(registered) if k == key), None)
        if index is None:
            raise ApiError(
                RT_PARAM,
                ("EE1017", f"{_UNREG} failed. Parameter callback is invalid. Reason: The callback function "
                           f"{_address(key)} has not been registered for stage {STAGE_NAMES[s]}."),
            )  # fmt: skip
        del registered[index]
    return E.ACL_SUCCESS


def _address(key: object) -> int:
    """The callback's number in CANN's texts (``RtPtrToValue``): a C function's address, a Python
    function's id."""
    return key if isinstance(key, int) else id(key)


__all__ = [
    "aclrtSnapShotCallbackRegister",
    "aclrtSnapShotCallbackUnregister",
    "aclrtSnapShotProcessBackup",
    "aclrtSnapShotProcessLock",
    "aclrtSnapShotProcessRestore",
    "aclrtSnapShotProcessUnlock",
]
