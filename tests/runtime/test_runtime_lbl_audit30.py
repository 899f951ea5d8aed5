"""Audit 30 fixes of the notify batch reset, group information and IPC memory chapters:
rtNotifyReset's feature, null and context checks (api_c_standard_soc.cc:1952-1968, api_error.cc:4398),
rtGetGroupCount's last error (api_c.cc:2411), and the ACL layer's call errors of IPC memory
(acl/memory.cpp:1804-1810, 1879-1885) with rtSetIpcMemPid's context check (api_impl.cc:4777-4778)."""

from __future__ import annotations

import os
import threading

import pytest
from rt_texts import ACL_CALL, INDENT, POINTER_SOLUTION, TRACEBACK

from aclnn_py import (
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateNotify,
    aclrtDestroyNotify,
    aclrtFree,
    aclrtGetLastError,
    aclrtIpcMemClose,
    aclrtIpcMemGetExportKey,
    aclrtIpcMemImportByKey,
    aclrtIpcMemSetAttr,
    aclrtIpcMemSetImportPid,
    aclrtMalloc,
    aclrtNotifyBatchReset,
    aclrtResetDevice,
    aclrtSetDevice,
)
from aclnn_py._ref import Ref
from aclnn_py.runtime.api_group import aclrtCreateGroupInfo


def _notify():
    n = Ref()
    assert aclrtCreateNotify(n, 0) == 0
    return n.value


def _in_a_thread_without_context(fn):
    out = []
    t = threading.Thread(target=lambda: out.append(fn()))
    t.start()
    t.join()
    return out[0]


def test_batch_reset_of_a_null_notify_is_ee1004_and_stops_there(dev0):
    a, b = _notify(), _notify()
    a.is_set = b.is_set = True
    assert aclrtNotifyBatchReset([a, None, b], 3) == 107000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_Null_Pointer(EE1004): Notify resetting failed because inNotify cannot be a NULL pointer.\n"
        + POINTER_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtNotifyReset execution failed.\n"
    )
    assert aclrtGetLastError(0) == 107000
    assert a.is_set is False and b.is_set is True  # the ones before the bad one were reset
    for n in (a, b):
        assert aclrtDestroyNotify(n) == 0


def test_batch_reset_needs_a_context(dev0):
    n = _notify()

    def reset():
        code = aclrtNotifyBatchReset([n], 1)
        return code, aclrtGetLastError(0)

    assert _in_a_thread_without_context(reset) == (107002, 107002)
    assert aclrtDestroyNotify(n) == 0


def test_batch_reset_num_is_taken_as_uint32(dev0):
    n = _notify()
    assert aclrtNotifyBatchReset([n], 2**32) == 107000  # static_cast<uint32_t>: 0
    assert "rtsNotifyBatchReset failed because value 0 for parameter num is invalid." in aclGetRecentErrMsg()
    n.is_set = True
    assert aclrtNotifyBatchReset([n], 2**32 + 1) == 0 and n.is_set is False  # 1
    assert aclrtDestroyNotify(n) == 0


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_batch_reset_off_notify_reset_chips_is_a_bare_207000(soc, chip):
    soc(chip)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        n = _notify()
        assert aclrtGetLastError(0) == 0
        assert aclrtNotifyBatchReset([n], 1) == 207000
        assert aclrtGetLastError(0) == 0  # no GetRtExtErrCodeAndSetGlobalErr
        assert aclrtNotifyBatchReset([None], 1) == 207000  # the feature first, before the handle
        assert aclrtDestroyNotify(n) == 0
    finally:
        aclrtResetDevice(0)
        aclFinalize()


def test_create_group_info_off_group_chips_sets_the_last_error(dev0):
    assert aclrtGetLastError(0) == 0
    assert aclrtCreateGroupInfo() is None
    assert "rtGetGroupCount execution failed, the feature is not supported." in aclGetRecentErrMsg()
    assert aclrtGetLastError(0) == 207000


