"""Device and context settings of ``acl_rt.h``: device limits (aclrtDeviceSetLimit/GetLimit),
the floating-point overflow mode and status (aclrtSetDeviceSatMode, aclrtGetOverflowStatus ...),
system parameters (aclrtSetSysParamOpt, aclrtCtxSetSysParamOpt ...) and the operator execution
timeout (aclrtSetOpExecuteTimeOutV2, aclrtGetOpExecuteTimeout, aclrtGetOpTimeOutInterval ...).

The overflow status lives where CANN keeps it: a 512-byte area of device memory per context
(``aclrtCtxGetFloatOverflowAddr``); the status calls queue a copy of its first 64 bytes to the
caller's buffer, and the reset calls queue a fill with 0, on the stream given. The emulator's
kernels do not write it (they compute in IEEE arithmetic): it holds what the program put there.
"""

from __future__ import annotations

import contextlib
import math

from .. import soc as _soc
from .._capi import ApiError
from .._ref import store
from . import _rt_features, sanitizer
from ._checks import (
    ACL_CALL,
    PARAM,
    RT_ERROR_INVALID_VALUE,
    RT_PARAM,
    E,
    Message,
    acl_inner,
    acl_null,
    acl_value,
    check_stopped,
    cur_stream,
    emu,
    fb_invalid,
    impl_david,
    int_arg,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    stream_handle,
)
from ._model_ri_checks import refuse_if_capturing
from .device import RT, Context
from .memory import SPACE, MemoryFault, call_site
from .stream import Stream, Task, TaskFault

# ---------------------------------------------------------------------------------------------
# device limits (aclrt_impl/device.cpp, api_impl.cc / api_impl_david.cc DeviceSetLimit)
# ---------------------------------------------------------------------------------------------

# aclrtDeviceLimit -> the runtime's limit type (ACL_TO_RT_LIMIT_TABLE), and the ACL names.
_LIMIT_NAMES = (
    "RT_DEV_LIMIT_SIMT_STACK_SIZE(0)",
    "RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE(1)",
    "RT_DEV_LIMIT_SIMD_STACK_SIZE(2)",
    "RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE(3)",
    "RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE(4)",
)
_SIMT_STACK, _SIMT_DVG_STACK, _STACK, _SIMD_FIFO, _SIMT_FIFO = range(5)
_KERNEL_STACK_32K, _KERNEL_STACK_16K = 32768, 16384
_SIMD_FIFO_DEFAULT, _SIMT_FIFO_DEFAULT = 32768, 2 * 1024 * 1024  # SIMD_FIFO_PER_CORE_SIZE_32K, SIMT_FIFO_SIZE_2M
_SIMD_FIFO_MIN, _SIMT_FIFO_MIN, _FIFO_MAX, _FIFO_ALIGN = 1024, 1024 * 1024, 64 * 1024 * 1024, 8
_SIMT_WARP_STACK_DEFAULT, _SIMT_DVG_STACK_DEFAULT = 32 * 1152, 1024  # RT_KIS_SIMT_*_STK_SIZE (base_david.hpp)
_STACK_ALIGN, _THREADS_PER_WARP = 128, 32


def _limit_arg(limit: object, api: str) -> int:
    v = int_arg(limit, "limit", -(2**31), 2**31 - 1)
    if not 0 <= v < len(_LIMIT_NAMES):
        raise ApiError(PARAM, acl_value(api, f"UNKNOWN({v})", "limit", "[0, 4]"))
    return v


def _align(value: int, to: int) -> int:
    """Round a uint32_t up to ``to`` as CANN does, in uint32_t arithmetic (a value within
    ``to - 1`` of 2**32 wraps to a small one)."""
    return (value + to - 1) % 2**32 // to * to


_FIFO_DESC = "Setting the size of the printf space for the AI Core in {} scenarios"


def _fifo(value: int, lo: int, what: str) -> int:
    """``Runtime::SetSimd/SimtPrintFifoSize``: a size in [lo, 64 MiB], rounded up to 8 bytes; a
    refusal passes through rtDeviceSetLimit (EE1001) and the ACL layer's call error."""
    if not lo <= value <= _FIFO_MAX:
        raise ApiError(
            RT_PARAM,
            rt_value(
                f"Setting the size of the printf space for the AI Core in {what} scenarios",
                value,
                "val",
                f"[{lo}, {_FIFO_MAX}]",
            ),
            fb_invalid("rtDeviceSetLimit"),
            acl_inner(f"rtDeviceSetLimit failed, runtime result = {int(RT_PARAM)}.", ACL_CALL),
        )
    return _align(value, _FIFO_ALIGN)


