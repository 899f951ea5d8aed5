"""C ABI adaptors of the model subscription (``acl_prof.h``) and the exception dump (``acl_dump.h``).

The subscription's readers get the program's buffer of op records as an address (read after the
length check, as CANN reads it) and write op types and names into the program's char buffers;
aclprofCreateSubscribeConfig keeps the program's ``int*`` holding the pipe's write end (CANN keeps
the pointer and writes -1 through it at aclprofModelUnSubscribe); acldumpSaveExceptionInfo reads
the program's ``acldumpTensorInfo`` array; acldumpGetExceptionInfoPath writes into its buffer.
"""

from __future__ import annotations

import ctypes
from typing import Any


def _buffer(addr: int, n: int) -> Any:
    """The program's ``char[n]`` at ``addr`` (None for NULL, an empty buffer for 0 bytes)."""
    if addr == 0:
        return None
    return (ctypes.c_char * n).from_address(addr) if n else bytearray(0)


def _info(addr: int) -> int | None:
    return addr or None


def _create_subscribe_config(fn: Any, timeInfoSwitch: int, aicoreMetrics: int, fd: int) -> Any:
    return fn(timeInfoSwitch, aicoreMetrics, ctypes.c_int.from_address(fd) if fd else None)


def _reader(fn: Any, opInfo: int, opInfoLen: int, *rest: int) -> Any:
    return fn(_info(opInfo), opInfoLen, *rest)


def _out_number(kind: Any) -> Any:
    def adapt(fn: Any, opInfo: int, opInfoLen: int, *rest: int) -> Any:
        *args, out = rest
        return fn(_info(opInfo), opInfoLen, *args, kind.from_address(out) if out else None)

    return adapt


def _op_string(fn: Any, opInfo: int, opInfoLen: int, index: int, out: int, n: int) -> Any:
    return fn(_info(opInfo), opInfoLen, index, _buffer(out, n & 0xFFFFFFFF), n)


def _desc_size(fn: Any, opDescSize: int) -> Any:
    return fn(ctypes.c_size_t.from_address(opDescSize) if opDescSize else None)


def _save_exception_info(fn: Any, fileName: int, userTag: int, tensors: int, tensorCount: int) -> Any:
    from .runtime.api_dump_exception import DumpTensorInfoC  # the dump chapter loads on first use

    name = ctypes.string_at(fileName) if fileName else None
    tag = ctypes.string_at(userTag) if userTag else None
    if not tensors:
        return fn(name, tag, None, tensorCount)
    # the array is read only once the count passes its check (a huge count is refused first)
    infos = None
    if 0 < tensorCount <= 1 << 16:
        infos = [DumpTensorInfoC.from_address(tensors + i * ctypes.sizeof(DumpTensorInfoC)).to_info()
                 for i in range(tensorCount)]  # fmt: skip
    return fn(name, tag, infos if infos is not None else [], tensorCount)


class _Tensor(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("format", ctypes.c_uint32), ("dataType", ctypes.c_uint32),
                ("shapeDim", ctypes.c_uint32), ("shape", ctypes.c_uint32 * 8)]  # fmt: skip


class _TensorInfo(ctypes.Structure):
    _fields_ = [("opNameId", ctypes.c_uint64), ("opTypeId", ctypes.c_uint64), ("resv", ctypes.c_uint32),
                ("tensorNum", ctypes.c_uint32), ("kernelType", ctypes.c_uint32), ("blockNums", ctypes.c_uint32),
                ("stream", ctypes.c_void_p), ("tensors", ctypes.c_void_p)]  # fmt: skip


class _EventAttributes(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint16), ("size", ctypes.c_uint16), ("messageType", ctypes.c_uint32),
                ("tensorInfo", ctypes.c_void_p)]  # fmt: skip


def _range_push_ex(fn: Any, attr: int) -> Any:
    """acl_prof.h's aclprofEventAttributes / aclprofTensorInfo / aclprofTensor, read at the push."""
    from ._cabi_core import H
    from .runtime import api_prof_range_ex as X

    if attr == 0:
        return fn(None)
    raw = _EventAttributes.from_address(attr)
    info = None
    if raw.messageType == X.ACL_PROF_MESSAGE_TYPE_TENSOR_INFO and raw.tensorInfo:
        ti = _TensorInfo.from_address(raw.tensorInfo)
        count = ti.tensorNum if ti.tensors and ti.tensorNum <= 1 << 16 else 0
        tensors = [_Tensor.from_address(ti.tensors + i * ctypes.sizeof(_Tensor)) for i in range(count)]
        info = X.aclprofTensorInfo(
            ti.opNameId, ti.opTypeId, ti.resv, ti.tensorNum, ti.kernelType, ti.blockNums,
            H.obj(ti.stream or 0),
            [X.aclprofTensor(t.type, t.format, t.dataType, t.shapeDim, list(t.shape)) for t in tensors],
        )  # fmt: skip
    return fn(X.aclprofEventAttributes(raw.version, raw.size, raw.messageType, info))


def _exception_info_path(fn: Any, path: int, maxLen: int) -> Any:
    return fn(_buffer(path, maxLen if maxLen <= 1 << 20 else 1 << 20), maxLen)


ADAPTORS: dict[str, Any] = {
    "aclprofCreateSubscribeConfig": _create_subscribe_config,
    "aclprofGetOpDescSize": _desc_size,
    "aclprofGetOpNum": _out_number(ctypes.c_uint32),
    "aclprofGetOpTypeLen": _out_number(ctypes.c_size_t),
    "aclprofGetOpNameLen": _out_number(ctypes.c_size_t),
    "aclprofGetOpType": _op_string,
    "aclprofGetOpName": _op_string,
    "aclprofGetOpStart": _reader,
    "aclprofGetOpEnd": _reader,
    "aclprofGetOpDuration": _reader,
    "aclprofGetModelId": _reader,
    "aclprofGetOpFlag": _reader,
    "aclprofGetOpAttriValue": _reader,
    "acldumpSaveExceptionInfo": _save_exception_info,
    "acldumpGetExceptionInfoPath": _exception_info_path,
    "aclprofRangePushEx": _range_push_ex,
}
