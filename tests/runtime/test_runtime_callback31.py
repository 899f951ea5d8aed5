"""Ascend950's aclrtSubscribeReport creates a notify for the subscription first
(ApiImplDavid::SubscribeReport, api_impl_david.cc:1461-1479): ApiImpl::NotifyCreate on the stream's
device (api_impl.cc:4790-4820) needs a current context (CurrentContext(true, deviceId): the aclInit
default device only when it is the stream's) and one of the device's notifies (EE1023, 207009).
The subscription owns the notify until aclrtUnSubscribeReport (CbSubscribe::Delete, subscribe.cc:
206-210) or the stream's teardown (stream.cc:1544, stream_david.cc:58-60) deletes it; the teardown
also frees the thread (every chip)."""

from __future__ import annotations

import threading

import pytest
from rt_streams import limit_notifies, new_notify
from rt_texts import FUNC_ERROR_REASON, INDENT, TRACEBACK, no_context, no_context_unbound

from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclInit
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A

NO_NOTIFY = 207009  # ACL_ERROR_RT_NO_NOTIFY_RESOURCE
CONTEXT_NULL = 107002  # ACL_ERROR_RT_CONTEXT_NULL
STREAM_SUBSCRIBE = 107011  # ACL_ERROR_RT_STREAM_SUBSCRIBE
THREAD_SUBSCRIBE = 107012  # ACL_ERROR_RT_THREAD_SUBSCRIBE
ME = threading.get_ident()


def _stream() -> object:
    st = Ref()
    assert A.aclrtCreateStream(st) == 0
    return st.value


def _in_a_thread(call) -> tuple[int, str]:
    """``call()`` in a new thread (no context bound): its code and recent error message."""
    got: list[tuple[int, str]] = []

    def run() -> None:
        rc = call()
        got.append((rc, aclGetRecentErrMsg() if rc else ""))

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return got[0]


def test_ascend950_subscription_holds_a_notify_until_it_is_cancelled(chip):
    chip("Ascend950")
    limit_notifies(2)
    s = _stream()
    mine = new_notify()
    assert A.aclrtSubscribeReport(ME, s) == 0
    assert A.aclrtCreateNotify(Ref(), 0) == NO_NOTIFY  # the subscription's notify is the second
    assert "Alloc Notify resource failed. Reason: Too many Notify objects are created." in aclGetRecentErrMsg()
    assert A.aclrtUnSubscribeReport(ME, s) == 0  # deletes it
    other = new_notify()
    for n in (mine, other):
        assert A.aclrtDestroyNotify(n) == 0
    assert A.aclrtDestroyStream(s) == 0


def test_ascend950_subscribe_fails_without_a_free_notify(chip):
    chip("Ascend950")
    limit_notifies(2)
    s = _stream()
    mine = new_notify()
    assert A.aclrtSubscribeReport(ME, s) == 0  # the device's last notify
    # NotifyCreate comes before Runtime::SubscribeReport's checks: not "already exists" (107011)
    for tid in (ME, ME + 1):
        assert A.aclrtSubscribeReport(tid, s) == NO_NOTIFY
        assert aclGetRecentErrMsg() == (
            "Resource_Error(EE1023): Alloc Notify resource failed. Reason: Too many Notify objects are created.\n"
            + f'{INDENT}Solution: For details about the troubleshooting method, search for the keyword "EE1023" on '
            "https://www.hiascend.com/document/.\n"
            + TRACEBACK
            + f"{INDENT}Notify create failed, setup failed, drv devId=0, retCode=0x702001b"
            "[FUNC:NotifyCreate][FILE:api_impl.cc][LINE:4816]\n"
            + f"{INDENT}rtSubscribeReport execution failed, reason=driver error:no notify resource"
            f"{FUNC_ERROR_REASON}\n"
        )
    assert A.aclrtUnSubscribeReport(ME, s) == 0
    assert A.aclrtDestroyNotify(mine) == 0
    assert A.aclrtDestroyStream(s) == 0


def test_ascend950_refused_subscription_gives_its_notify_back(chip):
    chip("Ascend950")
    limit_notifies(3)
    s = _stream()
    assert A.aclrtSubscribeReport(ME, s) == 0
    assert A.aclrtSubscribeReport(ME + 1, s) == STREAM_SUBSCRIBE  # its notify is destroyed again
    aclGetRecentErrMsg()
    made = [new_notify(), new_notify()]  # the subscription's and these two: the limit
    assert A.aclrtCreateNotify(Ref(), 0) == NO_NOTIFY
    aclGetRecentErrMsg()
    for n in made:
        assert A.aclrtDestroyNotify(n) == 0
    assert A.aclrtUnSubscribeReport(ME, s) == 0
    assert A.aclrtDestroyStream(s) == 0


def test_ascend950_subscription_notify_is_of_the_streams_device(chip):
    chip("Ascend950")
    limit_notifies(1)
    assert A.aclrtSetDevice(1) == 0
    s1 = _stream()
    assert A.aclrtSetDevice(0) == 0
    assert A.aclrtSubscribeReport(ME, s1) == 0  # device 1's stream, device 0 current
    on0 = new_notify()  # device 0 still has its one
    assert A.aclrtSetDevice(1) == 0
    assert A.aclrtCreateNotify(Ref(), 0) == NO_NOTIFY
    aclGetRecentErrMsg()
    assert A.aclrtUnSubscribeReport(ME, s1) == 0
    assert A.aclrtDestroyStream(s1) == 0
    assert A.aclrtSetDevice(0) == 0 and A.aclrtDestroyNotify(on0) == 0


