"""Inspection of a model runtime instance (``acl_rt.h``): its id and name, its streams and their
tasks, a task's type, place and parameters, disabling a task, and the debug printouts.

The engine is model_ri.py; the shared checks are _model_ri_checks.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .._capi import ApiError, describe
from .._ref import store
from . import model_ri as M
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    bad_object,
    emu,
    fb_invalid,
    int_arg,
    is_null_handle,
    out_arg,
    rt_api,
    rt_value,
    stream_handle,
)
from ._model_ri_checks import captured, model_arg, own_model, require_acl_graph, rt_null

# ---------------------------------------------------------------------------------------------
# inspection
# ---------------------------------------------------------------------------------------------


@rt_api
def aclmdlRIGetId(modelRI: object, modelRIId: object) -> int:
    """The model's number."""
    api = "aclmdlRIGetId"
    mdl = model_arg(modelRI, api, "rtModelGetId")
    if modelRIId is None:
        raise ApiError(PARAM, acl_null(api, "modelRIId"))
    store(out_arg(modelRIId, api, "modelRIId"), mdl.ident)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRISetName(modelRI: object, name: object) -> int:
    """Name the model (DebugPrint shows it)."""
    api = "aclmdlRISetName"
    mdl = model_arg(modelRI, api, "rtsModelSetName")
    if name is None:
        raise ApiError(PARAM, acl_null(api, "name"))
    if not isinstance(name, str):
        raise ApiError(PARAM, emu(f"{api}: name must be a str, got {describe(name)}."))
    own_model(mdl, "Setting the name of a model running instance", "rtsModelSetName")  # ApiImpl::ModelNameSet
    mdl.name = name
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIGetName(modelRI: object, maxLen: int, name: object) -> int:
    """The model's name, at most ``maxLen`` - 1 characters and the NUL."""
    api, rt_fn = "aclmdlRIGetName", "rtsModelGetName"
    mdl = model_arg(modelRI, api, rt_fn)
    if name is None:
        raise ApiError(PARAM, acl_null(api, "name"))
    n = int_arg(maxLen, "maxLen", 0, 2**32 - 1)
    if n != 0:  # (0 is the decorator's refusal) ApiImpl::ModelGetName
        own_model(mdl, "Obtaining the name of a model running instance", rt_fn)
    if n == 0 or len(mdl.name.encode()) + 1 > n:
        raise ApiError(
            RT_PARAM,
            rt_value("Obtaining the model name", n, "maxLen", f"greater than or equal to {len(mdl.name.encode()) + 1}"),
            fb_invalid(rt_fn),
        )
    store(out_arg(name, api, "name", numeric=False), mdl.name)
    return E.ACL_SUCCESS


def _fill(array: object, items: Sequence[Any], count: object, api: str, what: str) -> int:
    """aclmdlRIGetStreams / GetTasksByStream: ``*count`` in is the array's size (a None array:
    only the number is asked); out, the number of items."""
    if count is None:
        raise rt_null(api, f"num{what}", api)
    out = out_arg(count, api, f"num{what}")
    cap = int(getattr(out, "value", 0) or 0)
    if array is not None:
        if not isinstance(array, list):
            raise ApiError(PARAM, emu(f"{api}: {what.lower()} must be a list, got {describe(array)}."))
        if cap < len(items):
            raise ApiError(
                E.ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                emu(f"{api}: the array holds {cap} entries; the model has {len(items)} {what.lower()}."),
            )
        array[: len(items)] = list(items)
    store(out, len(items))
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIGetStreams(modelRI: object, streams: object, numStreams: object) -> int:
    """The model's streams (a capture's model streams, or the streams bound to a built model)."""
    mdl = model_arg(modelRI, "Obtaining the streams of a model", "rtModelGetStreams", acl_check=False)
    if numStreams is not None:  # ApiImpl::ModelGetStreams
        own_model(mdl, "Obtaining the stream associated with a model running instance", "rtModelGetStreams")
    return _fill(streams, mdl.streams, numStreams, "aclmdlRIGetStreams", "Streams")


@rt_api
def aclmdlRIGetTasksByStream(stream: object, tasks: object, numTasks: object) -> int:
    """The tasks recorded on a model stream, in order."""
    api, rt_fn = "aclmdlRIGetTasksByStream", "rtStreamGetTasks"
    if is_null_handle(stream):
        raise rt_null("Obtaining the tasks of a stream", "stm", rt_fn)
    st = stream_handle(stream, rt_fn)
    assert st is not None
    mdl = M.model_stream(st)
    if mdl is None:
        raise ApiError(RT_PARAM, emu(f"{api}: {st!r} is not a model stream (aclmdlRIGetStreams lists them)."))
    return _fill(tasks, mdl.tasks_of(st), numTasks, api, "Tasks")


def _task(task: object, rt_fn: str) -> M.ModelTask:
    if is_null_handle(task):
        raise rt_null("Obtaining the task information", "task", rt_fn)
    if not isinstance(task, M.ModelTask) or task.model.destroyed:
        raise bad_object("task", rt_fn)
    return task


