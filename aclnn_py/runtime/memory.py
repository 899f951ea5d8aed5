"""Simulated memory: an address space of allocations, every access bounds-checked.

Device pointers are plain integers in a 64-bit address space (one region per device, one for
pinned host memory), so pointer arithmetic works as in C. Each allocation is backed by host
RAM only when it is made. Fresh memory is *not* zeroed: it is filled with the poison byte
0xFF (NaN in every float type), because real device memory holds whatever was there before.

Every read or write names its byte range and is checked against the table of live
allocations: an access outside, across the end of, or into a freed allocation raises
:class:`MemoryFault` with a message that names the address, the allocation, and where it was
made and freed. Freed address ranges are not reused until the region wraps, so stale pointers
keep pointing at recognisably freed memory. The table of freed allocations is bounded.
"""

from __future__ import annotations

import bisect
import contextlib
import mmap
import os
import sys
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

import numpy as np

POISON = 0xFF
CANARY = 0xCA  # guard bytes around every allocation's storage: never addressable, never written
CANARY_BYTES = 64
DEVICE_BASE = 0x12C0_0000_0000
HOST_BASE = 0x0A00_0000_0000
REGION_SPAN = 1 << 40  # 1 TiB of address space per device
START_ALIGN = 512  # start addresses are 512-byte aligned (CANN promises at least 64)
GUARD = 512  # unmapped bytes left after every allocation
FREED_HISTORY = 4096  # freed allocations remembered for messages
# The freed allocations that still hold their bytes, newest last, up to this many bytes (the
# newest always): a view built just before a racing free, or a pinned address C still holds,
# reaches orphaned bytes instead of memory malloc hands out again; older records keep only their
# metadata, so a long program's frees do not stay resident.
FREED_BYTES_KEPT = 256 << 20

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What call_site() says when no Python frame outside the package exists (the C ABI sets it).
_foreign_caller = "<unknown>"


def set_foreign_caller(name: str) -> None:
    """Name the caller for calls that arrive with no Python frame of their own (e.g. from C)."""
    global _foreign_caller
    _foreign_caller = name


def called_from_c() -> bool:
    """True when the calls come from a C program (the C ABI named the caller): a struct or array
    argument that arrives as an int is then that program's memory, read and written in place."""
    return _foreign_caller != "<unknown>"


_basenames: dict[str, str] = {}  # a caller's file name -> its base name (few files call us)


def call_site() -> str:
    """``file:line`` of the innermost caller outside the aclnn_py package."""
    f = sys._getframe(1)
    pkg = _PKG_DIR
    while f is not None and f.f_code.co_filename.startswith(pkg):
        f = f.f_back  # type: ignore[assignment]
    if f is None:
        return _foreign_caller
    name = f.f_code.co_filename
    base = _basenames.get(name)
    if base is None:
        if len(_basenames) > 1024:  # notebooks name each cell anew: stay bounded
            _basenames.clear()
        base = _basenames[name] = os.path.basename(name)
    return f"{base}:{f.f_lineno}"


