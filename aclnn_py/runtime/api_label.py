"""The label chapter of ``acl_rt.h``: labels set on the streams of a model being built, and the
switch that jumps to one of them by an index read from device memory when the model runs.

A label is set on a stream bound to a model (aclmdlRIBindStream): it marks a place in that
stream's recorded tasks. aclrtSwitchLabelByIndex records, on a bound stream, a task that reads a
uint32 index at run time and continues at the label of that index in the list (past the last
index: the last label), running that label's stream from there while the switching stream stops
(docs/zh/api_ref/10_label_management.md). Checks as src/acl/aclrt_impl/label.cpp (null pointers:
100000, EH0008) and the runtime's decorators (src/runtime/api/impl/api_error.cc).
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
    acl_null,
    bad_object,
    emu,
    fb_invalid,
    int_arg,
    is_null_handle,
    need_context,
    out_arg,
    rt_api,
    rt_value,
    stream_handle,
)
from .memory import SPACE, MemoryFault
from .stream import Stream, TaskFault

_MAX_LABELS = 65535  # "each process creates at most 65535 labels" (10_label_management.md)


class Label:
    """An ``aclrtLabel``: a place in a model stream's tasks, once set."""

    _ids = itertools.count(0)

    def __init__(self) -> None:
        self.ident = next(Label._ids)
        self.destroyed = False
        self.model: M.Model | None = None
        self.stream: Stream | None = None
        self.marker: M.ModelTask | None = None  # the no-op task that marks the place

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


def _label(obj: object, api: str, name: str = "label") -> Label:
    if is_null_handle(obj):
        raise ApiError(PARAM, acl_null(api, name))
    if not isinstance(obj, Label) or obj.destroyed:
        raise bad_object("label", api.replace("aclrt", "rts", 1))
    return obj


def _bound(stream: object, api: str, rt_fn: str) -> tuple[Stream, M.Capture]:
    if is_null_handle(stream):
        raise ApiError(PARAM, acl_null(api, "stream"))
    st = stream_handle(stream, rt_fn)
    assert st is not None
    cap = st.capture
    if not isinstance(cap, M.Capture) or not cap.bound:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: {st!r} is not bound to a model being built (labels live on aclmdlRIBindStream's streams)."),
        )
    return st, cap


@rt_api
def aclrtCreateLabel(label: object) -> int:
    """Create a label (at most 65535 live in the process)."""
    api = "aclrtCreateLabel"
    if label is None:
        raise ApiError(PARAM, acl_null(api, "label"))
    out = out_arg(label, api, "label", numeric=False)
    need_context("rtsLabelCreate")
    if len(_LIVE) >= _MAX_LABELS:
        raise ApiError(E.ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, emu(f"{api}: {_MAX_LABELS} labels exist already."))
    lbl = Label()
    _LIVE.add(lbl)
    store(out, lbl)
    return E.ACL_SUCCESS


@rt_api
def aclrtDestroyLabel(label: object) -> int:
    """Destroy a label."""
    lbl = _label(label, "aclrtDestroyLabel")
    lbl.destroyed = True
    _LIVE.discard(lbl)
    return E.ACL_SUCCESS


@rt_api
def aclrtSetLabel(label: object, stream: object) -> int:
    """Set the label at the current end of a bound stream's recorded tasks."""
    api, rt_fn = "aclrtSetLabel", "rtsLabelSet"
    lbl = _label(label, api)
    st, cap = _bound(stream, api, rt_fn)
    marker = M.ModelTask(cap.model, st, M.TASK_DEFAULT, f"label #{lbl.ident}", None)
    cap.add(marker)
    lbl.model, lbl.stream, lbl.marker = cap.model, st, marker
    return E.ACL_SUCCESS


@rt_api
def aclrtCreateLabelList(labels: object, num: int, labelList: object) -> int:
    """A list of ``num`` labels for aclrtSwitchLabelByIndex."""
    api = "aclrtCreateLabelList"
    if labels is None:
        raise ApiError(PARAM, acl_null(api, "labels"))
    if labelList is None:
        raise ApiError(PARAM, acl_null(api, "labelList"))
    out = out_arg(labelList, api, "labelList", numeric=False)
    n = int_arg(num, "num", 0, 2**64 - 1)
    if not isinstance(labels, (list, tuple)):
        raise ApiError(PARAM, emu(f"{api}: labels must be a list of labels, got {describe(labels)}."))
    if n == 0 or n > len(labels):
        raise ApiError(
            RT_PARAM,
            rt_value("Label list creation", n, "num", f"[1, {max(len(labels), 1)}]"),
            fb_invalid("rtsLabelSwitchListCreate"),
        )
    chosen = [_label(x, api, "labels") for x in list(labels)[:n]]
    store(out, LabelList(chosen))
    return E.ACL_SUCCESS


@rt_api
def aclrtDestroyLabelList(labelList: object) -> int:
    """Destroy a label list (its labels stay)."""
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
    api, rt_fn = "aclrtSwitchLabelByIndex", "rtsLabelSwitchByIndex"
    if is_null_handle(ptr):
        raise ApiError(PARAM, acl_null(api, "ptr"))
    if is_null_handle(labelList):
        raise ApiError(PARAM, acl_null(api, "labelList"))
    if is_null_handle(stream):
        raise ApiError(PARAM, acl_null(api, "stream"))
    mx = int_arg(maxValue, "maxValue", 0, 2**32 - 1)
    if not isinstance(labelList, LabelList) or labelList.destroyed:
        raise bad_object("labelList", rt_fn)
    address = int_arg(ptr, "ptr", 0, 2**64 - 1)
    try:
        SPACE.check(address, 4, "read", api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{api}: ptr: {fault.message}")) from None
    st, cap = _bound(stream, api, rt_fn)
    if mx == 0:
        raise ApiError(
            RT_PARAM,
            rt_value(
                "Redirecting to the corresponding label position based on the label index",
                0,
                "maxValue",
                "greater than 0",
            ),
            fb_invalid(rt_fn),
        )
    labels = list(labelList.labels)
    model = cap.model

    def switch(runner: M.Runner) -> None:
        index = M.read_word(address, 4, api) & 0xFFFF_FFFF
        target = labels[min(index, mx - 1, len(labels) - 1)]
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
