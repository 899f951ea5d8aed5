"""The label chapter of ``acl_rt.h``: labels set on the streams of a model being built, and the
switch that jumps to one of them by an index read from device memory when the model runs.

A label is set on a stream bound to a model (aclmdlRIBindStream): it marks a place in that
stream's recorded tasks. aclrtSwitchLabelByIndex records, on a bound stream, a task that reads a
uint32 index at run time and continues at the label of that index in the list (past the last
index: the last label), running that label's stream from there while the switching stream stops
(docs/zh/api_ref/10_label_management.md). Checks as src/acl/aclrt_impl/label.cpp (null pointers:
100000, EH0008), the rt wrappers (src/runtime/api/api_c.cc rtLabelSet/rtLabelDestroy/
rtLabelSwitchByIndex, api_c_model.cc rtsLabel*), ApiImpl (api_impl.cc) and the label itself
(core/src/launch/label.cc; Ascend950: label_starsv2.cc CondLabelSet).

A label belongs to the context that created it. aclrtCreateLabelList gives each of its labels its
place in the list's device memory (Label::SetLabelDevAddr, once per label: a label in a second
list, or twice in one, is refused, and destroying the list does not release it); a label is set
once, after it is in a list, on one stream bound to a model.
"""

from __future__ import annotations

import itertools

from .._capi import ApiError, describe
from .._ref import store
from . import model_ri as M
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    Message,
    acl_null,
    bad_object,
    emu,
    fb_inner,
    impl_david,
    int_arg,
    is_null_handle,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    stream_handle,
)
from .device import Context
from .memory import SPACE, MemoryFault
from .stream import Stream, TaskFault

_MAX_LABELS = 65535  # "each process creates at most 65535 labels" (10_label_management.md)
_MAX_LIST = 65535  # rtsLabelSwitchListCreate: num in (0, MAX_UINT16_NUM]
_STREAM_MODEL = "the relationship between the model and stream is incorrect."  # RT_ERROR_STREAM_MODEL's text
_SWITCH_DESC = "Redirecting to the corresponding label position based on the label index"


class Label:
    """An ``aclrtLabel``: a place in a model stream's tasks, once set."""

    _ids = itertools.count(0)

    def __init__(self, context: Context) -> None:
        self.ident = next(Label._ids)
        self.context = context  # Label::Setup: the creating context
        self.destroyed = False
        self.listed = False  # devDstAddr_ set: the label is in a label list (for good)
        self.model: M.Model | None = None
        self.stream: Stream | None = None  # stream_: the stream it was set on
        self.marker: M.ModelTask | None = None  # the no-op task that marks the place (setFlag_)

    def __repr__(self) -> str:
        return f"<aclrtLabel #{self.ident}>"

    def position(self) -> int | None:
        """Where the label's stream resumes: the index after its marker (None: not set)."""
        if self.model is None or self.stream is None or self.marker is None:
            return None
        tasks = self.model.tasks_of(self.stream)
        return tasks.index(self.marker) + 1 if self.marker in tasks else None


class LabelList:
    """An ``aclrtLabelList``: the labels a switch chooses among."""

    def __init__(self, labels: list[Label]) -> None:
        self.labels = labels
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<aclrtLabelList of {len(self.labels)} label(s)>"


_LIVE: set[Label] = set()


def _label(obj: object, api: str, rt_fn: str) -> Label:
    """The ACL layer's null check, then the rt wrapper's handle guard (RT_VALIDATE_AND_UNWRAP_OBJECT,
    named by the rt function that runs it: rtLabelSet, rtLabelDestroy)."""
    if is_null_handle(obj):
        raise ApiError(PARAM, acl_null(api, "label"))
    if not isinstance(obj, Label) or obj.destroyed:
        raise bad_object("label", rt_fn)
    return obj


