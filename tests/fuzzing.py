"""Fuzzing the C-style surface: every public function, arguments good and bad.

Used by ``tests/test_fuzz.py`` (a fixed seed, a modest number of examples) and by ``make fuzz``
(``tests/fuzz_campaign.py``, a long campaign). Each example builds a small world — the runtime
initialised on two devices, live, freed and foreign allocations, tensors good and strange,
streams, events, executors fresh and consumed — and makes a sequence of calls in it. After every
call:

* the result is an int status (or, for functions that return handles in C, a handle or None),
  and no Python exception escaped;
* a non-zero status left a message for ``aclGetRecentErrMsg()`` — except where CANN itself
  returns silently (listed in ``SILENT``);
* no byte of simulated memory changed outside what the call may write (its destination range,
  or what the work it let run declared), and every allocation's guard bytes are intact.
"""

from __future__ import annotations

import ctypes
import inspect
import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

import aclnn_py
from aclnn_py import Ref, testing
from aclnn_py._capi import _plain_int
from aclnn_py.runtime import sanitizer
from aclnn_py.runtime.memory import SPACE
from aclnn_py.runtime.stream import Event, Stream

# Every public C-style function (the same set ``from aclnn_py import *`` exports).
FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: getattr(aclnn_py, name)
    for name in aclnn_py.__all__
    if name.startswith("acl") and inspect.isfunction(getattr(aclnn_py, name))
}
HANDLE_RETURNING = {
    "aclCreateTensor", "aclCreateScalar", "aclCreateIntArray", "aclCreateFloatArray", "aclCreateBoolArray",
    "aclCreateTensorList", "aclCreateScalarList", "aclrtGetSocName", "aclGetRecentErrMsg",
}  # fmt: skip
# Functions that return a value, not a status.
VALUE_RETURNING = {"aclDataTypeSize"}
# (function, status) pairs CANN returns without reporting a message.
SILENT = {
    ("aclInit", 100002),
    ("aclSetAclOpExecutorRepeatable", 561000),
} | {
    (name, 161001)
    for name in FUNCTIONS
    if name.startswith("aclGet") and name not in ("aclGetRawTensorAddr", "aclGetRecentErrMsg")
} | {("aclInitTensor", 161001)} | {
    ("aclrtGetDevice", 107002),  # rtGetDevice and rtCtxGetCurrent return it without a report
    ("aclrtGetCurrentContext", 107002),
    ("aclrtMemcpyAsync", 207000),  # HOST_TO_HOST on a host+card system
    ("aclrtSynchronizeEvent", 207000),  # an ACL_EVENT_EXTERNAL event
    ("aclrtSynchronizeEventWithTimeout", 207000),
}  # fmt: skip
# Calls that would end the world the example runs in; drawn rarely.
DISRUPTIVE = {"aclFinalize", "aclFinalizeReference", "aclrtResetDevice", "aclrtResetDeviceForce", "aclrtDestroyContext"}
# Functions that let queued device work run (their declared writes are what that work declared).
RUNS_QUEUED_WORK = {
    "aclrtSynchronizeStream", "aclrtSynchronizeStreamWithTimeout", "aclrtSynchronizeDevice",
    "aclrtSynchronizeDeviceWithTimeout", "aclrtSynchronizeEvent", "aclrtSynchronizeEventWithTimeout",
    "aclrtStreamQuery", "aclrtQueryEventStatus", "aclrtDestroyStream", "aclrtResetDevice", "aclrtResetDeviceForce",
    "aclFinalize", "aclFinalizeReference", "aclrtDestroyContext",
}  # fmt: skip

WEIRD = [object(), "text", 1.5, float("nan"), [1, 2], {"a": 1}, b"bytes", -1, 2**70, True]


