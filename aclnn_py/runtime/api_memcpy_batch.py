"""Batched and descriptor copies, and the reduction copy, of ``acl_rt.h``'s memory chapter:
aclrtMemcpyBatch(V2), aclrtMemcpyBatchAsync(V2), aclrtGetMemcpyDescSize, aclrtSetMemcpyDesc,
aclrtMemcpyAsyncWithDesc, aclrtMemcpyAsyncWithOffset, aclrtMemcpyAsyncWithCondition,
aclrtReduceAsync.

Arrays (``dsts``, ``sizes``, ``attrs`` ...) are Python sequences; from C the adaptors of
``cabi_memory`` read the program's arrays. Every copy goes through the simulated memory's bounds
checks, as aclrtMemcpy's do.
"""

from __future__ import annotations

import numpy as np

from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import store
from . import _rt_features, sanitizer
from ._checks import (
    PARAM,
    RT_ERROR_INVALID_VALUE,
    RT_PARAM,
    E,
    Message,
    acl_null,
    acl_reason,
    acl_value,
    check_stopped,
    emu,
    fb_invalid,
    int_arg,
    memcpy_kind_desc,
    need_context,
    out_arg,
    own_stream,
    rt_api,
    rt_inner,
    rt_value,
    silent,
    stream_handle,
)
from ._structs import aclrtMemcpyBatchAttr, batch_attrs
from .api_memcpy import _do_copy, _fault, _is_null, _memcpy_kind, _Side, _side
from .device import RT
from .memory import SPACE, MemoryFault
from .stream import Task, TaskFault

SIZE_MAX = UINT64_MAX
_BATCH_CHECK = "Checking the batch memory copy parameter validity"
_BATCH_MAX = 4096  # DEVMM_MEMCPY_BATCH_MAX_COUNT
_LOC_NAMES = ("MEMORY_LOC_HOST", "MEMORY_LOC_DEVICE", "MEMORY_LOC_UNREGISTERED", "MEMORY_LOC_MANAGED",
              "MEMORY_LOC_HOST_NUMA")  # fmt: skip


def _loc_str(t: int) -> str:
    return f"{_LOC_NAMES[t]}({t})" if 0 <= t < len(_LOC_NAMES) else f"UNKNOWN({t})"


def _ints(api: str, name: str, seq: object, n: int) -> list[int]:
    if not isinstance(seq, (list, tuple)) or len(seq) < n:
        raise ApiError(PARAM, emu(f"{api}: {name} must be a sequence of at least {n} numbers, got {describe(seq)}."))
    return [int_arg(v, f"{name}[{i}]", 0, UINT64_MAX) for i, v in enumerate(seq[:n])]


def _objs(api: str, name: str, seq: object, n: int) -> list[object]:
    if not isinstance(seq, (list, tuple)) or len(seq) < n:
        raise ApiError(PARAM, emu(f"{api}: {name} must be a sequence of at least {n} entries, got {describe(seq)}."))
    return list(seq[:n])


def _set_fail(failIndex: object, value: int) -> None:
    if failIndex is not None:
        store(failIndex, value)


def _validate_acl(
    dsts: object, destMaxs: object, srcs: object, sizes: list[int], n: int, attrs: object, attrsIndexes: object,
    numAttrs: int, api: str,
) -> tuple[list[int], list[aclrtMemcpyBatchAttr]]:  # fmt: skip
    """``ValidateMemcpyBatchParams`` of memory.cpp."""
    for obj, name in (
        (dsts, "dsts"), (destMaxs, "destMaxs"), (srcs, "srcs"), (sizes, "sizes"), (attrs, "attrs"),
        (attrsIndexes, "attrsIndexes"),
    ):  # fmt: skip
        if obj is None:
            raise ApiError(PARAM, acl_null(_BATCH_CHECK, name))
    maxes = _ints(api, "destMaxs", destMaxs, n)
    for i in range(n):
        if maxes[i] < sizes[i]:
            raise ApiError(
                PARAM,
                acl_reason(
                    _BATCH_CHECK,
                    maxes[i],
                    "destMaxs",
                    f"The memory copy size {sizes[i]} at index {i} exceeds the size {maxes[i]} of the destination "
                    "buffer",
                ),
            )
    attr_list = batch_attrs(api, attrs, numAttrs)
    for a in attr_list:
        nonzero = next((b for b in a.rsv if b), None)
        if nonzero is not None:
            raise ApiError(PARAM, acl_value(_BATCH_CHECK, nonzero, "attrs.rsv", "0"))
    return maxes, attr_list


