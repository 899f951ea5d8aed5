"""Audit of the host-callback calls against CANN's runtime: Ascend950's ApiImplDavid::CallbackLaunch
reports an unbound stream as an inner error (api_impl_david.cc:1594), the error decorator refuses
aclrtUnSubscribeReport on a stream aclrtLaunchHostFunc used (api_error.cc:4733-4741, EE1016), the
rt wrappers add their FuncErrorReason after those EE1016 refusals (api_c.cc, ERROR_RETURN_WITH_EXT_ERRCODE),
and a thread bound to a stream of one device cannot be bound to a stream of another
(CbSubscribe::CheckForInsert, subscribe.cc:83-90, 107012)."""

from __future__ import annotations

import threading

import pytest
from rt_texts import FUNC_ERROR_REASON

from aclnn_py import aclGetRecentErrMsg
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A

NO_CB_REG = 107015  # ACL_ERROR_RT_STREAM_NO_CB_REG
STREAM_SUBSCRIBE = 107011  # ACL_ERROR_RT_STREAM_SUBSCRIBE
THREAD_SUBSCRIBE = 107012  # ACL_ERROR_RT_THREAD_SUBSCRIBE


def _stream() -> object:
    st = Ref()
    assert A.aclrtCreateStream(st) == 0
    return st.value


@pytest.mark.parametrize("block", [0, 1])
def test_ascend950_reports_an_unbound_stream_as_an_inner_error(chip, block):
    chip("Ascend950")
    s = _stream()
    assert A.aclrtLaunchCallback(print, None, block, s) == NO_CB_REG
    msg = aclGetRecentErrMsg()
    assert "EE1018" not in msg and "is not bound to any thread" not in msg
    assert (
        "The stream used by this user's callback function is not registered to any thread, retCode=0x703000b"
        "[FUNC:CallbackLaunch][FILE:api_impl_david.cc][LINE:1594]" in msg
    )
    assert f"rtCallbackLaunch execution failed, reason=stream not registered{FUNC_ERROR_REASON}" in msg
    assert msg.index("not registered to any thread") < msg.index("rtCallbackLaunch execution failed")
    assert A.aclrtDestroyStream(s) == 0


def test_other_chips_keep_the_ee1018_of_an_unbound_stream(chip):
    chip("Ascend910B")
    s = _stream()
    assert A.aclrtLaunchCallback(print, None, 0, s) == NO_CB_REG
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument_API_Call_Sequence(EE1018): Delivering an on-host callback function task in a stream "
        f"failed. Reason: Stream (stream_id={s.ident}) is not bound to any thread."
    )
    assert "api_impl_david.cc" not in msg
    assert A.aclrtDestroyStream(s) == 0


def test_unsubscribing_a_host_function_stream_is_refused_first(chip):
    chip("Ascend910B")
    me = threading.get_ident()
    s = _stream()
    assert A.aclrtLaunchHostFunc(s, lambda arg: None, None) == 0
    assert A.aclrtSynchronizeStream(s) == 0
    assert A.aclrtUnSubscribeReport(me, s) == STREAM_SUBSCRIBE
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Not_Supported(EE1016): Cancelling thread registration failed. Reason: The stream "
        f"(stream_id={s.ident}) is in the host callback process and cannot call rtUnSubscribeReport."
    )
    assert "Stream does not exist in stream map" not in msg  # the decorator refuses before the runtime looks
    assert f"rtUnSubscribeReport execution failed, reason=subscribe stream error{FUNC_ERROR_REASON}" in msg
    assert A.aclrtDestroyStream(s) == 0


def test_the_ee1016_refusals_carry_the_rt_wrappers_reason(chip):
    chip("Ascend910B")
    me = threading.get_ident()
    s = _stream()
    assert A.aclrtLaunchHostFunc(s, lambda arg: None, None) == 0
    assert A.aclrtSynchronizeStream(s) == 0
    for rt_fn, call in (
        ("rtSubscribeReport", lambda: A.aclrtSubscribeReport(me, s)),
        ("rtCallbackLaunch", lambda: A.aclrtLaunchCallback(print, None, 0, s)),
    ):
        assert call() == STREAM_SUBSCRIBE, rt_fn
        msg = aclGetRecentErrMsg()
        assert msg.startswith("Not_Supported(EE1016): "), rt_fn
        assert f"cannot call {rt_fn}." in msg
        assert f"{rt_fn} execution failed, reason=subscribe stream error{FUNC_ERROR_REASON}" in msg
    assert A.aclrtDestroyStream(s) == 0