class World:
    """The objects an example's calls draw their arguments from."""

    def __init__(self) -> None:
        testing.reset()
        import os

        os.environ["ACLNN_PY_DEVICE_COUNT"] = "2"
        os.environ["ACLNN_PY_DEVICE_MEMORY"] = "64M"  # sizes up to 2**65 are drawn: keep RAM bounded
        assert aclnn_py.aclInit(None) == 0
        os.environ.pop("ACLNN_PY_DEVICE_COUNT", None)
        os.environ.pop("ACLNN_PY_DEVICE_MEMORY", None)
        assert aclnn_py.aclrtSetDevice(1) == 0
        foreign = Ref()
        aclnn_py.aclrtMalloc(foreign, 256, 0)
        assert aclnn_py.aclrtSetDevice(0) == 0
        self.ptrs: list[int] = [foreign.value]
        self.freed: list[int] = []
        for size in (64, 256, 4096):
            p = Ref()
            aclnn_py.aclrtMalloc(p, size, 0)
            aclnn_py.aclrtMemset(p.value, size, 0x11, size)
            self.ptrs.append(p.value)
        gone = Ref()
        aclnn_py.aclrtMalloc(gone, 128, 0)
        aclnn_py.aclrtFree(gone.value)
        self.freed.append(gone.value)
        host = Ref()
        aclnn_py.aclrtMallocHost(host, 128)
        self.host = host.value
        s = Ref()
        aclnn_py.aclrtCreateStream(s)
        self.streams: list[Any] = [s.value]
        dead = Ref()
        aclnn_py.aclrtCreateStream(dead)
        aclnn_py.aclrtDestroyStream(dead.value)
        self.dead_stream = dead.value
        e = Ref()
        aclnn_py.aclrtCreateEvent(e)
        self.events: list[Any] = [e.value]
        self.tensors = self._tensors()
        self.executors: list[Any] = []
        self.contexts: list[Any] = []

    def _tensors(self) -> list[Any]:
        make = aclnn_py.aclCreateTensor
        p = self.ptrs[3]  # 4096 bytes
        specs = [
            ([4, 2], 0, None, 0, [4, 2]),
            ([2, 2, 2, 2], 0, None, 0, [2, 2, 2, 2]),
            ([2, 2, 2, 2], 12, None, 0, [2, 2, 2, 2]),  # BOOL
            ([4, 2], 1, None, 0, [4, 2]),  # FLOAT16
            ([4, 2], 27, None, 0, [4, 2]),  # BF16
            ([2, 4], 0, [1, 2], 0, [4, 2]),  # transposed view
            ([3], 0, [-1], 2, [3]),  # negative stride
            ([1] * 9, 0, None, 0, [1] * 9),  # more than 8 dims
            ([1] * 26, 0, None, 0, [1] * 26),  # more than 25 dims
            ([-2, 3], 0, None, 0, [6]),  # negative dim
            ([64, 64], 0, None, 0, [64, 64]),  # larger than its allocation
            ([4], 0, [1000], 0, [4]),  # strides reach outside the storage
            ([0, 4], 0, None, 0, [0, 4]),  # empty
            ([4, 2], 3, None, 0, [4, 2]),  # INT32
            ([4, 2], 99, None, 0, [4, 2]),  # unknown dtype
        ]
        out = [make(v, len(v), dt, st_, off, 2, s, len(s), p) for v, dt, st_, off, s in specs]
        nodata = make([4, 2], 2, 0, None, 0, 2, [4, 2], 2, None)
        out.append(nodata)
        dead = make([4, 2], 2, 0, None, 0, 2, [4, 2], 2, p)
        aclnn_py.aclDestroyTensor(dead)
        out.append(dead)
        foreign = make([4, 2], 2, 0, None, 0, 2, [4, 2], 2, self.ptrs[0])
        out.append(foreign)
        return [t for t in out if t is not None]

    def note_result(self, name: str, args: dict[str, Any], result: Any) -> None:
        """Keep handles the call produced so later calls can use them."""
        for key, v in args.items():
            if isinstance(v, Ref) and v.value is not None:
                val = v.value
                if isinstance(val, Stream):
                    self.streams.append(val)
                elif isinstance(val, Event):
                    self.events.append(val)
                elif isinstance(val, aclnn_py.aclOpExecutor):
                    self.executors.append(val)
                elif type(val).__name__ == "Context":
                    self.contexts.append(val)
                elif isinstance(val, int) and key in ("devPtr", "hostPtr") and name.startswith("aclrtMalloc"):
                    self.ptrs.append(val)
        if isinstance(result, aclnn_py.aclTensor):
            self.tensors.append(result)

    def close(self) -> None:
        mode = sanitizer.MODE  # the leak check of the teardown is not the fuzzed calls' business
        sanitizer.set_mode("off")
        testing.reset()
        sanitizer.set_mode(mode)


# -- argument strategies ------------------------------------------------------------------------


def _pointer(world: World, data: st.DataObject, host_ok: bool) -> Any:
    choices: list[Any] = ["live", "interior", "freed", "null", "zero", "random", "weird", "ctypes"]
    if host_ok:
        choices += ["array", "bytes", "bytearray", "pinned", "strided"]
    kind = data.draw(st.sampled_from(choices))
    if kind == "live":
        return data.draw(st.sampled_from(world.ptrs))
    if kind == "interior":
        return data.draw(st.sampled_from(world.ptrs)) + data.draw(st.integers(0, 200))
    if kind == "freed":
        return data.draw(st.sampled_from(world.freed))
    if kind == "null":
        return None
    if kind == "zero":
        return 0
    if kind == "random":
        return data.draw(st.integers(-(2**65), 2**65))
    if kind == "weird":
        return data.draw(st.sampled_from(WEIRD))
    if kind == "ctypes":
        return ctypes.c_void_p(data.draw(st.sampled_from(world.ptrs)))
    if kind == "array":
        return np.zeros(data.draw(st.integers(0, 300)), dtype=data.draw(st.sampled_from([np.uint8, np.float32])))
    if kind == "bytes":
        return bytes(data.draw(st.integers(0, 300)))
    if kind == "bytearray":
        return bytearray(data.draw(st.integers(0, 300)))
    if kind == "pinned":
        return world.host + data.draw(st.integers(0, 64))
    return np.zeros(64, np.float32)[::2]


