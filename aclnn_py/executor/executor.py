"""``aclOpExecutor``: the graph phase 1 builds and phase 2 runs.

The graph is kept at two levels, so that it reads like the op_api source and like the device
trace at once:

* :class:`Step` — one l0 call as the operator's C++ wrote it (``Contiguous``, ``Cast``,
  ``ReFormat``, the compute op, ``ViewCopy`` ...), with its inputs, outputs, attributes and a
  note when it cost nothing (already contiguous, same dtype, result re-pointed ...);
* :class:`Launch` — each kernel that step put on the device (``Transpose``, ``Cast``,
  ``SmoothL1LossGradV2``, ``TensorMove`` ...), numbered in launch order.

Workspace follows opbase's rules (``GetWorkspaceSize`` + ``MaxAllocator``): every
intermediate output of a launched kernel and every kernel scratch buffer is aligned with
``(n + 32 + 511) & ~511`` and packed into buckets by lifetime; the size is the sum of the
buckets. Phase 2 places each intermediate at ``workspace + its offset``, so a workspace that is
too small or freed is caught by the checked memory.

An individual-op executor (nnopbase) lays its workspace out as nnopbase does: the kernel's tiling
workspace at offset 0, then the AutoContiguous copies of its inputs, each aligned as above and
never reused (``LinearAllocator``), at the *end* of the workspace the caller passes.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _errmsg, dtypes, scalars
from .._status import aclError, aclnnStatus
from ..runtime import dump_file, sanitizer
from ..runtime.device import RT
from ..runtime.memory import SPACE, Allocation, MemoryFault, call_site
from ..runtime.stream import Stream, Task, TaskFault
from ..tensor import SCALAR_DTYPE_RANGE, SCALAR_DTYPES, Storage, aclScalar, aclTensor
from . import cache, checks

# A kernel computation: reads its input views, writes its output views, names the path it took.
Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]

# Allocations up to this size keep an argument's bound view between runs (_ArgSpec.array).
BIND_LIMIT = 64 * 1024

EXTRA_SIZE_IN_BYTE = 32
ALIGN_SIZE_IN_BYTE = 512


def align_workspace(nbytes: int) -> int:
    """opbase's buffer alignment: add 32 bytes, round up to a multiple of 512 (0 -> 512)."""
    return (nbytes + EXTRA_SIZE_IN_BYTE + ALIGN_SIZE_IN_BYTE - 1) & ~(ALIGN_SIZE_IN_BYTE - 1)


class Launch:
    """One kernel launch: op type, tensors, attributes, scratch buffers and its computation."""

    __slots__ = (
        "attrs",
        "compute",
        "engine",
        "in_specs",
        "index",
        "inputs",
        "label",
        "op_type",
        "out_specs",
        "outputs",
        "pre",
        "scratch",
        "tail_scratch",
    )

    def __init__(
        self,
        op_type: str,
        inputs: list[aclTensor],
        outputs: list[aclTensor],
        attrs: dict[str, Any],
        compute: Compute,
        scratch: list[Storage],
    ) -> None:
        self.op_type = op_type
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs
        self.compute = compute
        self.scratch = scratch
        self.tail_scratch: list[Storage] = []  # unaligned, after the packed buffers (nnopbase tiling workspace)
        # Kernel arguments fixed at the end of phase 1 (shapes, strides, dtypes); phase 2 only
        # fills in the addresses, as a real launch does.
        self.in_specs: list[_ArgSpec] = []
        self.out_specs: list[_ArgSpec] = []
        self.index = -1
        self.label = op_type  # "<api>: kernel #<index> <op_type>" once phase 1 ends
        self.pre = False  # an individual op's AutoContiguous copy (nnopbase runs these first)
        self.engine = "AiCore"  # or "AiCpu"


class Step:
    """One l0 call of the op_api graph."""

    __slots__ = ("attrs", "inputs", "launches", "name", "note", "outputs")

    def __init__(self, name: str, inputs: list[aclTensor], attrs: dict[str, Any] | None = None) -> None:
        self.name = name
        self.inputs = inputs
        self.outputs: list[aclTensor] = []
        self.attrs = attrs or {}
        self.launches: list[Launch] = []
        self.note = ""


