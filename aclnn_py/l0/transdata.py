"""``l0op::TransData`` — ops-math ``conversion/trans_data/op_api/transdata.cpp``: moves data
between a primary format and a private (blocked) one.

Before any kernel: the formats must be known to TransData (``CheckPrimaryFormatValid``), the
storage and original shapes must have their formats' ranks (``CheckSrcTensorValid``), and the
pair must be supported (``CheckTransDataSupport``); each failure reports 161002 and returns
nullptr. aclnn_py moves NCHW/NHWC -> NC1HWC0 and back (C0 fills one 32-byte block); the output
keeps x's original shape as its view (opbase ``UpdateOutputShape``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import _errmsg, dtypes
from .._status import aclnnStatus
from ..executor.executor import Compute, aclOpExecutor
from ..tensor import Storage, aclTensor
from . import launch
from .reformat import FORMAT_RANK

S = aclnnStatus
FORMAT_NCHW, FORMAT_NHWC, FORMAT_NC1HWC0 = 0, 1, 3
# kFormatIndex != -1: the formats TransData knows; the pairs of kSupportMap aclnn_py implements
TRANSDATA_FORMATS = frozenset({0, 1, 2, 3, 4, 12, 13, 16, 27, 29, 30, 31, 32, 33, 47, 50, 51, 52, 53})
TRANSDATA_PAIRS = frozenset({(FORMAT_NCHW, FORMAT_NC1HWC0), (FORMAT_NHWC, FORMAT_NC1HWC0),
                             (FORMAT_NC1HWC0, FORMAT_NCHW), (FORMAT_NC1HWC0, FORMAT_NHWC)})  # fmt: skip


def storage_view(t: aclTensor) -> aclTensor:
    """What a kernel sees of ``t``: its whole storage, densely (the 5-D blocks of NC1HWC0)."""
    if t.storage_shape == t.view_shape and t.strides == dtypes.contiguous_strides(t.view_shape):
        return t
    view = aclTensor(t.storage_shape, t.dtype, None, t.offset, t.storage_format, t.storage_shape, t.storage)
    view.origin_format = t.origin_format
    return view


def five_hd_shape(shape: Sequence[int], fmt: int, dtype: int) -> tuple[int, ...]:
    """NCHW/NHWC shape -> NC1HWC0 storage shape; C0 fills one 32-byte block (8 floats, 16 halves)."""
    n, c, h, w = (
        (shape[0], shape[1], shape[2], shape[3]) if fmt == FORMAT_NCHW else (shape[0], shape[3], shape[1], shape[2])
    )
    c0 = 32 // dtypes.item_size(dtype)
    return (n, -(-c // c0), h, w, c0)


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


def trans_data(x: aclTensor, dst: int, groups: int, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::TransData(x, dstPrimaryFormat, groups, executor)``: x itself when it is already in
    ``dst``, else the data in the destination layout (``groups`` is passed on as the attribute)."""
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
    attrs = {"src_format": dtypes.format_name(src), "dst_format": dtypes.format_name(dst), "groups": groups}
    step = ex.step("TransData", [x], **attrs)
    origin = x.origin_shape
    if dst == FORMAT_NC1HWC0:
        storage_shape = five_hd_shape(origin, x.origin_format, x.dtype)
        compute = _to_5hd(src, storage_shape[4])
    else:  # NC1HWC0 -> the origin shape in dst's order
        nchw = origin if x.origin_format == FORMAT_NCHW else (origin[0], origin[3], origin[1], origin[2])
        storage_shape = nchw if dst == FORMAT_NCHW else (nchw[0], nchw[2], nchw[3], nchw[1])
        compute = _from_5hd(dst, nchw[1])
    nbytes = dtypes.shape_bytes(dtypes.numel(storage_shape), x.dtype)
    out = aclTensor(x.view_shape, x.dtype, None, 0, x.origin_format, tuple(storage_shape),
                    Storage(None, "workspace", nbytes))  # fmt: skip
    out.storage_format, out.origin_format = dst, x.origin_format
    failure = launch.checked_static("TransData ADD_TO_LAUNCHER_LIST_AICORE failed.")
    ln = launch.aicore(ex, step, "TransData", [storage_view(x)], [storage_view(out)], compute, failure=failure, **attrs)
    if ln is None:
        return None
    step.outputs = [out]
    return out
