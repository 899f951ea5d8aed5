"""The sanitizer: mistakes that real hardware cannot name, named at the call that made them.

Switched by ``ACLNN_PY_SANITIZER=off|warn|error`` (default ``warn``):

* ``warn``: faithful status codes stay faithful; each finding is printed to stderr and added
  to ``aclGetRecentErrMsg()``;
* ``error``: a finding is printed as in ``warn``, then also makes the call fail (with the code
  given per finding; the message is in ``aclGetRecentErrMsg()``);
* ``off``: nothing is tracked.

Checks:

* **memcheck** — bad frees and out-of-bounds / use-after-free accesses. The checked memory
  always refuses such accesses (that is not optional); this module adds the reports for the
  cases where CANN itself would return success.
* **initcheck** — reading device bytes that nothing ever wrote. Initialised ranges are kept
  per allocation as an interval list, switching to a byte mask only for strided writes.
* **synccheck** — the host touching memory that queued, unsynchronised work writes (or reads),
  freeing memory that queued work uses, destroying work that never ran.
* **leakcheck** — at ``aclrtResetDevice`` / ``aclFinalize``: allocations, streams, events,
  tensors and executors never released, with where each was created.
"""

from __future__ import annotations

import atexit
import bisect
import os
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .. import _errmsg, _settings
from .._capi import fail
from .._status import aclError, aclnnStatus
from . import stream as stream_mod
from .memory import SPACE, Allocation, call_site

ENV_VAR = "ACLNN_PY_SANITIZER"
MODES = ("off", "warn", "error")


def _mode_from_env() -> str:
    return _settings.choice(ENV_VAR, MODES, "warn", "sanitizer mode")


MODE = _mode_from_env()
ERROR_ID = "aclnn_py"  # how findings appear in aclGetRecentErrMsg(): "aclnn_py: sanitizer [check]: ..."
_lock = threading.Lock()
# Every finding of the process, newest last (bounded), for tests and tools.
FINDINGS: list[tuple[str, str]] = []
_MAX_FINDINGS = 1000
# Listeners called with (check, message) for every finding (the call trace uses this).
LISTENERS: list[Callable[[str, str], None]] = []


def set_mode(mode: str) -> None:
    """Change the mode at run time (``off``, ``warn`` or ``error``)."""
    global MODE
    if mode not in MODES:
        raise ValueError(f"unknown sanitizer mode {mode!r}")
    MODE = mode


def enabled() -> bool:
    return MODE != "off"


