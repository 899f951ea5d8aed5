"""The ``aclDataBuffer`` family of ``acl_base_rt.h`` (acl_base.h): a descriptor of an address and
a size, used around model and operator calls. It never owns the memory it describes."""

from __future__ import annotations

from .._capi import ApiError, as_int, as_pointer, c_api, describe
from ._checks import INTERNAL, PARAM, E, acl_null, emu, rt_api


class aclDataBuffer:
    """``aclDataBuffer``: ``{void* data; uint64_t length;}`` (data_buffer_internal.h)."""

    __slots__ = ("data", "destroyed", "length")

    def __init__(self, data: int | None, length: int) -> None:
        self.data = data
        self.length = length
        self.destroyed = False

    def __repr__(self) -> str:
        where = f"0x{self.data:x}" if self.data else "NULL"
        return f"<aclDataBuffer {where}, {self.length} bytes>"


def _data(data: object, api: str) -> int | None:
    ptr = as_pointer(data)
    if ptr is not None and ptr < 0:
        raise ApiError(PARAM, emu(f"{api}: data is {describe(data)}; pass a pointer (an int) or None."))
    return ptr


def _size(size: object) -> int:
    return as_int(size, "size", PARAM, 0, 2**64 - 1, eid="aclnn_py")


@c_api(INTERNAL, handle=True)
def aclCreateDataBuffer(data: object, size: int) -> aclDataBuffer:
    """A descriptor of ``data`` (NULL allowed) and ``size`` bytes; CANN checks neither."""
    return aclDataBuffer(_data(data, "aclCreateDataBuffer"), _size(size))


def _buffer(dataBuffer: object, api: str) -> aclDataBuffer:
    if dataBuffer is None:
        raise ApiError(PARAM, acl_null(api, "dataBuffer"))
    if not isinstance(dataBuffer, aclDataBuffer) or dataBuffer.destroyed:
        raise ApiError(PARAM, emu(f"{api}: dataBuffer is {describe(dataBuffer)}, not a live aclDataBuffer."))
    return dataBuffer


@rt_api
def aclDestroyDataBuffer(dataBuffer: object) -> int:
    """Destroy the descriptor (the memory it describes is not freed)."""
    _buffer(dataBuffer, "aclDestroyDataBuffer").destroyed = True
    return E.ACL_SUCCESS


@rt_api
def aclUpdateDataBuffer(dataBuffer: object, data: object, size: int) -> int:
    """Point the descriptor at other memory (the old memory is untouched)."""
    buf = _buffer(dataBuffer, "aclUpdateDataBuffer")
    buf.data, buf.length = _data(data, "aclUpdateDataBuffer"), _size(size)
    return E.ACL_SUCCESS


def _live(dataBuffer: object) -> aclDataBuffer | None:
    """The getters answer NULL / 0 for a NULL (or unusable) descriptor, silently."""
    if isinstance(dataBuffer, aclDataBuffer) and not dataBuffer.destroyed:
        return dataBuffer
    return None


def aclGetDataBufferAddr(dataBuffer: object) -> int | None:
    """The address the descriptor holds (None: NULL)."""
    buf = _live(dataBuffer)
    return buf.data if buf is not None else None


def aclGetDataBufferSizeV2(dataBuffer: object) -> int:
    """The size the descriptor holds (0 for NULL)."""
    buf = _live(dataBuffer)
    return buf.length if buf is not None else 0


def aclGetDataBufferSize(dataBuffer: object) -> int:
    """(Deprecated) the size truncated to uint32."""
    return aclGetDataBufferSizeV2(dataBuffer) & 0xFFFFFFFF


__all__ = [
    "aclCreateDataBuffer",
    "aclDataBuffer",
    "aclDestroyDataBuffer",
    "aclGetDataBufferAddr",
    "aclGetDataBufferSize",
    "aclGetDataBufferSizeV2",
    "aclUpdateDataBuffer",
]