def _validate_rt(desc: str, rt_fn: str, n: int, numAttrs: int, idx: list[int], sync: bool) -> None:
    """The runtime decorator's checks of the batch's shape (``ApiErrorDecorator::MemcpyBatch(Async)``)."""
    if numAttrs == 0:
        raise ApiError(RT_PARAM, rt_value(desc, 0, "numAttrs", "not equal to 0"), fb_invalid(rt_fn))
    if numAttrs > n:
        raise ApiError(
            RT_PARAM,
            (
                "EE1017",
                f"{desc} failed. Parameter numAttrs or count is invalid. Reason: Parameter numAttrs {numAttrs} should "
                f"be less than or equal to parameter count {n}.",
            ),
            fb_invalid(rt_fn),
        )
    if sync and n > _BATCH_MAX:
        raise ApiError(RT_PARAM, rt_value(desc, n, "count", f"less than or equal to {_BATCH_MAX}"), fb_invalid(rt_fn))
    if idx[0] != 0:
        raise ApiError(RT_PARAM, rt_value(desc, idx[0], "attrsIdxs[0]", "0"), fb_invalid(rt_fn))
    for i in range(1, numAttrs):
        if idx[i] <= idx[i - 1]:
            reason = (
                f"Each entry in attrsIdxs must be greater than the previous entry. Parameter attrsIdxs[{i}] is "
                f"{idx[i]}, and attrsIdxs[{i - 1}] is {idx[i - 1]}"
            )
            raise ApiError(
                RT_PARAM,
                (
                    "EE1017",
                    f"{desc} failed. Parameter attrsIdxs[{i}] or attrsIdxs[{i - 1}] is invalid. Reason: {reason}.",
                ),
                fb_invalid(rt_fn),
            )
        if idx[i] >= n:
            reason = (
                f"Each entry in attrsIdxs must be less than the parameter count. Parameter attrsIdxs[{i}] is "
                f"{idx[i]}, and count is {n}"
            )
            raise ApiError(
                RT_PARAM,
                ("EE1017", f"{desc} failed. Parameter attrsIdxs[{i}] or count is invalid. Reason: {reason}."),
                fb_invalid(rt_fn),
            )


def _location(side: _Side) -> tuple[int, int]:
    """``rtPtrAttributes``' location of one side: (type, device id); pinned memory
    (aclrtMallocHost) is MEMORY_LOC_HOST, pageable host memory (a buffer object, a C program's
    own memory) MEMORY_LOC_UNREGISTERED."""
    if side.alloc is not None and side.is_device:
        return 1, side.alloc.device
    return (0 if side.alloc is not None else 2), 0


def _real(t: int) -> int:
    """``realDstLoc`` / ``realSrcLoc``: unregistered memory counts as host."""
    return 0 if t == 2 else t


def _check_attr(
    i: int, d: _Side, s: _Side, attr: aclrtMemcpyBatchAttr, failIndex: object
) -> tuple[Message, str] | None:
    """``ApiImpl::CheckMemCpyAttr``: the attribute must name where each side really is; its EE1017
    and the side it refused ("dst" or "src"), or None."""
    for side, loc, name in ((d, attr.dstLoc, "dst"), (s, attr.srcLoc, "src")):
        actual_t, actual_id = _location(side)
        want = 0 if int(loc.type) == 4 else int(loc.type)
        if _real(actual_t) != want or (actual_t == 1 and actual_id != int(loc.id)):
            _set_fail(failIndex, i)
            return (
                "EE1017",
                f"Checking memory copy attributes failed. Parameter {name} is invalid. Reason: The input memory "
                f"type {_loc_str(int(loc.type))} and the actual memory type {_loc_str(actual_t)} do not match, or "
                f"the input device ID (device_id={int(loc.id)}) and the actual device ID "
                f"(device_id={actual_id}) do not match.",
            ), name
    return None