class TaskFinding(Exception):
    """A finding made while a device task runs: in ``error`` mode it fails the task."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code, self.text = code, text


def finding(check: str, message: str, code: int, *, in_task: bool = False) -> None:
    """Report one finding. In ``error`` mode it also fails the call with ``code`` (a task made
    while a stream runs fails that task instead, reported at the next synchronize)."""
    if MODE == "off":
        return
    text = f"sanitizer [{check}]: {message}"
    with _lock:
        FINDINGS.append((check, message))
        del FINDINGS[:-_MAX_FINDINGS]
    for listener in LISTENERS:
        listener(check, message)
    # Both modes print the finding; error mode then fails the call (whose code a program may
    # ignore: the printout is what tells the user), warn mode reports it and carries on.
    print(f"aclnn_py {text}", file=sys.stderr)
    if MODE == "error":
        if in_task:
            raise TaskFinding(code, f"aclnn_py {text}")
        raise fail(code, ERROR_ID, text)
    _errmsg.report(ERROR_ID, text)


# ---------------------------------------------------------------------------------------------
# initcheck: which bytes of an allocation were ever written
# ---------------------------------------------------------------------------------------------


class InitShadow:
    """Initialised bytes of one allocation: merged intervals, or a byte mask once needed.
    Updates take the shadow's lock: streams on worker threads may write one allocation at once."""

    __slots__ = ("intervals", "lock", "mask", "size")

    def __init__(self, size: int, full: bool = False) -> None:
        self.lock = threading.Lock()
        self.size = size
        self.intervals: list[list[int]] = [[0, size]] if full else []
        self.mask: np.ndarray | None = None

    def mark(self, lo: int, hi: int) -> None:
        if self._covered(lo, hi):
            return
        with self.lock:
            self._mark(lo, hi)

    def _covered(self, lo: int, hi: int) -> bool:
        """Whether one initialised run already covers [lo, hi): the common case of a kernel
        rewriting its output or reading its inputs, answered without the lock: bytes never
        become uninitialised, and runs are replaced, never changed in place, so any run read
        here covers initialised bytes even while another thread merges the list."""
        iv = self.intervals
        if len(iv) != 1:
            return False
        run = iv[0]
        return run[0] <= lo and hi <= run[1]

    def _mark(self, lo: int, hi: int) -> None:
        if hi <= lo:
            return
        if self.mask is not None:
            self.mask[lo:hi] = True
            return
        iv = self.intervals
        i = bisect.bisect_left(iv, [lo, lo])
        if i > 0 and iv[i - 1][1] >= lo:
            i -= 1
        j = i
        while j < len(iv) and iv[j][0] <= hi:
            lo = min(lo, iv[j][0])
            hi = max(hi, iv[j][1])
            j += 1
        iv[i:j] = [[lo, hi]]

    def first_gap(self, lo: int, hi: int) -> int | None:
        """The first uninitialised offset in [lo, hi), or None."""
        if self._covered(lo, hi):
            return None
        with self.lock:
            return self._first_gap(lo, hi)

    def _first_gap(self, lo: int, hi: int) -> int | None:
        if hi <= lo:
            return None
        if self.mask is not None:
            seg = self.mask[lo:hi]
            if seg.all():
                return None
            return lo + int(np.argmin(seg))
        iv = self.intervals
        i = bisect.bisect_right(iv, [lo, self.size + 1]) - 1
        if i >= 0 and iv[i][0] <= lo < iv[i][1]:
            return None if iv[i][1] >= hi else iv[i][1]
        return lo

    def to_mask(self) -> np.ndarray:
        with self.lock:
            return self._to_mask()

    def _to_mask(self) -> np.ndarray:
        if self.mask is None:
            mask = np.zeros(self.size, dtype=np.bool_)
            for lo, hi in self.intervals:
                mask[lo:hi] = True
            self.mask = mask
            self.intervals = []
        return self.mask


def on_alloc(alloc: Allocation, initialised: bool = False) -> None:
    """Start tracking a new allocation (host memory counts as initialised)."""
    if MODE != "off":
        alloc.init = InitShadow(alloc.size, full=initialised)


def after_write(ptr: int, nbytes: int, who: str) -> None:
    """Mark ``[ptr, ptr + nbytes)`` initialised."""
    if MODE == "off" or nbytes <= 0:
        return
    alloc = SPACE.find(ptr)
    if alloc is not None and alloc.init is not None:
        off = ptr - alloc.start
        alloc.init.mark(off, off + nbytes)


def before_read(ptr: int, nbytes: int, who: str) -> None:
    """Report a read of bytes that were never written."""
    if MODE == "off" or nbytes <= 0:
        return
    alloc = SPACE.find(ptr)
    if alloc is None or alloc.init is None:
        return
    off = ptr - alloc.start
    gap = alloc.init.first_gap(off, off + nbytes)
    if gap is not None:
        finding(
            "initcheck",
            f"{who} reads uninitialised device memory: byte 0x{alloc.start + gap:x} (offset {gap}) of "
            f"{alloc.describe()} was never written; the read covers [0x{ptr:x}, 0x{ptr + nbytes:x})",
            aclError.ACL_ERROR_RT_PARAM_INVALID,
        )


def range_access(ptr: int, nbytes: int, write: bool, who: str) -> None:
    """Track a dense access of ``nbytes`` at ``ptr`` by a kernel: mark on write, check on read."""
    if MODE == "off" or nbytes <= 0:
        return
    alloc = SPACE.find(ptr)
    if alloc is None or alloc.init is None:
        return
    off = ptr - alloc.start
    if write:
        alloc.init.mark(off, off + nbytes)
        return
    gap = alloc.init.first_gap(off, off + nbytes)
    if gap is not None:
        _report_uninit(alloc, gap, ptr, who)