@rt_api
def aclrtDeviceSetLimit(limit: int, value: int) -> int:
    """Set a process-wide device limit: the SIMD stack size (above 32 KiB, rounded up to 16 KiB),
    the SIMD printf FIFO per core ([1 KiB, 64 MiB], rounded up to 8 bytes); on Ascend950 also
    the SIMT stack sizes and the SIMT printf FIFO ([1 MiB, 64 MiB]). The SIMT limits elsewhere:
    207000 without a report."""
    api = "aclrtDeviceSetLimit"
    lim = _limit_arg(limit, api)
    v = int_arg(value, "value", 0, 2**64 - 1)
    if v > 2**32 - 1:
        raise ApiError(PARAM, acl_value(api, v, "value", "[0, UINT32_MAX]"))
    simt = impl_david()  # ApiImplDavid knows the SIMT limits; ApiImpl refuses them
    if lim == _STACK:
        if v > _KERNEL_STACK_32K:  # smaller values leave the stack size as it is
            RT.limits[_STACK] = _align(v, _KERNEL_STACK_16K)
    elif lim == _SIMD_FIFO:
        RT.limits[_SIMD_FIFO] = _fifo(v, _SIMD_FIFO_MIN, "SIMD")
    elif not simt:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # "SIMT limit type is not supported on this platform"
    elif lim == _SIMT_FIFO:
        RT.limits[_SIMT_FIFO] = _fifo(v, _SIMT_FIFO_MIN, "SIMT")
    else:  # SetLimitSizeByType (api_impl_david.cc): store the size first, then refuse two zero sizes
        aligned = _align(v, _STACK_ALIGN)
        if lim == _SIMT_STACK:  # the per-thread size times 32, still in uint32_t
            RT.limits[_SIMT_STACK] = aligned * _THREADS_PER_WARP % 2**32
        else:
            RT.limits[_SIMT_DVG_STACK] = aligned
        warp = RT.limits.get(_SIMT_STACK, _SIMT_WARP_STACK_DEFAULT)
        dvg = RT.limits.get(_SIMT_DVG_STACK, _SIMT_DVG_STACK_DEFAULT)
        if warp == 0 and dvg == 0:  # the refused size stays set, as in CANN
            raise ApiError(
                RT_PARAM,
                (
                    "EE1011",
                    f"Setting the SIMT stack size failed. Value {v} for parameter val is invalid. Reason: "
                    "simtStackSize and simtDvgWarpStackSize cannot both be 0.",
                ),
                rt_inner(
                    f"Set simt stack size failed, drv devId=0, retCode={RT_ERROR_INVALID_VALUE:#x}.",
                    "DeviceSetLimit",
                    "api_impl_david.cc",
                    1892,
                ),
                fb_invalid("rtDeviceSetLimit"),
                acl_inner(f"rtDeviceSetLimit failed, runtime result = {int(RT_PARAM)}.", ACL_CALL),
            )
    return E.ACL_SUCCESS


@rt_api
def aclrtDeviceGetLimit(limit: int, value: object) -> int:
    """A device limit as aclrtDeviceSetLimit left it (the defaults: SIMD stack 32 KiB, SIMD
    printf FIFO 32 KiB; on Ascend950 a SIMT warp stack of 36 KiB, a divergent-warp stack of
    1 KiB and a SIMT printf FIFO of 2 MiB). The SIMT limits off Ascend950: 207000."""
    api = "aclrtDeviceGetLimit"
    out = out_arg(value, api, "value")
    lim = _limit_arg(limit, api)
    defaults = {_STACK: _KERNEL_STACK_32K, _SIMD_FIFO: _SIMD_FIFO_DEFAULT}
    if impl_david():
        defaults.update(
            {
                _SIMT_STACK: _SIMT_WARP_STACK_DEFAULT,
                _SIMT_DVG_STACK: _SIMT_DVG_STACK_DEFAULT,
                _SIMT_FIFO: _SIMT_FIFO_DEFAULT,
            }
        )
    elif lim not in defaults:
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    store(out, RT.limits.get(lim, defaults[lim]))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# the overflow mode and status
# ---------------------------------------------------------------------------------------------

