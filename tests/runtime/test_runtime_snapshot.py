"""Process snapshots: the ACL checks (pid of this process, reserved arguments nullptr), the chip
feature, the state machine of global_state_manager.cc, the stage callbacks (once per open device,
in registration order, a failing one failing the step) and the device memory a backup saves and a
restore writes back."""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest
from rt_texts import FUNC_ERROR_REASON, INDENT, RANGE_SOLUTION, TRACEBACK
from rt_threads import waits_for

from aclnn_py import (
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtGetDeviceCount,
    aclrtGetLastError,
    aclrtLaunchHostFunc,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtResetDevice,
    aclrtSetDevice,
)
from aclnn_py._capi import ApiError
from aclnn_py.runtime import api_snapshot as S
from aclnn_py.runtime.memory import SPACE

PID = os.getpid()


def test_lock_backup_restore_unlock_brings_device_memory_back(dev0):
    p = Ref()
    assert aclrtMalloc(p, 64, 0) == 0
    x = np.arange(16, dtype=np.float32)
    assert aclrtMemcpy(p.value, 64, x, 64, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert S.aclrtSnapShotProcessLock(PID, None) == 0 and S.state() == S.LOCKED
    assert S.aclrtSnapShotProcessBackup(PID, None) == 0 and S.state() == S.BACKED_UP
    # the device memory lost (a process image restored elsewhere): no runtime call may run while locked
    SPACE.write(p.value, np.zeros(64, dtype=np.uint8), "test")
    assert S.aclrtSnapShotProcessRestore(PID, None) == 0 and S.state() == S.LOCKED
    assert S.aclrtSnapShotProcessUnlock(PID, None) == 0 and S.state() == S.RUNNING
    y = np.zeros(16, dtype=np.float32)  # runtime calls run again once unlocked
    assert aclrtMemcpy(y, 64, p.value, 64, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert np.array_equal(x, y)
    aclrtFree(p.value)


def test_states_out_of_order_fail_with_the_step_codes(dev0):
    assert S.aclrtSnapShotProcessBackup(PID, None) == 507908
    assert S.aclrtSnapShotProcessRestore(PID, None) == 507909
    assert S.aclrtSnapShotProcessUnlock(PID, None) == 507907
    assert aclrtGetLastError(0) == 507907
    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    assert S.aclrtSnapShotProcessLock(PID, None) == 507906
    assert S.aclrtSnapShotProcessRestore(PID, None) == 507909  # locked, not backed up
    assert S.aclrtSnapShotProcessBackup(PID, None) == 0
    assert S.aclrtSnapShotProcessUnlock(PID, None) == 0  # from BACKED_UP too


def _step_failed(rt_fn: str, reason: str) -> str:
    return (
        "EE9999: Internal error!\n"
        f"EE9999(EE9999):  {rt_fn} execution failed, reason={reason}{FUNC_ERROR_REASON}\n" + TRACEBACK
    )


def test_steps_out_of_order_report_the_rt_wrappers_func_error_reason(dev0):
    # api_c_snapshot.cc: ERROR_RETURN_WITH_EXT_ERRCODE -> FuncErrorReason's default (EE9999) + last error
    assert S.aclrtSnapShotProcessUnlock(PID, None) == 507907
    assert aclGetRecentErrMsg() == _step_failed("rtSnapShotProcessUnlock", "snapshot unlock failed")
    assert aclrtGetLastError(0) == 507907
    assert S.aclrtSnapShotProcessBackup(PID, None) == 507908
    assert aclGetRecentErrMsg() == _step_failed("rtSnapShotProcessBackup", "snapshot backup failed")
    assert S.aclrtSnapShotProcessRestore(PID, None) == 507909
    assert aclGetRecentErrMsg() == _step_failed("rtSnapShotProcessRestore", "snapshot restore failed")
    assert aclrtGetLastError(0) == 507909
    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    assert S.aclrtSnapShotProcessLock(PID, None) == 507906
    assert S.aclrtSnapShotProcessUnlock(PID, None) == 0  # (the locking thread's other calls would wait)
    assert aclrtGetLastError(0) == 507906
    assert aclGetRecentErrMsg() == _step_failed("rtSnapShotProcessLock", "snapshot lock failed")


def test_a_failing_callback_reports_the_inner_error_and_the_wrappers(dev0):
    assert S.aclrtSnapShotCallbackRegister(S.LOCK_PRE, lambda dev, args: 3, None) == 0
    assert S.aclrtSnapShotProcessLock(PID, None) == 507912
    assert aclGetRecentErrMsg() == (
        "EE9999: Internal error!\n"
        "EE9999(EE9999):  snapshot call back func execution failed, drv devId=0, user devId=0, "
        "stage:RT_SNAPSHOT_LOCK_PRE, error=0x3[FUNC:operator()][FILE:snapshot_callback_manager.cc][LINE:118]\n"
        + TRACEBACK
        + "       rtSnapShotProcessLock execution failed, reason=snapshot callback function execution failed"
        f"{FUNC_ERROR_REASON}\n"
    )
    assert aclrtGetLastError(0) == 507912
    assert S.state() == S.RUNNING


def test_callbacks_run_per_open_device_in_order_and_a_failure_fails_the_step(dev0):
    seen = []

    def first(dev, args):
        seen.append(("first", dev, args))
        return 0

    def second(dev, args):
        seen.append(("second", dev, args))
        return 0

    assert aclrtSetDevice(1) == 0
    assert S.aclrtSnapShotCallbackRegister(S.LOCK_PRE, first, "a") == 0
    assert S.aclrtSnapShotCallbackRegister(S.LOCK_PRE, second, None) == 0
    assert S.aclrtSnapShotCallbackRegister(S.UNLOCK_POST, first, "u") == 0
    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    assert seen == [("first", 0, "a"), ("first", 1, "a"), ("second", 0, None), ("second", 1, None)]
    seen.clear()
    assert S.aclrtSnapShotProcessUnlock(PID, None) == 0
    assert seen == [("first", 0, "u"), ("first", 1, "u")]
    assert S.aclrtSnapShotCallbackRegister(S.BACKUP_PRE, lambda dev, args: 3, None) == 0
    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    assert S.aclrtSnapShotProcessBackup(PID, None) == 507912
    assert "stage:RT_SNAPSHOT_BACKUP_PRE, error=0x3" in aclGetRecentErrMsg()
    assert S.state() == S.LOCKED  # the backup did not happen
    assert S.aclrtSnapShotCallbackUnregister(S.LOCK_PRE, second) == 0
    assert S.aclrtSnapShotCallbackUnregister(S.LOCK_PRE, second) == 107000
    assert "has not been registered for stage RT_SNAPSHOT_LOCK_PRE." in aclGetRecentErrMsg()
    assert S.aclrtSnapShotCallbackUnregister(S.RESTORE_POST, second) == 107000
    assert "no callback was registered for stage RT_SNAPSHOT_RESTORE_POST." in aclGetRecentErrMsg()
    assert S.aclrtSnapShotProcessUnlock(PID, None) == 0
    aclrtResetDevice(1)


def test_register_checks(dev0):
    def cb(dev, args):
        return 0

    assert S.aclrtSnapShotCallbackRegister(6, cb, None) == 107000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Registering the callback function related to snapshot operations failed because "
        "value 6 for parameter stage is invalid. Expected value: [0, 5].\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtSnapShotCallbackRegister execution failed.\n"
    )
    assert S.aclrtSnapShotCallbackRegister(0, None, None) == 107000
    assert "callback cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert S.aclrtSnapShotCallbackRegister(0, cb, None) == 0
    assert S.aclrtSnapShotCallbackRegister(0, cb, None) == 507913
    assert "has been registered for stage RT_SNAPSHOT_LOCK_PRE and cannot be registered again." in (
        aclGetRecentErrMsg()
    )


def test_acl_checks(dev0):
    assert S.aclrtSnapShotProcessLock(PID + 1, None) == 100000
    assert aclGetRecentErrMsg().startswith(
        f"Invalid_Argument(EH0009): aclrtSnapShotProcessLock failed. Value {PID + 1} for parameter pid is invalid. "
        "Reason: pid must be current process pid, cross-process operation is not supported."
    )
    assert S.aclrtSnapShotProcessUnlock(PID, 0x10) == 100000
    assert "Parameter reserve is invalid. Reason: reserve is a reserved parameter and must be nullptr." in (
        aclGetRecentErrMsg()
    )
    assert S.aclrtSnapShotProcessBackup(PID, 0x10) == 100000
    assert "Parameter args is invalid. Reason: args is a reserved parameter and must be nullptr." in (
        aclGetRecentErrMsg()
    )


@pytest.mark.parametrize("soc", ["Ascend910", "Ascend310P"])
def test_chips_without_snapshots(monkeypatch, soc):
    monkeypatch.setenv("ACLNN_PY_SOC", soc)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        assert S.aclrtSnapShotProcessLock(PID, None) == 207000
        assert aclrtGetLastError(0) == 207000
        assert S.aclrtSnapShotCallbackRegister(0, lambda d, a: 0, None) == 207000
    finally:
        aclrtResetDevice(0)
        aclFinalize()


def test_runtime_calls_wait_while_the_process_is_locked(dev0):
    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    with pytest.raises(ApiError) as refused:  # the locking thread would wait forever: refused
        S.wait_if_locked("aclrtMemset")
    assert refused.value.code == 507046 and "aclrtMemset would never return" in str(refused.value.messages)
    # another thread's call waits for the unlock
    assert waits_for(lambda: S.wait_if_locked("aclrtMemcpy"), lambda: S.aclrtSnapShotProcessUnlock(PID, None)) is None
    S.wait_if_locked("aclrtMemset")  # running again: no wait


def test_a_call_cann_holds_waits_for_the_unlock(dev0):
    """The gate sits in the common path of the rt functions that wait on CANN (rtSetDevice,
    rtMalloc: GLOBAL_STATE_WAIT_IF_LOCKED): another thread's aclrtSetDevice returns only after the
    unlock; the locking thread's own aclrtMalloc is refused (it would wait forever) and recorded;
    the snapshot calls themselves pass."""
    from aclnn_py import Ref, aclGetRecentErrMsg

    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    assert aclrtMalloc(Ref(), 64, 0) == 507046
    assert "aclrtMalloc would never return" in aclGetRecentErrMsg()
    assert aclrtGetLastError(0) == 507046

    def other_thread() -> int:
        code = aclrtSetDevice(0)
        aclrtResetDevice(0)
        return code

    assert waits_for(other_thread, lambda: S.aclrtSnapShotProcessUnlock(PID, None)) == 0
    p = Ref()
    assert aclrtMalloc(p, 64, 0) == 0
    aclrtFree(p.value)


def test_an_unlock_from_another_thread_waits_for_a_backup_in_progress(dev0):
    """The steps run one at a time from their check to their transition: an Unlock arriving while
    a Backup's callback runs goes after it, and the process ends RUNNING with every call free."""
    started = threading.Event()

    def slow(stage, args):
        started.set()
        time.sleep(0.3)
        return 0

    assert S.aclrtSnapShotCallbackRegister(S.BACKUP_PRE, slow, None) == 0
    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    unlocked: list[int] = []
    other = threading.Thread(target=lambda: (started.wait(5), unlocked.append(S.aclrtSnapShotProcessUnlock(PID, None))))
    other.start()
    assert S.aclrtSnapShotProcessBackup(PID, None) == 0
    other.join(5)
    assert unlocked == [0] and S.state() == S.RUNNING and S.STATE.owner is None
    count = Ref(0)
    assert aclrtGetDeviceCount(count) == 0  # nobody is held
    assert S.aclrtSnapShotCallbackUnregister(S.BACKUP_PRE, slow) == 0


def test_a_host_function_calling_the_runtime_does_not_deadlock_a_backup(monkeypatch):
    """Under the thread policy a queued host function runs on the stream's worker while Backup
    waits for that stream: its runtime call is refused (507046), not held for ever."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "thread")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        st = Ref()
        assert aclrtCreateStream(st) == 0
        gate = threading.Event()
        seen: list[int] = []
        assert aclrtLaunchHostFunc(st.value, lambda _: gate.wait(5), None) == 0
        assert aclrtLaunchHostFunc(st.value, lambda _: seen.append(int(aclrtMalloc(Ref(), 64, 0))), None) == 0
        assert S.aclrtSnapShotProcessLock(PID, None) == 0
        gate.set()
        done: list[int] = []
        backup = threading.Thread(target=lambda: done.append(S.aclrtSnapShotProcessBackup(PID, None)), daemon=True)
        backup.start()
        backup.join(10)
        assert not backup.is_alive() and done == [0]
        assert seen == [507046]
        assert S.aclrtSnapShotProcessUnlock(PID, None) == 0
        aclGetRecentErrMsg()
        assert aclrtDestroyStream(st.value) == 0
    finally:
        aclrtResetDevice(0)
        aclFinalize()


def test_a_reset_releases_the_calls_waiting_for_the_unlock(dev0):
    from aclnn_py import testing

    assert S.aclrtSnapShotProcessLock(PID, None) == 0
    done: list[int] = []
    waiter = threading.Thread(target=lambda: done.append(aclrtCreateStream(Ref())), daemon=True)
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()
    testing.reset()
    waiter.join(5)
    assert not waiter.is_alive() and S.state() == S.RUNNING
