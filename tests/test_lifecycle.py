"""A model of the runtime's lifecycle, driven in random orders (hypothesis.stateful).

The machine calls init/finalize, set/reset device, contexts, streams, events, malloc/free,
memcpy/memset, tensor create/destroy, HardswishBackward's two phases with synchronize and
aclSetAclOpExecutorRepeatable, and checks every status code against a small model of what CANN
returns in that state (including which phase-1 calls the op cache answers), and device memory
against a shadow copy (updated when queued work is synchronised).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)  # fmt: skip

import aclnn_py as A
from aclnn_py import Ref, testing
from aclnn_py.kernels import hard_swish_grad
from aclnn_py.runtime import sanitizer

DEVICES = 2
N = 8  # elements of every tensor the machine makes (float32)


def malloc_size(n: int) -> int:
    return (n + 63) // 32 * 32


class Lifecycle(RuleBasedStateMachine):
    streams = Bundle("streams")
    buffers = Bundle("buffers")
    tensors = Bundle("tensors")
    events = Bundle("events")
    executors = Bundle("executors")
    contexts = Bundle("contexts")

    def __init__(self) -> None:
        super().__init__()
        testing.reset()
        sanitizer.set_mode("off")  # random orders make mistakes on purpose; the codes are checked here
        import os

        os.environ["ACLNN_PY_DEVICE_COUNT"] = str(DEVICES)
        self.initialized = False
        self.finalized = False
        self.refcount = [0] * DEVICES
        self.explicit = [0] * DEVICES  # explicit contexts alive on each device
        self.current: int | None = None  # device of the thread's current context
        self.current_ctx: object | None = None
        self.live_streams: dict[int, tuple[object, int]] = {}  # id -> (stream, device)
        self.stream_ctx: dict[int, object] = {}  # id -> the context the stream belongs to (see _ctx_key)
        self.shadow: dict[int, np.ndarray] = {}  # device pointer -> bytes the model expects
        self.buffer_device: dict[int, int] = {}
        self.pending: dict[int, list[tuple[int, np.ndarray]]] = {}  # stream id -> [(ptr, bytes)]
        # Races: the host freeing or overwriting memory that queued work uses. What happens then
        # depends on when the work runs (the sanitizer's synccheck names it; it is off here), so
        # the model stops predicting: the stream's next synchronize may report the kernel's
        # fault, and the buffers the work touched hold whatever the device says.
        self.uses: dict[int, set[int]] = {}  # stream id -> buffers its queued work reads or writes
        self.racy: set[int] = set()  # streams whose queued work the host disturbed
        self.unknown: set[int] = set()  # buffers whose contents the model no longer knows
        self.tensor_buffer: dict[int, int] = {}
        # The op cache: every tensor has the same layout, so a key is which arguments are the same
        # tensor. key -> ("pending", executor id) once registered, "usable" after it ran.
        self.op_cache: dict[tuple[int, ...], object] = {}
        self.executor_info: dict[int, dict[str, object]] = {}  # id -> key, hit, owns, repeatable

    def teardown(self) -> None:
        import os

        os.environ.pop("ACLNN_PY_DEVICE_COUNT", None)
        testing.reset()
        sanitizer.set_mode("warn")

    # -- helpers -----------------------------------------------------------------------------

    def _ctx_ok(self) -> bool:
        return self.current is not None

    def _ctx_key(self) -> object:
        """The thread's current context: an explicit one, or the primary context of a device."""
        return self.current_ctx if self.current_ctx is not None else ("primary", self.current)

    def _release_device(self, d: int) -> None:
        """Refcount 0: every context of the device goes, with its streams and the device memory."""
        self.explicit[d] = 0
        for sid, (_, dev) in list(self.live_streams.items()):
            if dev == d:
                self._apply(sid)  # aclrtResetDevice drains and drops the streams' errors
                self.racy.discard(sid)
                del self.live_streams[sid]
        for p, dev in list(self.buffer_device.items()):
            if dev == d:
                self._disturb(p)  # another device's queued work may still use it: a race, as a free
                del self.buffer_device[p]
                self.shadow.pop(p, None)
                self.unknown.discard(p)
        if self.current == d:
            self.current = None
            self.current_ctx = None

    def _apply(self, sid: int) -> None:
        """The stream's queued work has run: its writes land in the shadow copy."""
        entries = self.pending.pop(sid, [])
        used = self.uses.pop(sid, set())
        if sid in self.racy:
            self.unknown |= used & self.shadow.keys()
            return
        for ptr, data in entries:
            if ptr in self.shadow:
                self.shadow[ptr][: data.size] = data

    def _disturb(self, p: int) -> None:
        """The host freed or overwrote ``p``: a race with any queued work that uses it."""
        for sid, used in self.uses.items():
            if p in used:
                self.racy.add(sid)

    def _synchronized(self, sid: int, code: int) -> bool:
        """A synchronize (or destroy) ran the stream's work and collected its error: apply the
        work, and say whether ``code`` is what the model allows (0, or a racy kernel's fault)."""
        racy = sid in self.racy
        self._apply(sid)
        self.racy.discard(sid)
        return code == 0 or (racy and code == A.ACL_ERROR_RT_AICORE_EXCEPTION)

    # -- a running start (every run begins here; the rules may undo any of it) -----------------

    @initialize(target=streams)
    def start(self) -> object:
        """aclInit, device 0 and a stream: otherwise few random runs ever reach a successful
        phase 2, and the op cache (which needs one) would go unexercised."""
        self.init()
        self.set_device(0)
        return self.create_stream()

    @initialize(target=buffers)
    def first_buffer(self) -> int | None:
        return self.malloc(N * 4)

    # -- init / devices ----------------------------------------------------------------------

    @rule()
    def init(self) -> None:
        code = A.aclInit(None)
        if self.initialized:
            assert code == A.ACL_ERROR_REPEAT_INITIALIZE
        else:
            assert code == 0
            self.initialized, self.finalized = True, False

    @rule()
    def finalize(self) -> None:
        code = A.aclFinalize()
        if self.finalized:
            assert code == A.ACL_ERROR_REPEAT_FINALIZE
            return
        assert code == 0
        for d in range(DEVICES):
            if self.refcount[d] or self.explicit[d]:
                self._release_device(d)
                self.refcount[d] = 0
        self.current, self.current_ctx = None, None
        self.initialized, self.finalized = False, True

    @precondition(lambda self: self.initialized)
    @rule(d=st.integers(-1, DEVICES))
    def set_device(self, d: int) -> None:
        code = A.aclrtSetDevice(d)
        if not 0 <= d < DEVICES:
            assert code == A.ACL_ERROR_RT_INVALID_DEVICEID
            return
        assert code == 0
        self.refcount[d] += 1
        self.current = d
        self.current_ctx = None

    @rule(d=st.integers(0, DEVICES - 1))
    def reset_device(self, d: int) -> None:
        code = A.aclrtResetDevice(d)
        if self.refcount[d] == 0:
            assert code == A.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
            return
        assert code == 0
        self.refcount[d] -= 1
        if self.refcount[d] == 0:
            self._release_device(d)

    @rule()
    def get_device(self) -> None:
        out = Ref()
        code = A.aclrtGetDevice(out)
        if self._ctx_ok():
            assert code == 0 and out.value == self.current
        else:
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL

    # -- streams and events ------------------------------------------------------------------

    @rule(target=streams)
    def create_stream(self) -> object:
        out = Ref()
        code = A.aclrtCreateStream(out)
        if not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
            return None
        assert code == 0
        self.live_streams[id(out.value)] = (out.value, self.current)
        self.stream_ctx[id(out.value)] = self._ctx_key()
        return out.value

    @rule(s=consumes(streams))
    def destroy_stream(self, s: object) -> None:
        code = A.aclrtDestroyStream(s)
        if s is None:
            assert code == A.ACL_ERROR_INVALID_PARAM
        elif id(s) not in self.live_streams:
            assert code == A.ACL_ERROR_RT_INVALID_HANDLE  # the handle is checked before the context
        elif not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
        elif self.stream_ctx[id(s)] != self._ctx_key():
            assert code == A.ACL_ERROR_RT_STREAM_CONTEXT  # only a stream of the current context
        else:
            assert self._synchronized(id(s), code)
            del self.live_streams[id(s)]

    @rule(s=streams)
    def synchronize(self, s: object) -> None:
        code = A.aclrtSynchronizeStream(s)
        if s is not None and id(s) not in self.live_streams:
            assert code == A.ACL_ERROR_RT_INVALID_HANDLE  # the handle is checked before the context
        elif not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
        elif s is None:
            assert code == 0
        else:
            assert self._synchronized(id(s), code)  # a stream of another context is synchronized too

    @rule(target=events)
    def create_event(self) -> object:
        out = Ref()
        code = A.aclrtCreateEvent(out)
        if not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
            return None
        assert code == 0
        return out.value

    @rule(e=events, s=streams)
    def record_and_wait(self, e: object, s: object) -> None:
        code = A.aclrtRecordEvent(e, s)
        if e is None:
            assert code == A.ACL_ERROR_INVALID_PARAM
            return
        if e.destroyed:  # type: ignore[attr-defined]
            assert code == A.ACL_ERROR_RT_INVALID_HANDLE
            return
        if s is not None and id(s) not in self.live_streams:
            assert code == A.ACL_ERROR_RT_INVALID_HANDLE  # both handles come before the context
            return
        if not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
            return
        if s is not None and self.stream_ctx[id(s)] != self._ctx_key():
            assert code == A.ACL_ERROR_RT_STREAM_CONTEXT
            return
        assert code == 0
        assert A.aclrtSynchronizeEvent(e) == 0
        if s is not None:
            self._apply(id(s))  # everything before the marker has run (a fault waits for a synchronize)

    @rule(e=consumes(events))
    def destroy_event(self, e: object) -> None:
        was_destroyed = e is not None and e.destroyed  # type: ignore[attr-defined]
        code = A.aclrtDestroyEvent(e)
        if e is None:
            assert code == A.ACL_ERROR_INVALID_PARAM
        elif was_destroyed:
            assert code == A.ACL_ERROR_RT_INVALID_HANDLE
        else:
            assert code == 0

    # -- contexts ------------------------------------------------------------------------------

    @precondition(lambda self: self.initialized)
    @rule(target=contexts, d=st.integers(0, DEVICES - 1))
    def create_context(self, d: int) -> object:
        out = Ref()
        assert A.aclrtCreateContext(out, d) == 0
        self.explicit[d] += 1
        self.current = d
        self.current_ctx = out.value
        return out.value

    @rule(c=contexts)
    def set_context(self, c: object) -> None:
        was_destroyed = c.destroyed  # type: ignore[attr-defined]
        code = A.aclrtSetCurrentContext(c)
        if was_destroyed:
            assert code == A.ACL_ERROR_RT_PARAM_INVALID  # the runtime's context validation: 107000
        else:
            assert code == 0
            self.current = c.device.ident  # type: ignore[attr-defined]
            self.current_ctx = c

    # -- memory --------------------------------------------------------------------------------

    @rule(target=buffers, size=st.integers(0, 64))
    def malloc(self, size: int) -> int | None:
        out = Ref()
        code = A.aclrtMalloc(out, size, A.ACL_MEM_MALLOC_HUGE_FIRST)
        if size == 0:
            assert code == A.ACL_ERROR_INVALID_PARAM
            return None
        if not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
            return None
        assert code == 0
        self.shadow[out.value] = np.full(malloc_size(size), 0xFF, np.uint8)
        self.buffer_device[out.value] = self.current  # type: ignore[assignment]
        return out.value

    @rule(p=consumes(buffers))
    def free(self, p: int | None) -> None:
        code = A.aclrtFree(p)
        if p is None:
            assert code == A.ACL_ERROR_INVALID_PARAM
        elif p in self.shadow:
            assert code == 0
            self._disturb(p)
            del self.shadow[p]
            del self.buffer_device[p]
            self.unknown.discard(p)
        else:
            assert code == A.ACL_ERROR_RT_PARAM_INVALID

    @rule(p=buffers, data=st.binary(min_size=1, max_size=48))
    def upload(self, p: int | None, data: bytes) -> None:
        code = A.aclrtMemcpy(p, len(data), data, len(data), A.ACL_MEMCPY_HOST_TO_DEVICE)
        if p is None:
            assert code == A.ACL_ERROR_INVALID_PARAM
        elif not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
        elif p not in self.shadow or len(data) > self.shadow[p].size:
            assert code == A.ACL_ERROR_RT_PARAM_INVALID
        else:
            assert code == 0
            self._disturb(p)
            self.shadow[p][: len(data)] = np.frombuffer(data, np.uint8)

    @rule(p=buffers, value=st.integers(0, 255), count=st.integers(0, 40))
    def memset(self, p: int | None, value: int, count: int) -> None:
        code = A.aclrtMemset(p, count, value, count)
        if count == 0:
            assert code == 0
        elif p is None:
            assert code == A.ACL_ERROR_INVALID_PARAM
        elif not self._ctx_ok():
            assert code == A.ACL_ERROR_RT_CONTEXT_NULL
        elif p not in self.shadow or count > self.shadow[p].size:
            assert code == A.ACL_ERROR_RT_PARAM_INVALID
        else:
            assert code == 0
            self._disturb(p)
            self.shadow[p][:count] = value

    @rule(p=buffers)
    def download(self, p: int | None) -> None:
        if p is None or p not in self.shadow or not self._ctx_ok():
            return
        for sid in list(self.pending):  # read only what has settled: synchronise first
            stream, _ = self.live_streams[sid]
            assert self._synchronized(sid, A.aclrtSynchronizeStream(stream))
        host = np.zeros(self.shadow[p].size, np.uint8)
        assert A.aclrtMemcpy(host, host.size, p, host.size, A.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        if p in self.unknown:  # after a race: learn what the device holds
            self.unknown.discard(p)
            self.shadow[p][:] = host
        assert np.array_equal(host, self.shadow[p]), "device memory differs from the model's shadow copy"

    # -- tensors and an operator -------------------------------------------------------------

    @rule(target=tensors, p=buffers)
    def create_tensor(self, p: int | None) -> object:
        t = A.aclCreateTensor([N], 1, A.ACL_FLOAT, None, 0, A.ACL_FORMAT_ND, [N], 1, p)
        assert t is not None
        self.tensor_buffer[id(t)] = p  # type: ignore[assignment]
        return t

    @rule(t=consumes(tensors))
    def destroy_tensor(self, t: object) -> None:
        assert A.aclDestroyTensor(t) == 0

    @rule(target=executors, g=tensors, x=tensors, out=tensors)
    def phase1(self, g: object, x: object, out: object) -> object:
        ws, ex = Ref(0), Ref()
        code = A.aclnnHardswishBackwardGetWorkspaceSize(g, x, out, ws, ex)
        dead = [t for t in (g, x, out) if not t.alive]  # type: ignore[attr-defined]
        if dead:
            assert code == A.ACLNN_ERR_PARAM_INVALID
            return None
        assert code == 0 and ws.value == 0
        labels: dict[int, int] = {}
        key = tuple(labels.setdefault(id(t), len(labels)) for t in (g, x, out))
        hit = self.op_cache.get(key) == "usable"
        assert (ex.value.cached_from is not None) == hit, "phase 1 and the model disagree on an op-cache hit"
        owns = not hit and key not in self.op_cache  # the first executor registered keeps the key
        if owns:
            self.op_cache[key] = ("pending", id(ex.value))
        self.executor_info[id(ex.value)] = {"key": key, "hit": hit, "owns": owns, "repeatable": False}
        return (ex.value, g, x, out)

    def _executor_gone(self, ex: object, ran: bool) -> None:
        """An executor was freed: its cache entry becomes usable if it ran, else it is dropped."""
        info = self.executor_info.pop(id(ex))
        if info["owns"]:
            if ran:
                self.op_cache[info["key"]] = "usable"  # type: ignore[index]
            else:
                del self.op_cache[info["key"]]  # type: ignore[arg-type]

    @rule(g=tensors, x=tensors, out=tensors, s=streams)
    def phase1_then_phase2(self, g: object, x: object, out: object, s: object) -> None:
        """The usual pair, back to back (so that repeats, which the op cache answers, happen)."""
        self.phase2(self.phase1(g, x, out), s)

    @rule(job=executors)
    def make_repeatable(self, job: tuple | None) -> None:
        if job is None:
            return
        ex = job[0]
        info = self.executor_info[id(ex)]
        code = A.aclSetAclOpExecutorRepeatable(ex)
        if info["hit"]:
            assert code == A.ACLNN_ERR_INNER  # a cache wrapper is not an executor to opbase
            A.aclGetRecentErrMsg()
            return
        assert code == 0
        info["repeatable"] = True
        if info["owns"]:  # SetRepeatable takes the executor's entry out of the cache
            del self.op_cache[info["key"]]  # type: ignore[arg-type]
            info["owns"] = False

    @rule(job=consumes(executors), s=streams)
    def phase2(self, job: tuple | None, s: object) -> None:
        if job is None:
            return
        ex, g, x, out = job
        repeatable = self.executor_info[id(ex)]["repeatable"]
        code = A.aclnnHardswishBackward(None, 0, ex, s)
        if any(not t.alive for t in (g, x, out)):
            assert code == A.ACLNN_ERR_PARAM_INVALID
            assert A.aclDestroyAclOpExecutor(ex) == 0
            self._executor_gone(ex, ran=False)
            return
        if not self._ctx_ok() or (s is not None and id(s) not in self.live_streams):
            assert code == A.ACLNN_ERR_RUNTIME_ERROR
            if repeatable:
                assert A.aclDestroyAclOpExecutor(ex) == 0
            self._executor_gone(ex, ran=False)  # deleted by phase 2 whatever Run() returned
            return
        assert code == 0
        if repeatable:
            assert A.aclDestroyAclOpExecutor(ex) == 0
        self._executor_gone(ex, ran=True)
        buffers = [self.tensor_buffer[id(t)] for t in (g, x, out)]
        nbytes = N * 4
        if (
            s is None
            or any(b not in self.shadow or self.shadow[b].size < nbytes or b in self.unknown for b in buffers)
            or self.pending
        ):
            # the default stream, a freed, short or unknown buffer, or work still queued: the
            # outcome is a device fault or an ordering the model does not track; settle everything
            code = A.aclrtSynchronizeStream(s)  # this call's own kernel may fault: any code
            A.aclGetRecentErrMsg()
            if s is not None:
                self._synchronized(id(s), code)
            for sid in list(self.pending):
                stream, _ = self.live_streams[sid]
                assert self._synchronized(sid, A.aclrtSynchronizeStream(stream))
            for b in buffers[2:]:
                if b in self.shadow:
                    host = np.zeros(self.shadow[b].size, np.uint8)
                    assert A.aclrtMemcpy(host, host.size, b, host.size, A.ACL_MEMCPY_DEVICE_TO_HOST) == 0
                    self.shadow[b][:] = host
                    self.unknown.discard(b)
            return
        gv = self.shadow[buffers[0]][:nbytes].view(np.float32)
        xv = self.shadow[buffers[1]][:nbytes].view(np.float32)
        result = np.zeros(N, np.float32)
        hard_swish_grad.make("tbe")([gv, xv], [result])
        self.pending.setdefault(id(s), []).append((buffers[2], result.view(np.uint8).copy()))
        self.uses.setdefault(id(s), set()).update(buffers)

    @invariant()
    def no_guard_bytes_damaged(self) -> None:
        from aclnn_py.runtime.memory import SPACE

        assert not SPACE.damaged_canaries()


Lifecycle.TestCase.settings = settings(
    max_examples=80, stateful_step_count=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
TestLifecycle = Lifecycle.TestCase


@pytest.mark.parametrize("policy", ["eager", "thread"])
def test_the_model_holds_under_the_other_stream_policies(policy, monkeypatch):
    """Correct programs give the same results under every policy; the racy ones (which the model
    stops predicting) differ only in what the model already allows."""
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)  # aclInit, in every sequence's start(), reads it
    run_state_machine_as_test(
        Lifecycle,
        settings=settings(
            max_examples=25, stateful_step_count=40, deadline=None, derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )  # fmt: skip


def test_the_model_follows_the_op_cache_through_a_scripted_run():
    """Random runs rarely repeat a successful call; this run does, through the same rules."""
    m = Lifecycle()
    try:
        s = m.start()
        p = m.first_buffer()
        g, x, out = (m.create_tensor(p) for _ in range(3))
        m.phase1_then_phase2(g, x, out, s)  # miss: builds, runs, and its entry becomes usable
        job = m.phase1(g, x, out)  # hit: the model expects a cache wrapper
        assert job[0].cached_from is not None
        m.make_repeatable(job)  # 561000 for a wrapper
        m.phase2(job, s)
        aliased = m.phase1(g, g, out)  # another key: a miss, registered, made repeatable
        m.make_repeatable(aliased)
        m.phase2(aliased, s)
        m.phase1_then_phase2(g, g, out, s)  # still a miss: the repeatable executor left the cache
        assert m.op_cache == {(0, 1, 2): "usable", (0, 0, 1): "usable"}
        m.synchronize(s)
        m.download(p)
    finally:
        m.teardown()


def _a_kernel_queued_on_one_buffer(m: Lifecycle) -> tuple[object, int]:
    """The shrunk start of both failures: Hardswish queued with g, x and out one tensor."""
    s = m.start()
    m.first_buffer()
    b = m.malloc(size=1)
    t = m.create_tensor(b)
    m.phase1_then_phase2(t, t, t, s)
    return s, b


def test_regression_lifecycle_free_while_queued_work_uses_the_buffer(monkeypatch):
    """A long random run (not the derandomized one above) found the model expecting a clean
    synchronize after the host freed a buffer a queued kernel still used. The emulator was right:
    the kernel runs at the synchronize and faults on the freed memory (507015, as on hardware
    when it hits unmapped memory); the sanitizer's synccheck names the free when it is on. The
    model now treats such a race as unpredictable, for synchronize, destroy and download alike.
    The deferred policy is pinned: the kernel must still be queued at the free."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")  # read by aclInit in start()
    for last in ("synchronize", "destroy_stream", "download"):
        m = Lifecycle()
        try:
            s, b1 = _a_kernel_queued_on_one_buffer(m)
            b2 = m.malloc(size=1)
            m.free(b1)
            assert id(s) in m.racy
            if last == "synchronize":
                code = A.aclrtSynchronizeStream(s)
                assert code == A.ACL_ERROR_RT_AICORE_EXCEPTION
                assert "freed memory" in A.aclGetRecentErrMsg()
                assert A.aclrtSynchronizeStream(s) == 0  # the error is reported once
            elif last == "destroy_stream":
                m.destroy_stream(s)
            else:
                m.download(b2)
        finally:
            m.teardown()


def test_regression_lifecycle_upload_while_queued_work_reads_the_buffer(monkeypatch):
    """The same long run found the model computing a queued kernel's result from the inputs at
    phase 2. Under the deferred stream policy the kernel reads its inputs when it runs, after an
    aclrtMemcpy the host made meanwhile (aclrtMemcpy does not wait for streams, as in CANN): a
    race, so the model now learns the contents from the device instead of predicting them.
    The deferred policy is pinned: the kernel must still be queued at the upload."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")  # read by aclInit in start()
    m = Lifecycle()
    try:
        s, b1 = _a_kernel_queued_on_one_buffer(m)
        m.upload(b1, b"\x00\x00\x00")
        assert id(s) in m.racy
        m.download(b1)
        assert b1 not in m.unknown and not m.racy
        g = m.shadow[b1][: N * 4].view(np.float32)  # the kernel ran on the uploaded bytes
        assert g[0] == 0.0
    finally:
        m.teardown()


def test_regression_lifecycle_reset_of_the_device_whose_memory_another_device_queued_work_uses(monkeypatch):
    """`make fuzz` (seed 1795567125) found the model expecting a clean synchronize of device 1's
    stream after aclrtResetDevice(0) freed device 0's memory, which a kernel queued on that stream
    still read. The emulator was right: the reset frees the device's memory, and the kernel faults
    on it when it runs. The model now treats a device's release as it treats a free: a race for
    any other device's queued work on that memory."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")  # the kernel must still be queued at the reset
    for last in ("synchronize", "destroy_stream"):
        m = Lifecycle()
        try:
            m.start()
            b0 = m.first_buffer()
            m.set_device(d=1)
            s1 = m.create_stream()
            t = m.create_tensor(p=b0)
            m.phase1_then_phase2(g=t, out=t, s=s1, x=t)
            m.reset_device(d=0)
            assert id(s1) in m.racy
            if last == "synchronize":
                code = A.aclrtSynchronizeStream(s1)
                assert code == A.ACL_ERROR_RT_AICORE_EXCEPTION
                assert "freed by aclrtResetDevice" in A.aclGetRecentErrMsg()
            else:
                m.destroy_stream(s1)
        finally:
            m.teardown()
