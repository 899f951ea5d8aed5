"""A NULL stream and the context it resolves through. The decorators that call
``Runtime::GetCurStream`` (runtime.cc:6017-6025: StreamSetMode, StreamGetMode, StreamAbort,
Set/GetStreamCacheOpInfoSwitch) take the no-argument ``Runtime::CurrentContext()``: an aclInit
default device is never made current, and a thread without a context gets EE1018, the decorator's
EE1004 for curStm and 107000. The implementations that resolve NULL themselves (StreamSynchronize,
Set/GetStreamOverflowSwitch, Set/GetStreamTag, ...) take ``ApiImpl::CurrentContext()``, which does
make the default device current."""

from __future__ import annotations

import pytest
from rt_texts import INDENT, NO_CONTEXT_HEADLINE, POINTER_SOLUTION, TRACEBACK
from rt_threads import in_thread

from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclInit
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A
from aclnn_py.runtime import api_stream_attr as SA

_SET_MODE = "Setting the error handling mode of a stream"
_GET_MODE = "Obtaining the error handling mode of a stream"
_ABORT = "Aborting tasks in a stream"
_SET_CACHE = "Setting the switch for caching operator information in a stream"
_GET_CACHE = "Querying whether the operator information is cached"


@pytest.fixture
def default_device(tmp_path):
    """aclInit with ``defaultDevice`` 0: a thread without a context gets device 0 only through
    ``ApiImpl::CurrentContext()``."""
    cfg = tmp_path / "acl.json"
    cfg.write_text('{"defaultDevice": {"default_device": "0"}}')
    assert aclInit(str(cfg)) == 0
    yield
    A.aclrtResetDevice(0)
    assert aclFinalize() == 0


def _no_cur_stm(desc: str, rt_fn: str) -> str:
    """GetCurStream's EE1018, the decorator's EE1004 for curStm, the wrapper's EE1001."""
    return (
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}{desc} failed because curStm cannot be a NULL pointer.\n"
        + f"{INDENT}The argument is invalid. Reason: {rt_fn} execution failed.\n"
    )


def _attr(stream, attr, raw=0, get=False):
    v = SA.aclrtStreamAttrValue(raw)
    fn = SA.aclrtGetStreamAttribute if get else SA.aclrtSetStreamAttribute
    return lambda: fn(stream, attr, v)


@pytest.mark.parametrize(
    ("call", "desc", "rt_fn"),
    [
        (lambda: A.aclrtSetStreamFailureMode(None, 1), _SET_MODE, "rtStreamSetMode"),
        (_attr(None, SA.ACL_STREAM_ATTR_FAILURE_MODE, 1), _SET_MODE, "rtsStreamSetAttribute"),
        (_attr(None, SA.ACL_STREAM_ATTR_FAILURE_MODE, get=True), _GET_MODE, "rtsStreamGetAttribute"),
        (lambda: A.aclrtStreamAbort(None), _ABORT, "rtStreamAbort"),
        (_attr(None, SA.ACL_STREAM_ATTR_CACHE_OP_INFO, 1), _SET_CACHE, "rtsStreamSetAttribute"),
        (_attr(None, SA.ACL_STREAM_ATTR_CACHE_OP_INFO, get=True), _GET_CACHE, "rtsStreamGetAttribute"),
    ],
    ids=["set-mode", "attr-set-mode", "attr-get-mode", "abort", "attr-set-cache", "attr-get-cache"],
)
def test_get_cur_stream_never_makes_the_default_device_current(default_device, call, desc, rt_fn):
    """Ascend910B: GetCurStream's Runtime::CurrentContext() finds no context in a new thread, even
    with an aclInit default device (api_error.cc:1602-1604, 1620-1622, 6602-6603, 6985-6987,
    6997-6999)."""
    code, msg = in_thread(call)
    assert code == 107000
    assert msg.startswith(_no_cur_stm(desc, rt_fn))


