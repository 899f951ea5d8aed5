"""aclprofRangePushEx / aclprofRangePop (``acl/acl_prof.h``): a range that carries an operator's tensor
information (``aclprofEventAttributes`` with an ``aclprofTensorInfo``) into the profile.

As CANN's ProfTxPlugin (hicann/runtime ``src/dfx/msprof/collector/dvvp/profapi/src/prof_tx_plugin.cpp``):
aclprofRangePushEx keeps the attributes and the time (one slot for the process, not a stack; NULL →
ACL_ERROR_INVALID_PARAM, a message type other than ACL_PROF_MESSAGE_TYPE_TENSOR_INFO → -1); aclprofRangePop
(nothing pushed → ACL_ERROR_INVALID_PARAM) reads the tensor info's stream attribute
ACL_STREAM_ATTR_CACHE_OP_INFO (a stream the runtime refuses → -1): with the switch on, the op info goes to
the runtime's op-info cache (rtCacheLastTaskOpInfo), otherwise the tensor info is reported to the profile
at the midpoint of push and pop. The slot is not cleared, so a second pop reports again, as CANN's does.

aclnn_py draws the report as an instant ``tensor info`` event on the thread's msproftx row of a running
session's timeline (:mod:`.prof_file`), its args the op name and type ids, kernel type, block count and
each tensor's type, format, data type and shape; without a session it goes nowhere (CANN's reporter
drops data it has no session for). The C ABI reads the program's attributes at aclprofRangePushEx
(CANN keeps the pointer and reads it at the pop).
"""

from __future__ import annotations

import json
import struct
import threading
from dataclasses import dataclass, field
from typing import Any

from .._capi import ApiError, c_api, describe
from ._checks import INTERNAL, E, emu
from .api_prof_tx import _record
from .prof_state import _S, PROFILING_FAILED
from .stream import now_ns

ACL_PROF_MESSAGE_TYPE_TENSOR_INFO = 0
ACL_PROF_TENSOR_DATA_SHAPE_LEN = 8
ACL_PROF_EVENT_ATTR_VERSION = 1


@dataclass
class aclprofTensor:
    """``aclprofTensor``: one tensor of an operator (type 0 input / 1 output, aclFormat, aclDataType)."""

    type: int = 0
    format: int = 2
    dataType: int = 0
    shapeDim: int = 0
    shape: list[int] = field(default_factory=list)


@dataclass
class aclprofTensorInfo:
    """``aclprofTensorInfo``: the operator (ids from aclprofStr2Id), its stream and its tensors."""

    opNameId: int = 0
    opTypeId: int = 0
    resv: int = 0
    tensorNum: int = 0
    kernelType: int = 0
    blockNums: int = 0
    stream: Any = None
    tensors: list[aclprofTensor] = field(default_factory=list)


@dataclass
class aclprofEventAttributes:
    """``aclprofEventAttributes``: version, size, message type and (the union) the tensor info."""

    version: int = ACL_PROF_EVENT_ATTR_VERSION
    size: int = 16
    messageType: int = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO
    tensorInfo: aclprofTensorInfo | None = None


class _Slot:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.attr: aclprofEventAttributes | None = None  # ProfTxPlugin::attr_
        self.pushed_ns = 0


_SLOT = _Slot()


@c_api(INTERNAL)
def aclprofRangePushEx(attr: object) -> int:
    """Keep ``attr`` (an :class:`aclprofEventAttributes`) and the time for the next aclprofRangePop."""
    if attr is None:  # ProfTxPlugin::ProftxRangePushEx: MSPROF_LOGE only
        return E.ACL_ERROR_INVALID_PARAM
    if not isinstance(attr, aclprofEventAttributes):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"aclprofRangePushEx: attr is {describe(attr)}, not aclprofEventAttributes.")
        )
    if attr.messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO:  # MSPROF_LOGE only
        return PROFILING_FAILED
    with _SLOT.lock:
        _SLOT.attr, _SLOT.pushed_ns = attr, now_ns()
    with _S.lock:
        _record("push-ex", "")
    return E.ACL_SUCCESS