_MODE_NAMES = ("OVERFLOW_MODE_SATURATION(0)", "OVERFLOW_MODE_INFNAN(1)", "OVERFLOW_MODE_UNDEF(2)")
# DevProperties.supportOverflowMode (dev_info_reg.cc): bit 0 saturation, bit 1 Inf/NaN.
_SUPPORTED_MODES = {"Ascend910B": 0b11, "Ascend910_93": 0b11, "Ascend950": 0b10, "Ascend910": 0b01, "Ascend310P": 0b01}
OVERFLOW_ADDR_MAX_SIZE, OVERFLOW_OUTPUT_SIZE = 512, 64


_SAT_DESC = "Setting the overflow/underflow detection mode of the current device"


def _current_mode() -> int:
    if RT.sat_mode is not None:
        return RT.sat_mode
    return 1 if _rt_features.has("RT_FEATURE_OVERFLOW_MODE") else 0


@rt_api
def aclrtSetDeviceSatMode(mode: int) -> int:
    """Choose how float overflow ends: ACL_RT_OVERFLOW_MODE_SATURATION (0) or _INFNAN (1), for the
    process. A mode the chip lacks: 207000 with the runtime's WE0001 warning."""
    m = int_arg(mode, "mode", -(2**31), 2**31 - 1)
    if 0 <= m < 2 and not _SUPPORTED_MODES.get(_soc.current().family, 0b11) & (1 << m):
        what = ("set the saturation mode", "only the Inf/NaN mode can be set and the saturation mode")
        if m == 1:
            what = ("set the Inf/NaN mode", "only the saturation mode can be set and the Inf/NaN mode")
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, ("WE0001", f"Failed to {what[0]} because {what[1]} is not supported.")
        )
    if not 0 <= m < 2:
        name = _MODE_NAMES[m] if 0 <= m < 3 else f"UNKNOWN({m})"
        raise ApiError(
            RT_PARAM,
            rt_value(
                "Setting the overflow/underflow detection mode of the current device",
                name,
                "floatOverflowMode",
                "[0, 2)",
            ),
            fb_invalid("rtSetDeviceSatMode"),
        )
    RT.sat_mode = m
    return E.ACL_SUCCESS


@rt_api
def aclrtGetDeviceSatMode(mode: object) -> int:
    """The process's overflow mode (Inf/NaN by default on Ascend910B/910_93/950, saturation on
    the older chips)."""
    store(out_arg(mode, "aclrtGetDeviceSatMode", "mode"), _current_mode())
    return E.ACL_SUCCESS


def overflow_area(ctx: Context) -> int:
    """The context's overflow status area (512 bytes of device memory, zeroed, made on first use)."""
    if ctx.overflow is None:
        alloc = SPACE.allocate(
            OVERFLOW_ADDR_MAX_SIZE,
            OVERFLOW_ADDR_MAX_SIZE,
            "device",
            ctx.device.ident,
            "aclrtCtxGetFloatOverflowAddr",
            call_site(),
        )
        SPACE.fill(alloc.start, OVERFLOW_ADDR_MAX_SIZE, 0, "aclrtCtxGetFloatOverflowAddr")
        ctx.overflow = alloc
    return ctx.overflow.start


def release_overflow_area(ctx: Context) -> None:
    """Free the context's overflow area (its context is going away)."""
    if ctx.overflow is not None:
        with contextlib.suppress(MemoryFault):  # already gone with the device's memory
            SPACE.free(ctx.overflow.start, "aclrtDestroyContext", call_site())
        ctx.overflow = None


@rt_api
def aclrtCtxGetFloatOverflowAddr(overflowAddr: object) -> int:
    """The device address of the current context's overflow status area."""
    rt_fn = "rtCtxGetOverflowAddr"
    if overflowAddr is None:
        raise ApiError(RT_PARAM, fb_invalid(rt_fn))  # "Check param failed, overflowAddr can not be null." (a log)
    out = out_arg(overflowAddr, "aclrtCtxGetFloatOverflowAddr", "overflowAddr")
    store(out, overflow_area(need_context(rt_fn)))
    return E.ACL_SUCCESS


def _status_target(stream: object, desc: str, rt_fn: str) -> tuple[Context, Stream]:
    ctx = need_context(rt_fn)
    st = stream_handle(stream, rt_fn) or ctx.default_stream
    own_stream(st, ctx, desc, rt_fn)
    check_stopped(ctx)
    return ctx, st