def call_chain() -> str:
    """The user's line that led to the call, for leak reports. The innermost caller outside the
    package, and when that line is inside a function of the program other than the script's
    ``main()`` (a port's ``CreateAclTensor`` helper, say) the line that called the helper comes
    first, so that three tensors made by one helper get three different lines:
    ``main.py:40 (through CreateAclTensor at main.py:12)``."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_PKG_DIR):
        f = f.f_back  # type: ignore[assignment]
    if f is None:
        return _foreign_caller
    inner = f"{os.path.basename(f.f_code.co_filename)}:{f.f_lineno}"
    outer = f.f_back
    if f.f_code.co_name == "<module>" or outer is None or outer.f_code.co_filename.startswith(_PKG_DIR):
        return inner
    if f.f_code.co_name == "main" and outer.f_code.co_name == "<module>":
        return inner  # the program's entry (a port's main()), called from the script: not a helper
    if outer.f_code.co_filename.startswith(sys.prefix) or outer.f_code.co_filename.startswith("<frozen"):
        return inner  # called by a library (pytest, runpy ...), not by the program
    return f"{os.path.basename(outer.f_code.co_filename)}:{outer.f_lineno} (through {f.f_code.co_name} at {inner})"


# Storage of at least this many bytes is a private anonymous mapping whose pages the kernel faults
# in at once (MAP_POPULATE), where the platform has it; the bytes are the same (every allocation is
# still filled with POISON). numpy asks for transparent huge pages for a large array (madvise), and
# with THP in madvise mode a 2 MiB fault stalls on memory compaction when no huge page is free:
# filling a fresh 1 GiB allocation with the poison byte took 0.1 s or 1.5-3.5 s of system CPU that
# way, as the host's memory happened to be (the asynchronous-copy sample of Ascend/samples makes
# two), a steady ~0.5 s with the mapping. Only for the largest allocations: on 4 KiB pages a
# kernel streaming a 16 MiB buffer runs ~20% slower (TLB misses), a cost the fill outweighs only
# at this size.
MAP_MIN_BYTES = 1 << 28
_MAP_POPULATE: int | None = getattr(mmap, "MAP_POPULATE", None)


def _fresh_bytes(n: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """``n`` bytes of new storage (contents undefined: the caller fills them)."""
    if _MAP_POPULATE is not None and n >= MAP_MIN_BYTES:
        try:
            pages: mmap.mmap | None = mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_POPULATE)
        except OSError:  # no address space for it: numpy's allocation below reports the shortage
            pages = None
        if pages is not None:
            # the array holds the mapping; it is unmapped when the last view of the bytes goes
            return np.frombuffer(pages, dtype=np.uint8)
    return np.empty(n, dtype=np.uint8)


class MemoryFault(Exception):
    """An access that the simulated memory refused; ``kind`` is a short machine-readable tag."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class Allocation:
    """One live or freed allocation."""

    __slots__ = (
        "alloc_api", "alloc_site", "buf", "device", "free_api", "free_site", "freed",
        "init", "kind", "origin", "raw", "requested", "size", "start",
    )  # fmt: skip

    def __init__(self, start: int, size: int, requested: int, kind: str, device: int, api: str, site: str) -> None:
        self.start = start
        self.size = size  # bytes usable (CANN's rounded size)
        self.requested = requested  # bytes the caller asked for
        self.kind = kind  # "device" or "host"
        self.device = device
        self.alloc_api = api
        self.alloc_site = site
        self.origin = site  # the user's line through helpers (call_chain), for leak reports
        self.free_api = ""
        self.free_site = ""
        self.freed = False
        # The storage sits between two runs of canary bytes that no address reaches.
        self.raw: np.ndarray[Any, np.dtype[np.uint8]] = _fresh_bytes(size + 2 * CANARY_BYTES)
        self.raw[:CANARY_BYTES] = CANARY
        self.raw[CANARY_BYTES + size :] = CANARY
        self.buf: np.ndarray[Any, np.dtype[np.uint8]] = self.raw[CANARY_BYTES : CANARY_BYTES + size]
        self.buf.fill(POISON)
        self.init: Any = None  # initialisation shadow, kept by the sanitizer when enabled

    @property
    def end(self) -> int:
        return self.start + self.size

    def canaries_intact(self) -> bool:
        """True if the guard bytes on both sides of the storage are untouched."""
        return bool(
            (self.raw[:CANARY_BYTES] == CANARY).all() and (self.raw[CANARY_BYTES + self.size :] == CANARY).all()
        )

    def describe(self) -> str:
        where = f"{self.kind} allocation [0x{self.start:x}, 0x{self.end:x}) ({self.size} bytes"
        if self.requested != self.size:
            where += f", {self.requested} requested"
        where += f") made by {self.alloc_api} at {self.alloc_site}"
        if self.freed:
            where += f", freed by {self.free_api} at {self.free_site}"
        return where


