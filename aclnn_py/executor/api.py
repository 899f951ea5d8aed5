"""Phase 2 and the executor functions of ``acl_meta.h``.

* :func:`common_op_executor_run` is opbase's ``CommonOpExecutorRun`` (composite executors:
  SmoothL1LossBackward, HardswishBackward);
* phase 2 of individual-op executors (nnopbase) is in :mod:`.nnopbase`;
* :func:`aclSetAclOpExecutorRepeatable` and :func:`aclDestroyAclOpExecutor`.

A released executor (consumed by phase 2, or destroyed) is an invalid handle: phase 2 reports
it with ACLNN_ERR_PARAM_INVALID, the executor functions with ACLNN_ERR_INNER (opbase's answer
to an unknown magic number) — except an individual op's, which nnopbase pools: the executor
functions answer 0 for it (the sanitizer names the call).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from .. import _errmsg, dtypes
from .. import trace as _trace
from .._capi import UINT64_MAX, ApiError, as_int, as_pointer, c_api, fail
from .._ref import Ref, is_out_param, store
from .._status import aclnnStatus
from ..runtime import sanitizer
from ..runtime._checks import check_stopped, resolve_stream
from ..runtime.memory import SPACE, call_site
from ..tensor import aclTensor
from . import cache
from .executor import Launch, aclOpExecutor

S = aclnnStatus


def _workspace_args(workspace: object, workspaceSize: object) -> tuple[int | None, int]:
    if type(workspaceSize) is int and 0 <= workspaceSize <= UINT64_MAX:  # what the checks below pass
        if workspace is None:
            return None, workspaceSize
        if type(workspace) is int and 0 < workspace <= UINT64_MAX:
            return workspace, workspaceSize
    size = as_int(workspaceSize, "workspaceSize", S.ACLNN_ERR_PARAM_INVALID, 0, UINT64_MAX, eid="EZ1001")
    ptr = as_pointer(workspace)
    if ptr is not None and ptr < 0:
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            f"workspace must be a device pointer (int) or None, got {type(workspace).__name__}.",
        )
    return ptr, size


def _runnable(executor: object, api: str) -> aclOpExecutor:
    """The executor phase 2 was given, if it can run (an executor, not released or destroyed)."""
    if not isinstance(executor, aclOpExecutor):
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            f"{api}: executor must be an aclOpExecutor, got {type(executor).__name__}.",
        )
    why = executor.check_runnable()
    if why is not None:
        destroyed = _DESTROYED.get(executor)
        if destroyed is not None:
            # not the hint for a consumed one-shot executor: this one was destroyed on purpose
            why = (
                f"the executor made by {executor.api}GetWorkspaceSize at {executor.site} was destroyed by "
                f"aclDestroyAclOpExecutor at {destroyed}; a destroyed executor cannot run again, repeatable "
                "or not: run phase 1 again (or destroy it only after its last run)"
            )
        raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", f"{api} cannot run: {why}.")
    return executor


def _check_builder(ex: aclOpExecutor, api: str, builders: tuple[str, ...] = ()) -> None:
    """Sanitizer [usage]: phase 2 of one API given an executor another API's phase 1 built.
    CANN's ``CommonOpExecutorRun`` does not know which API built an executor and runs its graph,
    so only the sanitizer names it (error mode: 161002). ``builders``: the APIs whose phase 1
    makes this API's executors when it is not ``api`` (an in-place API runs its out-of-place
    twin's phase 1; aclnnInplaceDiv runs its own or aclnnDiv's)."""
    if ex.api in (builders or (api,)) or sanitizer.MODE == "off":
        return
    sanitizer.finding(
        "usage",
        f"{api} at {call_site()} was given an executor built by {ex.api}GetWorkspaceSize; it runs "
        f"{ex.api}'s graph (CANN does not check which API built an executor)",
        S.ACLNN_ERR_PARAM_INVALID,
    )


def _check_workspace_memory(ex: aclOpExecutor, api: str, workspace: int | None, size: int) -> None:
    """Sanitizer: the workspace the caller passes must hold what phase 1 asked for."""
    if ex.workspace_size == 0 or sanitizer.MODE == "off":
        return
    if size < ex.workspace_size:
        sanitizer.finding(
            "memcheck",
            f"{api} at {call_site()}: workspaceSize {size} is smaller than the {ex.workspace_size} bytes "
            f"{api}GetWorkspaceSize returned; intermediates will run past the workspace",
            S.ACLNN_ERR_PARAM_INVALID,
        )
    if workspace is not None:
        alloc = SPACE.find(workspace)
        if alloc is None:
            sanitizer.finding(
                "memcheck", f"{api}: workspace {SPACE.describe_address(workspace)}", S.ACLNN_ERR_PARAM_INVALID
            )
        elif alloc.end - workspace < ex.workspace_size:
            sanitizer.finding(
                "memcheck",
                f"{api} at {call_site()}: workspace 0x{workspace:x} has {alloc.end - workspace} bytes up to the end "
                f"of its allocation, fewer than the {ex.workspace_size} bytes phase 1 asked for ({alloc.describe()})",
                S.ACLNN_ERR_PARAM_INVALID,
            )


def _launch(
    ex: aclOpExecutor,
    api: str,
    workspace: int | None,
    stream: object,
    size: int = 0,
    launches: list[Launch] | None = None,
    last: bool = True,
) -> int:
    """Launch the kernels (all, or ``launches``) on the stream (Run()); a launch failure is a
    runtime error. ``last``: this completes the run (count it, release a one-shot executor)."""
    todo = ex.launches if launches is None else launches
    if todo:
        try:
            st = resolve_stream(stream)
            check_stopped(st.context)  # the first kernel's submission: Context::CheckTaskSend
        except ApiError as e:
            e.report()
            _errmsg.report_code(
                S.ACLNN_ERR_RUNTIME_ERROR,
                f"launch failed for {todo[0].op_type}, errno:{int(S.ACLNN_ERR_RUNTIME_ERROR)}.",
            )
            if not ex.repeatable:
                ex.release(failed=True)  # deleted whatever Run() returned; its cache entry is dropped
            return S.ACLNN_ERR_RUNTIME_ERROR
        for name, t in ex.user_tensors.items():
            addr = t.storage.addr
            if addr is not None and addr & 31:
                # aclCreateTensor: tensorData must be 32-byte aligned (misalignment is undefined)
                sanitizer.check_alignment(addr, 32, f"{api}: tensor {name}'s data address", S.ACLNN_ERR_PARAM_INVALID)
        ex.enqueue(st, workspace, size, todo)
    if last:
        ex.runs += 1  # a run with no kernels (empty tensors) counts too: it leaves a usable cache entry
        if not ex.repeatable:
            ex.release()
    return S.ACLNN_SUCCESS


def common_op_executor_run(
    api: str, workspace: object, workspaceSize: object, executor: object, stream: object, builders: tuple[str, ...] = ()
) -> int:
    """``L2_DFX_PHASE_2`` + ``CommonOpExecutorRun`` (``builders``: see :func:`_check_builder`)."""
    if executor is None:
        _errmsg.report("EZ1001", "executor is nullptr.")  # L2_DFX_PHASE_2
        raise fail(S.ACLNN_ERR_PARAM_NULLPTR, "EZ1001", "executor is nullptr.")
    ws, size = _workspace_args(workspace, workspaceSize)
    ex = _runnable(executor, api)
    if size > 0 and ws is None:
        ex.release(failed=True)  # CommonOpExecutorRun deletes the executor, even a repeatable one
        raise fail(S.ACLNN_ERR_PARAM_NULLPTR, "EZ1001", "workspace is nullptr.")
    _check_builder(ex, api, builders)
    _check_workspace_memory(ex, api, ws, size)
    return _launch(ex, api, ws, stream)


def check_out_params(workspaceSize: object, executor: object) -> None:
    """The phase-1 out-parameters must be able to receive values (None is nullptr, checked later)."""
    if workspaceSize is not None and not is_out_param(workspaceSize, True):
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            f"workspaceSize must be a Ref or ctypes holder, got {type(workspaceSize).__name__}.",
        )
    if executor is not None and not is_out_param(executor, False):
        raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", f"executor must be a Ref, got {type(executor).__name__}.")


def check_tensor_args(api: str, **named: object) -> None:
    """Each tensor argument is None (a null pointer, for the op's own checks) or a live aclTensor."""
    for name, t in named.items():
        if t is None:
            continue
        if not isinstance(t, aclTensor):
            raise fail(
                S.ACLNN_ERR_PARAM_INVALID,
                "EZ1001",
                f"{api}: argument {name} must be an aclTensor, got {type(t).__name__}.",
            )
        if not t.alive:
            raise fail(
                S.ACLNN_ERR_PARAM_INVALID, "EZ1001",
                f"{api}: argument {name} is an aclTensor destroyed by aclDestroyTensor "
                f"(created at {t.site}); use after free.",
            )  # fmt: skip


def hand_out(ex: aclOpExecutor, size: int, workspaceSize: object, executor: object) -> int:
    """``*workspaceSize = ...; ReleaseTo(executor); return ACLNN_SUCCESS``."""
    store(workspaceSize, size)
    ex.register_cache()
    store(executor, ex)
    return S.ACLNN_SUCCESS


def cache_hit(api: str, workspaceSize: object, executor: object, /, **args: Any) -> bool:
    """The op-cache short-cut of ``L2_DFX_PHASE_1``: ``args`` are the call's DFX_IN and DFX_OUT
    arguments in order. On a hit the out-parameters receive a cache wrapper and the cached
    workspace size, and the caller returns ACLNN_SUCCESS at once (no checks, no graph)."""
    return cache_hit_args(api, workspaceSize, executor, args)


def cache_hit_args(api: str, workspaceSize: object, executor: object, args: dict[str, Any]) -> bool:
    """:func:`cache_hit` with the arguments already in a dict (``L2_DFX_PHASE_1`` has them so)."""
    entry, _, tensors = cache.lookup(api, args)
    if entry is None:
        return False
    wrapper = aclOpExecutor.cache_hit(entry, tensors)
    if type(workspaceSize) is Ref and type(executor) is Ref:  # what store() does, without two calls
        workspaceSize.value = wrapper.workspace_size
        executor.value = wrapper
    else:
        store(workspaceSize, wrapper.workspace_size)
        store(executor, wrapper)
    return True


def _executor_handle(executor: object, fn: str) -> aclOpExecutor:
    if executor is None:
        raise fail(S.ACLNN_ERR_INNER_NULLPTR, "EZ1011", f"{fn} failed because executor cannot be a NULL pointer.")
    if not isinstance(executor, aclOpExecutor) or executor.state != "ready":
        what = "a released executor" if isinstance(executor, aclOpExecutor) else type(executor).__name__
        raise fail(
            S.ACLNN_ERR_INNER,
            "EZ9999",
            f"{fn} failed: {what} is not a valid aclOpExecutor (unknown magic number).",
        )
    return executor


def _pooled(executor: Any, fn: str, any_kind: bool = False) -> bool:
    """An individual op's executor that is not ready (consumed by phase 2, destroyed, or handed out
    by a phase 1 that did not set it up): nnopbase pools its executors and never changes their
    magic number, so ``fn`` finds one and returns 0 without effect (NnopbaseSetRepeatable /
    NnopbaseResetExecutor on an idle executor). ``any_kind``: a released composite executor too
    (the tensor-address setters look at no magic number but nnopbase's and return 0 for the
    rest). The sanitizer names the call."""
    if not (isinstance(executor, aclOpExecutor) and executor.state != "ready"):
        return False
    if executor.kind != "individual" and not any_kind:
        return False
    pool = (
        "nnopbase keeps its executors in a pool"
        if executor.kind == "individual"
        else f"{fn} only looks for nnopbase's executors"
    )
    sanitizer.finding(
        "usage",
        f"{fn} at {call_site()}: the executor made by {executor.api}GetWorkspaceSize at {executor.site} is no "
        f"longer an executor of that call ({_pooled_state(executor)}); {pool}, so CANN returns 0 and nothing "
        "happens (call it between phase 1 and phase 2)",
        S.ACLNN_ERR_PARAM_INVALID,
    )
    return True


def _pooled_state(ex: aclOpExecutor) -> str:
    if ex.state == "released":
        return "destroyed" if ex in _DESTROYED else "phase 2 consumed it"
    if ex.state == "no-args":
        return "its phase 1 was given workspaceSize = nullptr and never set up its arguments"
    return "its phase 1 failed after handing it out"


@c_api(S.ACLNN_ERR_INNER)
def aclSetAclOpExecutorRepeatable(executor: Any) -> int:
    """Keep the executor after phase 2 so it can run again (call right after phase 1)."""
    if _pooled(executor, "aclSetAclOpExecutorRepeatable"):
        return S.ACLNN_SUCCESS
    ex = _executor_handle(executor, "aclSetAclOpExecutorRepeatable")
    if ex.cached_from is not None:
        # A cache wrapper is not an aclOpExecutor to opbase (another magic number): 561000 and
        # no message there. Say why here, since nothing on the device would.
        _errmsg.report(
            "aclnn_py",  # an emulator note, not a CANN report
            f"aclSetAclOpExecutorRepeatable: this executor is an op-cache hit of {ex.api} (phase 1 found the "
            "executor of an identical earlier call and returned a wrapper); a wrapper cannot be made "
            "repeatable. Set DISABLE_L2_CACHE=1 or ACLNN_CACHE_LIMIT=0 to turn the cache off.",
        )
        return S.ACLNN_ERR_INNER
    if ex.unrepeatable_reason:
        return S.ACLNN_ERR_INNER  # opbase only logs a WARNING here
    ex.repeatable = True
    ex.stop_caching()
    return S.ACLNN_SUCCESS


# Executors destroyed by aclDestroyAclOpExecutor, and where: phase 2 names the destroy instead of
# suggesting aclSetAclOpExecutorRepeatable (weakly: a forgotten executor takes its entry along).
_DESTROYED: weakref.WeakKeyDictionary[aclOpExecutor, str] = weakref.WeakKeyDictionary()


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyAclOpExecutor(executor: Any) -> int:
    """Free an executor (meant for repeatable ones; others are freed by phase 2)."""
    if _pooled(executor, "aclDestroyAclOpExecutor"):
        return S.ACLNN_SUCCESS
    ex = _executor_handle(executor, "aclDestroyAclOpExecutor")
    ex.release()
    _DESTROYED[ex] = call_site()
    return S.ACLNN_SUCCESS


def _tensor_addr_setter(fn: str, side: str | None) -> Callable[[Any, int, aclTensor | None, Any], int]:
    """``aclSetTensorAddr`` (``side`` None: an index over the inputs, then the outputs),
    ``aclSetInputTensorAddr`` and ``aclSetOutputTensorAddr`` (acl_op_api.cpp): the tensor's storage
    address is set before the executor is checked; a composite executor follows its tensors (the
    index is not used), an individual op's executor moves the kernel argument the index names."""

    def setter(executor: Any, index: int, tensor: aclTensor | None, addr: Any) -> int:
        if tensor is None:
            raise fail(S.ACLNN_ERR_INNER_NULLPTR, "EZ1011", f"{fn} failed because tensor cannot be a NULL pointer.")
        if not isinstance(tensor, aclTensor) or not tensor.alive:
            raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", f"{fn}: tensor must be a live aclTensor.")
        idx = as_int(index, "index", S.ACLNN_ERR_PARAM_INVALID, 0, UINT64_MAX)
        p = as_pointer(addr)
        if p is not None and p < 0:
            raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", f"{fn}: addr must be a device pointer (int) or None.")
        tensor.storage.addr = p
        if executor is None:
            raise fail(S.ACLNN_ERR_INNER_NULLPTR, "EZ1011", f"{fn} failed because executor cannot be a NULL pointer.")
        if _pooled(executor, fn, any_kind=True):
            return S.ACLNN_SUCCESS
        ex = _executor_handle(executor, fn)
        if ex.io_slots is not None:
            return _move_slot(ex, side, idx, tensor)
        if ex.addresses is not None and ex.cached_from is not None and sanitizer.enabled():
            _warn_moved_after_cache_hit(ex, tensor, p)
        return S.ACLNN_SUCCESS

    setter.__name__ = setter.__qualname__ = fn  # c_api traces and reports the call by this name
    setter.__doc__ = _tensor_addr_setter.__doc__
    return c_api(S.ACLNN_ERR_INNER)(setter)


def _move_slot(ex: aclOpExecutor, side: str | None, index: int, tensor: aclTensor) -> int:
    """NnopbaseSetInputTensorAddr / NnopbaseSetOutputTensorAddr: the slot ``index`` of its side
    (out of range: 161002, EZ1012; an absent optional tensor's slot: 161002, EZ1009) takes the
    address of the tensor's first element (GetData())."""
    assert ex.io_slots is not None
    op_type, inputs, outputs = ex.io_slots
    if side is None:  # NnopbaseIsInput: inputs first, then the outputs
        side, index = ("input", index) if index < len(inputs) else ("output", index - len(inputs))
    slots = inputs if side == "input" else outputs
    if index >= len(slots):
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1012",
            f"Value {index} for parameter index is out of range, it should be smaller than {len(slots)}.",
        )
    held = slots[index]
    if held is None:
        api_name = "aclSetInputTensorAddr" if side == "input" else "aclSetOutputTensorAddr"
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1009",
            f"Failed to execute operator {op_type}_0. Reason: The {index}th {side} in operator "
            f"{op_type} is a null pointer. The address cannot be updated through the "
            f"aclSetTensorAddr/{api_name} API.",
        )
    assert ex.addresses is not None
    if id(held.storage) in ex.addresses:  # not an input the AutoContiguous copy reads
        data = tensor.data_address()
        shift = (held.offset * dtypes.element_bits(held.dtype)) // 8
        ex.addresses[id(held.storage)] = None if data is None else data - shift
    return S.ACLNN_SUCCESS


