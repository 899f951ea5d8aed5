"""aclrtGetMemUceInfo / aclrtMemUceRepair of ``acl_rt.h``: memory uncorrectable errors (UCE).

Simulated memory never suffers an uncorrectable error, so a query finds none (``*retSize`` 0) and a
repair has nothing to do; both make CANN's checks first, and answer 207000 on the SoCs without the
runtime's RT_FEATURE_DFX_FAST_RECOVER (Ascend910, Ascend310P: src/runtime/config/*/dev_info_reg.cc).
"""

from __future__ import annotations

import ctypes

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import Ref, store
from . import _rt_features
from ._checks import (
    PARAM,
    E,
    acl_null,
    acl_reason,
    emu,
    fb_inner,
    int_arg,
    out_arg,
    rt_api,
    rt_value,
    silent,
    unrecorded,
)
from .device import RT
from .memory import called_from_c

_MAX_RECORDS = 128  # RT_MAX_RECORD_PA_NUM_PER_DEV
_RESERVED = 14  # UCE_INFO_RESERVED_SIZE


class aclrtMemUceInfo:
    """``aclrtMemUceInfo``: an address range with an uncorrectable error (``reserved`` must be 0)."""

    __slots__ = ("addr", "len", "reserved")

    def __init__(self, addr: int = 0, len: int = 0, reserved: tuple[int, ...] = (0,) * _RESERVED) -> None:
        self.addr = addr
        self.len = len
        self.reserved = tuple(reserved)


class _CUceInfo(ctypes.Structure):
    _fields_ = [("addr", ctypes.c_uint64), ("len", ctypes.c_uint64), ("reserved", ctypes.c_uint64 * _RESERVED)]


def _device(rt_fn: str, desc: str, deviceId: object) -> None:
    """The runtime's feature and device checks (``ApiErrorDecorator::GetMemUceInfo`` / ``MemUceRepair``)."""
    if not _rt_features.has("RT_FEATURE_DFX_FAST_RECOVER"):
        # RT_ERROR_FEATURE_NOT_SUPPORT: rtGetMemUceInfo / rtMemUceRepair return it through
        # COND_RETURN_WITH_NOLOG (api_c.cc): no report, no last error
        raise unrecorded(silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT))
    dev = int_arg(deviceId, "deviceId", -(2**31), 2**31 - 1)  # realDeviceId: an int32_t
    count = RT.device_count
    if not 0 <= dev < count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value(desc, dev, "realDeviceId", f"[0, {count})"),
            fb_inner(rt_fn, "device id error"),
        )


def _is_array(obj: object) -> bool:
    return isinstance(obj, (list, Ref)) or (as_pointer(obj) is not None and called_from_c())


@rt_api
def aclrtGetMemUceInfo(deviceId: int, memUceInfoArray: object, arraySize: int, retSize: object) -> int:
    """The device's memory ranges with uncorrectable errors: none in simulated memory."""
    api = "aclrtGetMemUceInfo"
    if memUceInfoArray is None or (
        as_pointer(memUceInfoArray) is None and not isinstance(memUceInfoArray, (list, Ref))
    ):
        raise ApiError(PARAM, acl_null(api, "memUceInfoArray"))
    out = out_arg(retSize, api, "retSize")
    if not _is_array(memUceInfoArray):
        raise ApiError(PARAM, emu(f"{api}: memUceInfoArray must be a list to fill, got {describe(memUceInfoArray)}."))
    int_arg(arraySize, "arraySize", 0, UINT64_MAX)
    _device("rtGetMemUceInfo", "Obtaining the virtual address of the memory Uncorrectable Error (UCE)", deviceId)
    store(out, 0)  # count 0: arraySize is never too small, nothing is written to the array
    return E.ACL_SUCCESS


@rt_api
def aclrtMemUceRepair(deviceId: int, memUceInfoArray: object, arraySize: int) -> int:
    """Repair the given ranges: CANN's checks of the array, then nothing to repair."""
    api = "aclrtMemUceRepair"
    if memUceInfoArray is None or (as_pointer(memUceInfoArray) is None and not isinstance(memUceInfoArray, list)):
        raise ApiError(PARAM, acl_null(api, "memUceInfoArray"))
    n = int_arg(arraySize, "arraySize", 0, UINT64_MAX)
    if n > _MAX_RECORDS:
        raise ApiError(PARAM, acl_reason(api, n, "arraySize", "must be less than or equal to 128"))
    if isinstance(memUceInfoArray, list):
        entries = [(tuple(getattr(e, "reserved", ())) + (0,) * _RESERVED)[:_RESERVED] for e in memUceInfoArray[:n]]
        # memory.cpp compares UCE_INFO_RESERVED_SIZE (14) *bytes* of reserved: the first one and a
        # quarter of its 14 size_t words
        raw = [b"".join(int(v).to_bytes(8, "little") for v in r)[:_RESERVED] for r in entries]
    elif called_from_c():
        arr = (_CUceInfo * n).from_address(int(as_pointer(memUceInfoArray) or 0))
        raw = [bytes(memoryview(e.reserved).cast("B"))[:_RESERVED] for e in arr] if n else []
    else:
        raise ApiError(PARAM, emu(f"{api}: memUceInfoArray must be a list, got {describe(memUceInfoArray)}."))
    if any(r != bytes(_RESERVED) for r in raw):
        raise ApiError(
            PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter memUceInfoArray.reserved is invalid. Reason: memUceInfoArray.reserved is a "
                "reserved parameter and must be 0.",
            ),
        )
    _device("rtMemUceRepair", "Rectifying the memory Uncorrectable Error (UCE)", deviceId)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtGetMemUceInfo",
    "aclrtMemUceInfo",
    "aclrtMemUceRepair",
]