def alloc_access(alloc: Allocation, ptr: int, nbytes: int, write: bool, who: str) -> None:
    """:func:`range_access` when the caller already knows the live allocation ``ptr`` lies in."""
    shadow = alloc.init
    if MODE == "off" or nbytes <= 0 or shadow is None:
        return
    off = ptr - alloc.start
    iv = shadow.intervals
    if len(iv) == 1:  # InitShadow._covered inlined (see there why no lock): the usual case
        run = iv[0]
        if run[0] <= off and off + nbytes <= run[1]:
            return
    if write:
        shadow.mark(off, off + nbytes)
        return
    gap = shadow.first_gap(off, off + nbytes)
    if gap is not None:
        _report_uninit(alloc, gap, ptr, who)


def view_access(
    ptr: int, itemsize: int, shape: tuple[int, ...], byte_strides: tuple[int, ...], write: bool, who: str
) -> None:
    """Track a typed view access (kernels): mark on write, check on read."""
    if MODE == "off" or any(d == 0 for d in shape):
        return
    alloc = SPACE.find(ptr)
    if alloc is None or alloc.init is None:
        return
    base = ptr - alloc.start
    dims = [(d, s) for d, s in zip(shape, byte_strides) if d != 1]
    dims.sort(key=lambda ds: abs(ds[1]))
    dense, expect = True, itemsize
    for d, s in dims:
        if s != expect:
            dense = False
            break
        expect *= d
    lo = base + sum(s * (d - 1) for d, s in dims if s < 0)
    hi = base + sum(s * (d - 1) for d, s in dims if s > 0) + itemsize
    shadow: InitShadow = alloc.init
    if dense:
        if write:
            shadow.mark(lo, hi)
        else:
            gap = shadow.first_gap(lo, hi)
            if gap is not None:
                _report_uninit(alloc, gap, ptr, who)
        return
    if not write and shadow.mask is None and shadow.first_gap(lo, hi) is None:
        return
    mask = shadow.to_mask()
    for j in range(itemsize):
        v = np.ndarray(shape, dtype=np.bool_, buffer=mask, offset=base + j, strides=byte_strides)
        if write:
            v[...] = True
        elif not v.all():
            _report_uninit(
                alloc,
                base + j + int(np.argmin(v.reshape(-1) if v.flags.c_contiguous else v.copy().reshape(-1))),
                ptr,
                who,
            )
            return


def _report_uninit(alloc: Allocation, gap: int, ptr: int, who: str) -> None:
    finding(
        "initcheck",
        f"{who} reads uninitialised device memory: byte 0x{alloc.start + gap:x} (offset {gap}) of "
        f"{alloc.describe()} was never written (view at 0x{ptr:x})",
        aclError.ACL_ERROR_RT_AICORE_EXCEPTION,
        in_task=True,
    )


# ---------------------------------------------------------------------------------------------
# synccheck: work that is queued but has not run
# ---------------------------------------------------------------------------------------------


class PendingUse:
    """The byte ranges one queued task will read and write."""

    __slots__ = ("label", "reads", "stream", "writes")

    def __init__(self, stream: Any, label: str, reads: list[tuple[int, int]], writes: list[tuple[int, int]]) -> None:
        self.stream, self.label, self.reads, self.writes = stream, label, reads, writes


# Every tracked task the host has not yet been ordered after, by task number: a task stays here
# after it ran, until a synchronize (of its stream, of an event recorded after it, of the
# device) or a query that saw it complete orders it before the host's next step. Whether it ran
# already is the policy's business (eager runs it at once, deferred at the synchronize, thread
# whenever); the ordering rule is the same under all three, and so are the findings.
_pending: dict[int, PendingUse] = {}
# Stream waits: (waiting stream, the wait task's number, waited stream, the event's record task
# number). Ordering the waiting stream past the wait orders the waited stream before the record.
_waits: list[tuple[Any, int, Any, int]] = []


