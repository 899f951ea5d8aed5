"""Stop 31: aclrtSynchronizeDevice and the streams bound to a model.

Binding a stream to a model takes it out of its context's streams_ (Context::ModelBindStream /
ModelAddStream, hicann/runtime context.cc:2015-2050); unbinding it (Context::ModelUnbindStream /
ModelDelStream, context.cc:1997-2068) or destroying its model (Model::~Model's InsertStreamList,
model.cc:102-108) puts it back. Context::Synchronize (context.cc:1219-1243) waits for streams_ only,
so a bound stream's work is neither waited for, nor ordered for the host, nor its failure reported.
On Ascend910B (no RT_FEATURE_MODEL_STREAM_DOT_SYNC) a persistent stream is otherwise waited for.
"""

from __future__ import annotations

from rt_streams import failing_copy, filled, new_stream, read_back

from aclnn_py import (
    ACL_ERROR_RT_SYS_DMA,
    ACL_STREAM_PERSISTENT,
    Ref,
    aclGetRecentErrMsg,
)
from aclnn_py.runtime import api as A


def _bound(st: object) -> object:
    """A model being built with ``st`` bound to it (as its head stream)."""
    m = Ref()
    assert A.aclmdlRIBuildBegin(m, 0) == 0
    assert A.aclmdlRIBindStream(m.value, st, A.ACL_MODEL_STREAM_FLAG_HEAD) == 0
    return m.value


def test_device_synchronize_does_not_order_a_bound_streams_work(deferred, dev0, findings):
    """Work queued on the stream before it was bound: the device's synchronize does not wait for it,
    so the host's read after it is a synccheck finding (the device still ran it)."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, st) == 0
    m = _bound(st)
    findings.refresh()
    assert A.aclrtSynchronizeDevice() == 0
    assert (read_back(p) == 5).all()
    assert findings.refresh().checks() == ["synccheck"]
    assert f"queued on {st!r}" in findings.text()
    aclGetRecentErrMsg()
    assert A.aclmdlRIDestroy(m) == 0
    assert A.aclrtDestroyStream(st) == 0 and A.aclrtFree(p) == 0


def test_device_synchronize_does_not_report_a_bound_streams_failure(deferred, dev0, findings):
    """A bound stream's failing task is not the device synchronize's failure (failing_copy's free is
    a synccheck finding: a persistent stream's work is not waited for by its synchronize)."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    failing_copy(st)
    m = _bound(st)
    aclGetRecentErrMsg()
    assert A.aclrtSynchronizeDevice() == 0
    assert aclGetRecentErrMsg() is None
    assert A.aclmdlRIDestroy(m) == 0
    assert A.aclrtDestroyStreamForce(st) == 0


def test_device_synchronize_waits_for_a_stream_again_once_unbound(deferred, dev0, findings):
    """Context::ModelUnbindStream puts the stream back: its work is waited for and its failure
    reported again."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    m = _bound(st)
    assert A.aclmdlRIUnbindStream(m, st) == 0
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, st) == 0
    failing_copy(st)  # its free is a synccheck finding (a persistent stream's own synchronize would not wait)
    before = len(findings.refresh())
    aclGetRecentErrMsg()
    assert A.aclrtSynchronizeDevice() == ACL_ERROR_RT_SYS_DMA
    assert "aclrtMemcpyAsync task failed" in aclGetRecentErrMsg()
    assert (read_back(p) == 5).all()
    assert len(findings.refresh()) == before
    assert A.aclmdlRIDestroy(m) == 0
    assert A.aclrtDestroyStreamForce(st) == 0 and A.aclrtFree(p) == 0


def test_device_synchronize_waits_for_a_stream_again_once_its_model_is_destroyed(deferred, dev0, findings):
    """Model::~Model returns its bound streams to the context (InsertStreamList): the work queued
    while bound and not waited for is waited for by the next device synchronize."""
    st = new_stream(ACL_STREAM_PERSISTENT)
    p = filled()
    assert A.aclrtMemsetAsync(p, 16, 5, 16, st) == 0
    m = _bound(st)
    assert A.aclmdlRIDestroy(m) == 0
    findings.refresh()
    assert A.aclrtSynchronizeDevice() == 0
    assert (read_back(p) == 5).all()
    assert findings.refresh() == []
    assert A.aclrtDestroyStream(st) == 0 and A.aclrtFree(p) == 0
