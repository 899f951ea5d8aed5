"""``l0op::SmoothL1Loss`` — ops-nn ``loss/smooth_l1_loss_v2/op_api/smooth_l1_loss.cpp`` — and what
aclnnSmoothL1Loss's graph needs around it: the three-argument ``BroadcastTo`` (on top of
:mod:`.broadcast_to`) and, as stop-gaps until ``l0/reformat.py`` has them (ops-math
``conversion/trans_data/op_api/transdata.cpp``), ``TransData`` between NCHW/NHWC and NC1HWC0
and ``ReFormat``'s rank check.

SmoothL1LossV2: the output has self's dtype and storage format; its shape is self's (``none``)
or 0-d (``mean``, ``sum``), inferred on the original shapes as opbase's ``INFER_SHAPE`` does
(a tensor in NC1HWC0 keeps its 4-D view and gets the 5-D storage shape). AI Core on every chip:
the legacy TBE kernel, or on Ascend950 the ops-nn AscendC kernel, whose tiling asks for a 16 MiB
workspace (``ASCEND_WORKSPACE`` for ``none``, the reduce template's ``WORKSPACE_SIZE`` otherwise;
a multi-core group reduce would add to it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import _errmsg, dtypes
from .. import soc as _soc
from .._status import aclnnStatus
from ..dtypes import DT_INT64, FORMAT_FRACTAL_NZ, FORMAT_ND
from ..executor.executor import Compute, aclOpExecutor
from ..kernels import smooth_l1_loss_v2 as kernel
from ..runtime import sanitizer
from ..tensor import Storage, aclTensor
from . import launch
from .broadcast_to import broadcast_to
from .reformat import reformat

S = aclnnStatus
ARCH35_WORKSPACE = 16 * 1024 * 1024
FORMAT_NCHW, FORMAT_NHWC, FORMAT_NC1HWC0 = 0, 1, 3


def _storage_view(t: aclTensor) -> aclTensor:
    """What a kernel sees of ``t``: its whole storage, densely (the 5-D blocks of NC1HWC0)."""
    if t.storage_shape == t.view_shape and t.strides == dtypes.contiguous_strides(t.view_shape):
        return t
    view = aclTensor(t.storage_shape, t.dtype, None, t.offset, t.storage_format, t.storage_shape, t.storage)
    view.origin_format = t.origin_format
    return view


def _five_hd_shape(shape: Sequence[int], fmt: int, dtype: int) -> tuple[int, ...]:
    """NCHW/NHWC shape -> NC1HWC0 storage shape; C0 fills one 32-byte block (8 floats, 16 halves)."""
    n, c, h, w = (
        (shape[0], shape[1], shape[2], shape[3]) if fmt == FORMAT_NCHW else (shape[0], shape[3], shape[1], shape[2])
    )
    c0 = 32 // dtypes.item_size(dtype)
    return (n, -(-c // c0), h, w, c0)


def smooth_l1_loss(
    ex: aclOpExecutor, self: aclTensor, target: aclTensor, reduction: str, beta: float
) -> aclTensor | None:
    """``l0op::SmoothL1Loss(self, target, reduction, beta, executor)``."""
    recipe = _soc.current().kernel_family
    step = ex.step("SmoothL1LossV2", [self, target], sigma=beta, reduction=reduction)
    view_shape = self.view_shape if reduction == "none" else ()
    blocked = self.storage_format == FORMAT_NC1HWC0
    storage_shape = self.storage_shape if blocked and reduction == "none" else view_shape
    nbytes = dtypes.shape_bytes(dtypes.numel(storage_shape), self.dtype)
    out = aclTensor(view_shape, self.dtype, None, 0, self.origin_format, storage_shape,
                    Storage(None, "workspace", nbytes))  # fmt: skip
    out.storage_format = self.storage_format
    if blocked != (target.storage_format == FORMAT_NC1HWC0):
        sanitizer.finding(
            "undefined",
            f"SmoothL1LossV2 gets self in {dtypes.format_name(self.storage_format)} and target in "
            f"{dtypes.format_name(target.storage_format)}: which kernel binary CANN picks for that mix is not "
            "public; aclnn_py computes on the tensors' views",
            S.ACLNN_ERR_PARAM_INVALID,
        )
        ins, outs = [self, target], [out]
    else:  # both blocked: the kernel runs over the whole 5-D storage (padding lanes give 0)
        ins, outs = [_storage_view(self), _storage_view(target)], [_storage_view(out)]
    scratch = [ARCH35_WORKSPACE] if recipe == "arch35" else []
    compute = kernel.make(recipe, beta, reduction, self.view_shape)
    ln = launch.aicore(
        ex, step, "SmoothL1LossV2", ins, outs, compute, scratch_sizes=scratch,
        sigma=beta, reduction=reduction, recipe=recipe,
    )  # fmt: skip
    if ln is None:
        return None
    step.outputs = [out]
    return out


# -- around it: ops-math l0 ops the graph needs -------------------------------------------------


def broadcast_to_shape(x: aclTensor, shape: Sequence[int], ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::BroadcastTo(x, shapeArray, executor)`` (the three-argument form): an output in ND
    (unless x is FRACTAL_NZ) and the shape as a host INT64 tensor, then the l0 BroadcastTo."""
    shape_t = ex.convert_to_tensor(np.array(list(shape), dtype=np.int64), DT_INT64)
    fmt = FORMAT_FRACTAL_NZ if x.storage_format == FORMAT_FRACTAL_NZ else FORMAT_ND
    return broadcast_to(ex, x, ex.alloc_tensor(shape, x.dtype, fmt), shape_t)