def _direction(desc: str, dt: int, st: int) -> Message:
    return (
        "EE1016",
        f"{desc} failed. Reason: Only H2D and D2H copy directions are supported. The destination location type is "
        f"{_loc_str(dt)}, and the source location type is {_loc_str(st)}.",
    )


def _check_pair_sync(i: int, d: _Side, s: _Side, attr: aclrtMemcpyBatchAttr, failIndex: object) -> None:
    """The loop of ``ApiImpl::MemcpyBatch``: CheckMemCpyAttr and the inner report after it
    (api_impl.cc:8780), then the direction (EE1016)."""
    rt_fn = "rtsMemcpyBatch"
    refused = _check_attr(i, d, s, attr, failIndex)
    if refused is not None:
        inner = f"Failed to verify {i}th memory pair attributes. retCode={RT_ERROR_INVALID_VALUE:#x}."
        raise ApiError(RT_PARAM, refused[0], rt_inner(inner, "MemcpyBatch", "api_impl.cc", 8780), fb_invalid(rt_fn))
    dt, st = _real(_location(d)[0]), _real(_location(s)[0])
    if dt == st:
        _set_fail(failIndex, i)
        raise ApiError(RT_PARAM, _direction("Batch synchronous memory copy", dt, st), fb_invalid(rt_fn))


_PARAMS = "Checking memory copy params"


def _check_pair_async(i: int, d: _Side, s: _Side, attr: aclrtMemcpyBatchAttr, prev_src: int, failIndex: object) -> None:
    """The attribute and direction checks of ``ApiImpl::ValidateMemCpyParamsAndAttributes``
    (LoopMemcpyAsync sets failIdx to the pair). ``prev_src``: the source type CANN's reused
    ``srcAttr`` still holds when the destination is refused first (the previous pair's source,
    MEMORY_LOC_HOST before the first pair)."""
    rt_fn = "rtsMemcpyBatchAsync"
    refused = _check_attr(i, d, s, attr, failIndex)
    if refused is not None:
        src_t = prev_src if refused[1] == "dst" else _location(s)[0]
        inner = (
            f"check attributes failed, attributes of src locationType={_loc_str(int(attr.srcLoc.type))}, dst "
            f"locationType={_loc_str(int(attr.dstLoc.type))}, actually dst locationType="
            f"{_loc_str(_real(_location(d)[0]))}, src locationType={_loc_str(_real(src_t))}."
        )
        raise ApiError(
            RT_PARAM,
            refused[0],
            rt_inner(inner, "ValidateMemCpyParamsAndAttributes", "api_impl.cc", 8852),
            fb_invalid(rt_fn),
        )
    dt, st = _real(_location(d)[0]), _real(_location(s)[0])
    if dt == st:
        _set_fail(failIndex, i)
        raise ApiError(RT_PARAM, _direction(_PARAMS, dt, st), fb_invalid(rt_fn))