def track(task: Any, reads: Iterable[tuple[int, int]], writes: Iterable[tuple[int, int]]) -> None:
    """Remember what a queued task will touch, until the host is ordered after it."""
    if MODE == "off":
        return
    use = PendingUse(task.stream, task.label, list(reads), list(writes))
    with _lock:
        _pending[task.seq] = use


def note_wait(stream: Any, wait_seq: int, waited_stream: Any, record_seq: int) -> None:
    """A stream waits (task ``wait_seq``) for an event recorded by task ``record_seq`` of another."""
    if MODE == "off":
        return
    with _lock:
        _waits.append((stream, wait_seq, waited_stream, record_seq))


def ordered(stream: Any, before_seq: int | None = None) -> None:
    """The host has seen ``stream`` finish every task numbered below ``before_seq`` (all of
    them if None): a synchronize returned, or a query reported completion."""
    if MODE == "off" or (not _pending and not _waits):
        return
    with _lock:
        _order(stream, before_seq)
        if not _pending:
            _waits.clear()  # waits only matter for ordering tracked work: none is left


def _order(stream: Any, before: int | None) -> None:
    for seq in [q for q, u in _pending.items() if u.stream is stream and (before is None or q < before)]:
        del _pending[seq]
    if not _waits:
        return
    through = [w for w in _waits if w[0] is stream and (before is None or w[1] < before)]
    if through:
        _waits[:] = [w for w in _waits if not (w[0] is stream and (before is None or w[1] < before))]
        for _, _, waited, record_seq in through:
            _order(waited, record_seq)


def forget_stream(stream: Any) -> None:
    with _lock:
        for seq in [s for s, u in _pending.items() if u.stream is stream]:
            del _pending[seq]
        _waits[:] = [w for w in _waits if w[0] is not stream and w[2] is not stream]


def unordered(stream: Any) -> list[PendingUse]:
    """The tracked tasks of ``stream`` the host has not been ordered after, oldest first."""
    with _lock:
        return [u for _, u in sorted(_pending.items(), key=lambda kv: kv[0]) if u.stream is stream]


def _overlaps(ranges: list[tuple[int, int]], lo: int, hi: int) -> bool:
    return any(a < hi and lo < b for a, b in ranges)


def pending_conflict(lo: int, hi: int, writes_only: bool) -> PendingUse | None:
    """A queued task that writes (or, unless ``writes_only``, reads) bytes in [lo, hi)."""
    with _lock:
        for use in _pending.values():
            if _overlaps(use.writes, lo, hi) or (not writes_only and _overlaps(use.reads, lo, hi)):
                return use
    return None


def _unsynchronized_flag(stream: Any) -> str | None:
    """The flag for which aclrtSynchronizeStream returns at once without waiting for ``stream``
    (api_stream.unsynchronized_flag: ApiErrorDecorator::StreamSynchronize, api_error.cc:1451-1458),
    or None for a stream the host synchronizes. api_stream imports this module: looked up when
    asked (a stream exists only once api_stream is loaded)."""
    chapter = sys.modules.get(f"{__package__}.api_stream")
    flag = getattr(chapter, "unsynchronized_flag", None)
    return None if flag is None else flag(stream)


def _describe_use(use: PendingUse) -> str:
    flag = _unsynchronized_flag(use.stream)
    if flag is not None:
        return (
            f"'{use.label}' queued on {use.stream!r}, an {flag} stream, whose aclrtSynchronizeStream returns "
            "at once without waiting for it,"
        )
    return f"'{use.label}' queued on {use.stream!r}, which has not been synchronized since,"


