"""``l0op::Contiguous`` and ``l0op::ViewCopy`` — ops-math ``conversion/contiguous``.

Contiguous returns its input (or a free view) when the data is already row-major, else launches
the copy kernel CANN would choose (Transpose, Slice, StridedSlice, BroadcastTo or AsStrided);
ViewCopy puts a result into the user's output (re-pointing it when it was computed in the
output's place, else TensorMove / MemcpyD2D / Transpose / ViewCopy).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _errmsg, dtypes
from .. import soc as _soc
from ..executor.executor import aclOpExecutor
from ..tensor import aclTensor


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


def _dense_permutation(shape: Sequence[int], strides: Sequence[int]) -> list[int] | None:
    """If the view is a permutation of a dense block, the order of dims by decreasing stride."""
    dims = [i for i, d in enumerate(shape) if d != 1]
    order = sorted(dims, key=lambda i: -strides[i])
    expect = 1
    for i in reversed(order):
        if strides[i] != expect:
            return None
        expect *= shape[i]
    return order


def lower_contiguous(t: aclTensor) -> tuple[str, dict[str, Any]]:
    """Which kernel ``l0op::Contiguous`` lowers a non-contiguous view to, with its attributes."""
    shape, strides = t.view_shape, t.strides
    dims = [(d, s) for d, s in zip(shape, strides) if d != 1]
    if any(s < 0 for _, s in dims):
        return "AsStrided", {"size": list(shape), "stride": list(strides), "storage_offset": t.offset}
    if any(s == 0 for _, s in dims):
        src = [(i, d, s) for i, (d, s) in enumerate(zip(shape, strides)) if s != 0 and d != 1]
        expect = 1
        for _, d, s in reversed(src):
            if s != expect:
                return "AsStrided", {"size": list(shape), "stride": list(strides), "storage_offset": t.offset}
            expect *= d
        from_shape = [d if (s != 0 or d == 1) else 1 for d, s in zip(shape, strides)]
        return "BroadcastTo", {"shape": list(shape), "from_shape": from_shape}
    order = _dense_permutation(shape, strides)
    if order is not None:
        full = order + [i for i, d in enumerate(shape) if d == 1]
        return "Transpose", {"perm": [full.index(i) for i in range(len(shape))]}
    if len(t.storage_shape) == len(shape):
        base = dtypes.contiguous_strides(t.storage_shape)
        if all(b and s % b == 0 and s > 0 for s, b in zip(strides, base)):
            begin, rem = [], t.offset
            for b in base:
                begin.append(rem // b if b else 0)
                rem = rem % b if b else rem
            steps = [s // b for s, b in zip(strides, base)]
            if all(k == 1 for k in steps):
                return "Slice", {"offsets": begin, "size": list(shape)}
            end = [bg + d * k for bg, d, k in zip(begin, shape, steps)]  # BuildStridedSliceParams
            return "StridedSlice", {"begin": begin, "end": end, "strides": steps}
    return "AsStrided", {"size": list(shape), "stride": list(strides), "storage_offset": t.offset}


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
    op_type, attrs = lower_contiguous(x)
    out = ex.alloc_tensor(x.view_shape, x.dtype)
    ex.launch(step, op_type, [x], [out], _copy, **attrs)
    step.outputs = [out]
    return out


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
    transpose = None if not is_contiguous(x) else _view_transpose(y)
    if transpose is None:
        ex.launch(step, "ViewCopy", [x], [y], _copy)
        return y
    perm, src_shape = transpose
    dst_shape = [src_shape[p] for p in perm]
    # OptimizeView: x reshaped to y's dims without the size-1 ones, transposed into y's memory
    # read as a dense block of the permuted shape (UnSafeReshape of both)
    xs = aclTensor(tuple(src_shape), x.dtype, None, x.offset, x.view_format, x.storage_shape, x.storage)
    ys = aclTensor(tuple(dst_shape), y.dtype, None, y.offset, y.view_format, y.storage_shape, y.storage)
    ex.launch(step, "Transpose", [xs], [ys], _transpose(perm), perm=perm)
    return y


def _view_transpose(y: aclTensor) -> tuple[list[int], list[int]] | None:
    """``CanOptimizeView``: (perm, source shape) when ViewCopy writes a contiguous result into
    ``y`` by one Transpose, else None (the ViewCopy kernel). The dims are y's without the size-1
    ones; a stride 0, even of a size-1 dim, means a broadcast (no Transpose); ``perm`` lists
    them by decreasing stride (output dim i is input dim perm[i]), and they must tile a dense
    block."""
    if any(s == 0 for s in y.strides):
        return None
    dims = [(s, d) for d, s in zip(y.view_shape, y.strides) if d != 1]
    order = sorted(range(len(dims)), key=lambda i: -dims[i][0])  # stable, as the descending sort of pairs
    expect = 1
    for i in reversed(order):
        if dims[i][0] != expect:
            return None
        expect *= dims[i][1]
    if order == sorted(order):
        return None  # no dim out of order: nothing to transpose
    return order, [d for _, d in dims]


def _transpose(perm: list[int]) -> Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]:
    def kernel(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        outs[0][...] = np.transpose(ins[0], perm)
        return "numpy"

    return kernel
