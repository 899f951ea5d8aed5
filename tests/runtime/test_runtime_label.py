"""Labels (aclrtCreateLabel ... aclrtSwitchLabelByIndex) on the streams of a built model."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from rt_texts import FUNC_ERROR_REASON, INDENT, RANGE_SOLUTION, TRACEBACK, bad_handle

from aclnn_py import (
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_STREAM_PERSISTENT,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateContext,
    aclrtCreateStreamWithConfig,
    aclrtDestroyContext,
    aclrtDestroyStream,
    aclrtFree,
    aclrtGetCurrentContext,
    aclrtGetLastError,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemsetAsync,
    aclrtResetDevice,
    aclrtSetCurrentContext,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from aclnn_py._ref import Ref
from aclnn_py.runtime import api_label as L
from aclnn_py.runtime import api_model_ri_build as A


def _stream() -> object:
    """A persistent stream: only those can be bound to a model (rtsModelBindStream)."""
    s = Ref()
    assert aclrtCreateStreamWithConfig(s, 0, ACL_STREAM_PERSISTENT) == 0
    return s.value


def _exec_stream() -> object:
    """A plain stream to execute the model on, as CANN's label sample does: a synchronize of a
    persistent one returns at once without waiting (ApiErrorDecorator::StreamSynchronize)."""
    s = Ref()
    assert aclrtCreateStreamWithConfig(s, 0, 0) == 0
    return s.value


def _malloc(n: int) -> int:
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    return p.value


def _put_u32(ptr: int, v: int) -> None:
    assert aclrtMemcpy(ptr, 4, np.array([v], np.uint32), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0


def _bytes(ptr: int, n: int) -> list[int]:
    host = np.zeros(n, np.uint8)
    assert aclrtMemcpy(host, n, ptr, n, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return host.tolist()


@pytest.mark.parametrize("index", [0, 1, 2, 9])
def test_switch_by_index_continues_after_the_chosen_label_and_stops_the_switching_stream(ctx, index):
    """A bound head stream: fill byte 0, switch, [label 0] fill byte 1, [label 1] fill byte 2,
    [label 2] fill byte 3. Index i runs the fills after label i (past the end: the last label)."""
    head, ex = _stream(), _exec_stream()
    idx, out = _malloc(4), _malloc(4)
    _put_u32(idx, index)
    assert aclrtMemcpy(out, 4, np.zeros(4, np.uint8), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    labels = []
    for _ in range(3):
        lbl = Ref()
        assert L.aclrtCreateLabel(lbl) == 0
        labels.append(lbl.value)
    lst = Ref()
    assert L.aclrtCreateLabelList(labels, 3, lst) == 0
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, head, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    assert aclrtMemsetAsync(out, 1, 7, 1, head) == 0
    assert L.aclrtSwitchLabelByIndex(idx, 3, lst.value, head) == 0
    for i, lbl in enumerate(labels):
        assert L.aclrtSetLabel(lbl, head) == 0
        assert aclrtMemsetAsync(out + 1 + i, 1, 7, 1, head) == 0
    assert A.aclmdlRIEndTask(m.value, head) == 0
    assert A.aclmdlRIBuildEnd(m.value, None) == 0
    assert A.aclmdlRIExecuteAsync(m.value, ex) == 0
    assert aclrtSynchronizeStream(ex) == 0, aclGetRecentErrMsg()
    first = min(index, 2)
    assert _bytes(out, 4) == [7] + [7 if i >= first else 0 for i in range(3)]
    assert A.aclmdlRIUnbindStream(m.value, head) == 0
    assert A.aclmdlRIDestroy(m.value) == 0
    assert L.aclrtDestroyLabelList(lst.value) == 0
    for lbl in labels:
        assert L.aclrtDestroyLabel(lbl) == 0
    for s in (head, ex):
        assert aclrtDestroyStream(s) == 0
    for p in (idx, out):
        assert aclrtFree(p) == 0


def test_a_label_on_another_stream_runs_that_stream_from_the_label(ctx):
    head, other, ex = _stream(), _stream(), _stream()
    idx, out = _malloc(4), _malloc(4)
    _put_u32(idx, 0)
    assert aclrtMemcpy(out, 4, np.zeros(4, np.uint8), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    lbl, lst, m = Ref(), Ref(), Ref()
    assert L.aclrtCreateLabel(lbl) == 0
    assert L.aclrtCreateLabelList([lbl.value], 1, lst) == 0
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, head, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    assert A.aclmdlRIBindStream(m.value, other, A.ACL_MODEL_STREAM_FLAG_DEFAULT) == 0
    assert aclrtMemsetAsync(out, 1, 1, 1, other) == 0  # before the label: not run by the jump
    assert L.aclrtSetLabel(lbl.value, other) == 0
    assert aclrtMemsetAsync(out + 1, 1, 2, 1, other) == 0
    assert L.aclrtSwitchLabelByIndex(idx, 1, lst.value, head) == 0
    assert aclrtMemsetAsync(out + 2, 1, 3, 1, head) == 0  # after the switch: the head stopped
    assert A.aclmdlRIBuildEnd(m.value, None) == 0
    assert A.aclmdlRIExecute(m.value, -1) == 0
    assert _bytes(out, 4) == [0, 2, 0, 0]
    assert A.aclmdlRIDestroy(m.value) == 0
    for s in (head, other, ex):
        assert aclrtDestroyStream(s) == 0
    for p in (idx, out):
        assert aclrtFree(p) == 0


def test_label_argument_checks(ctx):
    s = _stream()
    lbl, lst = Ref(), Ref()
    assert L.aclrtCreateLabel(None) == 100000
    assert "aclrtCreateLabel failed because label cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert L.aclrtCreateLabel(lbl) == 0
    assert L.aclrtSetLabel(None, s) == 100000
    assert L.aclrtSetLabel(lbl.value, None) == 100000
    assert L.aclrtSetLabel(lbl.value, s) == 107005  # not a bound stream
    assert L.aclrtCreateLabelList(None, 1, lst) == 100000
    assert L.aclrtCreateLabelList([lbl.value], 1, None) == 100000
    assert L.aclrtCreateLabelList([lbl.value], 0, lst) == 107000
    assert L.aclrtCreateLabelList([lbl.value], 1, lst) == 0
    p = _malloc(4)
    assert L.aclrtSwitchLabelByIndex(None, 1, lst.value, s) == 100000
    assert L.aclrtSwitchLabelByIndex(p, 1, None, s) == 100000
    assert L.aclrtSwitchLabelByIndex(p, 1, lst.value, None) == 100000
    assert L.aclrtSwitchLabelByIndex(p, 1, lst.value, s) == 107005  # not a bound stream
    assert L.aclrtDestroyLabelList(lst.value) == 0
    assert L.aclrtDestroyLabelList(lst.value) == 107017
    assert L.aclrtDestroyLabel(lbl.value) == 0
    assert L.aclrtDestroyLabel(lbl.value) == 107017
    assert aclrtFree(p) == 0
    assert aclrtDestroyStream(s) == 0


# ---------------------------------------------------------------------------------------------
# CANN's checks of the label calls (audit 30): label.cc / label_starsv2.cc, api_impl.cc, api_c*.cc
# ---------------------------------------------------------------------------------------------


class _Built:
    """A model being built with one bound stream and an unbound one, released at the end."""

    def __init__(self) -> None:
        self.bound, self.other, self.free = _stream(), _stream(), _stream()
        m = Ref()
        assert A.aclmdlRIBuildBegin(m, 0) == 0
        self.model = m.value
        assert A.aclmdlRIBindStream(self.model, self.bound, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
        assert A.aclmdlRIBindStream(self.model, self.other, A.ACL_MODEL_STREAM_FLAG_DEFAULT) == 0

    def close(self) -> None:
        assert A.aclmdlRIDestroy(self.model) == 0
        for s in (self.bound, self.other, self.free):
            assert aclrtDestroyStream(s) == 0


def _labels(n: int) -> list[object]:
    out = []
    for _ in range(n):
        r = Ref()
        assert L.aclrtCreateLabel(r) == 0
        out.append(r.value)
    return out


def _listed(labels: list[object]) -> object:
    lst = Ref()
    assert L.aclrtCreateLabelList(labels, len(labels), lst) == 0
    return lst.value


def _inner_then(first: str, rt_fn: str, reason: str) -> str:
    return (
        f"EE9999: Internal error!\nEE9999(EE9999):  {first}\n"
        + TRACEBACK
        + f"       {rt_fn} execution failed, reason={reason}{FUNC_ERROR_REASON}\n"
    )


def _outer_then(headline: str, rt_fn: str, reason: str) -> str:
    return headline + TRACEBACK + f"{INDENT}{rt_fn} execution failed, reason={reason}{FUNC_ERROR_REASON}\n"


def test_a_label_is_set_once_on_one_stream_910b(dev0):
    b = _Built()
    (lbl,) = _labels(1)
    lst = _listed([lbl])
    assert L.aclrtSetLabel(lbl, b.bound) == 0
    assert L.aclrtSetLabel(lbl, b.bound) == 507000  # label.cc:166-167
    assert aclGetRecentErrMsg() == _outer_then(
        "Invalid_Argument_API_Call_Sequence(EE1018): rtLabelSet failed. Reason: The label cannot be set repeatedly.\n",
        "rtLabelSet",
        "label set error",
    )
    assert aclrtGetLastError(0) == 507000
    assert L.aclrtSetLabel(lbl, b.other) == 507000  # label.cc:161-165
    assert aclGetRecentErrMsg() == _outer_then(
        f"Invalid_Argument(EE1017): rtLabelSet failed. Parameter stream is invalid. Reason: The current stream "
        f"(stream_id={b.other.ident}) is inconsistent with the stream (stream_id={b.bound.ident}) associated with "
        "the label.\n",
        "rtLabelSet",
        "label stream error",
    )
    assert L.aclrtDestroyLabelList(lst) == 0 and L.aclrtDestroyLabel(lbl) == 0
    b.close()


def test_a_label_must_be_in_a_list_before_it_is_set_910b(dev0):
    b = _Built()
    (lbl,) = _labels(1)
    assert L.aclrtSetLabel(lbl, b.bound) == 507000  # label.cc:170-173, any TS version >= 2
    assert aclGetRecentErrMsg() == _outer_then(
        "Invalid_Argument_API_Call_Sequence(EE1018): aclrtSetLabel failed. Reason: Before setting the label using "
        "aclrtSetLabel, you need to call aclrtCreateLabelList to create a label list.\n",
        "rtLabelSet",
        "label phy addr null",
    )
    assert L.aclrtDestroyLabel(lbl) == 0
    b.close()


def test_setting_a_label_on_a_stream_without_a_model_is_107005(dev0, soc):
    b = _Built()
    (lbl,) = _labels(1)
    lst = _listed([lbl])
    assert L.aclrtSetLabel(lbl, b.free) == 107005  # label.cc:153 NULL_PTR_RETURN_MSG
    assert aclGetRecentErrMsg() == _inner_then(
        "Check param failed, stm->Model_() can not be null.[FUNC:Set][FILE:label.cc][LINE:153]",
        "rtLabelSet",
        "the relationship between the model and stream is incorrect.",
    )
    assert aclrtGetLastError(0) == 107005
    assert L.aclrtDestroyLabelList(lst) == 0 and L.aclrtDestroyLabel(lbl) == 0
    b.close()


@pytest.fixture
def dev950(soc):
    soc("Ascend950")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    yield
    aclrtResetDevice(0)
    aclFinalize()


def _refused_label_set(lbl, st, code: int, param: str, reason: str, fer: str) -> None:
    """aclrtSetLabel refused on Ascend950: CondLabelSet's EE1017, then rtLabelSet's reason."""
    assert L.aclrtSetLabel(lbl, st) == code
    assert aclGetRecentErrMsg() == _outer_then(
        f"Invalid_Argument(EE1017): Label setting failed. Parameter {param} is invalid. Reason: {reason}\n",
        "rtLabelSet",
        fer,
    )


def test_label_set_checks_on_ascend950(dev950):
    """CondLabelSet (label_starsv2.cc:61-77): the same checks, EE1017 texts of their own."""
    b = _Built()
    lbl, late = _labels(2)
    lst = _listed([lbl])
    _refused_label_set(
        lbl, b.free, 107005, "stream", "The stream must be bound to a model for label set operation.",
        "the relationship between the model and stream is incorrect.",
    )  # fmt: skip
    _refused_label_set(
        late, b.bound, 507000, "label", "Call rtLabelListCpy before setting label task.", "label phy addr null"
    )
    assert L.aclrtSetLabel(lbl, b.bound) == 0
    _refused_label_set(lbl, b.other, 507000, "label", "Label is already bound to another stream.", "label stream error")
    _refused_label_set(
        lbl, b.bound, 507000, "label", "Label has already been set, cannot set again.", "label set error"
    )
    assert L.aclrtDestroyLabelList(lst) == 0
    for x in (lbl, late):
        assert L.aclrtDestroyLabel(x) == 0
    b.close()


def test_a_label_belongs_to_one_list_for_good(dev0):
    """Label::SetLabelDevAddr (label.cc:295-300): a label already in a list, or twice in the same one,
    is refused; the labels before it keep their place, and destroying the list releases none."""
    one, two = _labels(2)
    lst = _listed([one])
    refused = (
        "EE9999: Internal error!\nEE9999(EE9999):  Label address is set repeatedly.[FUNC:SetLabelDevAddr]"
        "[FILE:label.cc][LINE:297]\n"
        + TRACEBACK
        + f"       rtsLabelSwitchListCreate execution failed, reason=have same labels in switch task{FUNC_ERROR_REASON}\n"
    )
    assert L.aclrtCreateLabelList([two, one], 2, Ref()) == 507000
    assert aclGetRecentErrMsg() == refused
    assert aclrtGetLastError(0) == 507000
    assert L.aclrtCreateLabelList([two], 1, Ref()) == 507000  # claimed by the refused list
    assert L.aclrtDestroyLabelList(lst) == 0
    assert L.aclrtCreateLabelList([one], 1, Ref()) == 507000  # still claimed
    (three,) = _labels(1)
    assert L.aclrtCreateLabelList([three, three], 2, Ref()) == 507000
    assert aclGetRecentErrMsg() == refused
    for x in (one, two, three):
        assert L.aclrtDestroyLabel(x) == 0


def test_switching_on_a_stream_without_a_model_is_107005(dev0):
    b = _Built()
    (lbl,) = _labels(1)
    lst = _listed([lbl])
    p = _malloc(4)
    assert L.aclrtSwitchLabelByIndex(p, 1, lst, b.free) == 107005  # api_impl.cc:5513-5516
    assert aclGetRecentErrMsg() == _outer_then(
        "Invalid_Argument(EE1011): Redirecting to the corresponding label position based on the label index "
        f"failed. Value 0 for parameter stm->modelNum is invalid. Reason: The stream (stream_id={b.free.ident}) is "
        "not bound to a model.\n" + RANGE_SOLUTION,
        "rtLabelSwitchByIndex",
        "the relationship between the model and stream is incorrect.",
    )
    assert aclrtGetLastError(0) == 107005
    assert aclrtFree(p) == 0
    assert L.aclrtDestroyLabelList(lst) == 0 and L.aclrtDestroyLabel(lbl) == 0
    b.close()


def test_switch_with_max_value_0_is_accepted_and_goes_to_the_last_label(dev0):
    """CANN checks no maxValue (label.cpp, ApiErrorDecorator::LabelSwitchByIndex)."""
    head, ex = _stream(), _exec_stream()
    idx, out = _malloc(4), _malloc(4)
    _put_u32(idx, 0)
    assert aclrtMemcpy(out, 4, np.zeros(4, np.uint8), 4, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    labels = _labels(2)
    lst = _listed(labels)
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, head, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    assert L.aclrtSwitchLabelByIndex(idx, 0, lst, head) == 0
    for i, lbl in enumerate(labels):
        assert L.aclrtSetLabel(lbl, head) == 0
        assert aclrtMemsetAsync(out + i, 1, 7, 1, head) == 0
    assert A.aclmdlRIEndTask(m.value, head) == 0
    assert A.aclmdlRIBuildEnd(m.value, None) == 0
    assert A.aclmdlRIExecuteAsync(m.value, ex) == 0
    assert aclrtSynchronizeStream(ex) == 0, aclGetRecentErrMsg()
    assert _bytes(out, 4) == [0, 7, 0, 0]
    assert A.aclmdlRIUnbindStream(m.value, head) == 0
    assert A.aclmdlRIDestroy(m.value) == 0
    assert L.aclrtDestroyLabelList(lst) == 0
    for lbl in labels:
        assert L.aclrtDestroyLabel(lbl) == 0
    for s in (head, ex):
        assert aclrtDestroyStream(s) == 0
    for p in (idx, out):
        assert aclrtFree(p) == 0


@pytest.mark.parametrize("num", [0, 65536])
def test_label_list_num_out_of_range_is_one_ee1003(dev0, num):
    """rtsLabelSwitchListCreate (api_c_model.cc:176-178), before the handles: no EE1001 after it."""
    assert L.aclrtCreateLabelList([object()], num, Ref()) == 107000
    assert aclGetRecentErrMsg() == (
        f"Invalid_Argument(EE1003): rtsLabelSwitchListCreate failed because value {num} for parameter num is "
        "invalid. Expected value: (0, 65535].\n" + RANGE_SOLUTION
    )
    assert aclrtGetLastError(0) == 107000


def test_handle_guards_name_the_rt_functions(dev0):
    b = _Built()
    (lbl,) = _labels(1)
    lst = _listed([lbl])
    (dead,) = _labels(1)
    assert L.aclrtDestroyLabel(dead) == 0
    assert L.aclrtDestroyLabel(dead) == 107017
    assert aclGetRecentErrMsg() == bad_handle("label", "rtLabelDestroy")
    assert L.aclrtSetLabel(dead, b.bound) == 107017
    assert aclGetRecentErrMsg() == bad_handle("label", "rtLabelSet")
    s = _stream()
    assert aclrtDestroyStream(s) == 0
    assert L.aclrtSetLabel(lbl, s) == 107017
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtLabelSet")
    assert L.aclrtCreateLabelList([dead], 1, Ref()) == 107017
    assert aclGetRecentErrMsg() == bad_handle("label", "rtsLabelSwitchListCreate")
    p = _malloc(4)
    assert L.aclrtSwitchLabelByIndex(p, 1, lst, s) == 107017
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtLabelSwitchByIndex")
    assert aclrtFree(p) == 0
    assert L.aclrtDestroyLabelList(lst) == 0 and L.aclrtDestroyLabel(lbl) == 0
    b.close()


def test_label_list_and_label_destruction_need_the_labels_context(dev0):
    (lbl,) = _labels(1)
    primary, ctx = Ref(), Ref()
    assert aclrtGetCurrentContext(primary) == 0
    assert aclrtCreateContext(ctx, 0) == 0  # now current
    assert L.aclrtDestroyLabel(lbl) == 507031  # api_impl.cc:5120-5124
    assert aclGetRecentErrMsg() == _outer_then(
        "Execution_Error_Invalid_Context(EE1010): Label destruction execution failed because label does not "
        f"belong to the current context. Extended information: label_id={lbl.ident}, "
        f"label_ctx={lbl.context.pointer}, cur_ctx={ctx.value.pointer}.\n",
        "rtLabelDestroy",
        "label not in current ctx",
    )
    assert aclrtGetLastError(0) == 507031
    assert aclrtSetCurrentContext(primary.value) == 0
    assert aclrtDestroyContext(ctx.value) == 0
    errors: list[int] = []

    def unbound() -> None:  # a thread without a context: api_impl.cc:5617-5618, 5120-5121
        errors.append(L.aclrtCreateLabelList([lbl], 1, Ref()))
        errors.append(L.aclrtDestroyLabel(lbl))

    t = threading.Thread(target=unbound)
    t.start()
    t.join()
    assert errors == [107002, 107002]
    assert L.aclrtDestroyLabel(lbl) == 0
