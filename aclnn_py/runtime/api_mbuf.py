"""Shared buffers (mbufs) of ``acl_rt.h``: aclrtAllocBuf / aclrtFreeBuf, their data, data length
and user data, references (aclrtCopyBufRef) and chains.

An mbuf is a header (data length, a 96-byte user-data area, its chain) over a data block of pinned
host memory from the simulated memory (so the memcpy functions and the sanitizer know it);
aclrtCopyBufRef makes a second header over the same block, which is given back when the last
header is freed. The ACL layer's checks, order and codes are CANN's (hicann/runtime
``src/acl/aclrt_impl/memory.cpp``: not-null, ``size`` > 0, ``size + offset`` ≤ 96 for the user
data with EH0009, ``size + offset`` within the area with a log line only). The runtime layer
below (``rtMbuf*``, the driver's buffer pool) is modelled, not read: a header aclnn_py did not
make is refused with an ``aclnn_py`` message.
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np

from .._capi import ApiError, describe
from .._ref import Ref, store
from . import sanitizer
from ._checks import PARAM, RT_PARAM, E, acl_null, acl_reason, acl_value, emu, int_arg, rt_api
from .api_memory import allocate_pinned
from .device import RT
from .memory import SPACE, MemoryFault, call_site

MEM_SIZE_MAX = 96  # the user-data area (memory.cpp)


class _Block:
    """The data block headers share, and how many headers hold it."""

    __slots__ = ("ptr", "refs", "size")

    def __init__(self, ptr: int, size: int) -> None:
        self.ptr = ptr
        self.size = size
        self.refs = 1


class aclrtMbuf:
    """``aclrtMbuf``: one header over a data block."""

    __slots__ = ("block", "chain", "data_len", "freed", "user")

    def __init__(self, block: _Block) -> None:
        self.block = block
        self.data_len = 0
        self.user = bytearray(MEM_SIZE_MAX)
        self.chain: list[aclrtMbuf] = []  # the bufs appended after this head
        self.freed = False

    def __repr__(self) -> str:
        return f"<aclrtMbuf 0x{self.block.ptr:x} {self.block.size} bytes, {self.data_len} used>"


_lock = threading.Lock()


def _null(api: str, **args: object) -> None:
    for name, value in args.items():
        if value is None:
            raise ApiError(PARAM, acl_null(api, name))


def _live(buf: object, api: str, name: str) -> aclrtMbuf:
    if not isinstance(buf, aclrtMbuf) or buf.freed:
        raise ApiError(RT_PARAM, emu(f"{api}: {name} is {describe(buf)}, not a live mbuf of aclrtAllocBuf."))
    return buf


def _out(obj: object, api: str, name: str) -> object:
    if not isinstance(obj, (Ref, ctypes._SimpleCData)):  # a C caller's size_t / uint32_t
        raise ApiError(PARAM, emu(f"{api}: {name} must be an out-parameter (Ref()), got {describe(obj)}."))
    return obj


@rt_api
def aclrtAllocBuf(buf: object, size: int) -> int:
    """A new mbuf of ``size`` data bytes (pinned host memory)."""
    api = "aclrtAllocBuf"
    _null(api, buf=buf)
    n = int_arg(size, "size", 0, 2**64 - 1)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "size", "must be greater than 0"))
    out = _out(buf, api, "buf")
    alloc = allocate_pinned(n, api, api)
    sanitizer.on_alloc(alloc, initialised=True)
    store(out, aclrtMbuf(_Block(alloc.start, n)))
    return E.ACL_SUCCESS


@rt_api
def aclrtFreeBuf(buf: object) -> int:
    """Free an mbuf header; its data block goes when no header (aclrtCopyBufRef) holds it."""
    api = "aclrtFreeBuf"
    _null(api, buf=buf)
    with _lock:
        mb = _live(buf, api, "buf")
        mb.freed = True
        block = mb.block
        block.refs -= 1
        last = block.refs == 0
    if last:
        try:
            freed = SPACE.free(block.ptr, api, call_site())
        except MemoryFault as fault:  # the block was freed with aclrtFreeHost behind our back
            raise ApiError(RT_PARAM, emu(f"{api}: {fault.message}")) from None
        with RT.lock:
            RT.host_used -= freed.size
    return E.ACL_SUCCESS


@rt_api
def aclrtGetBufData(buf: object, dataPtr: object, size: object) -> int:
    """The data block's address and size."""
    api = "aclrtGetBufData"
    _null(api, buf=buf, dataPtr=dataPtr, size=size)
    mb = _live(buf, api, "buf")
    store(_out(dataPtr, api, "dataPtr"), mb.block.ptr)
    store(_out(size, api, "size"), mb.block.size)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetBufDataLen(buf: object, len: object) -> int:
    """The length of valid data (aclrtSetBufDataLen's)."""
    api = "aclrtGetBufDataLen"
    _null(api, buf=buf, len=len)
    mb = _live(buf, api, "buf")
    store(_out(len, api, "len"), mb.data_len)
    return E.ACL_SUCCESS


@rt_api
def aclrtSetBufDataLen(buf: object, len: int) -> int:
    """Record the length of valid data (at most the block's size)."""
    api = "aclrtSetBufDataLen"
    _null(api, buf=buf)
    mb = _live(buf, api, "buf")
    n = int_arg(len, "len", 0, 2**64 - 1)
    if n > mb.block.size:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: a data length of {n} bytes is more than the mbuf's {mb.block.size} (the driver refuses it)."),
        )
    mb.data_len = n
    return E.ACL_SUCCESS


