"""Labels (aclrtCreateLabel ... aclrtSwitchLabelByIndex) on the streams of a built model."""

from __future__ import annotations

import numpy as np
import pytest

from aclnn_py import (
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_STREAM_PERSISTENT,
    aclGetRecentErrMsg,
    aclrtCreateStreamWithConfig,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemsetAsync,
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
    head, ex = _stream(), _stream()
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
    assert L.aclrtSetLabel(lbl.value, s) == 107000  # not a bound stream
    assert L.aclrtCreateLabelList(None, 1, lst) == 100000
    assert L.aclrtCreateLabelList([lbl.value], 1, None) == 100000
    assert L.aclrtCreateLabelList([lbl.value], 0, lst) == 107000
    assert L.aclrtCreateLabelList([lbl.value], 1, lst) == 0
    p = _malloc(4)
    assert L.aclrtSwitchLabelByIndex(None, 1, lst.value, s) == 100000
    assert L.aclrtSwitchLabelByIndex(p, 1, None, s) == 100000
    assert L.aclrtSwitchLabelByIndex(p, 1, lst.value, None) == 100000
    assert L.aclrtSwitchLabelByIndex(p, 1, lst.value, s) == 107000  # not a bound stream
    assert L.aclrtDestroyLabelList(lst.value) == 0
    assert L.aclrtDestroyLabelList(lst.value) == 107017
    assert L.aclrtDestroyLabel(lbl.value) == 0
    assert L.aclrtDestroyLabel(lbl.value) == 107017
    assert aclrtFree(p) == 0
    assert aclrtDestroyStream(s) == 0