def _pairs(
    api: str, rt_fn: str, dsts: list[object], srcs: list[object], sizes: list[int], maxes: list[int],
    attrs: list[aclrtMemcpyBatchAttr], idx: list[int], failIndex: object, is_async: bool,
) -> list[tuple[_Side, _Side, int]]:  # fmt: skip
    out: list[tuple[_Side, _Side, int]] = []
    a = 0
    prev_src = 0  # srcAttr = {}: MEMORY_LOC_HOST
    for i, (dst, src, n) in enumerate(zip(dsts, srcs, sizes, strict=True)):
        while a + 1 < len(attrs) and i >= idx[a + 1]:
            a += 1
        if is_async:
            if n == 0 or n > maxes[i]:
                _set_fail(failIndex, i)
                raise ApiError(
                    RT_PARAM,
                    (
                        "EE1017",
                        f"{_PARAMS} failed. Parameter size is invalid. Reason: Parameter size {n} should be greater "
                        f"than 0 and less than or equal to parameter destMax {maxes[i]}.",
                    ),
                    fb_invalid(rt_fn),
                )
            for obj, name in ((src, "src"), (dst, "dst")):
                if _is_null(obj) or as_pointer(obj) == 0:
                    _set_fail(failIndex, i)
                    raise ApiError(
                        RT_PARAM,
                        ("EE1004", f"{_PARAMS} failed because {name} cannot be a NULL pointer."),
                        fb_invalid(rt_fn),
                    )
        d, s = _side(api, dst, f"dsts[{i}]", True), _side(api, src, f"srcs[{i}]", False)
        for side, name in ((d, f"dsts[{i}]"), (s, f"srcs[{i}]")):
            if side.kind == "unknown":
                _set_fail(failIndex, i)
                raise ApiError(RT_PARAM, emu(f"{api}: {name} is an address aclnn_py does not know."))
        if is_async:
            _check_pair_async(i, d, s, attrs[a], prev_src, failIndex)
        else:
            _check_pair_sync(i, d, s, attrs[a], failIndex)
        prev_src = _location(s)[0]
        for side in (d, s):
            try:
                if side.ptr is not None:
                    SPACE.check(side.ptr, n, "copy", api)
                elif side.arr is not None and side.arr.size < n:
                    raise MemoryFault("host-overflow", f"{api}: pair {i}: a host buffer of {side.arr.size} bytes")
            except MemoryFault as fault:
                _set_fail(failIndex, i)
                raise _fault(api, fault) from None
        out.append((d, s, n))
    return out


def _batch(
    api: str, dsts: object, destMaxs: object, srcs: object, sizes: object, numBatches: object, attrs: object,
    attrsIndexes: object, numAttrs: object, failIndex: object, stream: object, is_async: bool,
) -> int:  # fmt: skip
    """``MemcpyBatchImpl`` of memory.cpp, then the runtime's checks, then the copies."""
    if sizes is None:
        raise ApiError(PARAM, acl_null("Batch memory copy", "sizes"))
    n = int_arg(numBatches, "numBatches", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value("Batch memory copy", 0, "numBatches", "must be greater than 0"))
    size_list = _ints(api, "sizes", sizes, n)
    if not any(size_list):
        _set_fail(failIndex, SIZE_MAX)
        return E.ACL_SUCCESS
    na = int_arg(numAttrs, "numAttrs", 0, UINT64_MAX)
    maxes, attr_list = _validate_acl(dsts, destMaxs, srcs, size_list, n, attrs, attrsIndexes, na, api)
    desc, rt_fn = ("Batch asynchronous memory copy", "rtsMemcpyBatchAsync") if is_async else (
        "Batch synchronous memory copy", "rtsMemcpyBatch")  # fmt: skip
    # rtsMemcpyBatch(Async) (api_c_memory.cc): the chip's feature before the decorator, which is
    # the first to set failIdx (a refusal here leaves it as it was)
    if not _rt_features.has("RT_FEATURE_TASK_MEMORY_BATCH_COPY"):
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)  # a WARN, GetRtExtErrCodeAndSetGlobalErr
    st = stream_handle(stream, rt_fn) if is_async else None  # RT_VALIDATE_AND_UNWRAP_OBJECT, then the decorator
    _set_fail(failIndex, SIZE_MAX)
    idx = _ints(api, "attrsIndexes", attrsIndexes, max(na, 1)) if na else [0]
    _validate_rt(desc, rt_fn, n, na, idx, sync=not is_async)
    dst_list, src_list = _objs(api, "dsts", dsts, n), _objs(api, "srcs", srcs, n)
    if not is_async:
        # ApiImpl::MemcpyBatch needs no context: the driver copies (NpuDriver::MemcpyBatch)
        for d, s, k in _pairs(api, rt_fn, dst_list, src_list, size_list, maxes, attr_list, idx, failIndex, False):
            try:
                _do_copy(api, d, s, k)
            except MemoryFault as fault:
                raise _fault(api, fault) from None
        return E.ACL_SUCCESS
    ctx = need_context(rt_fn)  # ApiImpl::MemcpyBatchAsync: CHECK_CONTEXT_VALID_WITH_RETURN
    pairs = _pairs(api, rt_fn, dst_list, src_list, size_list, maxes, attr_list, idx, failIndex, True)
    target = st or ctx.default_stream
    own_stream(target, ctx, desc, rt_fn)
    check_stopped(ctx)

    def run() -> None:
        for d, s, k in pairs:
            try:
                _do_copy(api, d, s, k)
            except MemoryFault as fault:
                raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None

    task = Task(target, f"{api}({n} pairs)", run)
    sanitizer.track(
        task,
        [(s.ptr, s.ptr + k) for _, s, k in pairs if s.ptr is not None],
        [(d.ptr, d.ptr + k) for d, _, k in pairs if d.ptr is not None],
    )
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


