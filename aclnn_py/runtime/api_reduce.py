"""aclrtReduceAsync of ``acl_rt.h``: ``dst = dst (op) src`` element by element, queued on a stream
(the SDMA engine's reduction on hardware). Kinds, types and per-SoC limits as CANN states them.
"""

from __future__ import annotations

from collections.abc import Callable

import ml_dtypes
import numpy as np

from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from ..dtypes import aclDataType
from . import sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    check_stopped,
    emu,
    fb_invalid,
    int_arg,
    need_context,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
)
from .api_memcpy import _fault
from .device import RT
from .memory import SPACE, MemoryFault
from .stream import Task, TaskFault

# ---------------------------------------------------------------------------------------------
# aclrtReduceAsync
# ---------------------------------------------------------------------------------------------

_REDUCE_TYPES = {  # kMapDataType of memory.cpp: the types an SDMA reduction takes
    int(aclDataType.ACL_FLOAT): np.float32, int(aclDataType.ACL_FLOAT16): np.float16,
    int(aclDataType.ACL_INT16): np.int16, int(aclDataType.ACL_INT4): None, int(aclDataType.ACL_INT8): np.int8,
    int(aclDataType.ACL_INT32): np.int32, int(aclDataType.ACL_BF16): ml_dtypes.bfloat16,
    int(aclDataType.ACL_UINT8): np.uint8,
    int(aclDataType.ACL_UINT16): np.uint16, int(aclDataType.ACL_UINT32): np.uint32,
}  # fmt: skip
_REDUCE_KIND_NAMES = {10: "MEMCPY_SDMA_AUTOMATIC_SUM(10)", 11: "MEMCPY_SDMA_AUTOMATIC_MAX(11)",
                      12: "MEMCPY_SDMA_AUTOMATIC_MIN(12)", 13: "MEMCPY_SDMA_AUTOMATIC_EQUAL(13)"}  # fmt: skip
_REDUCE = "Asynchronously performing the Reduce operation"


def _dtype_desc(t: int) -> str:
    try:
        return f"{aclDataType(t).name[4:]}({int(t)})"
    except ValueError:
        return f"UNKNOWN({t})"


# The types each SoC's SDMA engine reduces (CANN's documentation of aclrtReduceAsync); Ascend910's
# list is not documented and is taken as Ascend910B's.
_I8, _I16, _I32, _U32 = (int(aclDataType[n]) for n in ("ACL_INT8", "ACL_INT16", "ACL_INT32", "ACL_UINT32"))
_F16, _F32, _BF16 = (int(aclDataType[n]) for n in ("ACL_FLOAT16", "ACL_FLOAT", "ACL_BF16"))
_CHIP_TYPES = {
    "Ascend950": {_I8, _I16, _I32, _U32, _F16, _F32, _BF16},
    "Ascend910_93": {_I8, _I16, _I32, _F16, _F32, _BF16},
    "Ascend910B": {_I8, _I16, _I32, _F16, _F32, _BF16},
    "Ascend910": {_I8, _I16, _I32, _F16, _F32, _BF16},
    "Ascend310P": {_F32, _F16, _I16},
}


def _reducer(kind: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    if kind == 10:
        return lambda d, s: d + s  # integer sums wrap, as the SDMA engine's do
    return np.maximum if kind == 11 else np.minimum


@rt_api
def aclrtReduceAsync(
    dst: object, src: object, count: int, kind: int, type: int, stream: object, reserve: object
) -> int:
    """Queue ``dst = dst (op) src`` over ``count`` bytes of elements of ``type`` on the stream:
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, _MAX, _MIN (_EQUAL, whose result CANN does not document, is
    refused). The ACL layer takes the types CANN maps (FLOAT, FLOAT16, BF16, INT4, INT8, INT16, INT32,
    UINT8, UINT16, UINT32); each SoC reduces the subset its documentation lists."""
    api, rt_fn = "aclrtReduceAsync", "rtsLaunchReduceAsyncTask"
    dp, sp = as_pointer(dst), as_pointer(src)
    if dp is None:
        raise ApiError(PARAM, acl_null(api, "dst"))
    if sp is None:
        raise ApiError(PARAM, acl_null(api, "src"))
    if reserve is not None and as_pointer(reserve) is not None:
        raise ApiError(
            PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter reserve is invalid. Reason: reserve is a reserved parameter and must be "
                "nullptr.",
            ),
        )
    t = int_arg(type, "type", -(2**31), 2**31 - 1)
    if t not in _REDUCE_TYPES:
        raise ApiError(PARAM, acl_reason(api, _dtype_desc(t), "type", "The data type is currently not supported"))
    n = int_arg(count, "count", 0, UINT64_MAX)
    k = int_arg(kind, "kind", -(2**31), 2**31 - 1) & 0xFFFFFFFF
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(_REDUCE, 0, "cnt", "not equal to 0"), fb_invalid(rt_fn))
    if not 10 <= k < 14:
        raise ApiError(RT_PARAM, rt_value(_REDUCE, k, "kind", "[10, 14)"), fb_invalid(rt_fn))
    if k == 10 and n > 4 << 30:
        raise ApiError(
            RT_PARAM,
            ("EE1011", f"{_REDUCE} failed. Value {n} for parameter cnt is invalid. Reason: If parameter kind equals "
                       "RT_MEMCPY_SDMA_AUTOMATIC_ADD(10), the range of parameter cnt should be (0, 4294967296]."),
            fb_invalid(rt_fn),
        )  # fmt: skip
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, _REDUCE, rt_fn)
    check_stopped(ctx)
    np_type = _REDUCE_TYPES[t]
    for p, name, access in ((dp, "dst", "write"), (sp, "src", "read")):
        alloc = SPACE.find(p) if p > 0 else None
        if alloc is None or alloc.kind not in ("device", "mapped"):
            raise ApiError(
                RT_PARAM,
                emu(f"{api}: {name} {describe(p)} is not device memory (the reduction goes device to device)."),
            )
        try:
            SPACE.check(p, n, access, api)
        except MemoryFault as fault:
            raise _fault(api, fault) from None
    family = _soc.current().family
    if np_type is None or t not in _CHIP_TYPES.get(family, set()) or (family == "Ascend310P" and k != 10):
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            emu(
                f"{api}: {family} does not reduce {_dtype_desc(t)} with {_REDUCE_KIND_NAMES[k]} (CANN's documentation)."
            ),
        )
    if k == 13:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            emu(
                f"{api}: CANN does not document what {_REDUCE_KIND_NAMES[k]} computes, so aclnn_py does not emulate it."
            ),
        )
    itemsize = np.dtype(np_type).itemsize
    if n % itemsize:
        raise ApiError(
            RT_PARAM, emu(f"{api}: count {n} is not a whole number of {_dtype_desc(t)} elements ({itemsize} bytes).")
        )
    op = _reducer(k)

    def run() -> None:
        try:
            s = SPACE.read(sp, n, api).view(np_type).copy()
            d = SPACE.read(dp, n, api).view(np_type)
            with np.errstate(over="ignore", invalid="ignore"):
                SPACE.write(dp, np.asarray(op(d, s), dtype=np_type).view(np.uint8), api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None
        sanitizer.after_write(dp, n, api)

    task = Task(target, f"{api}({_REDUCE_KIND_NAMES[k]}, {n} bytes)", run)
    sanitizer.track(task, [(sp, sp + n), (dp, dp + n)], [(dp, dp + n)])
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


__all__ = ["aclrtReduceAsync"]