def _size(data: st.DataObject) -> Any:
    return data.draw(
        st.one_of(
            st.integers(0, 5000),
            st.integers(-(2**64), 2**65),
            st.sampled_from([0, 1, 2**63, 2**64 - 1, 2**64, -1]),
            st.sampled_from([*WEIRD, None]),
        )
    )


def _out(data: st.DataObject) -> Any:
    return data.draw(
        st.sampled_from(["ref", "ref", "ref", "none", "ctypes", "byref", "weird"]).map(
            lambda k: {
                "ref": Ref,
                "none": lambda: None,
                "ctypes": ctypes.c_uint64,
                "byref": lambda: ctypes.byref(ctypes.c_int64()),
                "weird": lambda: [],
            }[k]()
        )
    )


def _handle(data: st.DataObject, pool: list[Any], dead: list[Any]) -> Any:
    kind = data.draw(st.sampled_from(["live", "live", "dead", "null", "weird"]))
    if kind == "live" and pool:
        return data.draw(st.sampled_from(pool))
    if kind == "dead" and dead:
        return data.draw(st.sampled_from(dead))
    if kind == "weird":
        return data.draw(st.sampled_from(WEIRD))
    return None


def _int(data: st.DataObject, lo: int, hi: int) -> Any:
    return data.draw(st.one_of(st.integers(lo, hi), st.integers(-(2**64), 2**64), st.sampled_from([*WEIRD, None, 0])))


def _float(data: st.DataObject) -> Any:
    return data.draw(
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True),
            st.sampled_from([0.0, 1.0, -1.0, math.nan, math.inf, 1e39, 1e-50]),
            st.sampled_from([*WEIRD, None]),
        )
    )


def _dims(data: st.DataObject) -> Any:
    return data.draw(
        st.one_of(
            st.lists(st.integers(-3, 6), max_size=10),
            st.lists(st.integers(-(2**64), 2**64), max_size=3),
            st.just([1] * 30),
            st.sampled_from([None, "abc", [1.5, 2], (2, 3), np.array([2, 3]), (ctypes.c_int64 * 2)(2, 3)]),
        )
    )


def draw_argument(world: World, fn_name: str, param: str, data: st.DataObject) -> Any:
    """One argument for parameter ``param`` of ``fn_name``: mostly plausible, often wrong."""
    dead_tensors = [t for t in world.tensors if not t.alive]
    phase1 = fn_name.endswith("GetWorkspaceSize")
    if param in ("workspaceSize", "executor") and phase1:
        return _out(data)
    if param in ("gradOut", "self", "target", "gradInput", "gradOutput", "out", "y", "mask", "tensor"):
        return _handle(data, [t for t in world.tensors if t.alive], dead_tensors)
    if param in ("executor",):
        return _handle(
            data, [e for e in world.executors if e.state == "ready"], [e for e in world.executors if e.state != "ready"]
        )
    if param in ("stream",):
        return _handle(data, [s for s in world.streams if not s.destroyed], [world.dead_stream])
    if param in ("event", "startEvent", "endEvent"):
        return _handle(data, [e for e in world.events if not e.destroyed], [e for e in world.events if e.destroyed])
    if param == "context":
        if fn_name in ("aclrtCreateContext", "aclrtGetCurrentContext"):
            return _out(data)
        return _handle(data, world.contexts, [])
    if param in ("devPtr", "hostPtr") and (fn_name.startswith("aclrtMalloc") or fn_name.startswith("aclrtGet")):
        return _out(data)
    if param in ("dst", "src", "devPtr", "hostPtr", "workspace", "tensorData", "addr", "tensorDataAddr"):
        if fn_name in ("aclGetRawTensorAddr",):
            return _out(data)
        return _pointer(world, data, host_ok=param in ("dst", "src"))
    if param in ("size", "count", "destMax", "maxCount", "workspaceSize", "viewDimsNum", "storageDimsNum", "index"):
        return _size(data)
    if param in ("viewDims", "storageDims", "stride"):
        return _dims(data)
    if param in ("deviceId",):
        return _int(data, -1, 3)
    if param in ("dataType",):
        return data.draw(
            st.one_of(st.sampled_from([0, 1, 27, 12, 3, -1, 13, 33, 41, 99, 2**40]), st.sampled_from(WEIRD))
        )
    if param in ("format",):
        return _int(data, -1, 60)
    if param in ("kind",):
        return _int(data, -1, 8)
    if param in ("policy", "flag", "priority", "attr"):
        return _int(data, -1, 20)
    if param in ("timeout",):
        return _int(data, -3, 100)
    if param in ("offset", "reduction"):
        return _int(data, -3, 5)
    if param in ("beta", "scale"):
        return _float(data)
    if param in ("fixTriuMask",):
        return data.draw(st.sampled_from([False, False, True, 0, 1, None, "x"]))
    if param in ("value",):
        if fn_name.startswith("aclCreate"):
            return data.draw(
                st.sampled_from([None, [1, 2, 3], [1.5], 3.5, b"\x01\x02\x03\x04", np.ones(3), "s", [world.tensors[0]]])
            )
        return _int(data, -300, 300)
    if param in ("configPath",):
        return data.draw(st.sampled_from([None, "", "/nonexistent/acl.json", 5, b"/tmp"]))
    if param in ("refCount", "deviceId_out", "status", "ms", "free", "total", "runMode", "viewDims_out"):
        return _out(data)
    if param in ("offset",):
        return _out(data)
    # accessor outs and anything else: an out-parameter or junk
    return data.draw(st.one_of(st.builds(Ref), st.none(), st.sampled_from(WEIRD)))


