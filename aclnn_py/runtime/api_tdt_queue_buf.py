"""The calls of ``acl/acl_tdt_queue.h`` that CANN's host side refuses: mbuf queues
(acltdtEnqueue/acltdtDequeue), the acltdt mbuf family (acltdtAllocBuf ... acltdtCopyBufRef), and
queue sharing between processes (acltdtGrantQueue/acltdtAttachQueue).

An aclnn_py program is a host program (aclrtGetRunMode answers ACL_HOST), and CANN's queue manager
gives a host program ``QueueProcessorHost`` (hicann/runtime
``src/acl/acl_tdt_queue/queue_process_host.cpp``), whose mbuf calls return
ACL_ERROR_FEATURE_UNSUPPORTED (200006) with EH0011 "The current system or device does not support
<call>." before looking at their arguments; grant and attach are the base processor's, refused the
same way on every side (``queue_process.cpp``), and CANN's documentation lists acltdtEnqueue and
acltdtDequeue as unsupported on every product (docs/zh/api_ref/17-02_shared_queue_management.md).
acltdtAllocBuf checks its type and ``buf`` first (``queue.cpp``). Each refusal adds an ``aclnn_py``
line saying what to use instead. The runtime's own mbufs (aclrtAllocBuf ..., acl_rt.h) work.
"""

from __future__ import annotations

from .._capi import ApiError
from ._checks import PARAM, E, acl_null, acl_value, emu, int_arg, rt_api

_HOST_MBUF = (
    "aclnn_py runs as a host program (aclrtGetRunMode: ACL_HOST), where CANN's queue processor refuses "
    "the mbuf queue calls; move data with acltdtEnqueueData/acltdtDequeueData, or use aclrtAllocBuf's mbufs."
)
_ONE_PROCESS = (
    "queues are shared with another process through the device's queue driver; aclnn_py's queues live in "
    "this process (and CANN refuses the call on every side)."
)


def _refuse(api: str, why: str) -> ApiError:
    return ApiError(
        E.ACL_ERROR_FEATURE_UNSUPPORTED,
        ("EH0011", f"The current system or device does not support {api}."),
        emu(f"{api}: {why}"),
    )


def _numbers(**args: object) -> None:
    """The emulator's own type check of the numbers (CANN reads none of them)."""
    for name, value in args.items():
        int_arg(value, name, -(2**63), 2**64 - 1)


@rt_api
def acltdtGrantQueue(qid: int, pid: int, permission: int, timeout: int) -> int:
    """Grant another process rights on a queue: 200006 (CANN does not support it)."""
    _numbers(qid=qid, pid=pid, permission=permission, timeout=timeout)
    raise _refuse("acltdtGrantQueue", _ONE_PROCESS)


@rt_api
def acltdtAttachQueue(qid: int, timeout: int, permission: object) -> int:
    """Attach a queue another process granted: 200006 (CANN does not support it)."""
    _numbers(qid=qid, timeout=timeout)
    raise _refuse("acltdtAttachQueue", _ONE_PROCESS)


@rt_api
def acltdtEnqueue(qid: int, buf: object, timeout: int) -> int:
    """Enqueue an mbuf: 200006 on the host."""
    _numbers(qid=qid, timeout=timeout)
    raise _refuse("acltdtEnqueue", _HOST_MBUF)


@rt_api
def acltdtDequeue(qid: int, buf: object, timeout: int) -> int:
    """Dequeue an mbuf: 200006 on the host."""
    _numbers(qid=qid, timeout=timeout)
    raise _refuse("acltdtDequeue", _HOST_MBUF)


@rt_api
def acltdtAllocBuf(size: int, type: int, buf: object) -> int:
    """Allocate an mbuf: the type (0 or 1) and ``buf`` are checked, then 200006 on the host."""
    api = "acltdtAllocBuf"
    int_arg(size, "size", 0, 2**64 - 1)
    kind = int_arg(type, "type", 0, 2**32 - 1)
    if kind not in (0, 1):
        desc = {0: "TDT_NORMAL_MEM(0)", 1: "TDT_DVPP_MEM(1)"}.get(
            kind, f"UNKNOWN({kind - 2**32 if kind >= 2**31 else kind})"
        )
        raise ApiError(PARAM, acl_value(api, desc, "type", "[0, 1]"))
    if buf is None:
        raise ApiError(PARAM, acl_null(api, "buf"))
    raise _refuse(api, _HOST_MBUF)


@rt_api
def acltdtFreeBuf(buf: object) -> int:
    """Free an mbuf: 200006 on the host."""
    raise _refuse("acltdtFreeBuf", _HOST_MBUF)


@rt_api
def acltdtGetBufData(buf: object, dataPtr: object, size: object) -> int:
    """An mbuf's data: 200006 on the host."""
    raise _refuse("acltdtGetBufData", _HOST_MBUF)


@rt_api
def acltdtSetBufDataLen(buf: object, len: int) -> int:
    """Set an mbuf's data length: 200006 on the host."""
    raise _refuse("acltdtSetBufDataLen", _HOST_MBUF)


@rt_api
def acltdtGetBufDataLen(buf: object, len: object) -> int:
    """An mbuf's data length: 200006 on the host."""
    raise _refuse("acltdtGetBufDataLen", _HOST_MBUF)


@rt_api
def acltdtAppendBufChain(headBuf: object, buf: object) -> int:
    """Append to an mbuf chain: 200006 on the host."""
    raise _refuse("acltdtAppendBufChain", _HOST_MBUF)


@rt_api
def acltdtGetBufChainNum(headBuf: object, num: object) -> int:
    """An mbuf chain's length: 200006 on the host."""
    raise _refuse("acltdtGetBufChainNum", _HOST_MBUF)


@rt_api
def acltdtGetBufFromChain(headBuf: object, index: int, buf: object) -> int:
    """An mbuf of a chain: 200006 on the host."""
    raise _refuse("acltdtGetBufFromChain", _HOST_MBUF)


@rt_api
def acltdtGetBufUserData(buf: object, dataPtr: object, size: int, offset: int) -> int:
    """Read an mbuf's user data: 200006 on the host."""
    raise _refuse("acltdtGetBufUserData", _HOST_MBUF)


@rt_api
def acltdtSetBufUserData(buf: object, dataPtr: object, size: int, offset: int) -> int:
    """Write an mbuf's user data: 200006 on the host."""
    raise _refuse("acltdtSetBufUserData", _HOST_MBUF)


@rt_api
def acltdtCopyBufRef(buf: object, newBuf: object) -> int:
    """A second reference to an mbuf: 200006 on the host."""
    raise _refuse("acltdtCopyBufRef", _HOST_MBUF)


__all__ = [
    "acltdtAllocBuf",
    "acltdtAppendBufChain",
    "acltdtAttachQueue",
    "acltdtCopyBufRef",
    "acltdtDequeue",
    "acltdtEnqueue",
    "acltdtFreeBuf",
    "acltdtGetBufChainNum",
    "acltdtGetBufData",
    "acltdtGetBufDataLen",
    "acltdtGetBufFromChain",
    "acltdtGetBufUserData",
    "acltdtGrantQueue",
    "acltdtSetBufDataLen",
    "acltdtSetBufUserData",
]
