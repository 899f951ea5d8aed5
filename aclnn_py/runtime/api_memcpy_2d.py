"""2D copies of the memory chapter of ``acl_rt.h`` (acl_rt.h:2411-2432): aclrtMemcpy2d and
aclrtMemcpy2dAsync, ``height`` rows of ``width`` bytes between pitched buffers, on the sides and
checks of api_memcpy.
"""

from __future__ import annotations

from .._capi import UINT64_MAX, ApiError
from . import sanitizer
from ._checks import (
    PARAM,
    RT_ERROR_INVALID_VALUE,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    acl_value,
    check_stopped,
    cur_stream,
    emu,
    fb_invalid,
    int_arg,
    memcpy_kind_desc,
    need_context,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    stream_handle,
)
from ._model_ri_checks import check_capture_mode
from .api_memcpy import _PASS_THE_BUFFER, _fault, _is_null, _Side, _side, _unknown_address
from .device import RT
from .memory import SPACE, MemoryFault
from .model_ri import capturing
from .stream import Task, TaskFault

_CHECK_2D = "Checking the synchronous memory copy parameter validity"  # both 2D copies say "synchronous"
_RT_CHECK_2D = "Checking the validity of 2D memory copy parameters"
_KIND_2D_EXPECT = (
    "ACL_MEMCPY_HOST_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_HOST or ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_DEFAULT"
)
_MAX_2D_HEIGHT, _MAX_2D_WIDTH = 5242880, 5000000  # RT_MAX_MEMCPY2D_HEIGHT / _WIDTH


def _copy2d_args(
    api: str, dst: object, dpitch: object, src: object, spitch: object, width: object, height: object, kind: object
) -> tuple[int, int, int, int, int] | None:
    """``CheckMemcpy2dParam`` (the ACL layer of both 2D copies)."""
    w = int_arg(width, "width", 0, UINT64_MAX)
    h = int_arg(height, "height", 0, UINT64_MAX)
    if w == 0 or h == 0:
        return None
    for obj, name in ((dst, "dst"), (src, "src")):
        if _is_null(obj):
            raise ApiError(PARAM, acl_null(_CHECK_2D, name))
    dp = int_arg(dpitch, "dpitch", 0, UINT64_MAX)
    sp = int_arg(spitch, "spitch", 0, UINT64_MAX)
    if w > sp or w > dp:
        raise ApiError(
            PARAM,
            acl_reason(_CHECK_2D, w, "width", f"must be less than spitch and dpitch, spitch={sp}, dpitch={dp}"),
        )
    k = int_arg(kind, "kind", -(2**31), 2**31 - 1)
    if k not in (1, 2, 3, 4):
        raise ApiError(PARAM, acl_value(_CHECK_2D, memcpy_kind_desc(k), "kind", _KIND_2D_EXPECT))
    return dp, sp, w, h, k


def _rt_limits_2d(w: int, h: int, rt_fn: str, func: str, line: int) -> None:
    """The runtime's own limits of a 2D copy (``MemCopy2DCheckParam``)."""
    for value, name, limit in ((h, "height", _MAX_2D_HEIGHT), (w, "width", _MAX_2D_WIDTH)):
        if value > limit:
            raise ApiError(
                RT_PARAM,
                rt_value(_RT_CHECK_2D, value, name, f"less than or equal to {limit}"),
                rt_inner(
                    f"check memcpy2d param failure, retCode={RT_ERROR_INVALID_VALUE:#x}.", func, "api_error.cc", line
                ),
                fb_invalid(rt_fn),
            )


def _rows_2d(api: str, side: _Side, name: str, pitch: int, w: int, h: int, access: str) -> None:
    """The emulator's check that every row of a 2D copy lies in live memory (or the host buffer)."""
    span = (h - 1) * pitch + w
    if side.ptr is not None:
        try:
            SPACE.check(side.ptr, span, access, api)
        except MemoryFault as fault:
            raise _fault(api, fault) from None
    elif side.arr is not None and side.arr.size < span:
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: {name} is a host buffer of {side.arr.size} bytes; {h} rows of pitch {pitch} and width {w} "
                f"need {span}."
            ),
        )