def _queue_copy_status(output: int, size: int, ctx: Context, st: Stream, api: str) -> None:
    src = overflow_area(ctx)

    def run() -> None:
        try:
            data = SPACE.read(src, size, api)
            SPACE.write(output, data, api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None
        sanitizer.after_write(output, size, api)

    task = Task(st, f"{api}(0x{output:x}, {size})", run)
    sanitizer.track(task, [(src, src + size)], [(output, output + size)])
    RT.policy.submit(st, task)


def _queue_clear_status(ctx: Context, st: Stream, api: str) -> None:
    area = overflow_area(ctx)

    def run() -> None:
        try:  # the area goes with its context: a task queued before the context was destroyed fails
            SPACE.fill(area, OVERFLOW_ADDR_MAX_SIZE, 0, api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None

    RT.policy.submit(st, Task(st, f"{api}: clear the overflow status", run))


def _device_address(addr: object, api: str, size: int) -> int:
    """The caller's output buffer: live device memory that holds ``size`` bytes."""
    ptr = int_arg(addr, "outputAddr", 0, 2**64 - 1)
    alloc = SPACE.find(ptr)
    if alloc is None or alloc.kind != "device" or ptr + size > alloc.end:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: outputAddr {SPACE.describe_address(ptr)} does not hold {size} bytes of live device memory."),
        )
    return ptr


def _clear_target(stream: object, desc: str, rt_fn: str) -> tuple[Context, Stream]:
    """``ApiErrorDecorator::NpuClearFloatStatus``: a NULL stream is first made the current
    context's default stream (``Runtime::GetCurStream`` on the chips with a device control SQ,
    through the no-argument ``Runtime::CurrentContext()``: no aclInit default device); without a
    context (or that feature) the stream stays NULL and is refused as a NULL pointer (107000:
    EE1018 when the context was missing, EE1004, EE1001). Then the capture check and the
    implementation's context and stream checks."""
    cur = cur_stream(stream_handle(stream, rt_fn), desc, rt_fn)
    refuse_if_capturing(cur, desc, rt_fn)
    return _status_target(cur, desc, rt_fn)


def _unsupported_status(rt_fn: str) -> ApiError:
    """``RT_LOG_OUTER_MSG_WITH_FUNC(EE1005)``: 207000."""
    return ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, ("EE1005", f"The current system or device does not support {rt_fn}.")
    )


def _get_status(api: str, outputAddr: object, outputSize: int, stream: object, rt_fn: str) -> int:
    if outputAddr is None or outputAddr == 0:
        raise ApiError(PARAM, acl_null(api, "outputAddr"))
    size = int_arg(outputSize, "outputSize", 0, 2**64 - 1)
    given = stream_handle(stream, "rtGetDeviceSatStatus")
    if size != OVERFLOW_OUTPUT_SIZE:
        # "Output size %lu is invalid. Only %lu bytes are supported" (a log; the wrapper's EE1001)
        raise ApiError(RT_PARAM, fb_invalid("rtGetDeviceSatStatus"))
    desc = "Obtaining the overflow status of tasks in all streams on the current device"
    refuse_if_capturing(given, desc, "rtGetDeviceSatStatus")  # ApiErrorDecorator::GetDeviceSatStatus
    ctx, st = _status_target(stream, desc, "rtGetDeviceSatStatus")
    _queue_copy_status(_device_address(outputAddr, api, size), size, ctx, st, api)
    return E.ACL_SUCCESS


@rt_api
def aclrtGetOverflowStatus(outputAddr: object, outputSize: int, stream: object) -> int:
    """Queue a copy of the overflow status (64 bytes; ``outputSize`` must be 64) to the device
    buffer ``outputAddr`` on the stream."""
    return _get_status("aclrtGetOverflowStatus", outputAddr, outputSize, stream, "rtGetDeviceSatStatus")


@rt_api
def aclrtGetFloatOverflowStatus(outputAddr: object, outputSize: int, stream: object) -> int:
    """As aclrtGetOverflowStatus (the ``rts`` name of the same runtime call)."""
    return _get_status("aclrtGetFloatOverflowStatus", outputAddr, outputSize, stream, "rtGetDeviceSatStatus")