def _user_range(api: str, size: object, offset: object) -> tuple[int, int]:
    n = int_arg(size, "size", 0, 2**64 - 1)
    off = int_arg(offset, "offset", 0, 2**64 - 1)
    if n + off > MEM_SIZE_MAX:
        raise ApiError(
            PARAM,
            acl_reason(
                api,
                n,
                "size",
                f"the sum of size and offset is greater than {MEM_SIZE_MAX}, size={n}, offset={off}"
                + ("." if api == "aclrtGetBufUserData" else ""),
            ),
        )
    return n, off


def _host(obj: object, api: str, writable: bool) -> memoryview:
    try:
        mv = memoryview(obj).cast("B")  # type: ignore[arg-type]
    except TypeError:
        raise ApiError(PARAM, emu(f"{api}: dataPtr is {describe(obj)}, not a host buffer.")) from None
    if writable and mv.readonly:
        raise ApiError(PARAM, emu(f"{api}: dataPtr is read-only; the destination must be writable."))
    return mv


@rt_api
def aclrtGetBufUserData(buf: object, dataPtr: object, size: int, offset: int) -> int:
    """Copy ``size`` bytes of the user-data area from ``offset`` into ``dataPtr``."""
    api = "aclrtGetBufUserData"
    n, off = _user_range(api, size, offset)
    _null(api, buf=buf, dataPtr=dataPtr)
    mb = _live(buf, api, "buf")
    dst = _host(dataPtr, api, True)
    if dst.nbytes < n:
        raise ApiError(PARAM, emu(f"{api}: dataPtr holds {dst.nbytes} bytes, size is {n}."))
    dst[:n] = mb.user[off : off + n]
    return E.ACL_SUCCESS


@rt_api
def aclrtSetBufUserData(buf: object, dataPtr: object, size: int, offset: int) -> int:
    """Copy ``size`` bytes of ``dataPtr`` into the user-data area at ``offset``."""
    api = "aclrtSetBufUserData"
    n, off = _user_range(api, size, offset)
    _null(api, buf=buf, dataPtr=dataPtr)
    mb = _live(buf, api, "buf")
    src = _host(dataPtr, api, False)
    if src.nbytes < n:
        raise ApiError(PARAM, emu(f"{api}: dataPtr holds {src.nbytes} bytes, size is {n}."))
    mb.user[off : off + n] = src[:n]
    return E.ACL_SUCCESS


@rt_api
def aclrtCopyBufRef(buf: object, newBuf: object) -> int:
    """A second header over the same data (its data length and user data copied)."""
    api = "aclrtCopyBufRef"
    _null(api, buf=buf, newBuf=newBuf)
    with _lock:
        mb = _live(buf, api, "buf")
        out = _out(newBuf, api, "newBuf")
        mb.block.refs += 1
        copy = aclrtMbuf(mb.block)
        copy.data_len = mb.data_len
        copy.user[:] = mb.user
    store(out, copy)
    return E.ACL_SUCCESS


@rt_api
def aclrtAppendBufChain(headBuf: object, buf: object) -> int:
    """Append ``buf`` to the chain that ``headBuf`` heads."""
    api = "aclrtAppendBufChain"
    _null(api, headBuf=headBuf, buf=buf)
    with _lock:
        head = _live(headBuf, api, "headBuf")
        tail = _live(buf, api, "buf")
        if tail is head or tail in head.chain:
            raise ApiError(RT_PARAM, emu(f"{api}: buf is already in this chain; a chain cannot hold it twice."))
        head.chain.append(tail)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetBufChainNum(headBuf: object, num: object) -> int:
    """The number of mbufs in the chain (the head included)."""
    api = "aclrtGetBufChainNum"
    _null(api, headBuf=headBuf, num=num)
    head = _live(headBuf, api, "headBuf")
    store(_out(num, api, "num"), 1 + len(head.chain))
    return E.ACL_SUCCESS


@rt_api
def aclrtGetBufFromChain(headBuf: object, index: int, buf: object) -> int:
    """The chain's mbuf at ``index`` (0: the head)."""
    api = "aclrtGetBufFromChain"
    _null(api, headBuf=headBuf, buf=buf)
    head = _live(headBuf, api, "headBuf")
    i = int_arg(index, "index", 0, 2**32 - 1)
    members = [head, *head.chain]
    if i >= len(members):
        raise ApiError(RT_PARAM, emu(f"{api}: index {i} is past the chain's {len(members)} mbuf(s)."))
    store(_out(buf, api, "buf"), members[i])
    return E.ACL_SUCCESS


def data_view(buf: aclrtMbuf) -> np.ndarray:
    """The mbuf's data block as a writable uint8 array (a Python helper, not a CANN call)."""
    alloc, off = SPACE.check(buf.block.ptr, buf.block.size, "write", "mbuf data")
    view: np.ndarray = alloc.buf[off : off + buf.block.size]
    return view


__all__ = [
    "aclrtAllocBuf",
    "aclrtAppendBufChain",
    "aclrtCopyBufRef",
    "aclrtFreeBuf",
    "aclrtGetBufChainNum",
    "aclrtGetBufData",
    "aclrtGetBufDataLen",
    "aclrtGetBufFromChain",
    "aclrtGetBufUserData",
    "aclrtMbuf",
    "aclrtSetBufDataLen",
    "aclrtSetBufUserData",
]