def _own_label(lbl: Label, ctx: Context, desc: str, rt_fn: str) -> None:
    """COND_RETURN_AND_MSG_INVALID_CONTEXT_LABEL_WITH_FUNC_DESC: 507031, EE1010, then the wrapper's."""
    if lbl.context is not ctx:
        raise ApiError(
            E.ACL_ERROR_RT_LABEL_CONTEXT,
            (
                "EE1010",
                f"{desc} execution failed because label does not belong to the current context. Extended "
                f"information: label_id={lbl.ident}, label_ctx={lbl.context.pointer}, cur_ctx={ctx.pointer}.",
            ),
            fb_inner(rt_fn, "label not in current ctx"),
        )


def _capture(st: Stream) -> M.Capture | None:
    """The model recorder of a stream bound to a model being built (stm->Model_()), or None."""
    cap = st.capture
    return cap if isinstance(cap, M.Capture) and cap.bound else None


def _label_set_error(lbl: Label, st: Stream, cap: M.Capture | None) -> ApiError | None:
    """Label::Set's checks (label.cc:153-174; Ascend950: CondLabelSet, label_starsv2.cc:61-77),
    each followed by rtLabelSet's FuncErrorReason (its default branch: EE9999)."""
    david = impl_david()
    first: Message
    if cap is None:
        code, reason = E.ACL_ERROR_RT_STREAM_MODEL, _STREAM_MODEL
        if david:
            first = (
                "EE1017",
                "Label setting failed. Parameter stream is invalid. Reason: The stream must be bound to a model for "
                "label set operation.",
            )
        else:  # NULL_PTR_RETURN_MSG(stm->Model_(), RT_ERROR_STREAM_MODEL)
            first = rt_inner("Check param failed, stm->Model_() can not be null.", "Set", "label.cc", 153)
    elif lbl.stream is not None and lbl.stream is not st:
        code, reason = E.ACL_ERROR_RT_INTERNAL_ERROR, "label stream error"
        if david:
            first = (
                "EE1017",
                "Label setting failed. Parameter label is invalid. Reason: Label is already bound to another stream.",
            )
        else:
            first = (
                "EE1017",
                f"rtLabelSet failed. Parameter stream is invalid. Reason: The current stream (stream_id={st.ident}) "
                f"is inconsistent with the stream (stream_id={lbl.stream.ident}) associated with the label.",
            )
    elif lbl.marker is not None:
        code, reason = E.ACL_ERROR_RT_INTERNAL_ERROR, "label set error"
        if david:
            first = (
                "EE1017",
                "Label setting failed. Parameter label is invalid. Reason: Label has already been set, cannot set "
                "again.",
            )
        else:
            first = ("EE1018", "rtLabelSet failed. Reason: The label cannot be set repeatedly.")
    elif not lbl.listed:  # devDstAddr_ == nullptr (910B: a TS version >= TS_VERSION_MORE_LABEL, i.e. any)
        code, reason = E.ACL_ERROR_RT_INTERNAL_ERROR, "label phy addr null"
        if david:
            first = (
                "EE1017",
                "Label setting failed. Parameter label is invalid. Reason: Call rtLabelListCpy before setting label "
                "task.",
            )
        else:
            first = (
                "EE1018",
                "aclrtSetLabel failed. Reason: Before setting the label using aclrtSetLabel, you need to call "
                "aclrtCreateLabelList to create a label list.",
            )
    else:
        return None
    return ApiError(code, first, fb_inner("rtLabelSet", reason))


@rt_api
def aclrtCreateLabel(label: object) -> int:
    """Create a label (at most 65535 live in the process)."""
    api = "aclrtCreateLabel"
    if label is None:
        raise ApiError(PARAM, acl_null(api, "label"))
    out = out_arg(label, api, "label", numeric=False)
    ctx = need_context("rtsLabelCreate")
    if len(_LIVE) >= _MAX_LABELS:
        raise ApiError(E.ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, emu(f"{api}: {_MAX_LABELS} labels exist already."))
    lbl = Label(ctx)
    _LIVE.add(lbl)
    store(out, lbl)
    return E.ACL_SUCCESS