def _reset_status(stream: object, api: str) -> int:
    """``rtCleanDeviceSatStatus``: a context-level clear on Ascend910/310P; on the chips with a
    stream-level status it is ``NpuClearFloatStatus`` (with that call's wording)."""
    rt_fn = "rtCleanDeviceSatStatus"
    given = stream_handle(stream, rt_fn)
    if _rt_features.has("RT_FEATURE_DEVICE_FLOAT_STATUS"):  # DEVICE_SAT_STATUS_STREAM_LEVEL
        ctx, st = _clear_target(given, "Clearing the Float exception status flag of the NPU", rt_fn)
    else:  # ApiErrorDecorator::CleanDeviceSatStatus
        refuse_if_capturing(given, "Clearing the overflow status of tasks in all streams on the current device", rt_fn)
        ctx, st = _status_target(given, "Clearing the overflow/underflow detection status", rt_fn)
    _queue_clear_status(ctx, st, api)
    return E.ACL_SUCCESS


@rt_api
def aclrtResetOverflowStatus(stream: object) -> int:
    """Queue "overflow status = 0" on the stream."""
    return _reset_status(stream, "aclrtResetOverflowStatus")


@rt_api
def aclrtResetFloatOverflowStatus(stream: object) -> int:
    """As aclrtResetOverflowStatus."""
    return _reset_status(stream, "aclrtResetFloatOverflowStatus")


@rt_api
def aclrtNpuGetFloatOverFlowStatus(outputAddr: object, outputSize: int, checkMode: int, stream: object) -> int:
    """The NPU's float status (``checkMode`` is the runtime's): queue a copy of the 64-byte
    status to ``outputAddr``. Ascend910B/910_93/950 only (elsewhere 207000, EE1005)."""
    api, rt_fn = "aclrtNpuGetFloatOverFlowStatus", "rtNpuGetFloatStatus"
    desc = "Obtaining the Float exception status of the NPU"
    size = int_arg(outputSize, "outputSize", 0, 2**64 - 1)
    int_arg(checkMode, "checkMode", 0, 2**32 - 1)
    if not _rt_features.has("RT_FEATURE_DEVICE_FLOAT_STATUS"):
        raise _unsupported_status(rt_fn)
    stream_handle(stream, rt_fn)
    if outputAddr is None or outputAddr == 0:
        raise ApiError(
            RT_PARAM, ("EE1004", f"{desc} failed because outputAddrPtr cannot be a NULL pointer."), fb_invalid(rt_fn)
        )
    if size != OVERFLOW_OUTPUT_SIZE:
        raise ApiError(RT_PARAM, rt_value(desc, size, "outputSize", str(OVERFLOW_OUTPUT_SIZE)), fb_invalid(rt_fn))
    refuse_if_capturing(stream_handle(stream, rt_fn), desc, rt_fn)  # ApiErrorDecorator::NpuGetFloatStatus
    ctx, st = _status_target(stream, desc, rt_fn)
    _queue_copy_status(_device_address(outputAddr, api, size), size, ctx, st, api)
    return E.ACL_SUCCESS


@rt_api
def aclrtNpuClearFloatOverFlowStatus(checkMode: int, stream: object) -> int:
    """Queue "float status = 0" on the stream (Ascend910B/910_93/950 only)."""
    api, rt_fn = "aclrtNpuClearFloatOverFlowStatus", "rtNpuClearFloatStatus"
    int_arg(checkMode, "checkMode", 0, 2**32 - 1)
    if not _rt_features.has("RT_FEATURE_DEVICE_FLOAT_STATUS"):
        raise _unsupported_status(rt_fn)
    ctx, st = _clear_target(stream, "Clearing the Float exception status flag of the NPU", rt_fn)
    _queue_clear_status(ctx, st, api)
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# system parameters (aclrt_impl/context.cpp GetSysParamOpt / SetSysParamOpt)
# ---------------------------------------------------------------------------------------------

_OPT_NAMES = (
    "OPT_DETERMINISTIC(0)",
    "OPT_ENABLE_DEBUG_KERNEL(1)",
    "OPT_STRONG_CONSISTENCY(2)",
    "ACL_OPT_ENABLE_KERNEL_EARLY_START(3)",
)
_RT_OPT_NAMES = (
    "SYS_OPT_DETERMINISTIC(0)",
    "SYS_OPT_ENABLE_DEBUG_KERNEL(1)",
    "SYS_OPT_STRONG_CONSISTENCY(2)",
    "SYS_OPT_ENABLE_KERNEL_EARLY_START(3)",
)
_CTX_EXPECT = "ACL_OPT_DETERMINISTIC(0) or ACL_OPT_ENABLE_DEBUG_KERNEL(1) or ACL_OPT_STRONG_CONSISTENCY(2)"
_PROC_EXPECT = _CTX_EXPECT + " or ACL_OPT_ENABLE_KERNEL_EARLY_START(3)"
_GET_DESC = "Obtaining system parameter values from the current context"
_SET_DESC = "Setting system parameter values in the current context"


