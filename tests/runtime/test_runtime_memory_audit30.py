"""Fourth audit round (memory leftovers, init callbacks): rtFreeWithDevSync / rtFreeHostWithDevSync
synchronize the current context first and free nothing when that fails (api_c_memory.cc:174-193),
and a callback registered after aclInit gets the configuration aclInit read (acl.cpp
SetConfigPathStr, init_callback_manager.cpp:76-78)."""

from __future__ import annotations

import threading

from rt_texts import (
    FUNC_ERROR_REASON,
    INDENT,
    NO_CONTEXT_HEADLINE,
    POINTER_SOLUTION,
    RANGE_SOLUTION,
    TRACEBACK,
    bad_handle,
)
from rt_threads import in_thread

from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclInit
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_init_callback as IC
from aclnn_py.runtime.device import RT


def test_free_with_dev_sync_frees_nothing_when_the_device_synchronize_fails(dev0):
    dev, host = Ref(), Ref()
    assert A.aclrtMalloc(dev, 64, 0) == 0 and A.aclrtMallocHost(host, 64) == 0
    codes: list[int] = []

    def without_context() -> None:
        codes.append(A.aclrtFreeWithDevSync(dev.value))
        codes.append(A.aclrtFreeHostWithDevSync(host.value))
        aclGetRecentErrMsg()

    t = threading.Thread(target=without_context)
    t.start()
    t.join()
    assert codes == [107002, 107002]  # rtDeviceSynchronize: no current context
    assert A.aclrtFreeWithDevSync(dev.value) == 0 and A.aclrtFreeHostWithDevSync(host.value) == 0  # still there


def test_an_init_callback_registered_after_acl_init_gets_the_configuration(tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"err_msg_mode":"0"}')
    seen: list[tuple[str, int]] = []

    def cb(text: str, size: int, data: object) -> int:
        seen.append((text, size))
        return 0

    assert aclInit(str(cfg)) == 0
    try:
        assert IC.aclInitCallbackRegister(IC.ACL_REG_TYPE_OTHER, cb, None) == 0
        assert seen == [('{"err_msg_mode":"0"}', 20)]
        assert IC.aclInitCallbackUnRegister(IC.ACL_REG_TYPE_OTHER, cb) == 0
    finally:
        assert aclFinalize() == 0


def test_managed_allocation_refusals_have_no_wrapper_report_and_p2p_map_needs_a_context(dev0):
    """rtMemAllocManaged returns its code without FuncErrorReason; aclrtMemP2PMap's
    rtMemPrefetchToDevice needs a current context."""
    ptr = Ref()
    assert A.aclrtMemAllocManaged(ptr, 0, 1) == 107000
    msg = aclGetRecentErrMsg()
    assert "Unified virtual memory (UVM) allocation failed because value 0" in msg and "EE1001" not in msg
    assert "execution failed" not in msg
    p = Ref()
    assert A.aclrtMalloc(p, 64, 0) == 0
    codes: list[int] = []
    t = threading.Thread(target=lambda: codes.append(A.aclrtMemP2PMap(p.value, 64, 0, 0)))
    t.start()
    t.join()
    assert codes == [107002]
    aclGetRecentErrMsg()
    assert A.aclrtFree(p.value) == 0


# -- stop 30 (mem): device id, implicit default context, the batch prefetch's order ------------------


def _default_device_cfg(tmp_path, device: int = 0) -> str:
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": "' + str(device) + '"}}')
    return str(cfg)


def test_mem_usage_info_of_a_missing_device_is_the_decorator_s_device_check(dev0):
    """ApiErrorDecorator::GetMemUsageInfo: ChgUserDevIdToDeviceId, then CheckDeviceIdIsValid's
    EE1003 (its int32_t devId), the decorator's inner report (api_error.cc:7510), the wrapper's."""
    infos: list[object] = []
    n = Ref()
    count = RT.device_count
    for dev_id, drv in ((count, count), (-1, 2**32 - 1)):
        assert A.aclrtGetMemUsageInfo(dev_id, infos, 4, n) == 107001
        assert aclGetRecentErrMsg() == (
            "Invalid_Argument(EE1003): Verifying the device ID validity failed because value "
            f"{dev_id} for parameter devId is invalid. Expected value: [0, {count}).\n"
            + RANGE_SOLUTION
            + TRACEBACK
            + f"{INDENT}Device ID is invalid, drv devId={drv}, retCode=0x7010003[FUNC:GetMemUsageInfo]"
            "[FILE:api_error.cc][LINE:7510]\n"
            f"{INDENT}rtGetMemUsageInfo execution failed, reason=device id error{FUNC_ERROR_REASON}\n"
        )
        assert n.value == 0 and infos == []