@rt_api
def aclrtDestroyLabel(label: object) -> int:
    """Destroy a label of the current context."""
    rt_fn = "rtLabelDestroy"
    lbl = _label(label, "aclrtDestroyLabel", rt_fn)
    ctx = need_context(rt_fn)  # ApiImpl::LabelDestroy (api_impl.cc:5120-5122)
    _own_label(lbl, ctx, "Label destruction", rt_fn)
    lbl.destroyed = True
    _LIVE.discard(lbl)
    return E.ACL_SUCCESS


@rt_api
def aclrtSetLabel(label: object, stream: object) -> int:
    """Set the label at the current end of a bound stream's recorded tasks (once; the label must be
    in a label list)."""
    api, rt_fn = "aclrtSetLabel", "rtLabelSet"
    if is_null_handle(label):
        raise ApiError(PARAM, acl_null(api, "label"))
    if is_null_handle(stream):
        raise ApiError(PARAM, acl_null(api, "stream"))
    lbl = _label(label, api, rt_fn)
    st = stream_handle(stream, rt_fn)
    assert st is not None
    ctx = need_context(rt_fn)  # ApiImpl::LabelSet (ApiImplDavid::LabelSet on Ascend950)
    _own_label(lbl, ctx, "Label setting", rt_fn)
    own_stream(st, ctx, "Label setting", rt_fn)
    cap = _capture(st)
    error = _label_set_error(lbl, st, cap)
    if error is not None:
        raise error
    assert cap is not None
    marker = M.ModelTask(cap.model, st, M.TASK_DEFAULT, f"label #{lbl.ident}", None)
    cap.add(marker)
    lbl.model, lbl.stream, lbl.marker = cap.model, st, marker
    return E.ACL_SUCCESS


@rt_api
def aclrtCreateLabelList(labels: object, num: int, labelList: object) -> int:
    """A list of ``num`` labels for aclrtSwitchLabelByIndex; each label can be in one list only."""
    api, rt_fn = "aclrtCreateLabelList", "rtsLabelSwitchListCreate"
    if labels is None:
        raise ApiError(PARAM, acl_null(api, "labels"))
    if labelList is None:
        raise ApiError(PARAM, acl_null(api, "labelList"))
    out = out_arg(labelList, api, "labelList", numeric=False)
    n = int_arg(num, "num", 0, 2**64 - 1)
    if not isinstance(labels, (list, tuple)):
        raise ApiError(PARAM, emu(f"{api}: labels must be a list of labels, got {describe(labels)}."))
    # rtsLabelSwitchListCreate (api_c_model.cc:176-178): EE1003 only, the last error set
    if n == 0 or n > _MAX_LIST:
        raise ApiError(RT_PARAM, rt_value(rt_fn, n, "num", f"(0, {_MAX_LIST}]"))
    if n > len(labels):  # CANN reads past the array
        raise ApiError(RT_PARAM, emu(f"{api}: num is {n} but labels holds {len(labels)} label(s)."))
    chosen: list[Label] = []
    for i, x in enumerate(list(labels)[:n]):  # RT_VALIDATE_AND_UNWRAP_OBJECT_ARRAY
        if is_null_handle(x):  # passes the guard as nullptr; CANN then dereferences it
            raise ApiError(RT_PARAM, emu(f"{api}: labels[{i}] is a NULL label (CANN dereferences it)."))
        if not isinstance(x, Label) or x.destroyed:
            raise bad_object("label", rt_fn)
        chosen.append(x)
    need_context(rt_fn)  # ApiImpl::LabelSwitchListCreate (api_impl.cc:5617-5618)
    # Context::LabelSwitchListCreate: Label::SetLabelDevAddr for each in turn; the labels before a
    # refused one keep their place (no rollback)
    for lbl in chosen:
        if lbl.listed:
            raise ApiError(
                E.ACL_ERROR_RT_INTERNAL_ERROR,
                rt_inner("Label address is set repeatedly.", "SetLabelDevAddr", "label.cc", 297),
                fb_inner(rt_fn, "have same labels in switch task"),
            )
        lbl.listed = True
    store(out, LabelList(chosen))
    return E.ACL_SUCCESS