@rt_api
def aclrtMemcpyBatch(
    dsts: object, destMaxs: object, srcs: object, sizes: object, numBatches: int, attrs: object,
    attrsIndexes: object, numAttrs: int, failIndex: object,
) -> int:  # fmt: skip
    """Copy ``numBatches`` pairs at once, all host to device or all device to host; ``attrs[k]``
    says where the pairs from ``attrsIndexes[k]`` on live. ``failIndex`` receives the pair a check
    refused (SIZE_MAX when the failure concerns no pair)."""
    api = "aclrtMemcpyBatch"
    out = out_arg(failIndex, api, "failIndex")
    return _batch(api, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, out, None, False)


@rt_api
def aclrtMemcpyBatchV2(
    dsts: object, destMaxs: object, srcs: object, sizes: object, numBatches: int, attrs: object,
    attrsIndexes: object, numAttrs: int,
) -> int:  # fmt: skip
    """aclrtMemcpyBatch without the failed index."""
    return _batch(
        "aclrtMemcpyBatchV2", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, None, None, False
    )


@rt_api
def aclrtMemcpyBatchAsync(
    dsts: object, destMaxs: object, srcs: object, sizes: object, numBatches: int, attrs: object,
    attrsIndexes: object, numAttrs: int, failIndex: object, stream: object,
) -> int:  # fmt: skip
    """aclrtMemcpyBatch queued on the stream as one task."""
    api = "aclrtMemcpyBatchAsync"
    out = out_arg(failIndex, api, "failIndex")
    return _batch(api, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, out, stream, True)


@rt_api
def aclrtMemcpyBatchAsyncV2(
    dsts: object, destMaxs: object, srcs: object, sizes: object, numBatches: int, attrs: object,
    attrsIndexes: object, numAttrs: int, stream: object,
) -> int:  # fmt: skip
    """aclrtMemcpyBatchAsync without the failed index."""
    return _batch(
        "aclrtMemcpyBatchAsyncV2", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, None,
        stream, True,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# copy descriptors (chips with STARS: Runtime::ChipIsHaveStars, the DevProperties' isStars)
# ---------------------------------------------------------------------------------------------

_KIND_RANGE = "[RT_MEMCPY_KIND_HOST_TO_HOST, RT_MEMCPY_KIND_MAX)"
_DESC_MAGIC = 0x61636C6E6E5F7079  # "aclnn_py": a descriptor aclrtSetMemcpyDesc wrote


def _desc_kind(api: str, kind: object) -> int:
    k = int_arg(kind, "kind", -(2**31), 2**31 - 1)
    if not 0 <= k < 8:
        raise ApiError(PARAM, acl_value(api, memcpy_kind_desc(k), "kind", _KIND_RANGE))
    return k


def _desc_size() -> int:
    return _rt_features.properties().memcpy_descriptor_size


@rt_api
def aclrtGetMemcpyDescSize(kind: int, descSize: object) -> int:
    """Bytes of device memory a copy descriptor takes (32; 64 on Ascend950)."""
    api = "aclrtGetMemcpyDescSize"
    out = out_arg(descSize, api, "descSize")
    k = _desc_kind(api, kind)
    if not _rt_features.properties().is_stars or k != 6:
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)  # a WARN only: no STARS, or not INNER_DEVICE_TO_DEVICE
    store(out, _desc_size())
    return E.ACL_SUCCESS