def test_mem_usage_info_sets_the_default_device_only_for_its_own_id(tmp_path):
    """ApiImpl::GetMemUsageInfo's CurrentContext(true, deviceId): the aclInit default device is
    made current only when deviceId is that device (runtime.cc:5397-5428)."""
    assert aclInit(_default_device_cfg(tmp_path)) == 0
    try:
        code, msg = in_thread(lambda: A.aclrtGetMemUsageInfo(1, [], 4, Ref()))
        assert code == 107002
        assert "rtGetMemUsageInfo execution failed, the context is a null pointer." in msg
        infos: list[object] = []
        code, _ = in_thread(lambda: A.aclrtGetMemUsageInfo(0, infos, 4, Ref()))
        assert code == 0 and infos[0].name == "APP"
    finally:
        assert aclFinalize() == 0


def test_check_mem_type_never_sets_the_default_device(tmp_path):
    """ApiImpl::CheckMemType takes Runtime::CurrentContext() (no arguments): a thread without a
    context gets 107002 even when aclInit configured a default device."""
    assert aclInit(_default_device_cfg(tmp_path)) == 0
    try:
        result = Ref()
        code, msg = in_thread(lambda: A.aclrtCheckMemType([0x1000], 1, 0x2, result, 0))
        assert code == 107002 and result.value == 0
        assert msg.startswith(NO_CONTEXT_HEADLINE + TRACEBACK)
        assert f"{INDENT}The argument is invalid. Reason: rtsCheckMemType execution failed, the context is a null " in (
            msg
        )
    finally:
        assert aclFinalize() == 0


_BATCH = "Managing the batch prefetching of the unified virtual memory (UVM)"
_MB2 = 2 * 1024 * 1024
_DEVICE_LOC = (1, 0)


def test_batch_prefetch_checks_the_stream_handle_before_the_decorator(dev0):
    """rtMemManagedPrefetchBatchAsync's RT_VALIDATE_AND_UNWRAP_OBJECT (api_c_uvm.cc:94) comes
    before ApiErrorDecorator's checks (api_error_uvm.cc:125-)."""
    st = Ref()
    assert A.aclrtCreateStream(st) == 0 and A.aclrtDestroyStream(st.value) == 0
    code = A.aclrtMemManagedPrefetchBatchAsync([0x1000], [_MB2], 1, [_DEVICE_LOC], [1], 1, 0, st.value)
    assert code == 107017
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtMemManagedPrefetchBatchAsync")


def test_batch_prefetch_null_stream_without_a_context_is_get_cur_stream_s_null(tmp_path):
    """Runtime::GetCurStream (runtime.cc:6017-6025) takes Runtime::CurrentContext(): no default
    device is set; EE1018, the decorator's EE1004 for curStm, RT_ERROR_STREAM_NULL (507000)."""
    assert aclInit(_default_device_cfg(tmp_path)) == 0
    try:
        ptr = Ref()
        assert A.aclrtMemAllocManaged(ptr, _MB2, 1) == 0  # the default device, current here
        code, msg = in_thread(
            lambda: A.aclrtMemManagedPrefetchBatchAsync([ptr.value], [_MB2], 1, [_DEVICE_LOC], [0], 1, 0, None)
        )
        assert code == 507000
        assert msg.startswith(
            NO_CONTEXT_HEADLINE
            + TRACEBACK
            + f"{INDENT}{_BATCH} failed because curStm cannot be a NULL pointer.\n"
            + f"{INDENT}rtMemManagedPrefetchBatchAsync execution failed, reason=stream pointer null"
            + FUNC_ERROR_REASON
            + "\n"
        )
        assert A.aclrtFree(ptr.value) == 0
    finally:
        assert aclFinalize() == 0