@rt_api
def aclrtDestroyLabelList(labelList: object) -> int:
    """Destroy a label list (its labels stay, and stay claimed by it: rtsLabelSwitchListDestroy only
    frees the list's device memory)."""
    api = "aclrtDestroyLabelList"
    if is_null_handle(labelList):
        raise ApiError(PARAM, acl_null(api, "labelList"))
    if not isinstance(labelList, LabelList) or labelList.destroyed:
        raise bad_object("labelList", "rtsLabelSwitchListDestroy")
    labelList.destroyed = True
    return E.ACL_SUCCESS


@rt_api
def aclrtSwitchLabelByIndex(ptr: object, maxValue: int, labelList: object, stream: object) -> int:
    """Record, on a bound stream, a jump to the label whose index the uint32 at ``ptr`` holds
    when the model runs (past the last index: the last label); the switching stream stops."""
    api, rt_fn = "aclrtSwitchLabelByIndex", "rtLabelSwitchByIndex"
    if is_null_handle(ptr):
        raise ApiError(PARAM, acl_null(api, "ptr"))
    if is_null_handle(labelList):
        raise ApiError(PARAM, acl_null(api, "labelList"))
    if is_null_handle(stream):
        raise ApiError(PARAM, acl_null(api, "stream"))
    mx = int_arg(maxValue, "maxValue", 0, 2**32 - 1)  # no range check in CANN (0 included)
    st = stream_handle(stream, rt_fn)
    assert st is not None
    ctx = need_context(rt_fn)  # ApiImpl::LabelSwitchByIndex (api_impl.cc:5505-5520)
    own_stream(st, ctx, _SWITCH_DESC, rt_fn)
    cap = _capture(st)
    if cap is None:
        raise ApiError(
            E.ACL_ERROR_RT_STREAM_MODEL,
            (
                "EE1011",
                f"{_SWITCH_DESC} failed. Value 0 for parameter stm->modelNum is invalid. Reason: The stream "
                f"(stream_id={st.ident}) is not bound to a model.",
            ),
            fb_inner(rt_fn, _STREAM_MODEL),
        )
    # the emulator's own checks: CANN takes labelList and ptr as device addresses
    if not isinstance(labelList, LabelList) or labelList.destroyed:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_HANDLE, emu(f"{api}: labelList is not a live label list, got {describe(labelList)}.")
        )
    address = int_arg(ptr, "ptr", 0, 2**64 - 1)
    try:
        SPACE.check(address, 4, "read", api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{api}: ptr: {fault.message}")) from None
    labels = list(labelList.labels)
    model = cap.model

    def switch(runner: M.Runner) -> None:
        index = M.read_word(address, 4, api) & 0xFFFF_FFFF
        # past maxValue or the list's end: the last label (maxValue 0: every index is past it)
        target = labels[-1] if mx == 0 else labels[min(index, mx - 1, len(labels) - 1)]
        start = target.position()
        if target.destroyed or start is None or target.stream is None or target.model is not model:
            raise TaskFault(
                E.ACL_ERROR_RT_PARAM_INVALID, f"{api}: {target!r} (index {index}) is not set on a stream of {model!r}"
            )
        runner.jump(model, st, target.stream, start)

    cap.add(
        M.ModelTask(
            model,
            st,
            M.TASK_DEFAULT,
            f"switch label by index at 0x{address:x} over {len(labels)}",
            None,
            control=switch,
        )
    )
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCreateLabel",
    "aclrtCreateLabelList",
    "aclrtDestroyLabel",
    "aclrtDestroyLabelList",
    "aclrtSetLabel",
    "aclrtSwitchLabelByIndex",
]