def test_ascend950_stream_teardown_releases_the_subscription_notify(chip):
    chip("Ascend950")
    limit_notifies(1)
    s = _stream()
    assert A.aclrtSubscribeReport(ME, s) == 0
    assert A.aclrtCreateNotify(Ref(), 0) == NO_NOTIFY
    aclGetRecentErrMsg()
    assert A.aclrtDestroyStream(s) == 0  # the teardown unsubscribes: the notify goes
    n = new_notify()
    assert A.aclrtDestroyNotify(n) == 0
    # a device's release tears its streams down too (here its default stream)
    assert A.aclrtSetDevice(1) == 0
    assert A.aclrtSubscribeReport(ME, None) == 0
    assert A.aclrtResetDevice(1) == 0
    assert A.aclrtSetDevice(1) == 0
    n = new_notify()
    assert A.aclrtDestroyNotify(n) == 0
    assert A.aclrtSetDevice(0) == 0


def test_ascend950_subscribing_a_given_stream_needs_a_context(chip):
    chip("Ascend950")
    s = _stream()
    rc, msg = _in_a_thread(lambda: A.aclrtSubscribeReport(1234, s))
    assert rc == CONTEXT_NULL
    assert msg == no_context_unbound("rtSubscribeReport")
    assert A.aclrtSubscribeReport(1234, s) == 0  # with the context current
    assert A.aclrtUnSubscribeReport(1234, s) == 0
    assert A.aclrtDestroyStream(s) == 0


def test_ascend950_default_device_counts_only_for_its_own_streams(soc, tmp_path):
    """NotifyCreate's CurrentContext(true, deviceId): the aclInit default device is made current
    for a stream of that device only (runtime.cc:5397-5428)."""
    soc("Ascend950")
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": "0"}}')
    assert aclInit(str(cfg)) == 0
    assert A.aclrtSetDevice(0) == 0
    s0 = _stream()
    assert A.aclrtSetDevice(1) == 0
    s1 = _stream()
    assert _in_a_thread(lambda: A.aclrtSubscribeReport(1, s0))[0] == 0
    rc, msg = _in_a_thread(lambda: A.aclrtSubscribeReport(2, s1))
    assert rc == CONTEXT_NULL
    assert msg == no_context("rtSubscribeReport")  # aclGetRecentErrMsg's rtGetDevMsg binds device 0
    assert A.aclrtDestroyStream(s1) == 0 and A.aclrtResetDevice(1) == 0
    assert A.aclrtSetDevice(0) == 0
    assert A.aclrtUnSubscribeReport(1, s0) == 0
    assert A.aclrtDestroyStream(s0) == 0 and A.aclrtResetDevice(0) == 0
    assert aclFinalize() == 0


@pytest.mark.parametrize("family", ["Ascend910B", "Ascend950", "Ascend310P"])
def test_a_destroyed_stream_no_longer_binds_its_thread(chip, family):
    """The teardown's UnSubscribeReport(Stream*) deletes the subscription: the thread may take a
    stream of another device, and aclrtProcessReport finds it bound to nothing (107012)."""
    chip(family)
    s0 = _stream()
    assert A.aclrtSubscribeReport(ME, s0) == 0
    assert A.aclrtDestroyStream(s0) == 0
    assert A.aclrtProcessReport(10) == THREAD_SUBSCRIBE  # not 507012 after waiting
    assert A.aclrtSetDevice(1) == 0
    s1 = _stream()
    assert A.aclrtSubscribeReport(ME, s1) == 0  # not 107012: no stream of device 0 is held
    assert A.aclrtUnSubscribeReport(ME, s1) == 0
    assert A.aclrtDestroyStream(s1) == 0
    assert A.aclrtSetDevice(0) == 0


@pytest.mark.parametrize("family", ["Ascend910B", "Ascend950"])
def test_create_notify_at_the_limit_gives_notify_create_s_three_reports(chip, family):
    """aclrtCreateNotify (rtsNotifyCreate) at the device's limit: the EE1023, ApiImpl::NotifyCreate's
    inner report and the wrapper's reason, as the subscription's notify above."""
    chip(family)
    limit_notifies(1)
    mine = new_notify()
    assert A.aclrtCreateNotify(Ref(), 0) == NO_NOTIFY
    msg = aclGetRecentErrMsg()
    assert msg.startswith("Resource_Error(EE1023): Alloc Notify resource failed.")
    assert msg.endswith(
        f"{INDENT}Notify create failed, setup failed, drv devId=0, retCode=0x702001b"
        "[FUNC:NotifyCreate][FILE:api_impl.cc][LINE:4816]\n"
        + f"{INDENT}rtsNotifyCreate execution failed, reason=driver error:no notify resource{FUNC_ERROR_REASON}\n"
    )
    assert A.aclrtDestroyNotify(mine) == 0