def _order_advice(stream: Any, step: str = "first") -> str:
    """How the host orders ``stream``'s queued work before its next ``step``: aclrtSynchronizeStream,
    unless that returns at once for the stream (:func:`_unsynchronized_flag`). Then an event
    recorded on it after the work does: aclrtSynchronizeEvent waits for the record whatever its
    stream (ApiImpl::EventSynchronize -> Event::Synchronize, api_impl.cc:2250-2270,
    event.cc:1081-1160; api_event._sync_event). A persistent stream's tasks are a model's
    (CANN: they do not run when queued, but when the model bound to the stream runs), so the
    advice there is a plain stream."""
    flag = _unsynchronized_flag(stream)
    if flag == "ACL_STREAM_PERSISTENT":
        return (
            f"queue work the host waits for on a plain stream: an {flag} stream holds a model's tasks "
            "(aclmdlRIBindStream), run when the model runs"
        )
    if flag is not None:
        return (
            f"record an event on {stream!r} after the work and call aclrtSynchronizeEvent on it {step}, "
            "or queue the work on a plain stream"
        )
    return f"call aclrtSynchronizeStream {step}"


def host_access_hazard(dst: Any, src: Any, nbytes: int, api: str) -> None:
    """aclrtMemcpy: the host reading what queued work writes, or writing what it uses. The rule
    is the order, not the timing: until a synchronize (stream, event, device) orders the task
    before the host's access, the access is a hazard, whether or not the task happened to run."""
    if MODE == "off" or not _pending:
        return
    where = call_site()
    if src.ptr is not None:
        use = pending_conflict(src.ptr, src.ptr + nbytes, writes_only=True)
        if use is not None:
            finding(
                "synccheck",
                f"{api} at {where} reads [0x{src.ptr:x}, 0x{src.ptr + nbytes:x}) while {_describe_use(use)} "
                f"may still have to write it: the host may see stale data ({_order_advice(use.stream)})",
                aclError.ACL_ERROR_RT_PARAM_INVALID,
            )
    if dst.ptr is not None:
        use = pending_conflict(dst.ptr, dst.ptr + nbytes, writes_only=False)
        if use is not None:
            finding(
                "synccheck",
                f"{api} at {where} overwrites [0x{dst.ptr:x}, 0x{dst.ptr + nbytes:x}) while {_describe_use(use)} "
                f"may still use it ({_order_advice(use.stream)})",
                aclError.ACL_ERROR_RT_PARAM_INVALID,
            )


def check_free(alloc: Allocation | None, ptr: int, api: str) -> None:
    """Freeing memory that queued work uses, before a synchronize ordered the work first."""
    if MODE == "off" or alloc is None or alloc.start != ptr:
        return
    use = pending_conflict(alloc.start, alloc.end, writes_only=False)
    if use is not None:
        finding(
            "synccheck",
            f"{api} at {call_site()} frees {alloc.describe()} while {_describe_use(use)} may still use it "
            f"({_order_advice(use.stream, 'before freeing')})",
            aclError.ACL_ERROR_RT_PARAM_INVALID,
        )
        with _lock:  # the memory is gone: the same use is not reported again at the next access
            for seq in [q for q, u in _pending.items() if u is use]:
                del _pending[seq]


def check_stream_release(stream: Any, api: str) -> None:
    """Streams are drained before release (CANN waits), so only forget their bookkeeping."""
    forget_stream(stream)


def check_pending_destroy(stream: Any, api: str) -> None:
    """Destroying a stream whose work no synchronize has ordered: CANN waits for it, but the
    work then finishes at the destroy, not where the program expects. Reported from the
    ordering, so the same under every policy (eager ran the work long ago, deferred runs it now)."""
    if MODE == "off":
        return
    waiting = [u.label for u in unordered(stream)]
    if waiting:
        finding(
            "synccheck",
            f"{api} at {call_site()} destroys {stream!r} with {len(waiting)} task(s) no synchronize has ordered "
            f"(first: '{waiting[0]}'); CANN waits for them here — {_order_advice(stream)}",
            aclError.ACL_ERROR_RT_PARAM_INVALID,
        )


def check_alignment(ptr: int, alignment: int, what: str, code: int) -> None:
    """memcheck: an address CANN requires to be aligned."""
    if MODE != "off" and ptr % alignment:
        finding(
            "memcheck",
            f"{what} 0x{ptr:x} is not {alignment}-byte aligned ({SPACE.describe_address(ptr)})",
            code,
        )


