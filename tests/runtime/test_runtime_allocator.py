"""External allocators (acl/acl_rt_allocator.h): the description record, its registration per
stream and aclrtAllocatorGetByStream, with CANN's checks and codes (src/acl/aclrt_impl/
allocator.cpp). aclnn_py has no graph engine, the only caller of a registered allocator in CANN,
so the test checks what is stored and handed back."""

from __future__ import annotations

from rt_texts import null

from aclnn_py import Ref, aclGetRecentErrMsg, aclrtCreateStream, aclrtDestroyStream
from aclnn_py.runtime import api_allocator as A


def _alloc(allocator: object, size: int) -> int:
    return 0x1000 + size


def _free(allocator: object, block: object) -> None:
    return None


def _addr(block: object) -> object:
    return block


def test_register_and_get_back(dev0) -> None:
    stream = Ref()
    assert aclrtCreateStream(stream) == 0
    desc = A.aclrtAllocatorCreateDesc()
    pool = object()
    assert A.aclrtAllocatorSetObjToDesc(desc, pool) == 0
    assert A.aclrtAllocatorSetAllocFuncToDesc(desc, _alloc) == 0
    assert A.aclrtAllocatorSetFreeFuncToDesc(desc, _free) == 0
    assert A.aclrtAllocatorRegister(stream.value, desc) == 100000  # getAddrFromBlock is still missing
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorRegister", "allocatorDesc->getAddrFromBlockFunc"))
    assert A.aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, _addr) == 0
    assert A.aclrtAllocatorRegister(stream.value, desc) == 0
    assert A.aclrtAllocatorSetAllocFuncToDesc(desc, _free) == 0  # later changes do not reach the registration
    outs = [Ref() for _ in range(6)]
    assert A.aclrtAllocatorGetByStream(stream.value, *outs) == 0
    assert [o.value for o in outs] == [desc, pool, _alloc, _free, None, _addr]
    got = Ref()
    assert A.aclrtAllocatorGetByStream(stream.value, got, None, None, None, None, None) == 0 and got.value is desc
    assert A.aclrtAllocatorDestroyDesc(desc) == 0
    assert A.registered(stream.value) == (pool, _alloc, _free, None, _addr)  # the copy outlives the record
    assert A.aclrtAllocatorUnregister(stream.value) == 0
    assert A.aclrtAllocatorUnregister(stream.value) == 0  # nothing registered: still a success
    assert A.aclrtAllocatorGetByStream(stream.value, Ref(), None, None, None, None, None) == 100000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EH0012): aclrtAllocatorGetByStream failed. Parameter stream is invalid. Reason: The stream "
        "is not registered with any allocator.\n"
    )
    assert aclrtDestroyStream(stream.value) == 0


def test_null_checks_in_order(dev0) -> None:
    desc = A.aclrtAllocatorCreateDesc()
    assert A.aclrtAllocatorDestroyDesc(None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorDestroyDesc", "allocatorDesc"))
    assert A.aclrtAllocatorSetObjToDesc(None, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorSetObjToDesc", "allocatorDesc"))
    assert A.aclrtAllocatorSetFreeFuncToDesc(desc, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorSetFreeFuncToDesc", "func"))
    assert A.aclrtAllocatorSetAllocAdviseFuncToDesc(desc, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorSetAllocAdviseFuncToDesc", "func"))
    assert A.aclrtAllocatorRegister(None, desc) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorRegister", "stream"))
    assert A.aclrtAllocatorRegister(object(), desc) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorRegister", "allocatorDesc->obj"))
    assert A.aclrtAllocatorGetByStream(object(), None, None, None, None, None, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorGetByStream", "allocatorDesc"))
    assert A.aclrtAllocatorUnregister(None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocatorUnregister", "stream"))
    assert A.aclrtAllocatorDestroyDesc(desc) == 0
