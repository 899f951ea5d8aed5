"""IPC memory sharing of ``acl_rt.h``'s memory chapter: aclrtIpcMemGetExportKey,
aclrtIpcMemSetImportPid, aclrtIpcMemImportPidInterServer, aclrtIpcMemSetAttr,
aclrtIpcMemImportByKey, aclrtIpcMemClose.

A key names device memory of aclrtMalloc; importing the key gives a device address whose bytes
*are* the exported memory (a :class:`memory.MappedAllocation`), so writes through either address are
seen through the other. Import works within this process. A second process would need this
process's simulated memory, which a separate Python process cannot reach: there the key is unknown
and the import is refused (107000, the emulator's message says why).

Keys carry their pid whitelist as on CANN: unless exported with
ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, only processes named by aclrtIpcMemSetImportPid
(or aclrtIpcMemImportPidInterServer) may import, this one included.
"""

from __future__ import annotations

import ctypes
import itertools
import os
from dataclasses import dataclass, field

from .. import soc as _soc
from .._capi import UINT64_MAX, ApiError, as_pointer, describe
from .._ref import Ref, store
from ._checks import (
    ACL_CALL,
    PARAM,
    RT_PARAM,
    E,
    acl_inner,
    acl_null,
    emu,
    fb_invalid,
    int_arg,
    need_context,
    out_arg,
    rt_api,
    rt_value,
)
from ._structs import array_in
from .memory import SPACE, Allocation, MappedAllocation, MemoryFault, call_site, on_reset

_EXPORT = "Setting the memory to be shared between processes"
_PIDS = "Setting the trustlist of processes that can share memory through IPC"
_ATTR = "Setting the attribute for IPC-based memory sharing"
_OPEN = "Opening the shared memory between processes"
_CLOSE = "Closing the IPC shared memory"
_MAX_INT32 = 2**31 - 1


@dataclass(eq=False)
class Exported:
    key: str
    alloc: Allocation  # the exported allocation
    offset: int
    size: int
    check_pid: bool
    pids: set[int] = field(default_factory=set)
    link: int | None = None  # aclrtIpcMemSetAttr(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK)
    imports: list[int] = field(default_factory=list)  # device addresses of this process's imports
    # Ascend950's IpcSetMemoryAttr puts the name in the process's name map with no import
    attr_entry: bool = False


KEYS: dict[str, Exported] = {}
_serial = itertools.count(1)


def _reset() -> None:
    KEYS.clear()


on_reset(_reset)


def release_device(dev: int, api: str) -> None:
    """A device reset unmaps this process's imports made on it, and forgets the keys exported
    from its memory (that memory is freed with the device)."""
    for name, exp in list(KEYS.items()):
        kept = []
        for start in exp.imports:
            mapped = SPACE.find(start)
            if mapped is not None and mapped.device == dev:
                SPACE.free(start, api, call_site())
                SPACE.unreserve(start)
            else:
                kept.append(start)
        exp.imports[:] = kept
        if exp.alloc.device == dev and exp.alloc.kind == "device":
            for start in exp.imports:  # imports on other devices lose their memory too
                if SPACE.find(start) is not None:
                    SPACE.free(start, api, call_site())
                SPACE.unreserve(start)
            del KEYS[name]


def _rt_null(desc: str, name: str, rt_fn: str) -> ApiError:
    return ApiError(RT_PARAM, ("EE1004", f"{desc} failed because {name} cannot be a NULL pointer."), fb_invalid(rt_fn))


def _acl_call_error(e: ApiError, text: str, quiet: tuple[int, ...]) -> ApiError:
    """The ACL layer's ``ACL_LOG_CALL_ERROR`` after a failed runtime call (EH9999 with the runtime's
    code), except for the codes it only warns about (``quiet``)."""
    if e.code >= E.ACL_ERROR_RT_PARAM_INVALID and e.code not in quiet:
        e.messages = (*e.messages, acl_inner(text.format(int(e.code)), ACL_CALL))
    return e


def _key_text(key: object) -> str | None:
    if isinstance(key, str):
        return key
    if isinstance(key, (bytes, bytearray)):
        return bytes(key).split(b"\0", 1)[0].decode("utf-8", errors="surrogateescape")
    if isinstance(key, Ref) and isinstance(key.value, str):
        return key.value
    return None


def _exported(api: str, key: object) -> Exported:
    text = _key_text(key)
    exp = KEYS.get(text) if text is not None else None
    if exp is None:
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: key {describe(key)} was not exported by this process (aclrtIpcMemGetExportKey), or it was "
                "closed; keys of another process cannot be opened by the emulator, whose device memory is this "
                "process's own."
            ),
        )
    return exp