class MappedAllocation(Allocation):
    """Addresses whose bytes belong to another object: a reserved virtual range mapped onto a
    physical allocation (aclrtMapMem), host memory registered for the device (aclrtHostRegister),
    or memory imported through an IPC key. ``buf`` aliases the backing bytes, so two mappings of one
    physical allocation see each other's writes; there are no canaries of its own."""

    __slots__ = ("backing",)

    def __init__(
        self, start: int, buf: np.ndarray, kind: str, device: int, api: str, site: str, backing: object
    ) -> None:
        self.start = start
        self.size = self.requested = int(buf.size)
        self.kind = kind  # "mapped": device-side addresses the device pool does not count
        self.device = device
        self.alloc_api, self.alloc_site, self.origin = api, site, site
        self.free_api = self.free_site = ""
        self.freed = False
        self.raw = self.buf = buf
        self.init = None
        self.backing = backing  # the physical handle, registration or import behind the range

    def canaries_intact(self) -> bool:
        return True  # the backing object keeps the canaries (if it has any)


class ManagedAllocation(MappedAllocation):
    """aclrtMemAllocManaged's memory: anonymous host pages (a private mmap) made addressable in the
    simulated space at their own host address, so the one pointer serves the host program's loads
    and stores, the copy functions and kernels alike. ``kind`` is "device" (CANN frees it with
    aclrtFree, a device reset releases it, leak reports name it with the device's memory); the
    chapter keeps its advice and prefetch state in ``policy``. Freeing drops the pages
    (:meth:`release`)."""

    __slots__ = ("policy",)

    def __init__(self, pages: mmap.mmap, requested: int, device: int, api: str, site: str) -> None:
        buf: np.ndarray[Any, np.dtype[np.uint8]] = np.frombuffer(pages, dtype=np.uint8)
        super().__init__(int(buf.ctypes.data), buf, "device", device, api, site, pages)
        self.requested = requested  # the bytes asked for (size: rounded up to 2 MiB)
        self.policy: Any = None

    def release(self) -> None:
        """Give the pages back to the host: unmapped at once unless a view of them is still alive
        (a kernel running on a stream): the view's owner unmaps them when it lets go."""
        pages = self.backing
        self.raw = self.buf = np.empty(0, dtype=np.uint8)
        self.backing = None
        if isinstance(pages, mmap.mmap):
            with contextlib.suppress(BufferError):  # a view remains: the mapping goes with it
                pages.close()


def overlaps_simulated(start: int, end: int, devices: int) -> bool:
    """Whether the host range ``[start, end)`` overlaps the simulated address regions (pinned host
    memory and the first ``devices`` devices): such a range cannot be mapped at its own address."""
    lo, hi = HOST_BASE, HOST_BASE + REGION_SPAN
    if start < hi and lo < end:
        return True
    lo, hi = DEVICE_BASE, DEVICE_BASE + devices * REGION_SPAN
    return start < hi and lo < end


def _align_up(n: int, a: int) -> int:
    return (n + a - 1) // a * a


_RESET_HOOKS: list[Callable[[], None]] = []
_NO_BYTES: np.ndarray[Any, np.dtype[np.uint8]] = np.empty(0, dtype=np.uint8)  # a released record's storage


def on_reset(hook: Callable[[], None]) -> None:
    """Run ``hook`` whenever the address space is reset (a module's tables of its addresses)."""
    _RESET_HOOKS.append(hook)


