"""What every L2 (op_api) function shares: its C-style surface, ``L2_DFX_PHASE_1`` and phase 2.

* :func:`phase1` decorates an ``aclnnXxxGetWorkspaceSize``: it converts each argument as C would
  (by the prototype in :mod:`.registry`: ``int64_t``, ``float``, ``double``, ``bool``,
  ``aclDataType``), refuses Python objects that no C caller could pass, turns any failure into a
  status code, and clears the thread's log context when the call returns (opbase's DFX guard);
* :func:`l2_dfx_phase1` is ``L2_DFX_PHASE_1`` + ``CREATE_EXECUTOR``: the null out-pointer check,
  the sequence number, the op-cache short-cut, the executor;
* :func:`phase2` makes ``aclnnXxx(workspace, workspaceSize, executor, stream)`` for a composite op.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from .._capi import INT64_MAX, INT64_MIN, UINT64_MAX, as_bool, as_float, as_float32, as_int, c_api, fail
from .._ref import Ref
from .._status import aclnnStatus
from ..executor import checks
from ..executor.api import cache_hit_args, check_out_params, common_op_executor_run
from ..executor.executor import aclOpExecutor
from ..tensor import aclIntArray, aclScalar, aclTensor, aclTensorList
from .registry import BY_NAME, Param

S = aclnnStatus
F = TypeVar("F", bound=Callable[..., Any])

_HANDLE_TYPES: dict[str, type] = {
    "tensor": aclTensor,
    "scalar": aclScalar,
    "int_array": aclIntArray,
    "tensor_list": aclTensorList,
}


def _convert(api: str, p: Param, value: object) -> object:
    kind = p.kind
    cls = _HANDLE_TYPES.get(kind)
    if cls is not None:
        if value is None:
            return None
        if not isinstance(value, cls):
            raise fail(
                S.ACLNN_ERR_PARAM_INVALID, "EZ1001",
                f"{api}: argument {p.name} must be an {cls.__name__}, got {type(value).__name__}.",
            )  # fmt: skip
        if not value.alive:  # type: ignore[attr-defined]
            site = f" (created at {value.site})" if isinstance(value, aclTensor) else ""
            raise fail(
                S.ACLNN_ERR_PARAM_INVALID, "EZ1001",
                f"{api}: argument {p.name} is an {cls.__name__} destroyed by aclDestroy{cls.__name__[3:]}"
                f"{site}; use after free.",
            )  # fmt: skip
        return value
    code = S.ACLNN_ERR_PARAM_INVALID
    if kind == "int":
        lo, hi = (0, UINT64_MAX) if p.ctype == "uint64_t" else (INT64_MIN, INT64_MAX)
        return as_int(value, p.name, code, lo, hi, eid="EZ1001")
    if kind == "dtype":
        return as_int(value, p.name, code, -(2**31), 2**31 - 1, eid="EZ1001")
    if kind == "float":
        return as_float32(value, p.name, code)
    if kind == "double":
        return as_float(value, p.name, code)
    if kind == "bool":
        return as_bool(value, p.name, code)
    raise AssertionError(f"{api}: no conversion for {p.ctype}")


def phase1(api: str) -> Callable[[F], F]:
    """Decorate ``<api>GetWorkspaceSize(*params, workspaceSize, executor)``."""
    params = BY_NAME[api].params

    def deco(fn: F) -> F:
        # One generated function with the C parameter list: a call with the wrong number of
        # arguments fails while binding, as a Python error (in C it would not compile). It
        # converts each argument in order as _convert does; a live handle of exactly its class
        # (every call of a correct program) is taken as it is without the call, since _convert
        # would return it unchanged.
        names = [p.name for p in params]
        namespace: dict[str, Any] = {
            "_api": api, "_fn": fn, "_convert": _convert, "_check_out_params": check_out_params,
            "_Ref": Ref, "_LOG": checks.LOG,
        }  # fmt: skip
        lines = [f"def {fn.__name__}({', '.join([*names, 'workspaceSize', 'executor'])}):"]
        for i, p in enumerate(params):
            namespace[f"_p{i}"] = p
            cls = _HANDLE_TYPES.get(p.kind)
            if cls is not None:
                namespace[f"_c{i}"] = cls
                lines.append(
                    f"    if {p.name} is not None and (type({p.name}) is not _c{i} or not {p.name}.alive):\n"
                    f"        {p.name} = _convert(_api, _p{i}, {p.name})"
                )
            else:
                # a value _convert would return as it is: an int in range, a float for double,
                # a bool (a C float is rounded to float32 every time)
                fast = {
                    "int": f"type({p.name}) is int and {'0' if p.ctype == 'uint64_t' else INT64_MIN} <= {p.name} <= "
                    f"{UINT64_MAX if p.ctype == 'uint64_t' else INT64_MAX}",
                    "dtype": f"type({p.name}) is int and {-(2**31)} <= {p.name} <= {2**31 - 1}",
                    "double": f"type({p.name}) is float",
                    "bool": f"type({p.name}) is bool",
                }.get(p.kind)
                call = f"{p.name} = _convert(_api, _p{i}, {p.name})"
                lines.append(f"    if not ({fast}):\n        {call}" if fast else f"    {call}")
        lines.append(
            "    if type(workspaceSize) is not _Ref or type(executor) is not _Ref:\n"
            "        _check_out_params(workspaceSize, executor)\n"
            "    try:\n"
            f"        return _fn({', '.join([*names, 'workspaceSize', 'executor'])})\n"
            "    finally:\n"
            "        _LOG.api, _LOG.seq, _LOG.l0 = None, 0, None  # the DFX guard"
        )
        exec(
            compile("\n".join(lines) + "\n", __file__, "exec"), namespace
        )  # this file's name: call sites skip the frame
        wrapper = functools.update_wrapper(namespace[fn.__name__], fn)
        return c_api(S.ACLNN_ERR_INNER)(wrapper)  # type: ignore[return-value]

    return deco


def phase2(api: str, *builders: str) -> Callable[[int | None, int, Any, Any], int]:
    """``aclnnXxx(workspace, workspaceSize, executor, stream)`` of a composite op; ``builders``
    are the APIs whose phase 1 makes its executors when that is not ``api`` (in-place twins)."""

    def run(workspace: int | None, workspaceSize: int, executor: Any, stream: Any) -> int:
        return common_op_executor_run(api, workspace, workspaceSize, executor, stream, builders)

    run.__name__ = run.__qualname__ = api
    run.__doc__ = f"Phase 2 of {api}: launch the executor's kernels on the stream (asynchronous)."
    return c_api(S.ACLNN_ERR_INNER)(run)


def l2_dfx_phase1(api: str, workspaceSize: object, executor: object, /, **dfx: Any) -> aclOpExecutor | None:
    """``L2_DFX_PHASE_1(api, DFX_IN(...), DFX_OUT(...))`` then ``CREATE_EXECUTOR()``.

    Returns the new executor, or None after an op-cache hit (the out-parameters are filled:
    return ACLNN_SUCCESS). Null out-pointers raise 161001 (``executor or workspaceSize is
    nullptr``) before the sequence number is taken."""
    if workspaceSize is None or executor is None:  # CheckPhase1Params
        raise fail(S.ACLNN_ERR_PARAM_NULLPTR, "EZ1001", "executor or workspaceSize is nullptr")
    seq = checks.next_l2_sequence()
    checks.LOG.api, checks.LOG.seq = api, seq
    if cache_hit_args(api, workspaceSize, executor, dfx):
        return None
    return aclOpExecutor(api, seq=seq)