@rt_api
def aclrtIpcMemGetExportKey(devPtr: object, size: int, key: object, len: int, flags: int) -> int:
    """A key other processes (and this one) can import ``[devPtr, devPtr + size)`` of device
    memory with; ``key`` receives the text (a ``Ref`` from Python, a ``char[len]`` from C)."""
    api, rt_fn = "aclrtIpcMemGetExportKey", "rtsIpcMemGetExportKey"
    p = as_pointer(devPtr)
    if p is None:
        raise ApiError(PARAM, acl_null(api, "devPtr"))
    if key is None:
        raise ApiError(PARAM, acl_null(api, "key"))
    n = int_arg(size, "size", 0, UINT64_MAX)
    length = int_arg(len, "len", 0, UINT64_MAX) & 0xFFFFFFFF  # the runtime takes a uint32_t
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    for value, name in ((n, "byteCount"), (length, "len")):
        if value == 0:
            raise ApiError(RT_PARAM, rt_value(_EXPORT, 0, name, "not equal to 0"), fb_invalid(rt_fn))
    if f > 1:
        raise ApiError(RT_PARAM, rt_value(_EXPORT, f, "flags", "[0, 1]"), fb_invalid(rt_fn))
    need_context(rt_fn)
    alloc = SPACE.find(p) if p > 0 else None
    if alloc is None or alloc.kind != "device":
        raise ApiError(RT_PARAM, emu(f"{api}: devPtr {describe(devPtr)} is not device memory of aclrtMalloc."))
    try:
        SPACE.check(p, n, "share", api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{fault.message}.")) from None
    text = f"aclnn_py_ipc_{os.getpid()}_{next(_serial)}"
    if length <= text.__len__():
        raise ApiError(RT_PARAM, emu(f"{api}: len {length} is too short for the key (it needs {text.__len__() + 1})."))
    if isinstance(key, bytearray):
        key[: text.__len__() + 1] = text.encode() + b"\0"
    elif isinstance(key, Ref):
        key.value = text
    else:
        raise ApiError(PARAM, emu(f"{api}: key must be a Ref() or a bytearray to write into, got {describe(key)}."))
    KEYS[text] = Exported(text, alloc, p - alloc.start, n, check_pid=f == 0)
    return E.ACL_SUCCESS


def _pid_list(api: str, pid: object, num: int) -> list[int]:
    if isinstance(pid, int) and not isinstance(pid, bool):
        pid = [pid]
    return array_in(api, "pid", pid, num, ctypes.c_int32, int)


@rt_api
def aclrtIpcMemSetImportPid(key: object, pid: object, num: int) -> int:
    """Let the processes ``pid[0..num)`` import the key."""
    api, rt_fn = "aclrtIpcMemSetImportPid", "rtSetIpcMemPid"  # rtsIpcMemSetImportPid calls rtSetIpcMemPid
    if key is None:
        raise ApiError(PARAM, acl_null(api, "key"))
    if pid is None:
        raise ApiError(PARAM, acl_null(api, "pid"))
    k = int_arg(num, "num", 0, UINT64_MAX)
    as_int32 = k & 0xFFFFFFFF if k & 0x80000000 == 0 else (k & 0xFFFFFFFF) - 2**32  # passed on as an int
    if as_int32 <= 0:
        raise ApiError(RT_PARAM, rt_value(_PIDS, as_int32, "num", f"(0, {_MAX_INT32}]"), fb_invalid(rt_fn))
    need_context(rt_fn)  # ApiImpl::SetIpcMemPid (api_impl.cc:4777-4778)
    exp = _exported(api, key)
    exp.pids.update(_pid_list(api, pid, as_int32))
    return E.ACL_SUCCESS


@rt_api
def aclrtIpcMemImportPidInterServer(key: object, serverPids: object, num: int) -> int:
    """aclrtIpcMemSetImportPid for processes of other servers of a super pod: a sequence of
    ``(sdid, [pid, ...])`` pairs from Python. The emulated host is one server (sdid 0): its pids
    join the whitelist."""
    rt_fn = "rtIpcMemImportPidInterServer"
    if key is None:
        raise ApiError(RT_PARAM, ("EE1004", f"{rt_fn} failed because key cannot be a NULL pointer."))
    if serverPids is None or (as_pointer(serverPids) is None and not isinstance(serverPids, (list, tuple))):
        raise ApiError(RT_PARAM, ("EE1004", f"{rt_fn} failed because serverPids cannot be a NULL pointer."))
    n = int_arg(num, "num", 0, UINT64_MAX)
    if n == 0:
        raise ApiError(RT_PARAM, rt_value(rt_fn, 0, "num", "not equal to 0"))
    entries = serverPids if isinstance(serverPids, (list, tuple)) else []
    if not isinstance(serverPids, (list, tuple)):
        raise ApiError(PARAM, emu(f"{rt_fn}: serverPids must be a sequence of (sdid, pids) pairs."))
    exp = _exported("aclrtIpcMemImportPidInterServer", key)
    for i, entry in enumerate(entries[:n]):
        sdid, pids = entry
        if pids is None:
            raise ApiError(
                RT_PARAM,
                ("EE1004", f"{rt_fn} failed because serverPids[{i}].pid cannot be a NULL pointer."),
            )
        if int(sdid) == 0:
            exp.pids.update(int(p) for p in pids)
    return E.ACL_SUCCESS


@rt_api
def aclrtIpcMemSetAttr(key: object, type: int, attr: int) -> int:
    """Choose the link (ACL_RT_IPC_MEM_ATTR_ACCESS_LINK: SIO, HCCS, UB ...) imports of the key use;
    the emulator records it (its memory has no links)."""
    rt_fn = "rtIpcSetMemoryAttr"
    t = int_arg(type, "type", -(2**31), 2**31 - 1) & 0xFFFFFFFF
    a = int_arg(attr, "attr", 0, UINT64_MAX)
    try:
        if key is None:
            raise _rt_null(_ATTR, "name", rt_fn)
        if t >= 1:
            raise ApiError(RT_PARAM, rt_value(_ATTR, t, "type", "[0, 1)"), fb_invalid(rt_fn))
        if a >= 4:
            raise ApiError(RT_PARAM, rt_value(_ATTR, a, "attr", "[0, 4)"), fb_invalid(rt_fn))
        exp = _exported("aclrtIpcMemSetAttr", key)
        exp.link = a
        if _soc.current().is_regbase and not exp.imports:  # ApiImplDavid::IpcSetMemoryAttr
            exp.attr_entry = True
    except ApiError as e:  # aclrtIpcMemSetAttrImpl (acl/memory.cpp:1879-1885)
        raise _acl_call_error(
            e,
            "call rtIpcSetMemoryAttr failed, runtime result = {}.",
            (E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, E.ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED),
        ) from None
    return E.ACL_SUCCESS


@rt_api
def aclrtIpcMemImportByKey(devPtr: object, key: object, flags: int) -> int:
    """Open an exported key: ``devPtr`` receives a device address of the current device whose
    bytes are the exported memory."""
    api, rt_fn = "aclrtIpcMemImportByKey", "rtsIpcMemImportByKey"
    out = out_arg(devPtr, api, "devPtr")
    if key is None:
        raise ApiError(PARAM, acl_null(api, "key"))
    f = int_arg(flags, "flags", 0, UINT64_MAX)
    try:
        start = _import(api, rt_fn, key, f)
    except ApiError as e:  # aclrtIpcMemImportByKeyImpl (acl/memory.cpp:1804-1810)
        raise _acl_call_error(
            e, "call rtsIpcMemImportByKey failed, runtime result = {}", (E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,)
        ) from None
    store(out, start)
    return E.ACL_SUCCESS


def _import(api: str, rt_fn: str, key: object, f: int) -> int:
    """rtsIpcMemImportByKey: the mapped address of the key's memory on the current device."""
    if f > 1:
        raise ApiError(RT_PARAM, rt_value(_OPEN, f, "flags", "[0, 1]"), fb_invalid(rt_fn))
    ctx = need_context(rt_fn)
    exp = _exported(api, key)
    if exp.alloc.freed:
        raise ApiError(RT_PARAM, emu(f"{api}: the exported memory was freed: {exp.alloc.describe()}."))
    if exp.check_pid and os.getpid() not in exp.pids:
        raise ApiError(
            RT_PARAM,
            emu(
                f"{api}: process {os.getpid()} is not on the key's whitelist: the exporter names importers with "
                "aclrtIpcMemSetImportPid, or exports with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION."
            ),
        )
    dev = ctx.device.ident
    data = exp.alloc.buf[exp.offset : exp.offset + exp.size]
    try:
        start = SPACE.reserve(exp.size, 2 << 20, dev)
        mapped = MappedAllocation(start, data, "mapped", dev, api, call_site(), exp)
        mapped.init = None
        SPACE.insert(mapped)
    except MemoryFault as fault:
        raise ApiError(E.ACL_ERROR_RT_MEMORY_ALLOCATION, emu(f"{api}: {fault.message}.")) from None
    exp.imports.append(start)
    return start


@rt_api
def aclrtIpcMemClose(key: object) -> int:
    """Close a key: while this process has imports of it, the first import is unmapped and the
    export stays; with no import left, the export is destroyed (ApiImpl::IpcCloseMemoryByName,
    api_impl_standard_soc.cc:748-806: the process's name map holds its imports)."""
    api, rt_fn = "aclrtIpcMemClose", "rtsIpcMemClose"
    if key is None:
        raise ApiError(PARAM, acl_null(api, "key"))
    need_context(rt_fn)
    exp = _exported(api, key)
    if exp.imports:
        start = exp.imports.pop(0)
        if SPACE.find(start) is not None:
            SPACE.free(start, api, call_site())
        SPACE.unreserve(start)
        exp.attr_entry = False  # the name's entry goes with its last import
        return E.ACL_SUCCESS
    if exp.attr_entry:  # "just set attr but not open": the entry goes, the export stays
        exp.attr_entry = False
        return E.ACL_SUCCESS
    del KEYS[exp.key]
    return E.ACL_SUCCESS


__all__ = [
    "aclrtIpcMemClose",
    "aclrtIpcMemGetExportKey",
    "aclrtIpcMemImportByKey",
    "aclrtIpcMemImportPidInterServer",
    "aclrtIpcMemSetAttr",
    "aclrtIpcMemSetImportPid",
]