aclSetTensorAddr = _tensor_addr_setter("aclSetTensorAddr", None)
aclSetInputTensorAddr = _tensor_addr_setter("aclSetInputTensorAddr", "input")
aclSetOutputTensorAddr = _tensor_addr_setter("aclSetOutputTensorAddr", "output")


def _warn_moved_after_cache_hit(ex: aclOpExecutor, tensor: aclTensor, addr: int | None) -> None:
    """An op-cache wrapper copied its tensors' addresses at phase 1: a later move is ignored."""
    assert ex.addresses is not None and ex.cached_from is not None
    template_storages = {name: t.storage for name, t in ex.cached_from.user_tensors.items()}
    for name, t in ex.user_tensors.items():
        st = template_storages.get(name)
        if t is tensor and st is not None and ex.addresses.get(id(st)) != addr:
            kept = ex.addresses.get(id(st))
            sanitizer.finding(
                "memcheck",
                f"aclSetTensorAddr: the executor is an op-cache hit of {ex.api}, which copied its tensors' "
                f"addresses at phase 1; {name} stays at 0x{kept or 0:x} for its kernels, not "
                f"0x{addr or 0:x}. Set addresses before phase 1, or turn the cache off (DISABLE_L2_CACHE=1)",
                S.ACLNN_ERR_PARAM_INVALID,
            )
            return


def _picture(ex: aclOpExecutor, engine: str) -> tuple[str, str]:
    """An executor's picture for the call trace's ACLNN_PY_TRACE_GRAPHS (DOT, SVG)."""
    from . import picture  # loaded when a picture is drawn, not by every program

    return picture.to_dot(ex), picture.to_svg(ex, engine)


_trace.PICTURE = _picture  # the trace cannot import the executor (it sits below it): hand it over
