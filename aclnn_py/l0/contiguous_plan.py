"""Which copy kernels ``l0op::Contiguous`` and ``l0op::ViewCopy`` launch, side by side with ops-math
``conversion/contiguous/op_host/op_api/contiguous.cpp`` (``CanOptimizeContiguous``,
``CanOptimizeView``): pure functions of a view's shape, strides, offset and storage size.

A non-contiguous view becomes contiguous through Slice or StridedSlice, then Transpose, then
BroadcastTo (each present or not), or else one AsStrided. The analysis drops size-1 dims, notes
stride-0 dims (a broadcast), sorts the rest by decreasing stride (a transpose when they were not
in that order) and infers the source of a slice from the strides and the storage size."""

from __future__ import annotations

from math import gcd

import attrs

INT64_MAX = 2**63 - 1
AS_STRIDED_MOVE_ALIGN_NUM = 64
# shapes and strides (size-1 and stride-0 dims left out) that AsStrided copies faster (CANN's list)
AS_STRIDED_WHITE_LIST = (
    ((4, 288, 2, 2, 240, 240), (67046400, 230400, 480, 1, 960, 2)),
    ((4, 512, 2, 2, 120, 120), (33177600, 57600, 240, 1, 480, 2)),
    ((4, 10, 32, 128), (122880, 128, 3840, 1)),
)

Pair = tuple[int, int, int]  # (stride, index among the kept dims, size), CANN's StrideIndexPairs


@attrs.define
class Plan:
    """``ContiguousParam``: the kernels to launch, in order, and their parameters."""

    view_offset: int
    broadcast_src_shape: list[int]
    shape: list[int] = attrs.Factory(list)  # BroadcastTo's target: the view shape
    may_broadcast: bool = False
    may_transpose: bool = False
    may_slice: bool = False
    may_stridedslice: bool = False
    perm: list[int] = attrs.Factory(list)
    transpose_src_shape: list[int] = attrs.Factory(list)
    transpose_dst_shape: list[int] = attrs.Factory(list)
    slice_src_shape: list[int] = attrs.Factory(list)
    slice_dst_shape: list[int] = attrs.Factory(list)
    offset: list[int] = attrs.Factory(list)
    size: list[int] = attrs.Factory(list)
    stridedslice_src_shape: list[int] = attrs.Factory(list)
    stridedslice_dst_shape: list[int] = attrs.Factory(list)
    begin: list[int] = attrs.Factory(list)
    end: list[int] = attrs.Factory(list)
    strides: list[int] = attrs.Factory(list)

    def set_transpose_shape(self, src: list[int]) -> None:
        """``SetTransposeShapeWithSrcShape``: output dim i is input dim perm[i]."""
        self.transpose_src_shape = list(src)
        self.transpose_dst_shape = [src[p] for p in self.perm]


def _pairs(shape: tuple[int, ...], strides: tuple[int, ...], plan: Plan) -> list[Pair]:
    """``BuildValidStrideIndexPairs``: stride 0 marks a broadcast (even on a size-1 dim), size-1
    dims are dropped, a stride larger than the one before marks a transpose."""
    pairs: list[Pair] = []
    last = INT64_MAX
    for i, (d, s) in enumerate(zip(shape, strides)):
        if s == 0:
            plan.may_broadcast = True
            plan.broadcast_src_shape[i] = 1
            continue
        if d == 1:
            continue
        if last < s:
            plan.may_transpose = True
        last = s
        pairs.append((s, len(pairs), d))
    return pairs


def _dense(pairs: list[Pair]) -> bool:
    """``IsContiguous`` of the pairs: row-major in their order."""
    stride = 1
    for s, _, d in reversed(pairs):
        if s != stride:
            return False
        stride *= d
    return True


def _sorted_desc(pairs: list[Pair]) -> list[Pair]:
    """``std::sort(rbegin, rend)``: descending (stride, index, size)."""
    return sorted(pairs, reverse=True)