def _opt(opt: object, ctx_level: bool, desc: str) -> int:
    o = int_arg(opt, "opt", -(2**31), 2**31 - 1)
    if not 0 <= o < (3 if ctx_level else 4):
        name = _OPT_NAMES[o] if 0 <= o < 4 else f"UNKNOWN({o})"
        raise ApiError(PARAM, acl_value(desc, name, "opt", _CTX_EXPECT if ctx_level else _PROC_EXPECT))
    return o


def _opt_value(o: int, value: object, rt_desc: str | None, rt_fn: str) -> int:
    v = int_arg(value, "value", -(2**63), 2**63 - 1)
    most = 4 if o == 0 else 2  # SYS_OPT_DETERMINISTIC_LEVEL_MAX, SYS_OPT_MAX
    if not 0 <= v < most:
        msg: Message = rt_value(rt_desc or rt_fn, v, "configVal", f"[0, {most})")
        raise ApiError(RT_PARAM, msg, *([fb_invalid(rt_fn)] if rt_desc else []))
    return v


@rt_api
def aclrtSetSysParamOpt(opt: int, value: int) -> int:
    """Set a system parameter for the process: ACL_OPT_DETERMINISTIC (0: off, 1 deterministic,
    2 strong consistency, 3 batch consistency), ACL_OPT_ENABLE_DEBUG_KERNEL (0/1),
    ACL_OPT_STRONG_CONSISTENCY (0/1), ACL_OPT_ENABLE_KERNEL_EARLY_START (0/1)."""
    o = _opt(opt, False, _SET_DESC)
    RT.sys_params[o] = _opt_value(o, value, None, "rtSetSysParamOpt")
    return E.ACL_SUCCESS


@rt_api
def aclrtGetSysParamOpt(opt: int, value: object) -> int:
    """A process system parameter (0 unless set, as CANN's zeroed table answers)."""
    if value is None:
        raise ApiError(PARAM, acl_null(_GET_DESC, "value"))
    out = out_arg(value, "aclrtGetSysParamOpt", "value")
    o = _opt(opt, False, _GET_DESC)
    store(out, RT.sys_params.get(o, 0))
    return E.ACL_SUCCESS


@rt_api
def aclrtCtxSetSysParamOpt(opt: int, value: int) -> int:
    """Set a system parameter of the current context (options 0-2); the process value follows."""
    rt_fn = "rtCtxSetSysParamOpt"
    o = _opt(opt, True, _SET_DESC)
    v = _opt_value(o, value, _SET_DESC, rt_fn)
    ctx = need_context(rt_fn)
    ctx.sys_params[o] = v
    RT.sys_params[o] = v  # rtCtxSetSysParamOpt stores the process value too
    return E.ACL_SUCCESS


@rt_api
def aclrtCtxGetSysParamOpt(opt: int, value: object) -> int:
    """A system parameter of the current context; one never set there: 107021
    (ACL_ERROR_RT_SYSPARAMOPT_NOT_SET) without a report."""
    rt_fn = "rtCtxGetSysParamOpt"
    if value is None:
        raise ApiError(PARAM, acl_null(_GET_DESC, "value"))
    out = out_arg(value, "aclrtCtxGetSysParamOpt", "value")
    o = _opt(opt, True, _GET_DESC)
    ctx = need_context(rt_fn)
    if o not in ctx.sys_params:
        return E.ACL_ERROR_RT_SYSPARAMOPT_NOT_SET  # "SYS Config Opt(...) did not set": a WARN only
    store(out, ctx.sys_params[o])
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# the operator execution timeout (api_impl.cc SetOpExecuteTimeOut*, kernel_utils.cc)
# ---------------------------------------------------------------------------------------------

