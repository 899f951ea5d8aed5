"""The C ABI's conversions (``capi/``), shared by :mod:`aclnn_py._cabi` and its adaptor modules:
the handle tokens handed to C, the pointers C passes (simulated addresses, pinned host blocks, C's
own memory aliased in place), C strings, and the out-parameters written back into C's memory.

Handles. ``aclTensor*``, ``aclrtStream`` ... are tokens, not Python object addresses, so a stale or
forged handle reaches the Python API as an object it rejects (``UnknownHandle``) instead of crashing the
process. Tokens of destroyed objects stay resolvable for a while so use-after-destroy is named.

Pointers. Simulated addresses (device memory, and pinned host memory as the engine sees it) pass
through as ints. Any other non-null address is real host memory of the C program (a
``std::vector``'s data): it is wrapped in place as a ctypes buffer of the bytes the call declares.
``aclrtMallocHost`` hands C the real address of the simulated block's backing store (:func:`_pin`),
and it is translated back whenever it comes in again.
"""

from __future__ import annotations

import bisect
import ctypes
from collections import OrderedDict
from typing import Any

from ._ref import Ref
from .runtime.device import RT
from .runtime.memory import DEVICE_BASE, HOST_BASE, REGION_SPAN, SPACE, ManagedAllocation

_TOKEN_BASE = 0x1000
_TOKEN_STEP = 0x10  # looks like an aligned pointer in a debugger, and is never 0
_GRAVEYARD = 65536  # destroyed handles kept resolvable for use-after-destroy messages


class UnknownHandle:
    """A handle value this library never handed out (or one forgotten long ago)."""

    __slots__ = ("token",)

    def __init__(self, token: int) -> None:
        self.token = token

    def __repr__(self) -> str:
        return f"<unknown handle 0x{self.token:x}>"


class _Handles:
    """Tokens for the Python objects handed to C."""

    def __init__(self) -> None:
        self.next = _TOKEN_BASE
        self.live: dict[int, object] = {}
        self.dead: OrderedDict[int, object] = OrderedDict()
        self.by_id: dict[int, int] = {}

    def token(self, obj: object) -> int:
        if obj is None:
            return 0
        tok = self.by_id.get(id(obj))
        if tok is not None and (self.live.get(tok) is obj or self.dead.get(tok) is obj):
            return tok
        tok, self.next = self.next, self.next + _TOKEN_STEP
        self.live[tok] = obj
        self.by_id[id(obj)] = tok
        return tok

    def obj(self, token: int) -> object:
        if token == 0:
            return None
        obj = self.live.get(token)
        if obj is None:
            obj = self.dead.get(token)
        return UnknownHandle(token) if obj is None else obj

    def sweep(self, *tokens: int) -> None:
        """Move the objects behind ``tokens`` that are now destroyed to the graveyard."""
        for tok in tokens:
            obj = self.live.get(tok)
            if obj is None or not _is_dead(obj):
                continue
            del self.live[tok]
            self.dead[tok] = obj
            while len(self.dead) > _GRAVEYARD:
                old_tok, old = self.dead.popitem(last=False)
                if self.by_id.get(id(old)) == old_tok:
                    del self.by_id[id(old)]


def _is_dead(obj: object) -> bool:
    return (
        getattr(obj, "alive", True) is False
        or getattr(obj, "destroyed", False) is True
        or getattr(obj, "state", "") == "released"
    )


H = _Handles()


# ---------------------------------------------------------------------------------------------
# pointers
# ---------------------------------------------------------------------------------------------

# Real address of a pinned block's backing store -> (simulated start, size), for aclrtMallocHost.
_pinned_starts: list[int] = []
_pinned: dict[int, tuple[int, int]] = {}


def _simulated(addr: int) -> bool:
    if HOST_BASE <= addr < HOST_BASE + REGION_SPAN:
        return True
    if DEVICE_BASE <= addr < DEVICE_BASE + max(RT.device_count, 1) * REGION_SPAN:
        return True
    # managed memory: host pages mapped at their own address, device memory to the copy functions
    return isinstance(SPACE.find(addr), ManagedAllocation)