def can_optimize_contiguous(
    shape: tuple[int, ...], strides: tuple[int, ...], offset: int, storage_size: int
) -> Plan | None:
    """``CanOptimizeContiguous``: the plan, or None for AsStrided."""
    plan = Plan(view_offset=offset, broadcast_src_shape=list(shape))
    if strides and min(strides) < 0:
        return None  # negative strides: AsStrided
    pairs = _pairs(shape, strides, plan)
    kept = (tuple(d for _, _, d in pairs), tuple(s for s, _, _ in pairs))
    if any(kept == (list_shape, list_strides) for list_shape, list_strides in AS_STRIDED_WHITE_LIST):
        return None
    if plan.may_broadcast:
        plan.shape = list(shape)
        if _dense(pairs):
            return plan
    if plan.may_transpose:
        pairs = _sorted_desc(pairs)
        plan.perm = [0] * len(pairs)
        for i, (_, idx, _) in enumerate(pairs):
            plan.perm[idx] = i
    simple_shape = [d for _, _, d in pairs]
    simple_strides = [s for s, _, _ in pairs]
    if plan.may_transpose and _dense(pairs):
        plan.set_transpose_shape(simple_shape)
        return plan
    if len(pairs) == 1:  # [n] stride [k]: read as [n, 1] stride [k, 1], a slice of [.., k]
        simple_shape.append(1)
        simple_strides.append(1)
    ok, g = _optimize_slice(simple_shape, simple_strides, plan)
    if not ok:
        return None
    if plan.may_slice:
        if not _build_slice(simple_shape, simple_strides, offset, storage_size, plan):
            return None
        if plan.may_transpose:
            if strides[-1] == 1 and shape[-1] % AS_STRIDED_MOVE_ALIGN_NUM == 0:
                return None  # CanReplaceSliceTransposeWithAsStrided
            plan.set_transpose_shape(plan.slice_dst_shape)
        return plan
    if plan.may_stridedslice:
        if not _build_strided_slice(simple_shape, simple_strides, storage_size, g, plan):
            return None
        if plan.may_transpose:
            plan.set_transpose_shape(plan.stridedslice_dst_shape)
        return plan
    return None


def _optimize_slice(shape: list[int], strides: list[int], plan: Plan) -> tuple[bool, int]:
    """``OptimizeSlice``: (possible, the gcd of the strides but the last); no overlap allowed."""
    g = last = strides[0]
    plan.may_slice = strides[-1] == 1
    for i in range(1, len(strides)):
        if last % strides[i] != 0:
            plan.may_slice = False
        if last < strides[i] * (shape[i] - 1):
            return False, g
        if i < len(strides) - 1:
            g = gcd(g, strides[i])
        last = strides[i]
    if plan.may_slice:
        return True, g
    plan.may_stridedslice = g > 1 and g >= strides[-1] * shape[-1]
    return plan.may_stridedslice, g


def _build_slice(shape: list[int], strides: list[int], offset: int, storage_size: int, plan: Plan) -> bool:
    """``BuildSliceParams``: the source shape inferred from the strides and the storage size."""
    n = len(strides)
    src = [0] * n
    size = 1
    for i in range(n - 2, -1, -1):
        src[i + 1] = strides[i] // strides[i + 1]
        size *= src[i + 1]
    src[0] = storage_size // size
    plan.slice_src_shape, plan.slice_dst_shape = src, list(shape)
    plan.offset, plan.size = [], []
    for i in range(n):
        plan.offset.append(offset // strides[i])
        plan.size.append(shape[i])
        offset %= strides[i]
    plan.view_offset = 0
    return all(src[i] >= plan.offset[i] + plan.size[i] for i in range(n))  # ValidateSliceParam


def _build_strided_slice(shape: list[int], strides: list[int], storage_size: int, g: int, plan: Plan) -> bool:
    """``BuildStridedSliceParams``: the source's last dim is the gcd; end = begin + size x stride."""
    offset = plan.view_offset
    n = len(strides)
    src, src_stride = [0] * n, [0] * n
    src[n - 1], src_stride[n - 1] = g, 1
    size = g
    for i in range(n - 2, 0, -1):
        src_stride[i] = size
        src[i] = strides[i - 1] // src_stride[i]
        size *= src[i]
    src[0], src_stride[0] = storage_size // size, size
    plan.begin, plan.end, plan.strides = [], [], []
    for i in range(n):
        if strides[i] % src_stride[i] != 0:
            return False
        plan.begin.append(offset // src_stride[i])
        plan.strides.append(strides[i] // src_stride[i])
        plan.end.append(plan.begin[i] + shape[i] * plan.strides[i])
        offset %= src_stride[i]
    plan.stridedslice_src_shape, plan.stridedslice_dst_shape = src, list(shape)
    plan.view_offset = 0
    return all(  # ValidateStridedSliceParam
        src[i] >= plan.begin[i] and (shape[i] - 1) * plan.strides[i] + plan.begin[i] < src[i] and src[i] >= shape[i]
        for i in range(n)
    )


def can_optimize_view(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
    """``CanOptimizeView`` (ViewCopy into a strided output): (perm, source shape) of the one
    Transpose that writes a contiguous result into the output, else None (the ViewCopy
    kernel): the output's kept dims must tile a dense block in another order; any stride 0
    is a broadcast. Here perm lists the kept dims by decreasing stride (output dim i is input
    dim perm[i]): the inverse of Contiguous's."""
    plan = Plan(view_offset=0, broadcast_src_shape=list(shape))
    pairs = _pairs(shape, strides, plan)
    if plan.may_broadcast or not plan.may_transpose:
        return None
    src = [d for _, _, d in pairs]
    pairs = _sorted_desc(pairs)
    if not _dense(pairs):
        return None
    return [idx for _, idx, _ in pairs], src