def test_batch_prefetch_launch_needs_the_stream_s_context(dev0):
    """ApiImpl::MemManagedPrefetchBatchAsync launches a host function: LaunchHostFunc's context
    and stream checks, then its inner report (api_impl_uvm.cc:152), then the wrapper's."""
    ptr, st = Ref(), Ref()
    assert A.aclrtMemAllocManaged(ptr, _MB2, 1) == 0 and A.aclrtCreateStream(st) == 0
    args = ([ptr.value], [_MB2], 1, [_DEVICE_LOC], [0], 1, 0, st.value)
    code, msg = in_thread(lambda: A.aclrtMemManagedPrefetchBatchAsync(*args))
    assert code == 107002
    assert msg.startswith(
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}LaunchHostFunc fails with error code 0x7070001[FUNC:MemManagedPrefetchBatchAsync]"
        "[FILE:api_impl_uvm.cc][LINE:152]\n"
        f"{INDENT}The argument is invalid. Reason: rtMemManagedPrefetchBatchAsync execution failed, the context is "
        "a null pointer.\n"
    )
    assert A.aclrtMemManagedPrefetchBatchAsync(*args) == 0
    assert A.aclrtSynchronizeStream(st.value) == 0
    bad = ([ptr.value], [_MB2], 1, [(9, 0)], [0], 1, 0, st.value)
    assert A.aclrtMemManagedPrefetchBatchAsync(*bad) == 107000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1001): The argument is invalid. Reason: rtMemManagedPrefetchBatchAsync execution "
        "failed.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}ConvertUvmLocationStruct failed, retCode=0x7110001[FUNC:MemManagedPrefetchBatchAsync]"
        "[FILE:api_impl_uvm.cc][LINE:138]\n"
        f"{INDENT}The argument is invalid. Reason: rtMemManagedPrefetchBatchAsync execution failed.\n"
    )
    assert A.aclrtDestroyStream(st.value) == 0 and A.aclrtFree(ptr.value) == 0


def test_batch_prefetch_null_stream_off_the_control_sq_chips_is_refused_before_the_driver(soc):
    """Without RT_FEATURE_DEVICE_CTRL_SQ, GetCurStream leaves NULL NULL: the decorator's EE1004
    (507000) comes before ApiImpl's missing halMemManagedPrefetchBatch (207000, silent)."""
    soc("Ascend910")
    assert aclInit(None) == 0 and A.aclrtSetDevice(0) == 0
    try:
        args = ([0x1000], [_MB2], 1, [_DEVICE_LOC], [0], 1, 0)
        assert A.aclrtMemManagedPrefetchBatchAsync(*args, None) == 507000
        assert aclGetRecentErrMsg() == (
            f"Invalid_Argument_Null_Pointer(EE1004): {_BATCH} failed because curStm cannot be a NULL pointer.\n"
            + POINTER_SOLUTION
            + TRACEBACK
            + f"{INDENT}rtMemManagedPrefetchBatchAsync execution failed, reason=stream pointer null"
            + FUNC_ERROR_REASON
            + "\n"
        )
        st = Ref()
        assert A.aclrtCreateStream(st) == 0
        assert A.aclrtMemManagedPrefetchBatchAsync(*args, st.value) == 207000 and aclGetRecentErrMsg() is None
        assert A.aclrtDestroyStream(st.value) == 0
    finally:
        A.aclrtResetDevice(0)
        assert aclFinalize() == 0


# -- the single-range prefetch: the same GetCurStream + LaunchHostFunc pattern ---------------------

_SINGLE = "Managing the prefetching of the unified virtual memory (UVM)"


def test_prefetch_null_stream_without_a_context_is_get_cur_stream_s_null(tmp_path):
    """ApiErrorDecorator::MemManagedPrefetchAsync's GetCurStream (api_error_uvm.cc:104-106) takes
    Runtime::CurrentContext(): the aclInit default device is not made current; EE1018, the
    decorator's EE1004 for curStm, RT_ERROR_STREAM_NULL (507000)."""
    assert aclInit(_default_device_cfg(tmp_path)) == 0
    try:
        ptr = Ref()
        assert A.aclrtMemAllocManaged(ptr, _MB2, 1) == 0  # the default device, current here
        code, msg = in_thread(lambda: A.aclrtMemManagedPrefetchAsync(ptr.value, _MB2, _DEVICE_LOC, 0, None))
        assert code == 507000
        assert msg.startswith(
            NO_CONTEXT_HEADLINE
            + TRACEBACK
            + f"{INDENT}{_SINGLE} failed because curStm cannot be a NULL pointer.\n"
            + f"{INDENT}rtMemManagedPrefetchAsync execution failed, reason=stream pointer null"
            + FUNC_ERROR_REASON
            + "\n"
        )
        # a stream given: ApiImpl's LaunchHostFunc takes CurrentContext(), which sets the default device
        st = Ref()
        assert A.aclrtCreateStream(st) == 0
        code, _ = in_thread(lambda: A.aclrtMemManagedPrefetchAsync(ptr.value, _MB2, _DEVICE_LOC, 0, st.value))
        assert code == 0
        assert A.aclrtSynchronizeStream(st.value) == 0
        assert A.aclrtDestroyStream(st.value) == 0 and A.aclrtFree(ptr.value) == 0
    finally:
        assert aclFinalize() == 0