def _do_copy_2d(api: str, d: _Side, dp: int, s: _Side, sp: int, w: int, h: int) -> None:
    """Copy ``h`` rows of ``w`` bytes from ``src + i*spitch`` to ``dst + i*dpitch``."""
    for i in range(h):
        if s.ptr is not None:
            sanitizer.before_read(s.ptr + i * sp, w, api)
            row = SPACE.read(s.ptr + i * sp, w, api)
        else:
            assert s.arr is not None
            row = s.arr[i * sp : i * sp + w]
        if d.ptr is not None:
            SPACE.write(d.ptr + i * dp, row, api)
            sanitizer.after_write(d.ptr + i * dp, w, api)
        else:
            assert d.arr is not None
            d.arr[i * dp : i * dp + w] = row


_HOST, _DEVICE, _UNREGISTERED = "host", "device", "unregistered"  # the runtime's memory locations
# MemcpyKindReviseMap (api_error.cc), by (src, dst) location: a forced kind, or the kinds allowed and
# the one DEFAULT becomes (kinds as aclrtMemcpyKind: 0 H2H, 1 H2D, 2 D2H, 3 D2D, 4 DEFAULT)
_FORCED = {(_HOST, _DEVICE): 1, (_DEVICE, _HOST): 2, (_HOST, _HOST): 0, (_DEVICE, _DEVICE): 3}
_ALLOWED = {
    (_UNREGISTERED, _DEVICE): ((1, 3), 1),
    (_DEVICE, _UNREGISTERED): ((2, 3), 2),
    (_HOST, _UNREGISTERED): ((0, 1), 0),
    (_UNREGISTERED, _HOST): ((0, 2), 0),
    (_UNREGISTERED, _UNREGISTERED): ((0, 1, 2, 3), 0),
}


def _location(side: _Side) -> str:
    """The runtime's location of a copy side: device memory, pinned host memory (aclrtMallocHost),
    or pageable memory the driver does not know (a host buffer)."""
    if side.is_device:
        return _DEVICE
    return _UNREGISTERED if side.arr is not None else _HOST


def _auto_corrected(src: str, dst: str, kind: int) -> int | None:
    """``MemcpyKindAutoCorrect``: the kind the copy runs with, None when the locations refuse it."""
    forced = _FORCED.get((src, dst))
    if forced is not None:
        return forced
    allowed, default = _ALLOWED[(src, dst)]
    if kind == 4:
        return default
    return kind if kind in allowed else None


# the runtime's MemcpyKindToStr of aclrtMemcpyKind 0-4
_RT_KIND_DESC = (
    "MEMCPY_HOST_TO_HOST(0)",
    "MEMCPY_HOST_TO_DEVICE(1)",
    "MEMCPY_DEVICE_TO_HOST(2)",
    "MEMCPY_DEVICE_TO_DEVICE(3)",
    "MEMCPY_DEFAULT(8)",  # ACL_MEMCPY_DEFAULT is the runtime's RT_MEMCPY_DEFAULT (8)
)


