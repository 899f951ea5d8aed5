"""nnopbase: the generated two-phase wrapper of an *individual* (AscendC) operator.

The aclnn functions of individual operators are generated from the operator's definition
(``OpDef``: inputs, outputs, attributes, and per SoC the dtype/format columns it supports) and
call nnopbase. The hand-written op_api of an API such as aclnnScaledMaskedSoftmaxBackward does
its own checks and then calls the generated ``aclnnInner<OpType>`` pair, which is this module:

Phase 1 (:func:`get_workspace_size`), in the generated order:

1. every required input and output is non-null (``Check <name> != nullptr failed``);
2. the operator is registered for the current SoC (else 161001 with EZ1009);
3. the executor out-pointer is non-null; from here ``*executor`` holds the executor, even if a
   later step fails;
4. the args cache is asked first, and with a null ``workspaceSize`` it answers *success*
   (a CANN defect: ``NnopbaseMatchArgs`` returns a bool, and 161001 converts to true);
5. AutoContiguous: each non-contiguous input gets a copy (aclnnContiguous's graph);
6. every required tensor's (dtype, format) must match one column of the SoC's definition,
   after NCHW/NHWC/NCL/NCDHW/DHWCN are relabelled ND (161002, or 561003 when only an optional
   input does not match);
7. tiling: the kernel's workspace (none when every output is empty);
8. ``*workspaceSize`` = tiling workspace + the copies (which sit at the end of the workspace).

Phase 2 (:func:`run_with_workspace`): the workspace must hold the copies (EZ1010 naming
``workspaceSize``), the copies run at its end, then ``NnopbaseRunWithWorkspace`` checks the
executor, the workspace pointer and the remaining size against the tiling workspace (EZ1010
naming ``workspaceLen``) and launches the kernel.

Messages name the generated parameters (a single output is always ``out``) and the operator as
``<OpType>_0`` (nnopbase's log name for an API without an L2 sequence number).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import attrs

from .. import _errmsg, dtypes
from .. import soc as _soc
from .._capi import fail
from .._ref import store
from .._status import aclnnStatus
from ..executor.api import _check_builder, _check_workspace_memory, _launch, _runnable, _workspace_args
from ..executor.executor import aclOpExecutor
from ..l0.contiguous import contiguous as l0_contiguous
from ..runtime import sanitizer
from ..tensor import aclTensor

S = aclnnStatus

# FormatsLikeND: nnopbase saves these formats as ND before matching the definition.
FORMAT_DHWCN = 31
FORMATS_LIKE_ND = frozenset({0, 1, 30, 47, FORMAT_DHWCN})  # NCHW, NHWC, NCDHW, NCL, DHWCN


@attrs.frozen
class Param:
    """One input or output of the definition, by its generated name."""

    name: str
    optional: bool = False
    auto_contiguous: bool = True

    @property
    def label(self) -> str:
        """The name nnopbase prints: the generator appends ``Optional`` to an optional input's
        name (``op_aclnn_generator.cpp``), as in the generated prototype."""
        return f"{self.name}Optional" if self.optional else self.name


@attrs.frozen
class OpDef:
    """The facts of an individual operator's definition that its generated wrapper uses.

    ``support`` maps nnopbase's SoC name (``ascend910b`` ...) to the definition's columns: one
    tuple of dtypes per column, inputs then outputs, every format ND."""

    op_type: str
    inputs: tuple[Param, ...]
    outputs: tuple[Param, ...]
    support: Mapping[str, tuple[tuple[int, ...], ...]]

    @property
    def log_name(self) -> str:
        return f"{self.op_type}_0"

    @property
    def auto_contiguous(self) -> bool:
        return any(p.auto_contiguous for p in self.inputs)


def soc_key() -> str:
    """nnopbase's name of the current SoC: the SoC version, lower-cased (``ascend910b``)."""
    return _soc.current().family.lower()


def _report(code: int, text: str) -> None:
    _errmsg.report_code(code, text)


