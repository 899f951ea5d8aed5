"""Audit 31 of aclrtCmoAsync's refusals and of the failure mode of a stream (aclrtSetStreamFailureMode,
aclrtSetStreamAttribute's ACL_STREAM_ATTR_FAILURE_MODE): CANN's texts, the rt function each report
names, and which refusals keep a last error (hicann/runtime api_c_standard_soc.cc, api_c_stream.cc,
api_error.cc, api_impl.cc)."""

from __future__ import annotations

import pytest
from rt_streams import capture_model_stream, last_error, new_stream, set_attr_mode
from rt_texts import INDENT, NO_CONTEXT_HEADLINE, RANGE_SOLUTION, TRACEBACK, bad_handle
from rt_threads import in_thread

from aclnn_py import (
    ACL_CONTINUE_ON_FAILURE,
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    ACL_ERROR_RT_STREAM_CONTEXT,
    ACL_STOP_ON_FAILURE,
    ACL_STREAM_DEVICE_USE_ONLY,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A
from aclnn_py.runtime.device import RT

_CMO = "Operating the cache memory on the device"
_SET_MODE = "Setting the error handling mode of a stream"
_UNSUPPORTED = "The argument is invalid. Reason: rtsStreamSetAttribute execution failed, the feature is not supported."


# -- aclrtCmoAsync: rtCmoAsync -> rtCmoTaskLaunch -> ApiImpl::CmoTaskLaunch ----------------------


def test_cmo_async_stream_of_another_context_is_reported_as_cmo_task_launch(dev0):
    """ApiImpl::CmoTaskLaunch's stream check (api_impl.cc:6882-6883) words the operation "Operating
    the cache memory on the device"; the inner report is rtCmoTaskLaunch's ERROR_RETURN_WITH_EXT_ERRCODE
    (api_c_standard_soc.cc:885): rtCmoAsync returns its code as it is (api_c_standard_soc.cc:860)."""
    st = new_stream()
    p = Ref()
    assert A.aclrtMalloc(p, 64, 0) == 0
    other = Ref()
    assert A.aclrtCreateContext(other, 0) == 0  # now current: the stream is not its
    try:
        assert A.aclrtCmoAsync(p.value, 64, 1, st) == ACL_ERROR_RT_STREAM_CONTEXT
        msg = aclGetRecentErrMsg()
        assert msg.startswith(
            f"Execution_Error_Invalid_Context(EE1010): {_CMO} execution failed because stream does not belong to the "
            f"current context. Extended information: stream_id={st.ident}, "
        )
        assert msg.endswith(
            TRACEBACK + f"{INDENT}rtCmoTaskLaunch execution failed, reason=stream not in current context"
            "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]\n"
        )
        assert last_error() == ACL_ERROR_RT_STREAM_CONTEXT
    finally:
        assert A.aclrtDestroyContext(other.value) == 0
        assert A.aclrtSetCurrentContext(RT.devices[0].primary) == 0
    assert A.aclrtCmoAsync(p.value, 64, 1, st) == 0 and A.aclrtSynchronizeStream(st) == 0
    assert A.aclrtDestroyStream(st) == 0 and A.aclrtFree(p.value) == 0


def test_cmo_async_bad_stream_and_no_context_name_cmo_task_launch(dev0):
    """rtCmoTaskLaunch's handle guard (RT_VALIDATE_AND_UNWRAP_OBJECT names its __func__) and the EE1001
    of its wrapper after ApiImpl::CmoTaskLaunch's context check."""
    p = Ref()
    assert A.aclrtMalloc(p, 64, 0) == 0
    st = new_stream()
    assert A.aclrtDestroyStream(st) == 0
    assert A.aclrtCmoAsync(p.value, 64, 1, st) == 107017
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtCmoTaskLaunch")
    code, msg = in_thread(lambda: A.aclrtCmoAsync(p.value, 64, 1, None))
    assert code == 107002
    assert msg.startswith(
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtCmoTaskLaunch execution failed, the context is a null "
        "pointer.\n"
    )
    assert A.aclrtFree(p.value) == 0


# -- the failure mode of an ACL_STREAM_DEVICE_USE_ONLY stream ------------------------------------


def test_failure_mode_attribute_of_a_device_use_only_stream_gets_the_wrapper_report(dev0):
    """ApiErrorDecorator::StreamSetMode refuses an RT_STREAM_CP_PROCESS_USE stream with a WARN only
    (api_error.cc:1605-1607). rtStreamSetMode returns that silently (COND_RETURN_WITH_NOLOG,
    api_c_stream.cc:302: no report, no last error); rtsStreamSetAttribute's
    ERROR_RETURN_WITH_EXT_ERRCODE (api_c_stream.cc:496) adds its EE1001 and keeps 207000."""
    d = new_stream(ACL_STREAM_DEVICE_USE_ONLY)
    assert set_attr_mode(d, ACL_STOP_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == f"Invalid_Argument(EE1001): {_UNSUPPORTED}\n" + RANGE_SOLUTION
    assert last_error() == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert A.aclrtSetStreamFailureMode(d, ACL_STOP_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() is None
    assert last_error() == 0
    assert d.failure_mode == 0
    assert A.aclrtDestroyStream(d) == 0


# -- a stream bound to a model --------------------------------------------------------------------


def _bound_refusal(st, model) -> str:
    return (
        f"Invalid_Argument(EE1017): {_SET_MODE} failed. Parameter stream is invalid. Reason: Stream "
        f"(stream_id={st.ident}) has been bound to a model (model_id={model.ident}). This operation only supports "
        "single-operator streams.\n"
    )


@pytest.mark.parametrize("mode", [ACL_STOP_ON_FAILURE, ACL_CONTINUE_ON_FAILURE])
def test_failure_mode_of_a_stream_bound_to_a_model_is_refused(dev0, mode):
    """ApiImpl::StreamSetMode's bind-flag check (api_impl.cc:2002-2008), before the same-mode shortcut:
    EE1017 and RT_ERROR_FEATURE_NOT_SUPPORT, silent in rtStreamSetMode (no last error), reported again
    by rtsStreamSetAttribute. Unbound, the stream takes the mode."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, st, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    assert A.aclrtSetStreamFailureMode(st, mode) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == _bound_refusal(st, m.value)
    assert last_error() == 0
    assert set_attr_mode(st, mode) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == _bound_refusal(st, m.value) + TRACEBACK + f"{INDENT}{_UNSUPPORTED}\n"
    assert last_error() == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert st.failure_mode == 0
    assert A.aclmdlRIUnbindStream(m.value, st) == 0
    assert A.aclrtSetStreamFailureMode(st, mode) == 0 and st.failure_mode == mode
    assert A.aclmdlRIDestroy(m.value) == 0
    assert A.aclrtDestroyStream(st) == 0


def test_failure_mode_of_a_capture_model_stream_is_refused(dev0):
    """A capture's model stream is added to its model (Model::AddStream sets the bind flag): the same
    refusal for the stream aclmdlRIGetStreams hands out."""
    st, model, stream = capture_model_stream()
    assert A.aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg() == _bound_refusal(stream, model)
    assert A.aclmdlRIDestroy(model) == 0
    assert A.aclrtDestroyStream(st) == 0


def test_stop_to_continue_is_silent_in_set_failure_mode_and_reported_by_the_attribute(dev0):
    """The EE1016 of ApiImpl::StreamSetMode (api_impl.cc:2018-2021) is RT_ERROR_FEATURE_NOT_SUPPORT too:
    rtStreamSetMode keeps no last error for it, rtsStreamSetAttribute adds its EE1001 and keeps 207000."""
    st = new_stream()
    assert A.aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE) == 0
    headline = (
        f"Not_Supported(EE1016): {_SET_MODE} failed. Reason: Changing stream {st.ident} from stop mode to continue "
        "mode is not supported.\n"
    )
    assert A.aclrtSetStreamFailureMode(st, ACL_CONTINUE_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert aclGetRecentErrMsg().startswith(headline)
    assert last_error() == 0
    assert set_attr_mode(st, ACL_CONTINUE_ON_FAILURE) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    msg = aclGetRecentErrMsg()
    assert msg.startswith(headline) and msg.endswith(TRACEBACK + f"{INDENT}{_UNSUPPORTED}\n")
    assert last_error() == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert A.aclrtDestroyStream(st) == 0
