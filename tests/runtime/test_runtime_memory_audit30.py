"""Fourth audit round (memory leftovers, init callbacks): rtFreeWithDevSync / rtFreeHostWithDevSync
synchronize the current context first and free nothing when that fails (api_c_memory.cc:174-193),
and a callback registered after aclInit gets the configuration aclInit read (acl.cpp
SetConfigPathStr, init_callback_manager.cpp:76-78)."""

from __future__ import annotations

import threading

from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclInit
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_init_callback as IC


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