def _execution_error(opdef: OpDef, reason: str) -> None:
    _errmsg.report("EZ1009", f"Failed to execute operator {opdef.log_name}. Reason: {reason}.")


def _check_not_null(opdef: OpDef, inputs: Sequence[aclTensor | None], outputs: Sequence[aclTensor | None]) -> bool:
    for p, t in (*zip(opdef.inputs, inputs), *zip(opdef.outputs, outputs)):
        if t is None and not p.optional:
            _report(S.ACLNN_ERR_PARAM_NULLPTR, f"Check {p.label} != nullptr failed")
            return False
    return True


def _registered(opdef: OpDef) -> bool:
    """``NnopbaseExecutorSetRegInfo``: an operator package holds the op for this SoC."""
    soc = soc_key()
    if soc in opdef.support:
        return True
    op = opdef.op_type
    _execution_error(
        opdef,
        f"1.SoC version {soc} verification failed. This SoC is not configured through the AddConfig API of the "
        f"OpDef class. 2.The binary_info_config.json file to which the {op} operator belongs fails to be loaded "
        "because the file is damaged or does not exist or the user does not have sufficient permissions. "
        f"3.The operator package to which the {op} operator belongs is not installed",
    )
    _report(S.ACLNN_ERR_PARAM_NULLPTR, "Check nnopExecutor != nullptr failed")
    return False


def is_contiguous(t: aclTensor) -> bool:
    """nnopbase's contiguity test: 0 or 1 element, or row-major strides ignoring size-1 dims."""
    if t.numel() in (0, 1):
        return True
    expect = 1
    for d, s in zip(reversed(t.view_shape), reversed(t.strides)):
        if d == 1:
            continue
        if s != expect:
            return False
        expect *= d
    return True


def _saved_format(t: aclTensor) -> int:
    return dtypes.FORMAT_ND if t.storage_format in FORMATS_LIKE_ND else t.storage_format


def _describe(params: Sequence[Param], tensors: Sequence[aclTensor | None]) -> str:
    parts = []
    for p, t in zip(params, tensors):
        if t is None:
            parts.append(f"{p.label}(NULL, NULL)")
        else:
            parts.append(f"{p.label}({dtypes.dt_name(t.dtype)}, {dtypes.format_name(_saved_format(t))})")
    return ", ".join(parts)


_CHAIN = (
    "Check NnopbaseExecutorTilingAndUpdateBinInfo(executor) failed",
    "Check NnopbaseExecutorMatchCache(executor) failed",
    "Check NnopbaseRunForWorkspace(*executor, workspaceSize) failed",
)


def _match_definition(opdef: OpDef, inputs: Sequence[aclTensor | None], outputs: Sequence[aclTensor | None]) -> int:
    """``CheckSocVersionAndParam(kCheckRequiredIo)``: with no kernel binary for the arguments,
    say whether the required tensors fit a column (then the binary is missing: 561003) or not."""
    params = (*opdef.inputs, *opdef.outputs)
    tensors = (*inputs, *outputs)
    columns = opdef.support[soc_key()]

    def fits(column: tuple[int, ...], required_only: bool) -> bool:
        for p, t, dt in zip(params, tensors, column):
            if t is None or (required_only and p.optional):
                continue
            if t.dtype != dt or _saved_format(t) != dtypes.FORMAT_ND:
                return False
        return True

    if any(fits(c, False) for c in columns):
        return S.ACLNN_SUCCESS
    if any(fits(c, True) for c in columns):
        _execution_error(
            opdef,
            f"Cannot find kernel file for operator {opdef.op_type}. The corresponding simplifiedKey in "
            "binary_info_config.json file is missing, please reinstall operator package",
        )
        code = S.ACLNN_ERR_INNER_FIND_KERNEL_ERROR
    else:
        _execution_error(
            opdef,
            "The dtype or format of the actual input or output parameter of the operator is inconsistent with that "
            "defined in the operator prototype OpDef, details of parameter are "
            f"{_describe(opdef.inputs, inputs)}, {_describe(opdef.outputs, outputs)}",
        )
        _report(S.ACLNN_ERR_PARAM_INVALID, "Supported dtype and format list is:")
        n_in = len(opdef.inputs)
        for i, column in enumerate(columns):
            ins = "".join(f"{p.label}({dtypes.dt_name(dt)}, ND), " for p, dt in zip(opdef.inputs, column[:n_in]))
            outs = ", ".join(f"{p.label}({dtypes.dt_name(dt)}, ND)" for p, dt in zip(opdef.outputs, column[n_in:]))
            _report(S.ACLNN_ERR_PARAM_INVALID, f"SupportInfo[{i}]: {ins}{outs}")
        code = S.ACLNN_ERR_PARAM_INVALID
    for text in _CHAIN:
        _report(code, text)
    return code