def test_a_thread_bound_on_one_device_cannot_be_bound_on_another(chip):
    chip("Ascend910B")
    me = threading.get_ident()
    s0 = _stream()
    assert A.aclrtSetDevice(1) == 0
    s1 = _stream()
    assert A.aclrtSubscribeReport(me, s0) == 0  # device 0's stream while device 1 is current: no check
    assert A.aclrtSubscribeReport(me, s1) == THREAD_SUBSCRIBE
    msg = aclGetRecentErrMsg()
    assert (
        f"Cannot find callback subscription by thread key, thread_id={me}, stream_id={s1.ident}, device_id=1, "
        "ts_id=0.[FUNC:CheckForInsert][FILE:subscribe.cc][LINE:84]" in msg
    )
    assert (
        f"Subscribe report failed, streamId={s1.ident}, threadId={me}, retCode=0x7160004."
        "[FUNC:SubscribeReport][FILE:runtime.cc][LINE:4395]" in msg
    )
    assert f"rtSubscribeReport execution failed, reason=subscribe thread error{FUNC_ERROR_REASON}" in msg
    assert A.aclrtLaunchCallback(print, None, 0, s1) == NO_CB_REG  # nothing was bound
    aclGetRecentErrMsg()
    # the stream map is looked at first: a stream another thread holds is 107011
    assert A.aclrtSubscribeReport(me + 1, s1) == 0
    assert A.aclrtSubscribeReport(me, s1) == STREAM_SUBSCRIBE
    assert "Stream already exists in stream map" in aclGetRecentErrMsg()
    # another stream of device 0 joins the thread's subscription
    assert A.aclrtSetDevice(0) == 0
    s2 = _stream()
    assert A.aclrtSubscribeReport(me, s2) == 0
    # once the thread holds no stream of device 0, it may take one of device 1
    assert A.aclrtUnSubscribeReport(me, s0) == 0 and A.aclrtUnSubscribeReport(me, s2) == 0
    assert A.aclrtUnSubscribeReport(me + 1, s1) == 0
    assert A.aclrtSubscribeReport(me, s1) == 0
    assert A.aclrtUnSubscribeReport(me, s1) == 0
    assert A.aclrtDestroyStream(s0) == 0 and A.aclrtDestroyStream(s2) == 0
    assert A.aclrtSetDevice(1) == 0 and A.aclrtDestroyStream(s1) == 0


@pytest.mark.parametrize(("family", "expected"), [("Ascend910B", 107002), ("Ascend910_93", 107002), ("Ascend310P", 0)])
def test_subscribing_a_given_stream_needs_a_context_where_an_event_is_made_for_it(chip, family, expected):
    """ApiImpl::SubscribeReport on the isStars chips creates an event first (EventCreate: the
    current context, 107002 EE1018) even for a stream given; the other ApiImpl chips do not."""
    chip(family)
    st = _stream()
    got: list[tuple[int, str]] = []

    def no_context_thread() -> None:
        rc = A.aclrtSubscribeReport(1234, st)
        got.append((rc, aclGetRecentErrMsg() if rc else ""))
        if rc == 0:
            assert A.aclrtUnSubscribeReport(1234, st) == 0

    t = threading.Thread(target=no_context_thread)
    t.start()
    t.join()
    rc, msg = got[0]
    assert rc == expected
    if expected:
        assert msg.startswith("Invalid_Argument_API_Call_Sequence(EE1018): Context validation failed.")
        assert "rtSubscribeReport execution failed, the context is a null pointer." in msg
    assert A.aclrtSubscribeReport(1234, st) == 0  # with the context current
    assert A.aclrtUnSubscribeReport(1234, st) == 0
    assert A.aclrtDestroyStream(st) == 0
