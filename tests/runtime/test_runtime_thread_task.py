"""aclrtGetThreadLastTaskId: the id of the last task the calling thread submitted (CANN's
InnerThreadLocalContainer::GetLastTaskId), the number exception callbacks report as taskid."""

from __future__ import annotations

import threading

from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_MEM_MALLOC_HUGE_FIRST,
    Ref,
    aclGetRecentErrMsg,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtGetThreadLastTaskId,
    aclrtMalloc,
    aclrtMemsetAsync,
    aclrtSynchronizeStream,
)


def test_the_last_task_of_this_thread(dev0):
    s, p = Ref(), Ref()
    assert aclrtCreateStream(s) == 0 and aclrtMalloc(p, 64, ACL_MEM_MALLOC_HUGE_FIRST) == 0
    ids = []
    for _ in range(2):
        assert aclrtMemsetAsync(p.value, 64, 0, 64, s.value) == 0
        t = Ref()
        assert aclrtGetThreadLastTaskId(t) == 0
        ids.append(t.value)
    assert ids[1] > ids[0]  # each submission is a new task

    seen = []

    def other() -> None:  # another thread's submissions do not move this thread's answer
        assert aclrtMemsetAsync(p.value, 64, 1, 64, s.value) == 0
        t = Ref()
        aclrtGetThreadLastTaskId(t)
        seen.append(t.value)

    from aclnn_py import aclrtGetCurrentContext, aclrtSetCurrentContext

    ctx = Ref()
    aclrtGetCurrentContext(ctx)

    def run() -> None:
        aclrtSetCurrentContext(ctx.value)
        other()

    th = threading.Thread(target=run)
    th.start()
    th.join()
    t = Ref()
    assert aclrtGetThreadLastTaskId(t) == 0 and t.value == ids[1] and seen[0] > ids[1]
    assert aclrtSynchronizeStream(s.value) == 0
    aclrtFree(p.value)
    aclrtDestroyStream(s.value)


def test_a_null_task_id(dev0):
    assert aclrtGetThreadLastTaskId(None) == ACL_ERROR_INVALID_PARAM
    assert "aclrtGetThreadLastTaskId failed because taskId cannot be a NULL pointer." in aclGetRecentErrMsg()
