"""``l0op::Contiguous`` and ``l0op::ViewCopy`` — ops-math ``conversion/contiguous``.

Contiguous returns its input (or a free view) when the data is already row-major, else launches
the copy kernels CANN chooses (Slice or StridedSlice, Transpose, BroadcastTo; or AsStrided: the
analysis is :mod:`.contiguous_plan`); ViewCopy puts a result into the user's output (re-pointing
it when it was computed in the output's place, else TensorMove / MemcpyD2D / Transpose /
ViewCopy).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .. import _errmsg, dtypes
from .. import soc as _soc
from ..executor.executor import Step, aclOpExecutor
from ..tensor import aclTensor
from .contiguous_plan import Plan, can_optimize_contiguous, can_optimize_view


def _copy(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
    """Data movement kernels: out = in, element by element through the views."""
    outs[0][...] = ins[0]
    return "numpy"


def is_contiguous(t: aclTensor) -> bool:
    """``op::IsContiguous``: private storage format, numel 0 or 1, or row-major strides ignoring
    size-1 dims. The view offset does not matter."""
    if t.strides == dtypes.contiguous_strides(t.view_shape) or dtypes.is_private_format(t.storage_format):
        return True
    n = t.numel()
    if n in (0, 1):
        return True
    expect = 1
    for d, s in zip(reversed(t.view_shape), reversed(t.strides)):
        if d == 1:
            continue
        if s != expect:
            return False
        expect *= d
    return True


def view_fits_storage(t: aclTensor) -> bool:
    """opbase's ``op::Validate`` (Contiguous checks it, and IsReduceNonContiguousSupport): the
    addressed element range lies inside the storage."""
    hi = t.offset + sum(max(0, s * (d - 1)) for d, s in zip(t.view_shape, t.strides)) + 1
    lo = t.offset + sum(min(0, s * (d - 1)) for d, s in zip(t.view_shape, t.strides))
    return hi <= t.storage_numel() and lo >= 0


def contiguous(x: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Contiguous``: x itself (or a free view) if contiguous, else a copy kernel."""
    step = ex.step("Contiguous", [x])
    if is_contiguous(x):
        if x.view_shape == x.storage_shape == x.origin_shape:
            out = x
            step.note = "no kernel: already contiguous"
        else:
            out = aclTensor(x.view_shape, x.dtype, None, x.offset, x.view_format, x.view_shape, x.storage)
            out.storage_format, out.origin_format = x.storage_format, x.origin_format
            step.note = "no kernel: already contiguous (a view with storage shape = view shape)"
        step.outputs = [out]
        return out
    if not view_fits_storage(x):
        _errmsg.report("EZ1001", "ViewShape overlap.")
        _errmsg.report("EZ1001", f"Invalid input tensor: {x!r}")
        return None
    plan = can_optimize_contiguous(x.view_shape, x.strides, x.offset, x.storage_numel())
    out = _as_strided(x, ex, step) if plan is None else _optimize_contiguous(x, plan, ex, step)
    step.outputs = [out]
    return out


def _reshape(t: aclTensor, shape: Sequence[int], offset: int | None = None) -> aclTensor:
    """``UnSafeReshape`` (a row-major view of t's storage; ``offset``: ``SetViewOffset``)."""
    return aclTensor(tuple(shape), t.dtype, None, t.offset if offset is None else offset, t.view_format,
                     t.storage_shape, t.storage)  # fmt: skip


def _optimize_contiguous(x: aclTensor, plan: Plan, ex: aclOpExecutor, step: Step) -> aclTensor:
    """``OptimizeContiguous``: Slice or StridedSlice, then Transpose, then BroadcastTo (a BOOL
    one through INT32), each on the previous result reshaped to its source shape. The last
    kernel writes a block of x's view shape (CANN reshapes its output to it afterwards), so that
    a ViewCopy re-pointing the result re-points what that kernel writes."""
    kernels = [plan.may_slice, plan.may_stridedslice, plan.may_transpose, plan.may_broadcast]
    last = max(i for i, on in enumerate(kernels) if on)

    def result(i: int, shape: list[int], dtype: int, fmt: int = dtypes.FORMAT_ND) -> aclTensor:
        return ex.alloc_tensor(x.view_shape if i == last else shape, dtype, fmt)

    cur = _reshape(x, x.view_shape, plan.view_offset)
    if plan.may_slice:
        src = _reshape(cur, plan.slice_src_shape)
        cur = result(0, plan.slice_dst_shape, x.dtype)
        box = tuple(slice(o, o + n) for o, n in zip(plan.offset, plan.size))
        ex.launch(step, "Slice", [src], [cur], _take(box), offsets=plan.offset, size=plan.size)
    if plan.may_stridedslice:
        src = _reshape(cur, plan.stridedslice_src_shape)
        cur = result(1, plan.stridedslice_dst_shape, x.dtype)
        box = tuple(slice(b, e, k) for b, e, k in zip(plan.begin, plan.end, plan.strides))
        ex.launch(step, "StridedSlice", [src], [cur], _take(box), begin=plan.begin, end=plan.end, strides=plan.strides)
    if plan.may_transpose:
        src = _reshape(cur, plan.transpose_src_shape)
        cur = result(2, plan.transpose_dst_shape, x.dtype, x.storage_format)
        ex.launch(step, "Transpose", [src], [cur], _transpose(plan.perm), perm=plan.perm)
    if plan.may_broadcast:
        src = _reshape(cur, plan.broadcast_src_shape)
        if x.dtype == dtypes.DT_BOOL:  # through INT32: Cast, BroadcastTo, Cast
            wide = ex.alloc_tensor(plan.broadcast_src_shape, dtypes.DT_INT32)
            ex.launch(step, "Cast", [src], [wide], _copy, dst_type=dtypes.dt_name(dtypes.DT_INT32))
            spread = ex.alloc_tensor(plan.shape, dtypes.DT_INT32)
            ex.launch(step, "BroadcastTo", [wide], [spread], _copy, shape=plan.shape)
            cur = result(3, plan.shape, x.dtype)
            ex.launch(step, "Cast", [spread], [cur], _copy, dst_type=dtypes.dt_name(x.dtype))
        else:
            cur = result(3, plan.shape, x.dtype)
            ex.launch(step, "BroadcastTo", [src], [cur], _copy, shape=plan.shape)
    return cur