# family: (kernel credit scale in us, most credits, default credits) of dev_info_reg.cc.
_CREDITS = {
    "Ascend910B": (4294967.296, 254, 254),
    "Ascend910_93": (4294967.296, 254, 254),
    "Ascend950": (4294967.296, 254, 254),
    "Ascend910": (68719476.736, 32, 1),
    "Ascend310P": (2147483.648, 255, 255),
}
_MAX_OP_TIMEOUT_MS = 1_000_000  # RT_MAX_OP_TIMEOUT_FOR_MS
_MAX_KERNEL_CREDIT = 254  # RT_STARS_MAX_KERNEL_CREDIT (stars_base.hpp)


def _credits() -> tuple[float, int, int]:
    return _CREDITS.get(_soc.current().family, _CREDITS["Ascend910B"])


def effective_timeout_us() -> float:
    """``GetOpExecuteMsTimeout``: the timeout the hardware applies, a whole number of credits."""
    scale, most, default = _credits()
    cfg = RT.op_timeout_us
    if cfg is None:
        return scale * default
    if cfg == 0 or cfg > scale * most:
        return scale * most
    return scale * ((cfg + scale - 1) // scale)


@rt_api
def aclrtSetOpExecuteTimeOutWithMs(timeout: int) -> int:
    """Set the operator execution timeout in milliseconds (0: the maximum; 1 000 000 and above
    are taken as 1 000 s). The emulator's kernels never hang: the value is kept and reported."""
    t = int_arg(timeout, "timeout", 0, 2**32 - 1)
    RT.op_timeout_us = min(t, _MAX_OP_TIMEOUT_MS) * 1000
    return E.ACL_SUCCESS


@rt_api
def aclrtSetOpExecuteTimeOutV2(timeout: int, actualTimeout: object) -> int:
    """Set the operator execution timeout in microseconds (0: the maximum); ``actualTimeout``
    receives the timeout the hardware applies: ``timeout`` rounded up to a whole number of
    aclrtGetOpTimeOutInterval's interval, at most 254 of them (on every chip)."""
    rt_fn = "rtSetOpExecuteTimeOutV2"
    out = out_arg(actualTimeout, "aclrtSetOpExecuteTimeOutV2", "actualTimeout")
    t = int_arg(timeout, "timeout", 0, 2**64 - 1)
    need_context(rt_fn)  # a context means an opened device: the timeout configuration exists
    RT.op_timeout_us = t
    scale, _, _ = _credits()
    # TransExeTimeoutCfgToKernelCredit (task_execute_time.cc): at most RT_STARS_MAX_KERNEL_CREDIT
    # (254) whatever the chip's own maximum (aclrtGetOpExecuteTimeout's)
    credit = _MAX_KERNEL_CREDIT if t == 0 else min(_MAX_KERNEL_CREDIT, math.ceil(t / scale))
    store(out, int(credit * scale))
    return E.ACL_SUCCESS


@rt_api
def aclrtGetOpTimeOutInterval(interval: object) -> int:
    """The hardware's timeout step in microseconds (one kernel credit)."""
    rt_fn = "rtGetOpTimeOutInterval"
    out = out_arg(interval, "aclrtGetOpTimeOutInterval", "interval")
    need_context(rt_fn)
    store(out, int(_credits()[0]))
    return E.ACL_SUCCESS


@rt_api
def aclrtGetOpExecuteTimeout(timeoutMs: object) -> int:
    """The operator execution timeout the hardware applies, in milliseconds (rounded up)."""
    out = out_arg(timeoutMs, "aclrtGetOpExecuteTimeout", "timeoutMs")
    store(out, math.ceil(effective_timeout_us() / 1000))
    return E.ACL_SUCCESS


__all__ = [
    "aclrtCtxGetFloatOverflowAddr",
    "aclrtCtxGetSysParamOpt",
    "aclrtCtxSetSysParamOpt",
    "aclrtDeviceGetLimit",
    "aclrtDeviceSetLimit",
    "aclrtGetDeviceSatMode",
    "aclrtGetFloatOverflowStatus",
    "aclrtGetOpExecuteTimeout",
    "aclrtGetOpTimeOutInterval",
    "aclrtGetOverflowStatus",
    "aclrtGetSysParamOpt",
    "aclrtNpuClearFloatOverFlowStatus",
    "aclrtNpuGetFloatOverFlowStatus",
    "aclrtResetFloatOverflowStatus",
    "aclrtResetOverflowStatus",
    "aclrtSetDeviceSatMode",
    "aclrtSetOpExecuteTimeOutV2",
    "aclrtSetOpExecuteTimeOutWithMs",
    "aclrtSetSysParamOpt",
]
