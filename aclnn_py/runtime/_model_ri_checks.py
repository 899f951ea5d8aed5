"""The argument checks and refusals the model runtime instance chapters share (``aclmdlRI*``:
api_model_ri_capture, api_model_ri_build, api_model_ri_query), and the two capture checks other
chapters call first: check_capture_mode (the synchronous copies and fills) and
refuse_if_capturing (a stream's synchronize, query and destroy).

The checks are CANN's ACL layer's (src/acl/aclrt_impl/model_ri.cpp:
``ACL_REQUIRES_NOT_NULL_WITH_INPUT_REPORT``, 100000 and EH0008) and the runtime's decorators'
(src/runtime/api/impl/api_error.cc and src/runtime/feature/aclgraph/api_error_aclgraph.cc: EE1004
null pointers, EE1003 values, EE1016 capture-state refusals), in their order.
"""

from __future__ import annotations

from .._capi import ApiError
from . import _rt_features
from . import model_ri as M
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    Message,
    acl_null,
    bad_object,
    fb_inner,
    fb_invalid,
    is_null_handle,
    need_context,
    silent,
)
from .device import RT
from .stream import Stream


def rt_null(desc: str, param: str, rt_fn: str) -> ApiError:
    """``NULL_PTR_RETURN_MSG_OUTER_WITH_FUNC_DESC``: 107000, EE1004."""
    return ApiError(RT_PARAM, ("EE1004", f"{desc} failed because {param} cannot be a NULL pointer."), fb_invalid(rt_fn))


def refused(code: int, desc: str, reason: str, *after: Message) -> ApiError:
    """``COND_RETURN_AND_MSG_OUTER`` with EE1016: ``<desc> failed. Reason: <reason>.``, then the
    reports ``after`` it (an rt wrapper's FuncErrorReason, say)."""
    return ApiError(code, ("EE1016", f"{desc} failed. Reason: {reason}."), *after)


def captured(st: Stream, desc: str, rt_fn: str) -> ApiError:
    """The refusal of a call on a capturing stream (107027, EE1016), and the rt wrapper's
    ERROR_RETURN_WITH_EXT_ERRCODE (FuncErrorReason: ``stream is captured``)."""
    return ApiError(
        E.ACL_ERROR_RT_STREAM_CAPTURED,
        ("EE1016", f"{desc} failed. Reason: Stream (stream_id={st.ident}) during the capture stage is not supported."),
        fb_inner(rt_fn, "stream is captured"),
    )


def model_arg(obj: object, api: str, rt_fn: str, param: str = "modelRI", acl_check: bool = True) -> M.Model:
    """A model argument: nullptr is the ACL layer's EH0008 (or the runtime's EE1004), anything
    else that is not a live model the handle guard's 107017."""
    if is_null_handle(obj):
        if acl_check:
            raise ApiError(PARAM, acl_null(api, param))
        raise rt_null(api, "mdl", rt_fn)
    if not isinstance(obj, M.Model) or obj.destroyed:
        raise bad_object("model", rt_fn)
    return obj


def own_model(mdl: M.Model, desc: str, rt_fn: str) -> None:
    """ApiImpl's CHECK_CONTEXT_VALID_WITH_RETURN, then COND_RETURN_AND_MSG_INVALID_CONTEXT_MODEL:
    a current context (107002) that the model was made in (107004, EE1010)."""
    ctx = need_context(rt_fn)
    if mdl.context is not ctx:
        raise ApiError(
            E.ACL_ERROR_RT_MODEL_CONTEXT,
            (
                "EE1010",
                f"{desc} execution failed because model does not belong to the current context. Extended "
                f"information: model_id={mdl.ident}, model_ctx={mdl.context.pointer}, cur_ctx={ctx.pointer}.",
            ),
            fb_inner(rt_fn, "model not in current ctx"),
        )


def check_capture_mode(desc: str) -> None:
    """The refusal of an unsafe call while a capture forbids it (``CHECK_CAPTURE_MODE_SUPPORT``:
    107030, EE1016), for the synchronous copies and sets to call first (see docs/runtime.md)."""
    ctx = RT.thread_context()
    if ctx is None:
        return
    why = M.capture_mode_refusal(ctx)
    if why is not None:
        raise ApiError(E.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, ("EE1016", f"{desc} failed. Reason: {why}."))


def refuse_if_capturing(stream: Stream | None, desc: str, rt_fn: str) -> None:
    """The refusal of an operation on a capturing stream (a synchronize, a query, a destroy:
    107027, EE1016 ``<desc> failed. Reason: Stream (stream_id=N) during the capture stage is not
    supported.``), for the stream chapter to call first (see docs/runtime.md)."""
    if stream is not None and stream.capture is not None and M.capturing(stream):  # no call when idle
        raise captured(stream, desc, rt_fn)


def require_acl_graph() -> None:
    """The capture wrappers' first check (api_c_standard_soc.cc: rtStreamBeginCapture(ToModel),
    rtStreamEndCapture, rtStreamGetCaptureInfo, rtThreadExchangeCaptureMode, the task-group and
    task-update begins, the model debug prints): a WARN, and the thread's last error."""
    if not _rt_features.has("RT_FEATURE_MODEL_ACL_GRAPH"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


__all__ = [
    "captured",
    "check_capture_mode",
    "model_arg",
    "refuse_if_capturing",
    "refused",
    "require_acl_graph",
    "rt_null",
]
