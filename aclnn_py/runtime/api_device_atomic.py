"""The atomic-capability queries of ``acl_rt.h``: aclrtDeviceGetHostAtomicCapabilities and
aclrtDeviceGetP2PAtomicCapabilities.

CANN (runtime api_error.cc, api_impl.cc) checks the pointers and the count, converts and checks
the device ids, checks every operation against [INTEGER_ADD, SIMD_SCALAR_EXCH], then zeroes the
``count`` capabilities and fills them from the chip's table (config/<chip>/dev_info_reg.cc) when
the link supports atomics: between two devices an HCCS, SIO, HCCS_SW or UB topology (this host
links every pair by HCCS, as aclrtGetDevicesTopo answers), between a device and the host only a
UB connection (the emulated host link is PCIe: no host atomics, every capability 0).

``capabilities`` is a list (or a one-dimensional NumPy array) of at least ``count`` entries,
``operations`` a sequence of ``aclrtAtomicOperation`` values.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import soc as _soc
from .._capi import ApiError, describe
from ._checks import RT_PARAM, E, emu, fb_inner, fb_invalid, int_arg, rt_api, rt_value
from .device import RT

# rtAtomicOperation (rt_inner_device.h)
INTEGER_ADD, INTEGER_MIN, INTEGER_MAX, INTEGER_INCREMENT, INTEGER_DECREMENT = 0, 1, 2, 3, 4
AND, OR, XOR, EXCHANGE, CAS, FLOAT_ADD, FLOAT_MIN, FLOAT_MAX = 5, 6, 7, 8, 9, 10, 11, 12
DMA_ADD, DMA_MIN, DMA_MAX = 30, 31, 32
SIMD_SCALAR_ADD, SIMD_SCALAR_MIN, SIMD_SCALAR_MAX, SIMD_SCALAR_CAS, SIMD_SCALAR_EXCH = 40, 41, 42, 43, 44
OPERATION_MAX_VAL = 45

# aclrtAtomicOperationCapability
SIGNED, UNSIGNED, REDUCTION = 1 << 0, 1 << 1, 1 << 2
SCALAR8, SCALAR16, SCALAR32, SCALAR64, SCALAR128, VECTOR32X4 = 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8


def _stars_p2p_caps() -> dict[int, int]:
    """GetStarsP2PAtomicCaps (config/910_B_93/dev_info_reg.cc): DMA atomics only."""
    dma = SIGNED | SCALAR8 | SCALAR16 | SCALAR32
    return {DMA_ADD: dma, DMA_MIN: dma, DMA_MAX: dma}


def _david_caps() -> dict[int, int]:
    """GetDavidAtomicCaps (config/950/dev_info_reg.cc)."""
    type1 = SIGNED | UNSIGNED | SCALAR32 | SCALAR64
    type2 = UNSIGNED | SCALAR32 | SCALAR64
    type3 = SCALAR16 | SCALAR32
    type4 = SIGNED | SCALAR8 | SCALAR16 | SCALAR32
    ops1 = (INTEGER_ADD, INTEGER_MIN, INTEGER_MAX, AND, OR, XOR, EXCHANGE, CAS, SIMD_SCALAR_ADD)
    caps = dict.fromkeys((*ops1, SIMD_SCALAR_MIN, SIMD_SCALAR_MAX), type1)
    caps.update(dict.fromkeys((INTEGER_INCREMENT, INTEGER_DECREMENT, SIMD_SCALAR_CAS, SIMD_SCALAR_EXCH), type2))
    caps.update(dict.fromkeys((FLOAT_ADD, FLOAT_MIN, FLOAT_MAX), type3))
    caps.update(dict.fromkeys((DMA_ADD, DMA_MIN, DMA_MAX), type4))
    return caps


# DevProperties.p2pAtomicCapabilities by chip family; every other chip's table is empty
_P2P_CAPS: dict[str, dict[int, int]] = {
    "Ascend910B": _stars_p2p_caps(),
    "Ascend910_93": _stars_p2p_caps(),
    "Ascend950": _david_caps(),
}

_HOST_DESC = "Querying details about the atomic operations supported between a specified device and the host"
_P2P_DESC = "Querying details about the atomic operations supported between devices"


def _null(desc: str, param: str, rt_fn: str) -> ApiError:
    """NULL_PTR_RETURN_MSG_OUTER_WITH_FUNC_DESC: EE1004, 107000."""
    return ApiError(RT_PARAM, ("EE1004", f"{desc} failed because {param} cannot be a NULL pointer."), fb_invalid(rt_fn))


def _user_device(value: object, name: str, rt_fn: str) -> int:
    """ChgUserDevIdToDeviceId: the id is read as uint32_t, so a negative one is out of range too
    (107001, logged, no outer report)."""
    dev = int_arg(value, name, -(2**31), 2**31 - 1)
    if not 0 <= dev < RT.device_count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            emu(f"{rt_fn}: device {dev} does not exist; the emulator offers devices 0 to {RT.device_count - 1}."),
            fb_inner(rt_fn, "device id error"),
        )
    return dev


def _operations(operations: object, n: int, api: str, rt_fn: str) -> list[int]:
    """The first ``n`` operations, checked as ValidateAtomicOperations (api_error.cc) checks them."""
    if isinstance(operations, (str, bytes)) or not isinstance(operations, (Sequence, np.ndarray)):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"{api}: operations must be a sequence, got {describe(operations)}.")
        )
    if len(operations) < n:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            emu(f"{api}: operations holds {len(operations)} entries, fewer than count {n}."),
        )
    ops = [int_arg(operations[i], f"operations[{i}]", -(2**31), 2**31 - 1) for i in range(n)]
    for i, op in enumerate(ops):
        if not INTEGER_ADD <= op <= SIMD_SCALAR_EXCH:
            raise ApiError(
                RT_PARAM,
                (
                    "EE1011",
                    f"Validating atomic operations failed. Value UNKNOWN({op}) for parameter operations[{i}] is "
                    f"invalid. Reason: the operation must be in [{INTEGER_ADD}, {SIMD_SCALAR_EXCH}].",
                ),
                fb_invalid(rt_fn),
            )
    return ops


def _capacity(capabilities: object, n: int, api: str) -> Any:
    if isinstance(capabilities, np.ndarray):
        if capabilities.ndim != 1 or capabilities.dtype.kind not in "iu" or capabilities.size < n:
            raise ApiError(
                E.ACL_ERROR_INVALID_PARAM,
                emu(f"{api}: capabilities must be a one-dimensional integer array of at least {n} entries."),
            )
    elif not isinstance(capabilities, list) or len(capabilities) < n:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM,
            emu(f"{api}: capabilities must be a list of at least {n} entries, got {describe(capabilities)}."),
        )
    return capabilities


def _fill(capabilities: Any, ops: list[int], table: dict[int, int] | None) -> None:
    """GetAtomicDevProperties zeroes the entries; FillAtomicCapabilities copies the table's."""
    for i, op in enumerate(ops):
        capabilities[i] = 0 if table is None else table.get(op, 0)