# build(executor, contiguous inputs, outputs) adds the kernel launch(es); their tail scratch
# sizes are the tiling workspace.
Build = Callable[[aclOpExecutor, list[aclTensor | None], list[aclTensor]], None]


def get_workspace_size(
    api: str,
    opdef: OpDef,
    inputs: Sequence[aclTensor | None],
    outputs: Sequence[aclTensor | None],
    workspaceSize: object,
    executor: object,
    build: Build,
    arg_names: Sequence[str],
) -> int:
    """The generated ``aclnnInner<OpType>GetWorkspaceSize``; ``arg_names`` are the public API's
    names of ``inputs + outputs`` (for the executor's printout and the sanitizer)."""
    if not _check_not_null(opdef, inputs, outputs):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not _registered(opdef):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if executor is None:
        _report(S.ACLNN_ERR_PARAM_NULLPTR, "Check executor != nullptr failed")
        return S.ACLNN_ERR_PARAM_NULLPTR
    ex = aclOpExecutor(api, kind="individual")
    ex.state = "failed"  # until phase 1 completes; *executor is written before the later checks
    store(executor, ex)
    if workspaceSize is None:
        _report(S.ACLNN_ERR_PARAM_NULLPTR, "Assert ((workspaceLen) != nullptr) failed")
        ex.state = "no-args"
        sanitizer.finding(
            "undefined",
            f"{api}GetWorkspaceSize: workspaceSize is nullptr; nnopbase returns ACLNN_SUCCESS anyway (its args "
            "cache check turns the null-pointer error into 'found'), with an executor whose arguments were "
            "never set up",
            S.ACLNN_ERR_PARAM_NULLPTR,
        )
        return S.ACLNN_SUCCESS
    ex.bind_arguments(**{n: t for n, t in zip(arg_names, (*inputs, *outputs))})

    contiguous: list[aclTensor | None] = []
    for p, t in zip(opdef.inputs, inputs):
        if t is not None and p.auto_contiguous and not is_contiguous(t):
            c = l0_contiguous(t, ex)
            if c is None:
                _report(
                    S.ACLNN_ERR_INNER_NULLPTR,
                    "Check aclnnContiguousGetWorkspaceSize(inUnContTensors, &inContWorkspaceSize, &aclInExecutor) "
                    "failed",
                )
                return S.ACLNN_ERR_INNER_NULLPTR
            for ln in ex.launches:
                ln.pre = True
            t = c
        contiguous.append(t)

    ret = _match_definition(opdef, inputs, outputs)
    if ret != S.ACLNN_SUCCESS:
        return ret
    real_outputs = [t for t in outputs if t is not None]
    if not all(t.is_empty() for t in real_outputs):  # NnopbaseSkipKernelLaunch
        for name, t in zip(arg_names[len(inputs) :], outputs):
            if t is not None and not is_contiguous(t):
                sanitizer.finding(
                    "undefined",
                    f"{api}: {name} is not contiguous; nnopbase neither detects nor copies non-contiguous outputs, "
                    f"so the kernel writes its dense result at {name}'s address, ignoring its strides",
                    S.ACLNN_ERR_PARAM_INVALID,
                )
        build(ex, contiguous, real_outputs)
    _hold_addresses(ex, opdef.op_type, inputs, contiguous, outputs)
    store(workspaceSize, ex.finish())
    return S.ACLNN_SUCCESS