def _export(disable_pid_check: bool = False) -> tuple[int, str]:
    p = Ref()
    assert aclrtMalloc(p, 64, 0) == 0
    key = Ref()
    assert aclrtIpcMemGetExportKey(p.value, 64, key, 65, 1 if disable_pid_check else 0) == 0
    return p.value, key.value


def test_ipc_import_failures_carry_the_acl_call_error(dev0):
    p, key = _export()
    assert aclrtIpcMemImportByKey(Ref(), key, 2) == 107000
    assert aclGetRecentErrMsg().endswith(
        f"{INDENT}The argument is invalid. Reason: rtsIpcMemImportByKey execution failed.\n"
        f"{INDENT}call rtsIpcMemImportByKey failed, runtime result = 107000{ACL_CALL}\n"
    )
    assert aclrtIpcMemImportByKey(Ref(), key, 0) == 107000  # not on the whitelist (the emulator's text)
    assert aclGetRecentErrMsg().endswith(
        f"{INDENT}call rtsIpcMemImportByKey failed, runtime result = 107000{ACL_CALL}\n"
    )
    assert aclrtIpcMemClose(key) == 0
    assert aclrtFree(p) == 0


def test_ipc_set_attr_failures_carry_the_acl_call_error(dev0):
    p, key = _export()
    assert aclrtIpcMemSetAttr(key, 0, 4) == 107000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Setting the attribute for IPC-based memory sharing failed because value 4 for "
        "parameter attr is invalid. Expected value: [0, 4).\n"
        + INDENT
        + "Solution: 1. Check the input parameter range of the function. 2. Check the function invocation "
        "relationship.\n"
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtIpcSetMemoryAttr execution failed.\n"
        + f"{INDENT}call rtIpcSetMemoryAttr failed, runtime result = 107000.{ACL_CALL}\n"
    )
    assert aclrtIpcMemClose(key) == 0
    assert aclrtFree(p) == 0


def test_ipc_set_import_pid_needs_a_context_and_names_rt_set_ipc_mem_pid(dev0):
    p, key = _export()
    assert aclrtIpcMemSetImportPid(key, [os.getpid()], 0) == 107000
    assert "Reason: rtSetIpcMemPid execution failed.\n" in aclGetRecentErrMsg()
    code = _in_a_thread_without_context(lambda: aclrtIpcMemSetImportPid(key, [os.getpid()], 1))
    assert code == 107002
    assert aclrtIpcMemSetImportPid(key, [os.getpid()], 1) == 0
    assert aclrtIpcMemClose(key) == 0
    assert aclrtFree(p) == 0


def test_ascend950_keeps_an_export_whose_attribute_was_set_through_the_first_close(soc):
    """ApiImplDavid::IpcSetMemoryAttr puts the key in the process's name map without an import;
    IpcCloseMemoryByName then only drops that entry ("just set attr but not open") and keeps
    the export; the next close destroys it. Other chips: the first close destroys it."""
    for chip, closes_to_destroy in (("Ascend950", 2), ("Ascend910B", 1)):
        soc(chip)
        assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
        p, key = Ref(), Ref()
        assert aclrtMalloc(p, 256, 0) == 0
        assert aclrtIpcMemGetExportKey(p.value, 256, key, 65, 0) == 0
        assert aclrtIpcMemSetImportPid(key.value, [os.getpid()], 1) == 0
        assert aclrtIpcMemSetAttr(key.value, 0, 1) == 0
        for _ in range(closes_to_destroy - 1):
            assert aclrtIpcMemClose(key.value) == 0
            imported = Ref()
            assert aclrtIpcMemImportByKey(imported, key.value, 0) == 0  # still exported
            assert aclrtIpcMemClose(key.value) == 0  # closes that import
        assert aclrtIpcMemClose(key.value) == 0  # destroys the export
        assert aclrtIpcMemImportByKey(Ref(), key.value, 0) != 0
        aclGetRecentErrMsg()
        assert aclrtFree(p.value) == 0
        assert aclrtResetDevice(0) == 0 and aclFinalize() == 0