@rt_api
def aclrtDeviceGetHostAtomicCapabilities(capabilities: object, operations: object, count: int, deviceId: int) -> int:
    """What each of the ``count`` atomic operations supports between device ``deviceId`` and the
    host (``aclrtAtomicOperationCapability`` bits): 0 everywhere, the host link being PCIe."""
    api, rt_fn = "aclrtDeviceGetHostAtomicCapabilities", "rtDeviceGetHostAtomicCapabilities"
    if capabilities is None:
        raise _null(_HOST_DESC, "capabilities", rt_fn)
    if operations is None:
        raise _null(_HOST_DESC, "operations", rt_fn)
    n = int_arg(count, "count", 0, 2**32 - 1)
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(_HOST_DESC, 0, "count", "not equal to 0"), fb_invalid(rt_fn))
    _user_device(deviceId, "deviceId", rt_fn)
    ops = _operations(operations, n, api, rt_fn)
    # CheckHostAtomicSupport: INFO_TYPE_HD_CONNECT_TYPE is not HOST_DEVICE_CONNECT_TYPE_UB
    _fill(_capacity(capabilities, n, api), ops, None)
    return E.ACL_SUCCESS


@rt_api
def aclrtDeviceGetP2PAtomicCapabilities(
    capabilities: object, operations: object, count: int, srcDeviceId: int, dstDeviceId: int
) -> int:
    """What each of the ``count`` atomic operations supports from ``srcDeviceId`` to
    ``dstDeviceId`` over their HCCS link: the chip's table (DMA atomics on Ascend910B/910_93,
    the full set on Ascend950, nothing on Ascend310P)."""
    api, rt_fn = "aclrtDeviceGetP2PAtomicCapabilities", "rtDeviceGetP2PAtomicCapabilities"
    if capabilities is None:
        raise _null(_P2P_DESC, "capabilities", rt_fn)
    if operations is None:
        raise _null(_P2P_DESC, "operations", rt_fn)
    n = int_arg(count, "count", 0, 2**32 - 1)
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(_P2P_DESC, 0, "count", "not equal to 0"), fb_invalid(rt_fn))
    src = int_arg(srcDeviceId, "srcDeviceId", -(2**31), 2**31 - 1)
    dst = int_arg(dstDeviceId, "dstDeviceId", -(2**31), 2**31 - 1)
    if src == dst:  # RT_ERROR_DEVICE_ID (api_error.cc:7874-7877): 107001, FuncErrorReason's default
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            rt_value(_P2P_DESC, src, "srcDeviceId", "srcDeviceId must be different from dstDeviceId"),
            fb_inner(rt_fn, "device id error"),
        )
    _user_device(src, "srcDeviceId", rt_fn)
    _user_device(dst, "dstDeviceId", rt_fn)
    ops = _operations(operations, n, api, rt_fn)
    _fill(_capacity(capabilities, n, api), ops, _P2P_CAPS.get(_soc.current().family, {}))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# the C ABI (capi/gen_rt.py ADAPTED): the operations read from, the capabilities written into,
# the caller's arrays
# ---------------------------------------------------------------------------------------------

_C_MAX = 1 << 16  # entries read from a C array (there are 45 operations)


def _c_call(fn: Any, capabilities: int, operations: int, count: int, *devices: int) -> int:
    n = min(count & 0xFFFFFFFF, _C_MAX)
    ops = None if operations == 0 else list((ctypes.c_int32 * n).from_address(operations))
    caps: list[int] | None = None if capabilities == 0 else [0] * n
    rc = int(fn(caps, ops, count, *devices))
    if rc == 0 and caps is not None:
        out = (ctypes.c_uint32 * n).from_address(capabilities)
        for i, v in enumerate(caps):
            out[i] = v
    return rc


CABI_ADAPTORS: dict[str, Any] = {
    "aclrtDeviceGetHostAtomicCapabilities": _c_call,
    "aclrtDeviceGetP2PAtomicCapabilities": _c_call,
}


__all__ = [
    "aclrtDeviceGetHostAtomicCapabilities",
    "aclrtDeviceGetP2PAtomicCapabilities",
]
