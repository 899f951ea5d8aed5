"""Cache maintenance with descriptors and barriers (``acl_rt.h``): aclrtCmoGetDescSize,
aclrtCmoSetDesc, aclrtCmoAsyncWithDesc, aclrtCmoAsyncWithBarrier, aclrtCmoWaitBarrier.

The simulated memory has no cache, so the operations change nothing; what is real is CANN's checks,
the descriptor (device memory holding the runtime's ``rtCmoAddrInfo`` — 32 bytes, or
``rtDavidCmoAddrInfo``, 64 bytes, on Ascend950 — written by aclrtCmoSetDesc and read by the task of
aclrtCmoAsyncWithDesc when it runs) and the per-SoC features: descriptors need RT_FEATURE_TASK_CMO
(Ascend910B, Ascend910_93, Ascend950), barriers RT_FEATURE_TASK_ASYNC_CMO, which no emulated SoC has
(src/runtime/config/*/dev_info_reg.cc): those calls end in a silent 207000 after their checks.
"""

from __future__ import annotations

import ctypes

import numpy as np

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import store
from . import _rt_features, sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_value,
    check_stopped,
    emu,
    fb_invalid,
    int_arg,
    need_context,
    own_stream,
    rt_api,
    rt_value,
    silent,
    stream_handle,
)
from .device import RT
from .memory import SPACE, MemoryFault, called_from_c
from .stream import Task, TaskFault

_GET_SIZE = "Obtaining the memory size used by the cache memory descriptor of the current device"
_SET_DESC = "Setting the cache memory descriptor"
_MAX_BARRIERS = 6  # ACL_RT_CMO_MAX_BARRIER_NUM
_RT_CMO_INVALID = 8  # rtCmoOpCode: an aclrtCmoType plus RT_CMO_PREFETCH (6) - ACL_RT_CMO_TYPE_PREFETCH (0)


#: (size, offset of src, offset of len_inner) of each packed descriptor struct
_DESC_LAYOUTS = {
    "rtDavidCmoAddrInfo": (64, 32, 48),  # src/runtime/core/inc/sqe/v200_base/starsv2_base.hpp
    "rtCmoAddrInfo": (32, 16, 12),  # pkg_inc/runtime/rt_external_stars_define.h
}


def _desc_layout() -> tuple[int, int, int]:
    """The layout of the chip's descriptor struct (its DevProperties' cmoDDRStructInfoSize; the
    chips without one have no RT_FEATURE_TASK_CMO and are refused before)."""
    struct = _rt_features.properties().cmo_addr_info
    assert struct is not None, "a chip without a CMO descriptor reached its layout"
    return _DESC_LAYOUTS[struct]


def _need_task_cmo() -> None:
    if not _rt_features.has("RT_FEATURE_TASK_CMO"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)  # rts*'s RT_LOG_WARNING only


@rt_api
def aclrtCmoGetDescSize(size: object) -> int:
    """Bytes of device memory a cache-maintenance descriptor takes (32; 64 on Ascend950)."""
    _need_task_cmo()
    if size is None:
        raise ApiError(
            RT_PARAM,
            ("EE1004", f"{_GET_SIZE} failed because size cannot be a NULL pointer."),
            fb_invalid("rtsGetCmoDescSize"),
        )
    from ._checks import out_arg

    store(out_arg(size, "aclrtCmoGetDescSize", "size"), _desc_layout()[0])
    return E.ACL_SUCCESS