def check_relabelled_dtype(api: str, name: str, tensor: Any, old_dtype: int, source: str) -> None:
    """memcheck at phase 1: an operator that relabels a tensor's dtype (ScaledMaskedSoftmaxBackward
    writes ``out`` as gradOutput's dtype) makes its kernel write the view with the new element
    size. Said when that reaches past what the caller allocated (the bytes it asked aclrtMalloc
    for, not the rounded size): which tensor, how many bytes the kernel writes, how many the
    allocation holds."""
    if MODE == "off" or tensor.dtype == old_dtype or tensor.storage.addr is None:
        return
    from .. import dtypes

    shape, strides = tensor.view_shape, tensor.strides
    if any(d == 0 for d in shape):
        return
    bits = dtypes.element_bits(tensor.dtype)
    last = tensor.offset + sum((d - 1) * st for d, st in zip(shape, strides, strict=False) if st > 0)
    start = tensor.storage.addr + (tensor.offset * bits) // 8
    end = tensor.storage.addr + ((last + 1) * bits + 7) // 8
    alloc = SPACE.find(tensor.storage.addr)
    if alloc is None:
        return
    held = alloc.start + alloc.requested - start
    if end - start <= held:
        return
    finding(
        "memcheck",
        f"{api} at {call_site()}: {name} was relabelled from {dtypes.dt_name(old_dtype)} to "
        f"{dtypes.dt_name(tensor.dtype)} (the operator writes it with {source}'s dtype), so the kernel will write "
        f"{end - start} bytes at 0x{start:x}, but the allocation holds {max(held, 0)} from there "
        f"({alloc.describe()}): allocate {name} for {dtypes.dt_name(tensor.dtype)}, or pass {source} in "
        f"{dtypes.dt_name(old_dtype)}",
        aclnnStatus.ACLNN_ERR_PARAM_INVALID,
    )


# ---------------------------------------------------------------------------------------------
# leakcheck
# ---------------------------------------------------------------------------------------------


def _leaked_tensor(t: Any) -> str:
    from .. import dtypes

    addr = t.storage.addr
    where = f"0x{addr:x}" if addr else "nullptr"
    return (
        f"aclTensor {dtypes.shape_str(t.view_shape)} {dtypes.dt_name(t.dtype)} at {where} made at {t.origin} "
        "(never aclDestroyTensor'ed)"
    )


def _leaked_handle(h: Any) -> str:
    from .. import dtypes

    name = type(h).__name__
    if name == "aclScalar":
        value = h.value.item() if hasattr(h.value, "item") else h.value
        return f"aclScalar {value!r} {dtypes.dt_name(h.dtype)} made at {h.origin} (never aclDestroyScalar'ed)"
    values = [v.item() if hasattr(v, "item") else v for v in h.values]
    shown = ", ".join(repr(v) if not hasattr(v, "view_shape") else "aclTensor" for v in values[:4])
    more = ", ..." if len(values) > 4 else ""
    destroy = "aclDestroy" + name.removeprefix("acl")
    return f"{name} [{shown}{more}] ({len(values)} element(s)) made at {h.origin} (never {destroy}'ed)"


def _through(alloc: Allocation) -> str:
    """The program's line that led to an allocation made inside one of its helpers."""
    return "" if alloc.origin == alloc.alloc_site else f", from {alloc.origin}"


def leak_check(api: str, device: int | None) -> None:
    """Report what was never released, each object named (kind, shape, dtype, address, and the
    program's line that made it, through its helpers): for a ``device``, its allocations,
    streams and events; for the process (``device`` None, at aclFinalize), host allocations,
    tensors, scalars, arrays and executors."""
    if MODE == "off":
        return
    items = leaked(device)
    if items:
        where = f"device {device}" if device is not None else "the process"
        finding(
            "leakcheck",
            f"{api}: {len(items)} resource(s) of {where} never released:\n    " + "\n    ".join(items),
            aclError.ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED,
        )