@rt_api
def aclrtSetMemcpyDesc(desc: object, kind: int, srcAddr: object, dstAddr: object, count: int, config: object) -> int:
    """Write a copy (source, destination, length) into the descriptor, which is device memory of
    aclrtGetMemcpyDescSize bytes; aclrtMemcpyAsyncWithDesc reads it back when its task runs."""
    api = "aclrtSetMemcpyDesc"
    d = as_pointer(desc)
    if d is None:
        raise ApiError(PARAM, acl_null(api, "desc"))
    k = _desc_kind(api, kind)
    src, dst = as_pointer(srcAddr), as_pointer(dstAddr)
    if src is None:
        raise ApiError(PARAM, acl_null(api, "srcAddr"))
    if dst is None:
        raise ApiError(PARAM, acl_null(api, "dstAddr"))
    n = int_arg(count, "count", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(PARAM, acl_value(api, 0, "count", "must be greater than 0"))
    if config is not None and as_pointer(config) is not None:
        raise ApiError(
            PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter reserve is invalid. Reason: config is a reserved parameter and must be "
                "nullptr.",
            ),
        )
    if not _rt_features.properties().is_stars:
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    if k != 6:
        raise ApiError(
            RT_PARAM,
            emu(f"{api}: kind {memcpy_kind_desc(k)} is not supported; only MEMCPY_INNER_DEVICE_TO_DEVICE(6) is."),
        )
    for p, name in ((d, "desc"), (src, "srcAddr"), (dst, "dstAddr")):
        alloc = SPACE.find(p) if p > 0 else None
        if alloc is None or alloc.kind not in ("device", "mapped"):
            raise ApiError(RT_PARAM, emu(f"{api}: {name} {describe(p)} is not device memory."))
    try:
        record = np.array([_DESC_MAGIC, src, dst, n], dtype="<u8").view(np.uint8)
        SPACE.write(d, record[: min(32, _desc_size())], api)
    except MemoryFault as fault:
        raise _fault(api, fault) from None
    sanitizer.after_write(d, 32, api)
    return E.ACL_SUCCESS