def test_prefetch_launch_needs_a_context_and_converts_the_location(dev0):
    """ApiImpl::MemManagedPrefetchAsync: ConvertUvmLocationStruct's refusal (api_impl_uvm.cc:78),
    then LaunchHostFunc's context and stream checks with its inner report (api_impl_uvm.cc:87)."""
    ptr, st = Ref(), Ref()
    assert A.aclrtMemAllocManaged(ptr, _MB2, 1) == 0 and A.aclrtCreateStream(st) == 0
    code, msg = in_thread(lambda: A.aclrtMemManagedPrefetchAsync(ptr.value, _MB2, _DEVICE_LOC, 0, st.value))
    assert code == 107002
    assert msg.startswith(
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}LaunchHostFunc fails with error code 0x7070001[FUNC:MemManagedPrefetchAsync]"
        "[FILE:api_impl_uvm.cc][LINE:87]\n"
        f"{INDENT}The argument is invalid. Reason: rtMemManagedPrefetchAsync execution failed, the context is "
        "a null pointer.\n"
    )
    assert A.aclrtMemManagedPrefetchAsync(ptr.value, _MB2, (9, 0), 0, st.value) == 107000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1001): The argument is invalid. Reason: rtMemManagedPrefetchAsync execution failed.\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}ConvertUvmLocationStruct failed, retCode=0x7110001[FUNC:MemManagedPrefetchAsync]"
        "[FILE:api_impl_uvm.cc][LINE:78]\n"
        f"{INDENT}The argument is invalid. Reason: rtMemManagedPrefetchAsync execution failed.\n"
    )
    assert A.aclrtSetDevice(1) == 0  # a stream of another context: EE1010, the inner report, the wrapper's
    try:
        assert A.aclrtMemManagedPrefetchAsync(ptr.value, _MB2, _DEVICE_LOC, 0, st.value) == 107003
        msg = aclGetRecentErrMsg()
        assert msg.startswith(
            "Execution_Error_Invalid_Context(EE1010): Adding a host callback function to the stream task queue execution failed "
            "because stream does not belong to the current context."
        )
        assert (
            f"{INDENT}LaunchHostFunc fails with error code 0x7030003[FUNC:MemManagedPrefetchAsync]"
            "[FILE:api_impl_uvm.cc][LINE:87]\n"
            f"{INDENT}rtMemManagedPrefetchAsync execution failed, reason=stream not in current context"
        ) in msg
    finally:
        assert A.aclrtResetDevice(1) == 0 and A.aclrtSetDevice(0) == 0
    assert A.aclrtMemManagedPrefetchAsync(ptr.value, _MB2, _DEVICE_LOC, 0, st.value) == 0
    assert A.aclrtSynchronizeStream(st.value) == 0
    assert A.aclrtDestroyStream(st.value) == 0 and A.aclrtFree(ptr.value) == 0


def test_prefetch_null_stream_off_the_control_sq_chips_is_refused_before_the_driver(soc):
    """Without RT_FEATURE_DEVICE_CTRL_SQ a NULL stream stays NULL: the decorator's EE1004 (507000)
    comes before ApiImpl's missing halMemManagedPrefetch (207000, silent)."""
    soc("Ascend910")
    assert aclInit(None) == 0 and A.aclrtSetDevice(0) == 0
    try:
        assert A.aclrtMemManagedPrefetchAsync(0x1000, _MB2, _DEVICE_LOC, 0, None) == 507000
        assert aclGetRecentErrMsg() == (
            f"Invalid_Argument_Null_Pointer(EE1004): {_SINGLE} failed because curStm cannot be a NULL pointer.\n"
            + POINTER_SOLUTION
            + TRACEBACK
            + f"{INDENT}rtMemManagedPrefetchAsync execution failed, reason=stream pointer null"
            + FUNC_ERROR_REASON
            + "\n"
        )
        st = Ref()
        assert A.aclrtCreateStream(st) == 0
        assert A.aclrtMemManagedPrefetchAsync(0x1000, _MB2, _DEVICE_LOC, 0, st.value) == 207000
        assert aclGetRecentErrMsg() is None
        assert A.aclrtDestroyStream(st.value) == 0
    finally:
        A.aclrtResetDevice(0)
        assert aclFinalize() == 0