def leaked(device: int | None) -> list[str]:
    """One line per object never released (see :func:`leak_check`); ``device`` None: the
    process-wide objects (host allocations, tensors, scalars, arrays, executors)."""
    from .device import RT

    items: list[str] = []
    if device is not None:
        for alloc in SPACE.live():
            if alloc.kind == "device" and alloc.device == device:
                items.append(f"{alloc.describe()}{_through(alloc)} (never aclrtFree'd)")
        dev = RT.devices.get(device)
        if dev is not None:
            for ctx in ([dev.primary] if dev.primary else []) + dev.contexts:
                items.extend(
                    f"{s!r} made at {s.origin} (never aclrtDestroyStream'ed)" for s in ctx.streams if not s.destroyed
                )
        for ev in list(RT.events):
            if not ev.destroyed and ev.context.device.ident == device:
                items.append(f"{ev!r} made at {ev.origin} (never aclrtDestroyEvent'ed)")
    else:
        for alloc in SPACE.live():
            if alloc.kind == "host":
                items.append(f"{alloc.describe()}{_through(alloc)} (never aclrtFreeHost'ed)")
        items.extend(_leaked_tensor(t) for t in list(RT.tensors) if t.alive)
        items.extend(_leaked_handle(h) for h in list(RT.handles) if h.alive)
        for ex in list(RT.executors):
            if ex.state == "ready":
                items.append(
                    f"aclOpExecutor of {ex.api} made at {ex.site} (never run by phase 2 nor aclDestroyAclOpExecutor'ed)"
                )
    return items


# ---------------------------------------------------------------------------------------------
# at interpreter exit: a program that ends without cleaning up
# ---------------------------------------------------------------------------------------------

EXIT_STATUS = 3  # the exit status error mode gives a program that ends with unreleased work


def exit_summary() -> str | None:
    """One short summary of what a program leaves behind as it exits (None: nothing): work that
    no synchronize ordered, and every object never released (the report aclrtResetDevice and
    aclFinalize would have made), counted by kind with the first few named."""
    from .device import RT

    with _lock:
        unsynced = sorted(_pending.items(), key=lambda kv: kv[0])
    queued = [t for s in list(stream_mod.LIVE_STREAMS) if not s.destroyed for t in s.unfinished()]
    items: list[str] = []
    for dev in list(RT.devices.values()):
        if dev.refcount > 0 or dev.contexts or any(a.kind == "device" and a.device == dev.ident for a in SPACE.live()):
            items.extend(leaked(dev.ident))
    items.extend(leaked(None))
    if not unsynced and not queued and not items and not RT.initialized:
        return None
    lines = []
    if RT.initialized:
        lines.append("aclFinalize was never called")
    work = len({seq for seq, _ in unsynced} | {t.seq for t in queued})
    if work:
        first = unsynced[0][1].label if unsynced else queued[0].label
        lines.append(
            f"{work} task(s) no synchronize has ordered (first: '{first}'): their results were never waited for"
        )
    if items:
        kinds: dict[str, int] = {}
        for item in items:
            kind = item.split(" [")[0].split(" ")[0].lstrip("<")
            kind = {"device": "device allocation", "host": "host allocation"}.get(kind, kind)
            kinds[kind] = kinds.get(kind, 0) + 1
        counted = ", ".join(f"{n} {k}{'s' if n > 1 else ''}" for k, n in kinds.items())
        lines.append(f"{len(items)} object(s) never released ({counted}):")
        lines.extend(f"    {item}" for item in items[:5])
        if len(items) > 5:
            lines.append(f"    ... and {len(items) - 5} more")
    return "the program exits without cleanup: " + "\n  ".join(lines)


def _at_exit() -> None:
    """Print the exit summary (warn and error modes); error mode also makes the exit status
    non-zero, as a finding fails its call."""
    if MODE == "off":
        return
    try:
        summary = exit_summary()
    except Exception:  # the interpreter is shutting down: never add a traceback to its exit
        return
    if summary is None:
        return
    print(f"aclnn_py sanitizer [leakcheck]: {summary}", file=sys.stderr)
    if MODE == "error":
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_STATUS)


atexit.register(_at_exit)