def _report(info: aclprofTensorInfo) -> str:
    """The tensor info as the profile's event args (JSON text in the session's record)."""
    count = int(info.tensorNum)
    if count > len(info.tensors):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            emu(f"aclprofRangePop: tensorNum is {count}, the tensor info holds {len(info.tensors)} tensors."),
        )
    tensors = [
        {
            "type": t.type,
            "format": t.format,
            "dataType": t.dataType,
            "shape": [int(d) for d in t.shape[: min(int(t.shapeDim), ACL_PROF_TENSOR_DATA_SHAPE_LEN)]],
        }
        for t in info.tensors[:count]
    ]
    args = {"opNameId": info.opNameId, "opTypeId": info.opTypeId, "kernelType": info.kernelType}
    return json.dumps({**args, "blockNums": info.blockNums, "tensors": tensors})


@c_api(INTERNAL)
def aclprofRangePop() -> int:
    """Report the pushed tensor info: to the runtime's op-info cache when its stream caches op info,
    else to the profile (see the module docstring)."""
    from .api_stream_attr import ACL_STREAM_ATTR_CACHE_OP_INFO, aclrtGetStreamAttribute, aclrtStreamAttrValue

    with _SLOT.lock:
        attr = _SLOT.attr
    if attr is None:  # ProftxRangePop: "Param attr is nullptr, Please call ProftxRangePushEx", a log only
        return E.ACL_ERROR_INVALID_PARAM
    info = attr.tensorInfo
    if info is None:  # CANN reads through the NULL union member
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, emu("aclprofRangePop: the pushed attributes hold no tensor info."))
    value = aclrtStreamAttrValue()
    if aclrtGetStreamAttribute(info.stream, ACL_STREAM_ATTR_CACHE_OP_INFO, value) != E.ACL_SUCCESS:
        # rtsStreamGetAttribute failed: the runtime reported why; the profiler returns its own failure
        return PROFILING_FAILED
    text = _report(info)
    if value.cacheOpInfoSwitch:
        return _cache_op_info(info)

    with _S.lock:
        _record("pop-ex", text)
    return E.ACL_SUCCESS


# ProfTxPlugin::ReportCacheOpInfo2RT's buffer: CacheOpInfoBasic (taskType, blockdim, nodeId, opType,
# attrId, reserve2, opFlag, tensorNum), then one MsrofTensorData (type, format, dataType, shape[8]) a tensor
_CACHE_OP_INFO_BASIC = struct.Struct("<IIQQQQII")
_TENSOR_DATA = struct.Struct(f"<III{ACL_PROF_TENSOR_DATA_SHAPE_LEN}I")


def _cache_op_info(info: aclprofTensorInfo) -> int:
    """ReportCacheOpInfo2RT: the op info to rtCacheLastTaskOpInfo, whose failure (it reports why)
    the profiler answers with its own PROFILING_FAILED."""
    from .api_stream_task import aclrtCacheLastTaskOpInfo

    u32, u64 = 0xFFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF  # the C fields' widths
    count = int(info.tensorNum)
    basic = (int(info.kernelType) & u32, int(info.blockNums) & u32, int(info.opNameId) & u64)
    raw = bytearray(_CACHE_OP_INFO_BASIC.pack(*basic, int(info.opTypeId) & u64, 0, 0, 0, count & u32))
    for t in info.tensors[:count]:
        dims = [int(d) & u32 for d in t.shape[: min(int(t.shapeDim), ACL_PROF_TENSOR_DATA_SHAPE_LEN)]]
        dims += [0] * (ACL_PROF_TENSOR_DATA_SHAPE_LEN - len(dims))
        raw += _TENSOR_DATA.pack(int(t.type) & u32, int(t.format) & u32, int(t.dataType) & u32, *dims)
    if aclrtCacheLastTaskOpInfo(bytes(raw), len(raw)) != E.ACL_SUCCESS:
        return PROFILING_FAILED
    return E.ACL_SUCCESS


def reset() -> None:
    """Forget the pushed attributes (test isolation; not a CANN call)."""
    with _SLOT.lock:
        _SLOT.attr, _SLOT.pushed_ns = None, 0


__all__ = [
    "ACL_PROF_EVENT_ATTR_VERSION",
    "ACL_PROF_MESSAGE_TYPE_TENSOR_INFO",
    "ACL_PROF_TENSOR_DATA_SHAPE_LEN",
    "aclprofEventAttributes",
    "aclprofRangePop",
    "aclprofRangePushEx",
    "aclprofTensor",
    "aclprofTensorInfo",
]