# -- the guard ---------------------------------------------------------------------------------


def snapshot() -> dict[int, np.ndarray]:
    return {a.start: a.buf.copy() for a in SPACE.live()}


def declared_writes(name: str, args: dict[str, Any]) -> list[tuple[int, int]]:
    """Byte ranges a call may change: its destination, or what queued work it lets run declared."""
    ranges: list[tuple[int, int]] = []
    if name in ("aclrtMemcpy", "aclrtMemset"):
        dst = args.get("dst", args.get("devPtr"))
        # the count as the C surface reads it: bool, numpy and ctypes integers convert like C's
        n = _plain_int(args.get("count"))
        if isinstance(dst, ctypes.c_void_p):
            dst = dst.value
        if isinstance(dst, int) and not isinstance(dst, bool) and dst and n is not None and n > 0:
            ranges.append((dst, dst + n))
    if name in RUNS_QUEUED_WORK:
        with sanitizer._lock:
            for use in sanitizer._pending.values():
                ranges.extend(use.writes)
    return ranges


def check_memory(before: dict[int, np.ndarray], allowed: list[tuple[int, int]]) -> str | None:
    """Describe any change outside the allowed ranges, or any damaged guard bytes."""
    for alloc in SPACE.live():
        if not alloc.canaries_intact():
            return f"guard bytes damaged around {alloc.describe()}"
        old = before.get(alloc.start)
        if old is None or old.size != alloc.size:
            continue
        changed = np.flatnonzero(old != alloc.buf)
        for off in changed:
            addr = alloc.start + int(off)
            if not any(lo <= addr < hi for lo, hi in allowed):
                return f"byte 0x{addr:x} of {alloc.describe()} changed outside the call's declared writes"
    return None


class Stats:
    """What a campaign saw."""

    def __init__(self) -> None:
        self.calls = 0
        self.codes: Counter[str] = Counter()
        self.per_function: Counter[str] = Counter()
        self.findings: list[str] = []


def call_once(world: World, data: st.DataObject, stats: Stats, names: list[str]) -> None:
    """Draw a function and its arguments, call it, check every promise."""
    name = data.draw(st.sampled_from(names))
    if name in DISRUPTIVE and data.draw(st.integers(0, 9)) != 0:
        name = "aclrtSynchronizeStream"
    fn = FUNCTIONS[name]
    params = list(inspect.signature(fn).parameters)
    args = {p: draw_argument(world, name, p, data) for p in params}
    before = snapshot()
    allowed = declared_writes(name, args)
    aclnn_py.aclGetRecentErrMsg()
    try:
        result = fn(*args.values())
    except Exception as e:  # the promise: nothing escapes
        raise AssertionError(f"{name}{tuple(args.values())!r} raised {e!r}") from e
    stats.calls += 1
    stats.per_function[name] += 1
    if name in VALUE_RETURNING:
        assert isinstance(result, int), (name, result)
        stats.codes["value"] += 1
    elif name in HANDLE_RETURNING:
        assert result is None or not isinstance(result, bool), (name, result)
        stats.codes["handle" if result is not None else "None"] += 1
    else:
        assert isinstance(result, int) and not isinstance(result, bool), (name, result)
        stats.codes[aclnn_py._status.status_name(result)] += 1
        if result != 0 and (name, int(result)) not in SILENT:
            pending = aclnn_py._errmsg.peek()
            assert pending, f"{name} returned {result} without a message for aclGetRecentErrMsg()"
    problem = check_memory(before, allowed)
    assert problem is None, f"{name}{tuple(args.values())!r}: {problem}"
    world.note_result(name, args, result)