# kFormatRank of transdata.cpp: formats with a fixed rank (ND, FRACTAL_NZ ... have none)
FORMAT_RANK = {0: 4, 1: 4, 3: 5, 4: 4, 12: 5, 13: 4, 16: 4, 27: 5, 30: 5, 31: 5, 32: 6, 33: 4, 47: 3}


def reformat_checked(x: aclTensor, fmt: int, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::ReFormat(x, format)`` with its rank check: a format of fixed rank needs x's view
    shape to have it (161002 reported, nullptr)."""
    rank = FORMAT_RANK.get(fmt)
    if rank is not None and rank != x.rank:
        _errmsg.report_code(
            S.ACLNN_ERR_PARAM_INVALID,
            f"input tensor shape's rank does not match format, format is: {dtypes.format_name(fmt)}, "
            f"shape is: {dtypes.shape_str(x.view_shape)}.",
        )
        return None
    return reformat(x, fmt, ex)


# kFormatIndex != -1: the formats TransData knows; the pairs of kSupportMap aclnn_py implements
TRANSDATA_FORMATS = frozenset({0, 1, 2, 3, 4, 12, 13, 16, 27, 29, 30, 31, 32, 33, 47, 50, 51, 52, 53})
TRANSDATA_PAIRS = frozenset({(FORMAT_NCHW, FORMAT_NC1HWC0), (FORMAT_NHWC, FORMAT_NC1HWC0),
                             (FORMAT_NC1HWC0, FORMAT_NCHW), (FORMAT_NC1HWC0, FORMAT_NHWC)})  # fmt: skip


def _to_5hd(src_fmt: int, c0: int) -> Compute:
    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        nchw = x if src_fmt == FORMAT_NCHW else x.transpose(0, 3, 1, 2)
        n, c, h, w = nchw.shape
        padded = np.zeros((n, out.shape[1] * c0, h, w), dtype=x.dtype)
        padded[:, :c] = nchw
        out[...] = padded.reshape(n, out.shape[1], c0, h, w).transpose(0, 1, 3, 4, 2)
        return "numpy"

    return compute


def _from_5hd(dst_fmt: int, c: int) -> Compute:
    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        n, c1, h, w, c0 = x.shape
        nchw = x.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)[:, :c]
        out[...] = (nchw if dst_fmt == FORMAT_NCHW else nchw.transpose(0, 2, 3, 1)).reshape(out.shape)
        return "numpy"

    return compute


def _transdata_params_ok(x: aclTensor) -> bool:
    """``CheckSrcTensorValid``: the storage shape and the original shape have their format's rank."""
    for shape, fmt in ((x.storage_shape, x.storage_format), (x.origin_shape, x.origin_format)):
        rank = FORMAT_RANK.get(fmt)
        if rank is not None and rank != len(shape):
            _errmsg.report_code(
                S.ACLNN_ERR_PARAM_INVALID,
                f"Input tensor format not match it's shape, format is: {dtypes.format_name(fmt)}, "
                f"shape is: {dtypes.shape_str(shape)}.",
            )
            return False
    return True


def trans_data(x: aclTensor, dst: int, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::TransData(x, dst, groups = 1, executor)`` for NCHW/NHWC -> NC1HWC0 and back; the
    output keeps x's original shape as its view (opbase ``UpdateOutputShape``), the kernel moves
    the data into the destination layout."""
    src = x.storage_format
    if src == dst:
        return x
    unsupported = f"TransData not support: {dtypes.format_name(src)} -> {dtypes.format_name(dst)}"
    if src not in TRANSDATA_FORMATS or dst not in TRANSDATA_FORMATS:  # CheckPrimaryFormatValid
        _errmsg.report_code(S.ACLNN_ERR_PARAM_INVALID, unsupported)
        return None
    if not _transdata_params_ok(x):
        return None
    if (src, dst) not in TRANSDATA_PAIRS:  # CheckTransDataSupport (the pairs this emulator moves)
        _errmsg.report_code(S.ACLNN_ERR_PARAM_INVALID, unsupported)
        return None
    step = ex.step("TransData", [x], src_format=dtypes.format_name(src), dst_format=dtypes.format_name(dst), groups=1)
    origin = x.origin_shape
    if dst == FORMAT_NC1HWC0:
        storage_shape = _five_hd_shape(origin, x.origin_format, x.dtype)
        compute = _to_5hd(src, storage_shape[4])
    else:  # NC1HWC0 -> the origin shape in dst's order
        nchw = origin if x.origin_format == FORMAT_NCHW else (origin[0], origin[3], origin[1], origin[2])
        storage_shape = nchw if dst == FORMAT_NCHW else (nchw[0], nchw[2], nchw[3], nchw[1])
        compute = _from_5hd(dst, nchw[1])
    nbytes = dtypes.shape_bytes(dtypes.numel(storage_shape), x.dtype)
    out = aclTensor(x.view_shape, x.dtype, None, 0, x.origin_format, tuple(storage_shape),
                    Storage(None, "workspace", nbytes))  # fmt: skip
    out.storage_format, out.origin_format = dst, x.origin_format
    attrs = {"src_format": dtypes.format_name(src), "dst_format": dtypes.format_name(dst), "groups": 1}
    if launch.aicore(ex, step, "TransData", [_storage_view(x)], [_storage_view(out)], compute, **attrs) is None:
        return None
    step.outputs = [out]
    return out