@rt_api
def aclrtCmoSetDesc(cmoDesc: object, src: object, size: int) -> int:
    """Write the range ``[src, src + size)`` into the descriptor (device memory), synchronously."""
    api, rt_fn = "aclrtCmoSetDesc", "rtsSetCmoDesc"
    _need_task_cmo()
    d, s = as_pointer(cmoDesc), as_pointer(src)
    for p, name in ((d, "cmoDesc"), (s, "srcAddr")):
        if p is None:
            raise ApiError(
                RT_PARAM, ("EE1004", f"{_SET_DESC} failed because {name} cannot be a NULL pointer."), fb_invalid(rt_fn)
            )
    n = int_arg(size, "size", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(_SET_DESC, 0, "srcLen", "not equal to 0"), fb_invalid(rt_fn))
    need_context(rt_fn)
    assert d is not None and s is not None
    total, src_off, len_off = _desc_layout()
    record = np.zeros(total, np.uint8)
    record[src_off : src_off + 8] = np.frombuffer((s % 2**64).to_bytes(8, "little"), np.uint8)
    record[len_off : len_off + 4] = np.frombuffer((n % 2**32).to_bytes(4, "little"), np.uint8)
    try:
        SPACE.write(d, record, api)  # MemCopySync(cmoDesc, sizeof(...), &info, ..., HOST_TO_DEVICE)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{fault.message}; the descriptor is {total} bytes of device memory.")) from None
    sanitizer.after_write(d, total, api)
    return E.ACL_SUCCESS


_CMO_ADDR = "Using the memory descriptor to operate the cache memory on the device"
_CMO_OP_NAMES = {6: "CMO_PREFETCH(6)", 7: "CMO_WRITEBACK(7)", 8: "CMO_INVALID(8)", 9: "CMO_FLUSH(9)",
                 10: "CMO_RESERVED(10)"}  # fmt: skip  # CmoOpCodeToString (api_enum_desc.cc)