def test_abort_of_a_null_stream_without_a_context_reports_the_missing_context(dev0):
    """GetCurStream's CHECK_CONTEXT_VALID_WITH_RETURN reports EE1018 before the decorator's EE1004
    (no default device configured here)."""
    code, msg = in_thread(lambda: A.aclrtStreamAbort(None))
    assert code == 107000 and msg.startswith(_no_cur_stm(_ABORT, "rtStreamAbort"))


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_get_cur_stream_keeps_null_off_the_control_sq_chips(soc, chip):
    """Without RT_FEATURE_DEVICE_CTRL_SQ no context is looked up: the decorator's EE1004 alone."""
    soc(chip)
    assert aclInit(None) == 0 and A.aclrtSetDevice(0) == 0
    try:
        assert A.aclrtStreamAbort(None) == 107000
        assert aclGetRecentErrMsg() == (
            f"Invalid_Argument_Null_Pointer(EE1004): {_ABORT} failed because curStm cannot be a NULL pointer.\n"
            + POINTER_SOLUTION
            + TRACEBACK
            + f"{INDENT}The argument is invalid. Reason: rtStreamAbort execution failed.\n"
        )
        assert _attr(None, SA.ACL_STREAM_ATTR_CACHE_OP_INFO, get=True)() == 107000
        assert aclGetRecentErrMsg().startswith(f"Invalid_Argument_Null_Pointer(EE1004): {_GET_CACHE} failed")
    finally:
        A.aclrtResetDevice(0)
        assert aclFinalize() == 0


def test_a_thread_s_own_context_gives_its_default_stream(dev0):
    """With a context bound, GetCurStream answers its default stream."""
    assert A.aclrtSetStreamFailureMode(None, 1) == 0
    v = SA.aclrtStreamAttrValue()
    assert SA.aclrtGetStreamAttribute(None, SA.ACL_STREAM_ATTR_FAILURE_MODE, v) == 0 and v.failureMode == 1
    assert A.aclrtStreamAbort(None) == 0


def test_the_implementations_current_context_does_make_the_default_device_current(default_device):
    """What is resolved in ApiImpl keeps the default device: a stream given to StreamSetMode and
    StreamAbort (ApiImpl::StreamSetMode / StreamAbort: CurrentContext(), api_impl.cc:1994, 7605),
    a NULL stream to StreamSynchronize, GetStreamOverflowSwitch, GetStreamTag, StreamGetPriority."""
    st = Ref()
    assert A.aclrtCreateStream(st) == 0  # in the default device's context, made current here
    for call in (
        lambda: A.aclrtSetStreamFailureMode(st.value, 1),
        lambda: A.aclrtStreamAbort(st.value),
        _attr(st.value, SA.ACL_STREAM_ATTR_FAILURE_MODE, get=True),
        lambda: A.aclrtSynchronizeStream(None),
        _attr(None, SA.ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, get=True),
        _attr(None, SA.ACL_STREAM_ATTR_USER_CUSTOM_TAG, get=True),
        lambda: A.aclrtStreamGetPriority(None, Ref()),
    ):
        code, _ = in_thread(call)
        assert code == 0
    assert A.aclrtDestroyStream(st.value) == 0


def test_a_2d_copy_s_null_stream_never_takes_the_default_device(default_device):
    """ApiErrorDecorator::MemCopy2DAsync (api_error.cc:3062-3063) resolves NULL by GetCurStream
    before its parameter checks: a new thread gets no default stream, even with a default device."""
    src, dst = bytearray(64), bytearray(64)
    code, msg = in_thread(lambda: A.aclrtMemcpy2dAsync(dst, 8, src, 8, 8, 4, 4, None))
    assert code == 107000
    assert msg.startswith(_no_cur_stm("Asynchronous 2D memory copy", "rtMemcpy2dAsync"))


@pytest.mark.parametrize(
    ("call", "desc", "rt_fn"),
    [
        (
            lambda m: A.aclmdlRIBindStream(m, None, 0),
            "Binding a model running instance to a stream",
            "rtsModelBindStream",
        ),
        (
            lambda m: A.aclmdlRIUnbindStream(m, None),
            "Unbinding a model running instance from a stream",
            "rtsModelUnbindStream",
        ),
        (lambda m: A.aclmdlRIEndTask(m, None), "Locking or unlocking the send queue of a stream", "rtsEndGraph"),
    ],
    ids=["bind", "unbind", "end-task"],
)
def test_the_model_calls_resolve_a_null_stream_by_get_cur_stream(default_device, call, desc, rt_fn):
    """ApiErrorDecorator::ModelBindStream / ModelUnbindStream and rtsEndGraph's
    SetStreamSqLockUnlock (api_error.cc:3897, 3953, 6560): GetCurStream, not the default device."""
    assert A.aclrtSetDevice(0) == 0
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    code, msg = in_thread(lambda: call(m.value))
    assert code == 107000
    assert msg.startswith(_no_cur_stm(desc, rt_fn))
    assert A.aclmdlRIDestroy(m.value) == 0