@rt_api
def aclmdlRITaskGetType(task: object, type: object) -> int:
    """The task's aclmdlRITaskType."""
    t = _task(task, "rtTaskGetType")
    if type is None:
        raise rt_null("Obtaining the task type", "type", "rtTaskGetType")
    store(out_arg(type, "aclmdlRITaskGetType", "type"), t.type)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskGetSeqId(task: object, id: object) -> int:
    """The task's place on its model stream (from 0)."""
    t = _task(task, "rtTaskGetSeqId")
    if id is None:
        raise rt_null("Obtaining the task sequence ID", "id", "rtTaskGetSeqId")
    store(out_arg(id, "aclmdlRITaskGetSeqId", "id"), t.seq)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskDisable(task: object) -> int:
    """Skip the task in later executions (aclmdlRIUpdate commits it on CANN)."""
    t = _task(task, "rtModelTaskDisable")
    if t.model.state == "capturing":
        raise captured(t.stream, "Disabling a model task", "rtModelTaskDisable")
    t.disabled = True
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskGetParams(task: object, params: object) -> int:
    """The task's parameters: a dict with ``type`` and, for the event and value tasks, the
    event or address it uses (the kernel parameters of an aclnn task are the executor's and
    not exposed)."""
    t = _task(task, "rtModelTaskGetParams")
    if params is None:
        raise rt_null("Obtaining the task parameters", "params", "rtModelTaskGetParams")
    info: dict[str, Any] = {"type": t.type, "name": t.label, "seqId": t.seq}
    if t.event is not None:
        info["event"] = t.event
    store(out_arg(params, "aclmdlRITaskGetParams", "params", numeric=False), info)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRITaskSetParams(task: object, params: object) -> int:
    """Changing a recorded task's parameters: the emulator records a task as its body, not its
    parameters, so the call is refused (207000); a task group update
    (aclmdlRICaptureTaskUpdateBegin/End) replaces a kernel instead."""
    _task(task, "rtModelTaskSetParams")
    if params is None:
        raise rt_null("Setting the task parameters", "params", "rtModelTaskSetParams")
    raise ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        emu(
            "aclmdlRITaskSetParams: the emulator keeps a captured task as the work it does, not as kernel "
            "parameters that could be changed; capture the new work in a task group update "
            "(aclmdlRICaptureTaskUpdateBegin/End) instead."
        ),
    )


@rt_api
def aclmdlRIKernelTaskGetAttribute(task: object, attrId: int, attrValue: object) -> int:
    """A kernel task's launch attribute: an aclnn kernel is launched by the executor, not by
    aclrtLaunchKernelWithConfig, so it has no launch attributes to read (207000)."""
    t = _task(task, "rtModelKernelTaskGetAttribute")
    int_arg(attrId, "attrId", -(2**31), 2**31 - 1)
    if attrValue is None:
        raise rt_null("Obtaining the kernel task attribute", "attrValue", "rtModelKernelTaskGetAttribute")
    if t.type != M.TASK_KERNEL:
        raise ApiError(RT_PARAM, emu(f"aclmdlRIKernelTaskGetAttribute: {t!r} is not a kernel task."))
    raise ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        emu(
            "aclmdlRIKernelTaskGetAttribute: the kernels of aclnn operators are launched by their executor, "
            "without aclrtLaunchKernelWithConfig attributes."
        ),
    )


@rt_api
def aclmdlRIDebugPrint(modelRI: object) -> int:
    """Print the model's streams and tasks (CANN logs them; the emulator prints to stdout)."""
    if is_null_handle(modelRI):
        raise ApiError(PARAM, acl_null("aclmdlRIDebugPrint", "modelRI"))
    require_acl_graph()
    mdl = model_arg(modelRI, "aclmdlRIDebugPrint", "rtModelDebugDotPrint")
    print("\n".join(M.describe(mdl)), flush=True)
    return E.ACL_SUCCESS


@rt_api
def aclmdlRIDebugJsonPrint(modelRI: object, path: object, flags: int) -> int:
    """Write the model's streams and tasks as JSON to ``path``."""
    api = "aclmdlRIDebugJsonPrint"
    if is_null_handle(modelRI):
        raise ApiError(PARAM, acl_null(api, "modelRI"))
    require_acl_graph()
    mdl = model_arg(modelRI, api, "rtModelDebugJsonPrint")
    if path is None:
        raise ApiError(PARAM, acl_null(api, "path"))
    int_arg(flags, "flags", 0, 2**32 - 1)
    if not isinstance(path, str):
        raise ApiError(PARAM, emu(f"{api}: path must be a str, got {describe(path)}."))
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(M.as_json(mdl), fh, indent=2)
    except OSError as e:
        raise ApiError(E.ACL_ERROR_RT_PARAM_INVALID, emu(f"{api}: cannot write {path}: {e.strerror}.")) from None
    return E.ACL_SUCCESS


__all__ = [
    "aclmdlRIDebugJsonPrint",
    "aclmdlRIDebugPrint",
    "aclmdlRIGetId",
    "aclmdlRIGetName",
    "aclmdlRIGetStreams",
    "aclmdlRIGetTasksByStream",
    "aclmdlRIKernelTaskGetAttribute",
    "aclmdlRISetName",
    "aclmdlRITaskDisable",
    "aclmdlRITaskGetParams",
    "aclmdlRITaskGetSeqId",
    "aclmdlRITaskGetType",
    "aclmdlRITaskSetParams",
]