@rt_api
def aclrtCmoAsyncWithDesc(cmoDesc: object, cmoType: int, stream: object, reserve: object) -> int:
    """Queue the operation a descriptor describes; its task reads the descriptor when it runs and
    checks the range it names."""
    api = "aclrtCmoAsyncWithDesc"
    # rtsLaunchCmoAddrTask checks reserve, then calls rtCmoAddrTaskLaunch (api_c_standard_soc.cc),
    # whose handle guard and FuncErrorReason the later reports come from
    rt_fn = "rtCmoAddrTaskLaunch"
    t = int_arg(cmoType, "cmoType", -(2**31), 2**31 - 1)
    if reserve is not None and as_pointer(reserve) is not None:
        raise ApiError(RT_PARAM, rt_value("rtsLaunchCmoAddrTask", f"{as_pointer(reserve):#x}", "reserve", "nullptr"))
    _need_task_cmo()
    st = stream_handle(stream, rt_fn)
    d = as_pointer(cmoDesc)
    if d is None or d == 0:  # ApiErrorDecorator::CmoAddrTaskLaunch
        raise ApiError(
            RT_PARAM, ("EE1004", f"{_CMO_ADDR} failed because cmoAddrInfo cannot be a NULL pointer."), fb_invalid(rt_fn)
        )
    op = (t + 6 + 2**31) % 2**32 - 2**31  # ConvertCmoType: cmoType + RT_CMO_PREFETCH, an int32 for the text
    if not 6 <= op < 10:
        name = _CMO_OP_NAMES.get(op, f"UNKNOWN({op})")
        raise ApiError(RT_PARAM, rt_value(_CMO_ADDR, name, "cmoOpCode", "[6, 10)"), fb_invalid(rt_fn))
    if d < 0:
        raise ApiError(RT_PARAM, emu(f"{api}: cmoDesc {describe(cmoDesc)} is not a descriptor (device memory)."))
    ctx = need_context(rt_fn)  # ApiImpl::CmoAddrTaskLaunch
    target = st or ctx.default_stream
    own_stream(target, ctx, _CMO_ADDR, rt_fn)
    check_stopped(ctx)
    total, src_off, len_off = _desc_layout()
    try:
        SPACE.check(d, total, "read", api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{fault.message}.")) from None

    def run() -> None:
        try:
            raw = SPACE.read(d, total, api).tobytes()
            src = int.from_bytes(raw[src_off : src_off + 8], "little")
            n = int.from_bytes(raw[len_off : len_off + 4], "little")
            SPACE.check(src, max(n, 1), "cache maintenance", api)  # the range must be live memory
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None

    RT.policy.submit(target, Task(target, f"{api}(0x{d:x}, type {t})", run))
    return E.ACL_SUCCESS


@rt_api
def aclrtCmoAsyncWithBarrier(src: object, size: int, cmoType: int, barrierId: int, stream: object) -> int:
    """ACL's null check, then the runtime's 207000: no emulated SoC has RT_FEATURE_TASK_ASYNC_CMO."""
    if as_pointer(src) is None:
        raise ApiError(PARAM, acl_null("aclrtCmoAsyncWithBarrier", "src"))
    int_arg(size, "size", 0, UINT64_MAX)
    int_arg(barrierId, "barrierId", 0, 2**32 - 1)
    raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


class aclrtBarrierTaskInfo:
    """``aclrtBarrierTaskInfo``: ``barrierNum`` entries of ``cmoInfo``, each ``(cmoType, barrierId)``."""

    __slots__ = ("barrierNum", "cmoInfo")

    def __init__(self, barrierNum: int = 0, cmoInfo: list[tuple[int, int]] | None = None) -> None:
        self.barrierNum = barrierNum
        self.cmoInfo = list(cmoInfo or [])


class _CBarrierCmoInfo(ctypes.Structure):
    _fields_ = [("cmoType", ctypes.c_int32), ("barrierId", ctypes.c_uint32)]


class _CBarrierTaskInfo(ctypes.Structure):
    _fields_ = [("barrierNum", ctypes.c_size_t), ("cmoInfo", _CBarrierCmoInfo * _MAX_BARRIERS)]


def _task_info(api: str, obj: object) -> aclrtBarrierTaskInfo:
    if isinstance(obj, aclrtBarrierTaskInfo):
        return obj
    if isinstance(obj, int) and not isinstance(obj, bool) and obj > 0 and called_from_c():
        c = _CBarrierTaskInfo.from_address(obj)
        return aclrtBarrierTaskInfo(int(c.barrierNum), [(int(i.cmoType), int(i.barrierId)) for i in c.cmoInfo])
    raise ApiError(PARAM, emu(f"{api}: taskInfo must be an aclrtBarrierTaskInfo, got {describe(obj)}."))


@rt_api
def aclrtCmoWaitBarrier(taskInfo: object, stream: object, flag: int) -> int:
    """CANN's checks of the barrier list (ACL's count, the runtime's INVALID-only entries with a
    barrier id), then 207000: no emulated SoC launches barrier tasks."""
    api, rt_fn = "aclrtCmoWaitBarrier", "rtsLaunchBarrierTask"
    if taskInfo is None or (as_pointer(taskInfo) is None and not isinstance(taskInfo, aclrtBarrierTaskInfo)):
        raise ApiError(PARAM, acl_null(api, "taskInfo"))
    info = _task_info(api, taskInfo)
    num = int_arg(info.barrierNum, "taskInfo->barrierNum", 0, UINT64_MAX)
    if num == 0 or num > _MAX_BARRIERS:
        raise ApiError(PARAM, acl_value(api, num, "taskInfo->barrierNum", f"(0, {_MAX_BARRIERS}]"))
    if len(info.cmoInfo) < num:
        raise ApiError(PARAM, emu(f"{api}: taskInfo holds {len(info.cmoInfo)} cmoInfo entries, fewer than {num}."))
    int_arg(flag, "flag", 0, 2**32 - 1)
    for cmo_type, barrier_id in info.cmoInfo[:num]:
        rt_type = (int(cmo_type) + 6) & 0xFFFF
        if rt_type != _RT_CMO_INVALID:
            raise ApiError(RT_PARAM, rt_value(rt_fn, rt_type, "cmoInfo.cmoType", "CMO_INVALID(8)"))
        if int(barrier_id) == 0:
            raise ApiError(RT_PARAM, rt_value(rt_fn, 0, "cmoInfo.logicId", "not equal to 0"))
    raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)


__all__ = [
    "aclrtBarrierTaskInfo",
    "aclrtCmoAsyncWithBarrier",
    "aclrtCmoAsyncWithDesc",
    "aclrtCmoGetDescSize",
    "aclrtCmoSetDesc",
    "aclrtCmoWaitBarrier",
]