def _pinned_to_sim(addr: int) -> int | None:
    i = bisect.bisect_right(_pinned_starts, addr) - 1
    if i >= 0:
        real = _pinned_starts[i]
        sim, size = _pinned[real]
        if addr < real + max(size, 1):
            if _still_backs(real, sim):
                return sim + (addr - real)
            # the block was freed (aclrtFreeBuf, a reset) and its bytes released: malloc may hand
            # the address to the program again, so it is plain host memory now
            del _pinned[real]
            _pinned_starts.pop(i)
    return None


def _still_backs(real: int, sim: int) -> bool:
    """Whether the simulated block at ``sim`` (live, or freed with its bytes still held, so that
    a use after free is reported as one) still has its backing store at ``real``."""
    alloc = SPACE.find(sim) or SPACE.find_freed(sim)
    return alloc is not None and alloc.start == sim and SPACE.holds_bytes(alloc) and alloc.buf.ctypes.data == real


def _dev(addr: int) -> int | None:
    """A pointer argument that names simulated memory: None for nullptr, pinned addresses translated."""
    if addr == 0:
        return None
    sim = _pinned_to_sim(addr)
    return addr if sim is None else sim


def _buffer(addr: int, nbytes: int) -> object:
    """A pointer argument that may be device or host memory: an int, or C's bytes aliased in place."""
    if addr == 0:
        return None
    if _simulated(addr):
        return addr
    sim = _pinned_to_sim(addr)
    if sim is not None:
        return sim
    if nbytes <= 0 or nbytes > 1 << 47:
        return bytearray(0)  # nothing to alias (the engine reports the size problem)
    return memoryview((ctypes.c_char * nbytes).from_address(addr)).cast("B")


def _copy_args(dst: int, destMax: int, src: int, count: int) -> tuple[object, object]:
    """The two sides of a copy (aclrtMemcpy & co.): the bytes the call may touch, at most destMax."""
    n = min(count, destMax)
    return _buffer(dst, n), _buffer(src, n)


def _int64s(addr: int, n: int) -> list[int] | None:
    if addr == 0:
        return None
    return list((ctypes.c_int64 * n).from_address(addr)) if n else []


def _u64(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_uint64.from_address(addr)


def _i64(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_int64.from_address(addr)


def _u32(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_uint32.from_address(addr)


def _i32(addr: int) -> Any:
    return None if addr == 0 else ctypes.c_int32.from_address(addr)


def _ref(addr: int) -> Ref[Any] | None:
    return None if addr == 0 else Ref()


def _put_handle(addr: int, ref: Ref[Any] | None) -> None:
    """Write a handle out-parameter (only when the Python call stored one, as C leaves it untouched)."""
    if ref is not None and ref.value is not None:
        ctypes.c_uint64.from_address(addr).value = H.token(ref.value)


def _pin(hostPtr: int, ref: Ref[Any] | None) -> None:
    """Hand C the real address of a new pinned block's backing store (aclrtMallocHost & co.)."""
    if ref is not None and ref.value is not None:
        alloc = SPACE.find(ref.value)
        assert alloc is not None
        real = alloc.buf.ctypes.data  # the block's backing store: C reads and writes it directly
        if real not in _pinned:  # (a stale entry of a released block at the same address is replaced)
            bisect.insort(_pinned_starts, real)
        _pinned[real] = (alloc.start, alloc.size)
        ctypes.c_uint64.from_address(hostPtr).value = real


# A C string longer than this is not read whole (a missing NUL would run off into other memory).
_MAX_CSTR = 1 << 16


def _cstr(addr: int) -> str | None:
    """A ``const char*`` argument: None for nullptr, else the text up to its NUL (UTF-8)."""
    if addr == 0:
        return None
    raw = ctypes.string_at(addr, _strnlen(addr))
    return raw.decode("utf-8", errors="surrogateescape")


def _strnlen(addr: int) -> int:
    for n in range(_MAX_CSTR):
        if ctypes.c_char.from_address(addr + n).value == b"\0":
            return n
    return _MAX_CSTR


def _text_out(addr: int, ref: Ref[Any] | None, size: int) -> None:
    """Copy a text the engine stored into the caller's char[size] (cut to fit, NUL-terminated)."""
    if ref is not None and isinstance(ref.value, str) and size > 0:
        data = ref.value.encode("utf-8")[: size - 1] + b"\0"
        ctypes.memmove(addr, data, len(data))