@rt_api
def aclrtMemcpy2d(dst: object, dpitch: int, src: object, spitch: int, width: int, height: int, kind: int) -> int:
    """Synchronous 2D copy: ``height`` rows of ``width`` bytes, row i from ``src + i*spitch`` to
    ``dst + i*dpitch``. The runtime copies host to device or device to host only (a
    device-to-device kind is 207000); the kind is then CANN's ``MemcpyKindAutoCorrect`` of the two
    memory locations (pinned and device memory force theirs; a pageable buffer, such as a numpy
    array, allows some kinds and refuses the others), and must come out H2D or D2H (107000)."""
    api, rt_fn = "aclrtMemcpy2d", "rtMemcpy2d"
    args = _copy2d_args(api, dst, dpitch, src, spitch, width, height, kind)
    if args is None:
        return E.ACL_SUCCESS
    dp, sp, w, h, k = args
    _rt_limits_2d(w, h, rt_fn, "MemCopy2DSync", 3020)
    if k == 3:
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            ("EE1001", f"The argument is invalid. Reason: {rt_fn} execution failed, the feature is not supported."),
        )
    d, s = _side(api, dst, "dst", True), _side(api, src, "src", False)
    for side, name in ((d, "dst"), (s, "src")):
        if side.kind == "unknown":
            assert side.ptr is not None
            raise _unknown_address(api, name, side.ptr, _PASS_THE_BUFFER)
    need_context(rt_fn)  # GetLocationType asks the driver within the current context
    if _auto_corrected(_location(s), _location(d), k) not in (1, 2):  # then only H2D and D2H copy
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                "Synchronous 2D memory copy task failed. Parameter kind or newKind is invalid. Reason: Memcpy2dSync "
                f"supports only H2D or D2H. Parameter kind is {_RT_KIND_DESC[k]}, and newKind is MEMCPY_KIND_MAX(8).",
            ),
            fb_invalid(rt_fn),
        )
    check_capture_mode("Synchronous 2D memory copy")
    _rows_2d(api, d, "dst", dp, w, h, "write")
    _rows_2d(api, s, "src", sp, w, h, "read")
    try:
        _do_copy_2d(api, d, dp, s, sp, w, h)
    except MemoryFault as fault:
        raise _fault(api, fault) from None
    return E.ACL_SUCCESS


@rt_api
def aclrtMemcpy2dAsync(
    dst: object, dpitch: int, src: object, spitch: int, width: int, height: int, kind: int, stream: object
) -> int:
    """Queue a 2D copy on the stream (host to device, device to host or device to device)."""
    api, rt_fn = "aclrtMemcpy2dAsync", "rtMemcpy2dAsync"
    args = _copy2d_args(api, dst, dpitch, src, spitch, width, height, kind)
    if args is None:
        return E.ACL_SUCCESS
    dp, sp, w, h, _ = args
    st = cur_stream(stream_handle(stream, rt_fn), "Asynchronous 2D memory copy", rt_fn)  # ApiErrorDecorator
    _rt_limits_2d(w, h, rt_fn, "MemCopy2DAsync", 3067)
    d, s = _side(api, dst, "dst", True), _side(api, src, "src", False)
    for side, name in ((d, "dst"), (s, "src")):
        if side.kind == "unknown":
            assert side.ptr is not None
            raise _unknown_address(api, name, side.ptr, _PASS_THE_BUFFER)
    if not (d.is_device or s.is_device):
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: dst and src are both host memory (Memcpy2dAsync supports only H2D, D2H, or D2D)."),
        )
    ctx = need_context(rt_fn)
    if d.arr is not None or s.arr is not None:
        # pageable memory: CANN turns the copy into a stream synchronize and a synchronous copy
        # (no stream-context check), which a capture cannot hold (the copy is queued here)
        if capturing(st):
            raise ApiError(
                RT_PARAM,
                (
                    "EE1016",
                    "Asynchronous 2D memory copy task failed. Reason: The pageable memory copy task does not support "
                    "graph capture.",
                ),
                fb_invalid(rt_fn),
            )
    else:
        own_stream(st, ctx, "Asynchronous 2D memory copy", rt_fn)
    check_stopped(ctx)
    _rows_2d(api, d, "dst", dp, w, h, "write")
    _rows_2d(api, s, "src", sp, w, h, "read")

    def run() -> None:
        try:
            _do_copy_2d(api, d, dp, s, sp, w, h)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None

    task = Task(st, f"{api}({h} rows of {w} bytes)", run)
    sanitizer.track(
        task,
        [(s.ptr + i * sp, s.ptr + i * sp + w) for i in range(h)] if s.ptr is not None else [],
        [(d.ptr + i * dp, d.ptr + i * dp + w) for i in range(h)] if d.ptr is not None else [],
    )
    RT.policy.submit(st, task)
    return E.ACL_SUCCESS


__all__ = [
    "aclrtMemcpy2d",
    "aclrtMemcpy2dAsync",
]