class AddressSpace:
    """All allocations of the process: device regions (one per device) and pinned host memory."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[int, Allocation] = {}
        self._starts: list[int] = []
        self._freed: OrderedDict[int, Allocation] = OrderedDict()
        self._holding: deque[Allocation] = deque()  # freed, bytes still held (FREED_BYTES_KEPT)
        self._held_bytes = 0
        self._bump: dict[tuple[str, int], int] = {}
        self._reserved: dict[int, int] = {}  # virtual ranges (aclrtReserveMemAddress): start -> end

    def reset(self) -> None:
        """Drop every allocation (test isolation; not a CANN call), and the tables of the modules
        that keep their own view of it (mappings, registrations, IPC keys)."""
        self.__init__()  # type: ignore[misc]
        for hook in _RESET_HOOKS:
            hook()

    # -- allocation --------------------------------------------------------------------------

    @staticmethod
    def region(kind: str, device: int) -> tuple[int, int]:
        base = HOST_BASE if kind == "host" else DEVICE_BASE + device * REGION_SPAN
        return base, base + REGION_SPAN

    def allocate(self, size: int, requested: int, kind: str, device: int, api: str, site: str) -> Allocation:
        """Reserve ``size`` bytes (already rounded by the caller's rules) and back them with RAM."""
        with self._lock:
            start = self._find_start(kind, device, size)
            alloc = Allocation(start, size, requested, kind, device, api, site)
            alloc.origin = call_chain()
            self._live[start] = alloc
            bisect.insort(self._starts, start)
            self._freed.pop(start, None)
            return alloc

    def _find_start(self, kind: str, device: int, size: int) -> int:
        lo, hi = self.region(kind, device)
        footprint = _align_up(size, START_ALIGN) + GUARD
        start = self._bump.get((kind, device), lo)
        if start + footprint <= hi:
            self._bump[(kind, device)] = start + footprint
            return start
        # The region is used up: fall back to the first gap between live allocations.
        cursor = lo
        for s in self._starts[bisect.bisect_left(self._starts, lo) :]:
            if s >= hi:
                break
            cursor = self._past_reserved(cursor, footprint)
            if cursor + footprint <= s:
                return cursor
            cursor = max(cursor, _align_up(self._live[s].end + GUARD, START_ALIGN))
        cursor = self._past_reserved(cursor, footprint)
        if cursor + footprint <= hi:
            return cursor
        raise MemoryFault("exhausted", "the simulated address space of this device is exhausted")

    def _past_reserved(self, cursor: int, footprint: int) -> int:
        """The first start at or after ``cursor`` whose footprint misses every reserved range."""
        moved = True
        while moved:
            moved = False
            for lo, hi in self._reserved.items():
                if cursor < hi and lo < cursor + footprint:
                    cursor, moved = _align_up(hi + GUARD, START_ALIGN), True
        return cursor

    # -- virtual ranges (reserved, then mapped piece by piece) ---------------------------------

    def reserve(self, size: int, alignment: int, device: int) -> int:
        """Set aside ``size`` bytes of the device's address space, ``alignment``-aligned: nothing is
        addressable there until a mapping is inserted (:meth:`insert`)."""
        with self._lock:
            lo, hi = self.region("device", device)
            start = _align_up(self._bump.get(("device", device), lo), alignment)
            if start + size + GUARD > hi:
                raise MemoryFault("exhausted", "the simulated address space of this device is exhausted")
            self._bump[("device", device)] = _align_up(start + size + GUARD, START_ALIGN)
            self._reserved[start] = start + size
            return start

    def unreserve(self, start: int) -> None:
        """Give a reserved range back (the caller has unmapped everything in it)."""
        with self._lock:
            self._reserved.pop(start, None)

    def reservation(self, ptr: int) -> tuple[int, int] | None:
        """The reserved range ``[start, end)`` that contains ``ptr``, if any."""
        with self._lock:
            for lo, hi in self._reserved.items():
                if lo <= ptr < hi:
                    return lo, hi
            return None

    def insert(self, alloc: Allocation) -> None:
        """Make ``alloc`` addressable at its own start (a mapping); it must not overlap live memory."""
        with self._lock:
            i = bisect.bisect_left(self._starts, alloc.start)
            for j in (i - 1, i):
                if 0 <= j < len(self._starts):
                    other = self._live[self._starts[j]]
                    if other.start < alloc.end and alloc.start < other.end:
                        span = f"[0x{alloc.start:x}, 0x{alloc.end:x})"
                        raise MemoryFault("overlap", f"{span} overlaps {other.describe()}")
            self._live[alloc.start] = alloc
            self._starts.insert(i, alloc.start)
            self._freed.pop(alloc.start, None)

    def free(self, ptr: int, api: str, site: str) -> Allocation:
        """Release the allocation that starts at ``ptr``; raises MemoryFault otherwise."""
        with self._lock:
            alloc = self._live.pop(ptr, None)
            if alloc is None:
                raise self._bad_free(ptr)
            self._starts.pop(bisect.bisect_left(self._starts, ptr))
            if isinstance(alloc, ManagedAllocation):
                alloc.release()  # the host pages go now; the record stays for messages
            else:
                self._hold(alloc)
            alloc.freed = True
            alloc.free_api, alloc.free_site = api, site
            self._freed[ptr] = alloc
            if len(self._freed) > FREED_HISTORY:
                self._freed.popitem(last=False)
            return alloc

    def _hold(self, alloc: Allocation) -> None:
        """Keep a freed allocation's bytes while the newest frees total FREED_BYTES_KEPT; release
        the oldest beyond it (the record stays in the freed table for messages)."""
        self._holding.append(alloc)
        self._held_bytes += alloc.raw.nbytes
        while self._held_bytes > FREED_BYTES_KEPT and len(self._holding) > 1:
            old = self._holding.popleft()
            self._held_bytes -= old.raw.nbytes
            old.raw = old.buf = _NO_BYTES

    def holds_bytes(self, alloc: Allocation) -> bool:
        """Whether ``alloc`` (live, or freed and not yet released) still has its own bytes."""
        return alloc.raw is not _NO_BYTES

    def _bad_free(self, ptr: int) -> MemoryFault:
        old = self._freed.get(ptr)
        if old is not None:
            return MemoryFault("double-free", f"double free of 0x{ptr:x}: {old.describe()}")
        inside = self._find_live(ptr)
        if inside is not None:
            return MemoryFault(
                "free-not-start",
                f"0x{ptr:x} is {ptr - inside.start} bytes into {inside.describe()}; only the start "
                "address an allocation returned can be freed",
            )
        return MemoryFault("free-unknown", f"0x{ptr:x} was not returned by an allocation function")

    # -- lookup ------------------------------------------------------------------------------

    def _find_live(self, ptr: int) -> Allocation | None:
        alloc = self._live.get(ptr)
        if alloc is not None:
            return alloc
        i = bisect.bisect_right(self._starts, ptr) - 1
        if i >= 0:
            alloc = self._live[self._starts[i]]
            if ptr < alloc.end:
                return alloc
        return None

    def find(self, ptr: int) -> Allocation | None:
        """The live allocation containing ``ptr``, if any."""
        alloc = self._live.get(ptr)
        if alloc is not None:
            return alloc
        with self._lock:
            return self._find_live(ptr)

    def is_live(self, alloc: Allocation) -> bool:
        """Whether ``alloc`` is still live (not freed, the space not reset): a range that lay
        inside it then still does, and its checks would pass again."""
        return self._live.get(alloc.start) is alloc

    def find_freed(self, ptr: int) -> Allocation | None:
        """The most recently freed allocation (still remembered) that contained ``ptr``."""
        with self._lock:
            best = None
            for alloc in self._freed.values():
                if alloc.start <= ptr < alloc.end:
                    best = alloc
            return best

    def describe_address(self, ptr: int) -> str:
        """Where ``ptr`` points, in words, for messages."""
        alloc = self.find(ptr)
        if alloc is not None:
            return f"0x{ptr:x} is at offset {ptr - alloc.start} of {alloc.describe()}"
        old = self.find_freed(ptr)
        if old is not None:
            return f"0x{ptr:x} is inside freed memory: {old.describe()}"
        return f"0x{ptr:x} is not inside any allocation"

    def damaged_canaries(self) -> list[Allocation]:
        """Live allocations whose guard bytes changed (always empty unless a bounds check failed)."""
        return [a for a in self.live() if not a.canaries_intact()]

    def live(self) -> list[Allocation]:
        """Every live allocation, in address order."""
        with self._lock:
            return [self._live[s] for s in self._starts]

    # -- checked access ----------------------------------------------------------------------

    def check(self, ptr: int, nbytes: int, access: str, who: str) -> tuple[Allocation, int]:
        """Check that ``[ptr, ptr + nbytes)`` lies inside one live allocation.

        Returns the allocation and the offset of ``ptr`` in it; raises MemoryFault otherwise.
        """
        alloc = self._live.get(ptr)  # the common case, a tensor at the start of its allocation
        if alloc is None:
            with self._lock:
                alloc = self._find_live(ptr)
        if alloc is None:
            old = self.find_freed(ptr)
            if old is not None:
                raise MemoryFault(
                    "use-after-free",
                    f"{who}: {access} of {nbytes} bytes at 0x{ptr:x} touches freed memory: {old.describe()}",
                )
            where = "is not inside any allocation"
            reserved = self.reservation(ptr)
            if reserved is not None:
                where = (
                    f"lies in the virtual range [0x{reserved[0]:x}, 0x{reserved[1]:x}) reserved by "
                    "aclrtReserveMemAddress, but no physical memory is mapped there"
                )
            raise MemoryFault("unmapped", f"{who}: {access} of {nbytes} bytes at 0x{ptr:x} {where}")
        off = ptr - alloc.start
        if off + nbytes > alloc.size:
            raise MemoryFault(
                "out-of-bounds",
                f"{who}: {access} of {nbytes} bytes at 0x{ptr:x} runs {off + nbytes - alloc.size} bytes past "
                f"the end of {alloc.describe()}",
            )
        return alloc, off

    def view(
        self,
        ptr: int,
        dtype: np.dtype,
        shape: tuple[int, ...],
        byte_strides: tuple[int, ...],
        access: str,
        who: str,
    ) -> np.ndarray:
        """A numpy view of typed elements at ``ptr`` with the given shape and byte strides.

        The whole range the view can reach is checked first; the returned array aliases the
        simulated memory (writes through it land in device memory).
        """
        itemsize = dtype.itemsize
        if any(d == 0 for d in shape):
            return np.empty(shape, dtype=dtype)
        lo = sum(s * (d - 1) for d, s in zip(shape, byte_strides) if s < 0)
        hi = sum(s * (d - 1) for d, s in zip(shape, byte_strides) if s > 0) + itemsize
        return self.view_extent(ptr, lo, hi, dtype, shape, byte_strides, access, who)

    def view_extent(
        self,
        ptr: int,
        lo: int,
        hi: int,
        dtype: np.dtype,
        shape: tuple[int, ...],
        byte_strides: tuple[int, ...],
        access: str,
        who: str,
    ) -> np.ndarray:
        """:meth:`view` with the reach of the view, ``[ptr + lo, ptr + hi)``, already known."""
        alloc, off = self.check(ptr + lo, hi - lo, access, who)
        view: np.ndarray = np.ndarray(shape, dtype=dtype, buffer=alloc.buf, offset=off - lo, strides=byte_strides)
        return view

    def read(self, ptr: int, nbytes: int, who: str) -> np.ndarray:
        """The bytes ``[ptr, ptr + nbytes)`` as a read-only uint8 view."""
        alloc, off = self.check(ptr, nbytes, "read", who)
        out: np.ndarray = alloc.buf[off : off + nbytes].view()
        out.flags.writeable = False
        return out

    def write(self, ptr: int, data: np.ndarray | memoryview | bytes, who: str) -> None:
        """Copy ``data`` (bytes-like) to ``[ptr, ptr + len(data))``."""
        src = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data.view(np.uint8)
        alloc, off = self.check(ptr, src.size, "write", who)
        alloc.buf[off : off + src.size] = src

    def fill(self, ptr: int, nbytes: int, value: int, who: str) -> None:
        """Set ``nbytes`` bytes at ``ptr`` to ``value & 0xFF``."""
        alloc, off = self.check(ptr, nbytes, "write", who)
        alloc.buf[off : off + nbytes] = value & 0xFF


SPACE = AddressSpace()
