"""Shared buffers (mbufs) of acl_rt.h: allocation over pinned host memory of the simulated memory,
data length, the 96-byte user data with CANN's checks (src/acl/aclrt_impl/memory.cpp), references
and chains."""

from __future__ import annotations

import numpy as np
from rt_texts import null

from aclnn_py import Ref, aclGetRecentErrMsg, aclrtMemcpy
from aclnn_py.runtime import api_mbuf as M


def test_alloc_data_and_free(dev0) -> None:
    buf = Ref()
    assert M.aclrtAllocBuf(buf, 0) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtAllocBuf failed because value 0 for parameter size is invalid."
    )
    assert M.aclrtAllocBuf(None, 8) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAllocBuf", "buf"))
    assert M.aclrtAllocBuf(buf, 64) == 0
    ptr, size = Ref(), Ref()
    assert M.aclrtGetBufData(buf.value, ptr, size) == 0 and size.value == 64
    src = np.arange(16, dtype=np.float32)
    assert aclrtMemcpy(ptr.value, 64, src, 64, 0) == 0  # the data block is pinned host memory
    assert M.data_view(buf.value).view(np.float32).tolist() == src.tolist()
    assert M.aclrtSetBufDataLen(buf.value, 48) == 0
    length = Ref()
    assert M.aclrtGetBufDataLen(buf.value, length) == 0 and length.value == 48
    assert M.aclrtFreeBuf(buf.value) == 0
    assert M.aclrtFreeBuf(buf.value) == 107000
    assert "not a live mbuf of aclrtAllocBuf" in aclGetRecentErrMsg()


def test_user_data(dev0) -> None:
    buf = Ref()
    assert M.aclrtAllocBuf(buf, 16) == 0
    assert M.aclrtSetBufUserData(buf.value, b"\x01\x02\x03\x04", 4, 92) == 0
    out = bytearray(4)
    assert M.aclrtGetBufUserData(buf.value, out, 4, 92) == 0 and bytes(out) == b"\x01\x02\x03\x04"
    assert M.aclrtSetBufUserData(buf.value, b"\x00" * 8, 8, 90) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): aclrtSetBufUserData failed. Value 8 for parameter size is invalid. Reason: the "
        "sum of size and offset is greater than 96, size=8, offset=90."
    )
    # the size check comes before the not-null checks
    assert M.aclrtGetBufUserData(None, None, 97, 0) == 100000
    assert "the sum of size and offset is greater than 96, size=97, offset=0.." in aclGetRecentErrMsg()
    assert M.aclrtGetBufUserData(buf.value, None, 4, 0) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtGetBufUserData", "dataPtr"))
    assert M.aclrtFreeBuf(buf.value) == 0


def test_references_and_chains(dev0) -> None:
    head, ref, other = Ref(), Ref(), Ref()
    assert M.aclrtAllocBuf(head, 32) == 0 and M.aclrtAllocBuf(other, 8) == 0
    assert M.aclrtSetBufDataLen(head.value, 5) == 0
    assert M.aclrtCopyBufRef(head.value, ref) == 0
    a, b = Ref(), Ref()
    assert M.aclrtGetBufData(head.value, a, Ref()) == 0 and M.aclrtGetBufData(ref.value, b, Ref()) == 0
    assert a.value == b.value  # one data block, two headers
    length = Ref()
    assert M.aclrtGetBufDataLen(ref.value, length) == 0 and length.value == 5
    assert M.aclrtFreeBuf(head.value) == 0
    M.data_view(ref.value)[:] = 7  # the block lives on while a reference holds it
    assert M.aclrtAppendBufChain(ref.value, other.value) == 0
    assert M.aclrtAppendBufChain(ref.value, other.value) == 107000
    aclGetRecentErrMsg()
    num, got = Ref(), Ref()
    assert M.aclrtGetBufChainNum(ref.value, num) == 0 and num.value == 2
    assert M.aclrtGetBufFromChain(ref.value, 1, got) == 0 and got.value is other.value
    assert M.aclrtGetBufFromChain(ref.value, 2, got) == 107000
    aclGetRecentErrMsg()
    assert M.aclrtAppendBufChain(None, other.value) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtAppendBufChain", "headBuf"))
    assert M.aclrtFreeBuf(ref.value) == 0 and M.aclrtFreeBuf(other.value) == 0