@rt_api
def aclrtMemcpyAsyncWithDesc(desc: object, kind: int, stream: object) -> int:
    """Queue the copy a descriptor describes; the descriptor is read when the task runs."""
    api, rt_fn = "aclrtMemcpyAsyncWithDesc", "rtsMemcpyAsyncWithDesc"
    d = as_pointer(desc)
    if d is None:
        raise ApiError(PARAM, acl_null(api, "desc"))
    _desc_kind(api, kind)
    if stream is None or as_pointer(stream) == 0:
        raise ApiError(PARAM, acl_null(api, "stream"))
    if not _rt_features.properties().is_stars:
        raise silent(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    st = stream_handle(stream, rt_fn)
    assert st is not None
    ctx = need_context(rt_fn)
    own_stream(st, ctx, "Asynchronous memory copy with a descriptor", rt_fn)
    check_stopped(ctx)
    try:
        SPACE.check(d, 32, "read", api)
    except MemoryFault as fault:
        raise _fault(api, fault) from None

    def run() -> None:
        try:
            magic, src, dst, n = (int(v) for v in SPACE.read(d, 32, api).view("<u8"))
            if magic != _DESC_MAGIC:
                raise TaskFault(
                    E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: 0x{d:x} holds no descriptor (aclrtSetMemcpyDesc)"
                )
            SPACE.write(dst, SPACE.read(src, n, api), api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None
        sanitizer.after_write(dst, n, api)

    RT.policy.submit(st, Task(st, f"{api}(0x{d:x})", run))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# copies with offsets or conditions
# ---------------------------------------------------------------------------------------------


@rt_api
def aclrtMemcpyAsyncWithOffset(
    dst: object, destMax: int, dstDataOffset: int, src: object, count: int, srcDataOffset: int, kind: int,
    stream: object,
) -> int:  # fmt: skip
    """Queue a copy between addresses read from device memory when the task runs: ``*dst +
    dstDataOffset`` receives ``count`` bytes from ``*src + srcDataOffset`` (``dst`` and ``src``
    are device addresses of 8-byte pointers). Device to device only."""
    api, rt_fn = "aclrtMemcpyAsyncWithOffset", "rtMemcpyAsyncWithOffset"
    n = int_arg(count, "count", 0, UINT64_MAX)
    if n == 0:
        return E.ACL_SUCCESS
    k = int_arg(kind, "kind", -(2**31), 2**31 - 1)
    dp, sp = as_pointer(dst), as_pointer(src)
    for p, name in ((dp, "dst"), (sp, "src")):
        if p is None:
            raise ApiError(
                RT_PARAM,
                ("EE1004", f"Asynchronous memory copy with offsets failed because {name} cannot be a NULL pointer."),
                fb_invalid(rt_fn),
            )
    dmax = int_arg(destMax, "destMax", 0, UINT64_MAX)
    doff = int_arg(dstDataOffset, "dstDataOffset", 0, UINT64_MAX)
    soff = int_arg(srcDataOffset, "srcDataOffset", 0, UINT64_MAX)
    if k != 3:
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: kind {memcpy_kind_desc(k)} is not supported; the copy goes device to device "
                "(ACL_MEMCPY_DEVICE_TO_DEVICE)."
            ),
        )
    if n + doff > dmax:
        raise ApiError(RT_PARAM, emu(f"{api}: dstDataOffset {doff} + count {n} exceeds destMax {dmax}."))
    st = stream_handle(stream, rt_fn)
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, "Asynchronous memory copy with offsets", rt_fn)
    check_stopped(ctx)
    assert dp is not None and sp is not None
    for p in (dp, sp):
        try:
            SPACE.check(p, 8, "read", api)
        except MemoryFault as fault:
            raise _fault(api, fault) from None

    def run() -> None:
        try:
            d0 = int(SPACE.read(dp, 8, api).view("<u8")[0])
            s0 = int(SPACE.read(sp, 8, api).view("<u8")[0])
            SPACE.write(d0 + doff, SPACE.read(s0 + soff, n, api), api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None
        sanitizer.after_write(d0 + doff, n, api)

    RT.policy.submit(target, Task(target, f"{api}({n} bytes)", run))
    return E.ACL_SUCCESS


@rt_api
def aclrtMemcpyAsyncWithCondition(dst: object, destMax: int, src: object, count: int, kind: int, stream: object) -> int:
    """aclrtMemcpyAsync that refuses pageable host memory (the runtime's page-locked check):
    host sides must be pinned memory of aclrtMallocHost."""
    from .api_memcpy import aclrtMemcpyAsync

    api = "aclrtMemcpyAsyncWithCondition"
    n = int_arg(count, "count", 0, UINT64_MAX)
    if n == 0:
        return E.ACL_SUCCESS
    if dst is None or (as_pointer(dst) is None and not isinstance(dst, (np.ndarray, bytearray, memoryview))):
        raise ApiError(PARAM, acl_null(api, "dst"))
    if src is None or (as_pointer(src) is None and not isinstance(src, (np.ndarray, bytes, bytearray, memoryview))):
        raise ApiError(PARAM, acl_null(api, "src"))
    _memcpy_kind(kind)
    for obj, name in ((dst, "dst"), (src, "src")):
        if isinstance(obj, (np.ndarray, bytes, bytearray, memoryview)):
            raise ApiError(
                RT_PARAM,
                emu(
                    f"{api}: {name} is pageable host memory ({describe(obj)}); this copy needs page-locked "
                    "memory (aclrtMallocHost)."
                ),
            )
    return int(aclrtMemcpyAsync.__wrapped__(dst, destMax, src, count, kind, stream))  # type: ignore[attr-defined]


__all__ = [
    "aclrtGetMemcpyDescSize",
    "aclrtMemcpyAsyncWithCondition",
    "aclrtMemcpyAsyncWithDesc",
    "aclrtMemcpyAsyncWithOffset",
    "aclrtMemcpyBatch",
    "aclrtMemcpyBatchAsync",
    "aclrtMemcpyBatchAsyncV2",
    "aclrtMemcpyBatchV2",
    "aclrtSetMemcpyDesc",
]