def _as_strided(x: aclTensor, ex: aclOpExecutor, step: Step) -> aclTensor:
    """``AsStridedToContiguous``: one AsStrided reading x's view."""
    out = ex.alloc_tensor(x.view_shape, x.dtype)
    # the view's offset moves the base; the attribute is 0 (as AsStridedToContiguous passes it)
    ex.launch(step, "AsStrided", [x], [out], _copy, size=list(x.view_shape), stride=list(x.strides), storage_offset=0)
    return out


def _take(box: tuple[slice, ...]) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    def kernel(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        part = ins[0][box]
        outs[0].reshape(part.shape)[...] = part  # the last kernel's output has the view's shape (dense)
        return "numpy"

    return kernel


def _viewcopy_params_ok(x: aclTensor, y: aclTensor) -> bool:
    def bad(text: str) -> bool:
        _errmsg.report("EZ1001", text)
        _errmsg.report("EZ1001", "Params check failed.")
        return False

    if y.from_workspace:
        return bad("Output tensor should not from workspace.")
    if x.dtype != y.dtype:
        return bad(
            f"Input tensor's dtype[{dtypes.dt_name(x.dtype)}] should be same with output's "
            f"dtype[{dtypes.dt_name(y.dtype)}]."
        )
    if x.storage_format != y.storage_format and x.storage_format != dtypes.FORMAT_ND:
        return bad(
            f"Input tensor's format[{dtypes.format_name(x.storage_format)}] should be same with output's "
            f"format[{dtypes.format_name(y.storage_format)}]."
        )
    if x.view_shape != y.view_shape and not (x.numel() == 1 and y.numel() == 1):
        return bad(
            f"Input tensor's shape[{dtypes.shape_str(x.view_shape)}] should be same with output's "
            f"shape[{dtypes.shape_str(y.view_shape)}]."
        )
    return True


def view_copy(x: aclTensor, y: aclTensor, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ViewCopy``: put the result x into the user's output y."""
    step = ex.step("ViewCopy", [x])
    step.outputs = [y]
    if not _viewcopy_params_ok(x, y):
        return None
    if is_contiguous(x) and is_contiguous(y):
        if not x.from_workspace:
            if x.data_address() == y.data_address():
                ex.mark_unrepeatable("ViewCopy found input == output address")
                step.note = "no kernel: input and output are the same memory"
                return y
            ex.launch(step, "TensorMove", [x], [y], _copy)
            return y
        if not _soc.current().no_move_align or y.storage_numel() == y.numel() + y.offset:
            x.storage = y.storage
            x.offset = y.offset
            step.note = "no kernel: the result was computed in place in the output (intermediate re-pointed)"
            return y
        ex.launch(step, "MemcpyD2D", [x], [y], _copy)
        return y
    transpose = None if not is_contiguous(x) else can_optimize_view(y.view_shape, y.strides)
    if transpose is None:
        ex.launch(step, "ViewCopy", [x], [y], _copy)
        return y
    perm, src_shape = transpose
    dst_shape = [src_shape[p] for p in perm]
    # OptimizeView: x reshaped to y's dims without the size-1 ones, transposed into y's memory
    # read as a dense block of the permuted shape (UnSafeReshape of both)
    ex.launch(step, "Transpose", [_reshape(x, src_shape)], [_reshape(y, dst_shape)], _transpose(perm), perm=perm)
    return y


def _transpose(perm: list[int]) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    def kernel(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        moved = np.transpose(ins[0], perm)
        outs[0].reshape(moved.shape)[...] = moved  # ditto: a view of the dense output, no copy
        return "numpy"

    return kernel