def _hold_addresses(
    ex: aclOpExecutor,
    op_type: str,
    inputs: Sequence[aclTensor | None],
    contiguous: Sequence[aclTensor | None],
    outputs: Sequence[aclTensor | None],
) -> None:
    """The executor copies each kernel argument's address now (``rt2Tensor...SetAddr(in_tensor->
    GetData())``): a later aclSetRawTensorAddr does not move the kernel, aclSet*TensorAddr moves
    the slot it names. An input copied by AutoContiguous is read by the copy, whose executor
    follows the tensor (the kernel reads the workspace copy)."""
    held: dict[int, int | None] = {}
    for t, c in (*zip(inputs, contiguous), *((o, o) for o in outputs)):
        if t is not None and c is t and id(t.storage) not in held:
            held[id(t.storage)] = t.storage.addr
    ex.addresses = held
    ex.io_slots = (op_type, list(inputs), list(outputs))


def dense_view(t: aclTensor) -> aclTensor:
    """What a kernel of an individual op writes: ``t``'s elements, densely, from its address."""
    if t.strides == dtypes.contiguous_strides(t.view_shape):
        return t
    view = aclTensor(t.view_shape, t.dtype, None, t.offset, t.view_format, t.storage_shape, t.storage)
    view.storage_format, view.origin_format = t.storage_format, t.origin_format
    return view


_RUN = "Check NnopbaseRunWithWorkspace(executor, stream, workspace, workspaceSize) failed"


def run_with_workspace(
    api: str, opdef: OpDef, workspace: object, workspaceSize: object, executor: object, stream: object
) -> int:
    """The generated ``aclnnInner<OpType>``: the AutoContiguous copies, then
    ``NnopbaseRunWithWorkspace``."""
    ws, size = _workspace_args(workspace, workspaceSize)
    contiguous = executor.contiguous_size if isinstance(executor, aclOpExecutor) else 0
    if executor is None and opdef.auto_contiguous:
        _report(S.ACLNN_ERR_PARAM_NULLPTR, "Assert ((executor) != nullptr) failed")  # NnopbaseGetUnContExecutor
    if size < contiguous:
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID, "EZ1010",
            f"Value {size} for parameter workspaceSize is invalid. Reason: The passed workspace size {size} does not "
            f"meet the minimum workspace size {contiguous} actually required by the AutoContiguous API.",
        )  # fmt: skip
    remaining = size - contiguous
    if executor is None:
        _errmsg.report(
            "EZ1011", "Calling the second-phase API of aclnn failed because executor cannot be a NULL pointer."
        )
        _report(S.ACLNN_ERR_PARAM_NULLPTR, _RUN)
        return S.ACLNN_ERR_PARAM_NULLPTR
    ex = _runnable(executor, api)
    pre = [ln for ln in ex.launches if ln.pre]
    if pre:  # aclnnContiguous runs on the workspace's tail before the checks below
        ret = _launch(ex, api, ws, stream, size, pre, last=False)
        if ret != S.ACLNN_SUCCESS:
            return ret
    if remaining > 0 and ws is None:
        _errmsg.report(
            "EZ1011", "Calling the second-phase API of aclnn failed because workspace cannot be a NULL pointer."
        )
        _report(S.ACLNN_ERR_PARAM_NULLPTR, _RUN)
        return S.ACLNN_ERR_PARAM_NULLPTR
    _check_builder(ex, api)
    tiling = ex.workspace_size - contiguous
    if remaining < tiling:
        _errmsg.report(
            "EZ1010",
            f"Value {remaining} for parameter workspaceLen is invalid. Reason: The passed workspace size {remaining} "
            f"does not meet the minimum workspace size {tiling} actually required by the operator.",
        )
        _report(S.ACLNN_ERR_PARAM_INVALID, _RUN)
        return S.ACLNN_ERR_PARAM_INVALID
    _check_workspace_memory(ex, api, ws, size)
    return _launch(ex, api, ws, stream, size, [ln for ln in ex.launches if not ln.pre])