def _describe_tensor(t: aclTensor, names: dict[int, str]) -> str:
    st = t.storage
    if st.kind == "host":  # a scalar made a tensor (ConvertToTensor): data in the launch arguments
        return f"{dtypes.dt_name(t.dtype)}{list(t.view_shape)} = {st.data.tolist()!r} @ host"
    if st.kind == "workspace":
        if st.ws_offset is None:
            where = "workspace"
        elif st.ws_tail:  # an individual op's AutoContiguous copy: counted from the end
            where = f"workspace tail+{st.ws_offset:#x}"
        else:
            where = f"workspace+{st.ws_offset:#x}"
    else:
        where = names.get(id(st), f"0x{st.addr:x}" if st.addr else "nullptr")
    contiguous = t.strides == dtypes.contiguous_strides(t.view_shape)
    layout = "" if contiguous else f" strides={list(t.strides)}"
    off = f" offset={t.offset}" if t.offset else ""
    return f"{dtypes.dt_name(t.dtype)}{list(t.view_shape)}{layout}{off} @ {where}"


class aclOpExecutor:
    """The executor handed out by phase 1 (``kind`` is ``composite`` or ``individual``)."""

    __slots__ = (
        "__weakref__",
        "addresses",
        "api",
        "arg_names",
        "buckets",
        "cache_entry",
        "cached_from",
        "contiguous_size",
        "io_slots",
        "kind",
        "launches",
        "repeatable",
        "runs",
        "seq",
        "site",
        "state",
        "steps",
        "unrepeatable_reason",
        "user_tensors",
        "workspace_size",
    )  # fmt: skip

    _ids = itertools.count(1)

    def __init__(self, api: str, kind: str = "composite", seq: int = 0) -> None:
        self.api = api
        self.kind = kind
        self.seq = seq  # the L2 sequence number of the phase-1 call (message names: aclnnAdd_12)
        self.steps: list[Step] = []
        self.launches: list[Launch] = []
        self.workspace_size = 0
        self.contiguous_size = 0  # individual ops: the AutoContiguous copies' share of the workspace
        self.buckets: list[int] = []
        self.state = "building"  # building -> ready -> released (individual ops: or failed / no-args)
        self.repeatable = False
        self.unrepeatable_reason = ""
        self.user_tensors: dict[str, aclTensor] = {}
        self.arg_names: dict[int, str] = {}
        self.site = call_site()
        self.runs = 0
        # The op cache: a composite executor owns an entry (filled in when it has run); a cache
        # wrapper replays another executor's kernels at the addresses its phase 1 read.
        self.cache_entry: cache.Entry | None = cache.take_pending(api) if kind == "composite" else None
        self.cached_from: aclOpExecutor | None = None
        self.addresses: dict[int, int | None] | None = None
        # An individual op's kernel arguments (nnopbase copies each tensor's address at phase 1):
        # its op type, the inputs and outputs by position (None for an absent optional one)
        self.io_slots: tuple[str, list[aclTensor | None], list[aclTensor | None]] | None = None

    @classmethod
    def cache_hit(cls, entry: cache.Entry, tensors: Sequence[aclTensor]) -> aclOpExecutor:
        """The wrapper a phase-1 cache hit hands out (``OpExecCacheWrap``): the cached graph, and
        the addresses of this call's tensors as they are now (``cachedTensorList_``)."""
        template = entry.template
        # Built field by field rather than through __init__: a hit takes no pending cache entry
        # (lookup cleared it) and shares the template's graph, so only these fields differ.
        ex = cls.__new__(cls)
        ex.api = entry.api
        ex.kind = template.kind
        ex.seq = 0
        ex.steps, ex.launches, ex.buckets = template.steps, template.launches, template.buckets
        ex.workspace_size = template.workspace_size
        ex.contiguous_size = template.contiguous_size
        ex.state = "ready"
        ex.repeatable = False
        ex.unrepeatable_reason = ""
        ex.arg_names = template.arg_names
        ex.site = call_site()
        ex.runs = 0
        ex.cache_entry = None
        ex.cached_from = template
        ex.io_slots = None
        addresses: dict[int, int | None] = {}
        user_tensors: dict[str, aclTensor] = {}
        for name, st, t in zip(entry.names, entry.storages, tensors):
            if id(st) not in addresses:  # a repeated storage: its first argument
                addresses[id(st)] = t.storage.addr
            if name not in user_tensors:
                user_tensors[name] = t
        ex.addresses = addresses
        ex.user_tensors = user_tensors
        RT.executors.add(ex)
        return ex

    # -- building (phase 1) ------------------------------------------------------------------

    def bind_arguments(self, /, **tensors: aclTensor | None) -> None:
        """Remember the user's tensors by argument name (for printing and phase-2 checks)."""
        for name, t in tensors.items():
            if t is not None:
                self.user_tensors[name] = t
                self.arg_names[id(t.storage)] = name

    def step(self, name: str, inputs: list[aclTensor], **attrs: Any) -> Step:
        s = Step(name, inputs, attrs)
        self.steps.append(s)
        return s

    def convert_to_tensor(self, value: np.ndarray, dtype: int) -> aclTensor:
        """``ConvertToTensor``: a 0-d (or small) host tensor holding ``value`` (already converted
        to ``dtype``); kernels receive it with their launch arguments, it takes no workspace."""
        data = np.array(value, copy=True, order="C")  # keeps a 0-d value 0-d
        shape = tuple(int(d) for d in data.shape)
        return aclTensor(shape, dtype, None, 0, dtypes.FORMAT_ND, shape, Storage(None, "host", data.nbytes, data))

    def convert_scalar(self, scalar: aclScalar, dtype: int) -> aclTensor | None:
        """``ConvertToTensor(const aclScalar*, dtype)``: a 0-d host tensor holding the scalar as
        opbase's ``To<T>`` converts it; None, reported as CANN reports it (EZ1006, then
        ``aclOpExecutor::ConvertToTensor failed.``), for a dtype a scalar cannot hold."""
        if dtype not in SCALAR_DTYPES:
            _errmsg.report(
                "EZ1006",
                f"Operator {checks.log_api_info()} does not support data type {dtypes.dt_name(dtype)}({dtype}). "
                f"The supported data type range is {SCALAR_DTYPE_RANGE}.",
            )
            checks.op_loge(aclnnStatus.ACLNN_ERR_INNER, "aclOpExecutor::ConvertToTensor failed.")
            return None
        if dtype in dtypes.NARROW_FLOATING:
            # HIFLOAT8, FLOAT8/6/4: opbase holds them, aclnn_py does not convert into them; every
            # API that reaches this refuses the dtype in a later check, so the value is never read.
            return self.convert_to_tensor(np.zeros((), np.uint8), dtype)
        return self.convert_to_tensor(scalars.element(scalar, dtype), dtype)

    def alloc_tensor(
        self,
        shape: Sequence[int],
        dtype: int,
        fmt: int = dtypes.FORMAT_ND,
        strides: Sequence[int] | None = None,
    ) -> aclTensor:
        """``executor->AllocTensor``: a contiguous intermediate whose storage is workspace."""
        shape_t = tuple(int(d) for d in shape)
        nbytes = dtypes.shape_bytes(dtypes.numel(shape_t), dtype)
        return aclTensor(shape_t, dtype, None, 0, fmt, shape_t, Storage(None, "workspace", nbytes))

    def launch(
        self,
        step: Step,
        op_type: str,
        inputs: list[aclTensor],
        outputs: list[aclTensor],
        compute: Compute,
        scratch_sizes: Sequence[int] = (),
        tail_scratch_sizes: Sequence[int] = (),
        **attrs: Any,
    ) -> Launch:
        """Add one kernel launch to the graph (``ADD_TO_LAUNCHER_LIST``).

        ``scratch_sizes`` are tiling workspaces packed by opbase's rules; ``tail_scratch_sizes``
        are placed unaligned after everything else (the individual-op path)."""
        scratch = [Storage(None, "workspace", int(n)) for n in scratch_sizes]
        ln = Launch(op_type, inputs, outputs, attrs, compute, scratch)
        ln.tail_scratch = [Storage(None, "workspace", int(n)) for n in tail_scratch_sizes]
        ln.index = len(self.launches)
        self.launches.append(ln)
        step.launches.append(ln)
        return ln

    def release(self, failed: bool = False) -> None:
        """The executor is freed (phase 2 of a non-repeatable one, or aclDestroyAclOpExecutor).

        Its cache entry becomes usable if it ran successfully (the destructor's ``Finalize`` +
        ``SetUse``); an executor freed without a run, or after a failed phase 2, leaves none."""
        self.state = "released"
        RT.executors.discard(self)
        entry, self.cache_entry = self.cache_entry, None
        if entry is not None:
            if failed or self.runs == 0 or not entry.valid:
                entry.invalidate()
            else:
                entry.template, entry.usable = self, True

    def log_name(self, l0: str = "") -> str:
        """opbase's ``GetLogApiInfo()``: ``<api>_<seq>``, plus ``_<l0 op>`` inside an l0 op."""
        return f"{self.api}_{self.seq}_{l0}" if l0 else f"{self.api}_{self.seq}"

    def abandon_cache(self) -> None:
        """``AbandonCache()``: this graph will not be reused by the op cache (it stays repeatable)."""
        if self.cache_entry is not None:
            self.cache_entry.valid = False

    def mark_unrepeatable(self, reason: str) -> None:
        self.unrepeatable_reason = reason
        if self.cache_entry is not None:
            self.cache_entry.valid = False  # AbandonCache(true)

    def register_cache(self) -> None:
        """``ReleaseTo`` registers the executor's cache entry, if its kernels can be replayed: every
        kernel argument lives in the workspace or in the storage of an argument tensor."""
        entry = self.cache_entry
        if entry is None:
            return
        known = {id(st) for st in entry.storages}
        replayable = all(
            spec.storage.kind in ("workspace", "host") or id(spec.storage) in known
            for ln in self.launches
            for spec in (*ln.in_specs, *ln.out_specs)
        )
        if not (replayable and cache.register(entry)):
            self.cache_entry = None

    def stop_caching(self) -> None:
        """``SetRepeatable`` takes the executor's entry out of the cache."""
        entry, self.cache_entry = self.cache_entry, None
        if entry is not None:
            entry.manager.remove(entry)

    def plan_workspace(self) -> int:
        """Place every workspace buffer; returns (and keeps) the workspace size in bytes."""
        if self.kind == "individual":
            return self._plan_individual()
        return self._plan_composite()

    def _plan_individual(self) -> int:
        """nnopbase: tiling workspaces from offset 0, then the AutoContiguous copies linearly."""
        offset = 0
        for ln in self.launches:
            for st in ln.tail_scratch:
                st.ws_offset = offset
                offset += st.nbytes
        tail = 0
        for ln in self.launches:
            for t in ln.outputs:
                st = t.storage
                if st.kind == "workspace" and st.ws_offset is None:
                    st.ws_offset, st.ws_tail = tail, True
                    tail += align_workspace(st.nbytes)
        self.buckets = []
        self.contiguous_size = tail
        self.workspace_size = offset + tail
        return self.workspace_size

    def _plan_composite(self) -> int:
        """opbase's MaxAllocator.

        Kernels are visited in launch order, scratch buffers first then outputs; a buffer reuses
        the *last* bucket whose last occupant died before the buffer is born (and is not an
        input of its producer), else opens a new bucket. Tail scratch buffers follow, unaligned."""
        consumers: dict[int, int] = {}
        for ln in self.launches:
            for t in ln.inputs:
                if t.storage.kind == "workspace":
                    consumers[id(t.storage)] = ln.index
        buckets: list[list[Any]] = []  # [size, start, end, producer, storage]
        planned: set[int] = set()
        for ln in self.launches:
            input_storages = {id(t.storage) for t in ln.inputs}
            buffers = [(st, ln.index) for st in ln.scratch]
            for t in ln.outputs:
                if t.storage.kind == "workspace" and id(t.storage) not in planned:
                    buffers.append((t.storage, consumers.get(id(t.storage), ln.index)))
            for st, end in buffers:
                planned.add(id(st))
                size = align_workspace(st.nbytes)
                choice = None
                for b in buckets:
                    if b[3] != ln.index and b[2] < ln.index and id(b[4]) not in input_storages:
                        choice = b
                if choice is None:
                    choice = [0, 0, 0, 0, None, []]
                    buckets.append(choice)
                choice[0] = max(choice[0], size)
                choice[1], choice[2], choice[3], choice[4] = ln.index, end, ln.index, st
                choice[5].append(st)
        offset = 0
        self.buckets = []
        for b in buckets:
            for st in b[5]:
                st.ws_offset = offset
            self.buckets.append(b[0])
            offset += b[0]
        for ln in self.launches:
            for st in ln.tail_scratch:
                st.ws_offset = offset
                offset += st.nbytes
        self.workspace_size = offset
        return self.workspace_size

    def finish(self) -> int:
        """End of phase 1: plan the workspace, fix the kernel arguments, hand the executor out."""
        size = self.plan_workspace()
        names = self.arg_names

        def label(t: aclTensor, what: str) -> str:
            # a kernel reading or writing the caller's own memory is named by the API's argument
            name = names.get(id(t.storage))
            return what if name is None else f"{name} ({what})"

        for ln in self.launches:
            ln.in_specs = [_ArgSpec(t, label(t, f"{ln.op_type} input {i}")) for i, t in enumerate(ln.inputs)]
            ln.out_specs = [_ArgSpec(t, label(t, f"{ln.op_type} output {i}")) for i, t in enumerate(ln.outputs)]
            ln.label = f"{self.api}: kernel #{ln.index} {ln.op_type}"
        self.state = "ready"
        RT.executors.add(self)
        return size

    # -- phase 2 -----------------------------------------------------------------------------

    def check_runnable(self) -> str | None:
        """Why the executor cannot run now (None if it can)."""
        if self.state == "ready":  # the usual case: only its tensors can have gone
            for t in self.user_tensors.values():
                if not t.alive:
                    break
            else:
                return None
        if self.state == "failed":
            return (
                f"{self.api}GetWorkspaceSize failed after handing this executor out (nnopbase writes *executor "
                "before its later checks); an executor of a failed phase 1 cannot run"
            )
        if self.state == "no-args":
            return (
                f"{self.api}GetWorkspaceSize was called with workspaceSize = nullptr, so nnopbase never set up this "
                "executor's arguments (it returned ACLNN_SUCCESS all the same)"
            )
        if self.state == "released":
            return (
                f"the executor made by {self.api}GetWorkspaceSize at {self.site} was already released "
                "(a non-repeatable executor runs once; call aclSetAclOpExecutorRepeatable right after phase 1 "
                "to run it again)"
            )
        for name, t in self.user_tensors.items():
            if not t.alive:
                return (
                    f"tensor argument {name} of {self.api} was destroyed by aclDestroyTensor after phase 1 "
                    "and before phase 2"
                )
        return None

    def enqueue(
        self, stream: Stream, workspace: int | None, size: int = 0, launches: Sequence[Launch] | None = None
    ) -> None:
        """Launch every kernel (or ``launches``), in order, as a task on the stream.

        Kernel arguments (addresses, shapes, strides) are fixed now, as a real launch copies
        them; the memory is read and written when the task runs. ``size`` is the workspace size
        the caller passed (individual ops place their AutoContiguous copies at its end)."""
        tail = None if workspace is None else workspace + size - self.contiguous_size
        for ln in self.launches if launches is None else launches:
            self._enqueue_launch(stream, ln, workspace, tail)

    def _enqueue_launch(self, stream: Stream, ln: Launch, workspace: int | None, tail: int | None) -> None:
        addresses = self.addresses
        ins = _bind_addresses(ln.in_specs, workspace, addresses, tail)  # each argument and its address
        outs = _bind_addresses(ln.out_specs, workspace, addresses, tail)
        scratch = []
        if workspace is not None and (ln.scratch or ln.tail_scratch):
            for st in (*ln.scratch, *ln.tail_scratch):
                if st.ws_offset is not None:
                    scratch.append((workspace + st.ws_offset, st.nbytes))
        label = ln.label
        compute = ln.compute

        def run() -> None:
            try:
                for addr, nbytes in scratch:
                    SPACE.check(addr, nbytes, "scratch", f"{ln.op_type} workspace")
                in_arrays = []
                for spec, ptr in ins:
                    in_arrays.append(spec.array(ptr, False))
                out_arrays = []
                written = []  # (spec, address, allocation) of each output
                for spec, ptr in outs:
                    arr = spec.array(ptr, True)
                    out_arrays.append(arr)
                    written.append((spec, ptr, spec.bound))
            except MemoryFault as fault:
                raise TaskFault(aclError.ACL_ERROR_RT_AICORE_EXCEPTION, f"{label} failed: {fault.message}") from None
            except sanitizer.TaskFinding as f:
                raise TaskFault(f.code, f"{label} failed: {f.text}") from None
            task.note = compute(in_arrays, out_arrays)
            if sanitizer.MODE != "off":
                for spec, ptr, bound in written:
                    spec.track(ptr, True, bound)
            if dump_file.ACTIVE:  # the data dump follows the kernel on its stream (aclmdlSetDump)
                dump_file.kernel_ran(
                    stream, ln.op_type, label,
                    [(t, ptr, a) for t, (_, ptr), a in zip(ln.inputs, ins, in_arrays)],
                    [(t, ptr, a) for t, (_, ptr), a in zip(ln.outputs, outs, out_arrays)],
                )  # fmt: skip

        task = Task(stream, label, run)
        if sanitizer.MODE != "off":  # the byte ranges the arguments reach (_ArgSpec.hull inlined)
            reads = [(ptr, ptr) if sp.empty else (ptr + sp.lo, ptr + sp.hi) for sp, ptr in ins if ptr is not None]
            writes = [(ptr, ptr) if sp.empty else (ptr + sp.lo, ptr + sp.hi) for sp, ptr in outs if ptr is not None]
            sanitizer.track(task, reads, writes)
        RT.policy.submit(stream, task)

    # -- inspection --------------------------------------------------------------------------

    def describe(self) -> str:
        """The graph as text: one line per l0 step, indented kernel launches beneath."""
        names = dict(self.arg_names)
        lines = [
            f"aclOpExecutor for {self.api} ({self.kind}, {len(self.launches)} kernel(s), "
            f"workspace {self.workspace_size} bytes)"
        ]
        if self.contiguous_size:
            lines.append(
                f"  the AutoContiguous copies take the last {self.contiguous_size} bytes of the workspace passed "
                "to phase 2 (workspace tail)"
            )
        if self.cached_from is not None:
            lines.append(
                f"  op cache hit: phase 1 skipped its checks and replays the kernels of the executor built "
                f"at {self.cached_from.site}"
            )
        for i, s in enumerate(self.steps):
            ins = ", ".join(_describe_tensor(t, names) for t in s.inputs)
            outs = ", ".join(_describe_tensor(t, names) for t in s.outputs)
            attrs = "".join(f" {k}={v!r}" for k, v in s.attrs.items())
            lines.append(f"  [{i}] {s.name}({ins}){attrs} -> {outs or '-'}")
            if s.note:
                lines.append(f"      {s.note}")
            for ln in s.launches:
                li = ", ".join(_describe_tensor(t, names) for t in ln.inputs)
                lo = ", ".join(_describe_tensor(t, names) for t in ln.outputs)
                la = "".join(f" {k}={v!r}" for k, v in ln.attrs.items())
                sc = "".join(f" scratch={st.nbytes}@workspace+{st.ws_offset:#x}" for st in ln.scratch + ln.tail_scratch)
                where = " on AI CPU" if ln.engine == "AiCpu" else ""
                lines.append(f"      kernel #{ln.index} {ln.op_type}{where}({li}){la}{sc} -> {lo}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()

    def _repr_svg_(self) -> str:
        """The graph as a picture, for notebooks (DOT text: ``aclnn_py.executor.picture.to_dot``)."""
        from . import picture

        return picture.to_svg(self)

    def __repr__(self) -> str:
        hit = ", op-cache hit" if self.cached_from is not None else ""
        return f"<aclOpExecutor {self.api} {self.state}, {len(self.launches)} kernel(s){hit}>"


def _bind_addresses(
    specs: list[_ArgSpec], workspace: int | None, addresses: dict[int, int | None] | None, tail: int | None
) -> list[tuple[_ArgSpec, int | None]]:
    """Each argument with its address (:meth:`_ArgSpec.address`, its common case inlined)."""
    bound = []
    for spec in specs:
        st = spec.storage
        if st.kind == "workspace":
            bound.append((spec, spec.address(workspace, addresses, tail)))
            continue
        base = st.addr if addresses is None else addresses.get(id(st), st.addr)
        bound.append((spec, None if base is None else base + spec.offset_bytes))
    return bound


class _ArgSpec:
    """One tensor argument of a launch: everything but the address, fixed at the end of phase 1.

    The byte range the view can reach (``lo``/``hi`` relative to its first element) and whether
    the view is dense are computed once; the address is resolved from the storage at phase 2."""

    __slots__ = (
        "bound", "dense", "dtype", "empty", "hi", "label", "lo", "offset_bytes", "shape", "storage", "strides",
    )  # fmt: skip

    def __init__(self, t: aclTensor, label: str) -> None:
        npdt = dtypes.numpy_dtype(t.dtype)
        self.dtype = npdt if npdt is not None else np.dtype(np.uint8)
        item = self.dtype.itemsize
        self.storage = t.storage
        self.offset_bytes = (t.offset * dtypes.element_bits(t.dtype)) // 8
        self.shape = t.view_shape
        self.strides = tuple(s * item for s in t.strides)
        self.label = label
        self.empty = any(d == 0 for d in self.shape)
        lo = hi = 0
        for d, s in zip(self.shape, self.strides):
            if s < 0:
                lo += s * (d - 1)
            else:
                hi += s * (d - 1)
        self.lo, self.hi = lo, hi + item
        self.dense = t.strides == dtypes.contiguous_strides(t.view_shape)
        # (address, allocation, view) of the last run: a repeated run at the same address (a
        # repeatable executor, an op-cache replay) reuses the view while its allocation lives.
        self.bound: tuple[int, Allocation, np.ndarray] | None = None

    def address(
        self, workspace: int | None, addresses: dict[int, int | None] | None = None, tail: int | None = None
    ) -> int | None:
        """Where the view starts: in the workspace (``tail`` is where an individual op's
        AutoContiguous copies start), or in its storage (``addresses`` maps a cached graph's
        storages to the replaying call's addresses)."""
        st = self.storage
        if st.kind == "workspace":
            base = tail if st.ws_tail else workspace
            if base is None or st.ws_offset is None:
                return None
            return base + st.ws_offset + self.offset_bytes
        base = st.addr if addresses is None else addresses.get(id(st), st.addr)
        return None if base is None else base + self.offset_bytes

    def array(self, ptr: int | None, write: bool) -> np.ndarray:
        if self.empty:
            return np.empty(self.shape, self.dtype)
        data = self.storage.data
        if data is not None:  # host data (a converted scalar): read-only for the kernel
            view: np.ndarray = data.view()
            view.flags.writeable = False
            return view
        if ptr is None:
            raise MemoryFault("null", f"{self.label} has no device address (nullptr)")
        bound = self.bound
        if bound is not None and bound[0] == ptr and SPACE.is_live(bound[1]):
            # The view this argument had at this address last time: the allocation it lies in
            # is still live, so the bounds check would find it again and pass.
            alloc, arr = bound[1], bound[2]
        else:
            alloc, off = SPACE.check(ptr + self.lo, self.hi - self.lo, "write" if write else "read", self.label)
            arr = np.ndarray(self.shape, dtype=self.dtype, buffer=alloc.buf, offset=off - self.lo, strides=self.strides)
            # Only small allocations: the view keeps its allocation's bytes alive after a free
            # (until the next run re-binds), and a large call does not feel the view's cost.
            self.bound = (ptr, alloc, arr) if alloc.size <= BIND_LIMIT else None
        if not write and sanitizer.MODE != "off":
            if self.dense:
                sanitizer.alloc_access(alloc, ptr + self.lo, self.hi - self.lo, False, self.label)
            else:
                sanitizer.view_access(ptr, self.dtype.itemsize, self.shape, self.strides, False, self.label)
        return arr

    def track(self, ptr: int | None, write: bool, bound: tuple[int, Allocation, np.ndarray] | None = None) -> None:
        """The sanitizer's record of this argument's access at ``ptr``; ``bound``: what
        :attr:`bound` was when :meth:`array` returned its view (another thread running the same
        graph may have re-bound it since)."""
        if ptr is None or self.empty or sanitizer.MODE == "off" or self.storage.data is not None:
            return
        if self.dense:
            if bound is not None and bound[0] == ptr and SPACE.is_live(bound[1]):  # as array() found it
                sanitizer.alloc_access(bound[1], ptr + self.lo, self.hi - self.lo, write, self.label)
            else:
                sanitizer.range_access(ptr + self.lo, self.hi - self.lo, write, self.label)
        else:
            sanitizer.view_access(ptr, self.dtype.itemsize, self.shape, self.strides, write, self.label)

    def hull(self, ptr: int) -> tuple[int, int]:
        if self.empty:
            return (ptr, ptr)
        return (ptr + self.lo, ptr + self.hi)
