"""What the comparison and max/min op_api files of ops-math share (``aclnn_eq_tensor.cpp`` ...
``aclnn_le_scalar.cpp``, ``aclnn_maximum.cpp``, ``aclnn_minimum.cpp``).

Each ``.cpp`` carries its own copy of most of these (the Gt/Ge ``GetCastedDouble``, and
``CombineCategoriesWithComplex`` and ``GetScalarDefaultDtype``, which other op_api files copy
too: ``_promote``); the copies are identical, so they live here once. What differs between
the twelve comparison APIs — which arguments are checked against which list, the message
texts, the promotion, the empty-tensor position, the BOOL fix-up, the l0 graph — stays in each
API's module; the Common skeleton that runs them (``common``, ``phase1`` ...) is here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ... import dtypes, scalars
from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import DT_BF16, DT_BOOL, DT_COMPLEX32, DT_COMPLEX64, DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_INT8
from ...executor import checks
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.cast import cast
from ...l0.contiguous import contiguous
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._graph import contiguous_cast, empty, finish
from .._promote import COMPLEX, FLOATING, combine_categories, scalar_default_dtype

S = aclnnStatus
L0Op = Callable[[aclTensor, aclTensor, aclOpExecutor], "aclTensor | None"]
# An API's ``CheckParams`` (self, other, out): (status, the promoted dtype it found)
Check = Callable[[Any, Any, Any], "tuple[int, int]"]
# An API's l0 calls from (self, other, promoted dtype) to the comparison's BOOL result
Graph = Callable[[aclOpExecutor, aclTensor, Any, int], "aclTensor | None"]

MAX_DIM = MAX_SUPPORT_DIMS_NUMS

# -- chip predicates ------------------------------------------------------------------------------


def soc_910b_to_910e() -> bool:
    """``ASCEND910B <= GetSocVersion() <= ASCEND910E``: Ascend910B, 910_93 and 950 (SocVersion order)."""
    return _soc.current().family in ("Ascend910B", "Ascend910_93", "Ascend950")


def soc_is_ascend910() -> bool:
    """``GetSocVersion() == SocVersion::ASCEND910`` (Ascend310P is another SocVersion)."""
    return _soc.current().family == "Ascend910"


def is_2201_or_regbase() -> bool:
    """``npuArch == DAV_2201 || IsRegBase(npuArch)``: Ascend910B, 910_93, 950."""
    soc = _soc.current()
    return soc.npu_arch == "DAV_2201" or soc.is_regbase


def is_regbase() -> bool:
    """``IsRegBase()``: Ascend950 (DAV_3510)."""
    return _soc.current().is_regbase


def npu_arch() -> str:
    """``GetCurNpuArch()``: DAV_2201 (910B, 910_93), DAV_3510 (950), DAV_1001 (910), DAV_2002 (310P)."""
    return _soc.current().npu_arch


def is_2201() -> bool:
    """``npuArch == DAV_2201``: Ascend910B, 910_93."""
    return _soc.current().npu_arch == "DAV_2201"


# -- promotion ------------------------------------------------------------------------------------


def binary_op_type_promote(self: aclTensor, other: aclTensor) -> int:
    """``BinaryOpTypePromote``: PromoteType when both or neither are 0-d; otherwise the 0-d
    tensor takes part like a scalar (``CombineCategoriesWithComplex``)."""
    s_dim, o_dim = self.rank, other.rank
    if (s_dim > 0 and o_dim > 0) or (s_dim == 0 and o_dim == 0):
        return dtypes.promote_type(self.dtype, other.dtype)
    if s_dim > 0:
        return combine_categories(self.dtype, other.dtype)
    return combine_categories(other.dtype, self.dtype)


def tensor_promote(self: aclTensor, other: aclTensor) -> int:
    """The tensor APIs' promotion: BinaryOpTypePromote on Ascend950, PromoteType elsewhere."""
    if is_regbase():
        return binary_op_type_promote(self, other)
    return dtypes.promote_type(self.dtype, other.dtype)


def regbase_scalar_promote(self_dt: int, other_dt: int) -> int:
    """Ascend950's scalar promotion: ``CombineCategoriesWithComplex(S, GetScalarDefaultDtype(O))``."""
    return combine_categories(self_dt, scalar_default_dtype(other_dt))


def eq_ne_promote_type_scalar(self_dt: int, other_dt: int) -> int:
    """``PromoteTypeScalar`` of aclnn_eq_scalar.cpp and aclnn_ne_scalar.cpp (identical copies).

    Ascend950: the regbase promotion, COMPLEX32 raised to COMPLEX64. Elsewhere: a complex self
    keeps its dtype; a floating self too (unless the scalar is complex); a BOOL self, or a
    floating or complex scalar, promotes normally; otherwise (an integral self and an integral
    or bool scalar) **self's dtype** — the scalar is then truncated to it."""
    if is_regbase():
        promote = regbase_scalar_promote(self_dt, other_dt)
        return DT_COMPLEX64 if promote == DT_COMPLEX32 else promote
    if self_dt in COMPLEX:
        return self_dt
    if other_dt not in COMPLEX and self_dt in FLOATING:
        return self_dt
    if self_dt == DT_BOOL or other_dt in FLOATING or other_dt in COMPLEX:
        return dtypes.promote_type(self_dt, other_dt)
    return self_dt


def gt_ge_scalar_promote(self_dt: int, other: aclScalar) -> int:
    """The promotion of aclnn_gt_scalar.cpp / aclnn_ge_scalar.cpp's ``CheckPromoteType``.

    Ascend950: the regbase promotion. Elsewhere PromoteType(self, scalar), then, for a DOUBLE
    scalar and a floating self, self's dtype if the scalar survives the cast to it within
    FLT_EPSILON (absolute), else DOUBLE. BOOL becomes INT8 on every chip."""
    if is_regbase():
        promote = regbase_scalar_promote(self_dt, other.dtype)
        return DT_INT8 if promote == DT_BOOL else promote
    promote = dtypes.promote_type(self_dt, other.dtype)
    if promote == DT_BOOL:
        promote = DT_INT8
    if other.dtype == DT_DOUBLE and self_dt in FLOATING:
        promote = self_dt if is_double_equal(casted_double(self_dt, other), scalars.to_double(other)) else promote
    return promote


def casted_double(self_dt: int, other: aclScalar) -> float:
    """Gt/Ge ``GetCastedDouble``: the scalar as self's floating dtype would hold it."""
    if self_dt == DT_FLOAT:
        return float(scalars.to_float(other))
    if self_dt == DT_FLOAT16:
        return float(scalars.to_fp16(other))
    if self_dt == DT_BF16:
        return float(scalars.to_bf16(other))
    return scalars.to_double(other)


def is_double_equal(a: float, b: float) -> bool:
    """Gt/Ge ``IsDoubleEqual``: an absolute FLT_EPSILON test (false for NaN and for inf - inf)."""
    return abs(a - b) <= scalars.FLT_EPSILON


# -- messages -------------------------------------------------------------------------------------


def bracketed(lst: Sequence[int]) -> str:
    """``[%s]`` around ``ToString(list)``: the hand-written messages print ``[[DT_FLOAT,...,]]``."""
    return f"[{dtypes.dt_list_str(lst)}]"


def report_can_not_promote(self_dt: int, other_dt: int) -> None:
    name = dtypes.dt_name
    op_loge(
        S.ACLNN_ERR_PARAM_INVALID, f"Self dtype {name(self_dt)} and other dtype {name(other_dt)} can not promote dtype."
    )


def check_bool_to_out(out: aclTensor) -> bool:
    """``OP_CHECK_RESULT_DTYPE_CAST_FAILED(DT_BOOL, out)``: CanCast(BOOL, x) holds for every x."""
    return checks.check_result_dtype_cast(DT_BOOL, out.dtype)


def check_not_null(self: Any, other: Any, out: Any, other_kind: str = "aclTensor") -> bool:
    """``CheckNotNull(self, other, out)``: ``other_kind`` is ``aclScalar`` for the scalar APIs."""
    return (
        checks.check_null(self, "self")
        and checks.check_null(other, "other", other_kind)
        and checks.check_null(out, "out")
    )


def check_max_dims(*named: tuple[aclTensor, str]) -> bool:
    return all(checks.check_max_dim(t, MAX_DIM, name) for t, name in named)


def check_broadcast_to_out(self: aclTensor, other: aclTensor, out: aclTensor, text: str) -> bool:
    """``OP_CHECK_BROADCAST_AND_INFER_SHAPE(self, other)``, then the broadcast shape must be
    out's: ``text`` is ``BroadcastShape`` or ``Shape of out``, the two wordings in use."""
    shape = checks.broadcast_and_infer_shape(self, other, "self", "other")
    if shape is None:
        return False
    if shape != out.view_shape:
        b, o = dtypes.shape_str(shape), dtypes.shape_str(out.view_shape)
        if text == "BroadcastShape":
            op_loge(S.ACLNN_ERR_PARAM_INVALID, f"BroadcastShape {b} is not equal out's shape {o}.")
        else:
            op_loge(S.ACLNN_ERR_PARAM_INVALID, f"Shape of out should be {b}, but current is {o}.")
        return False
    return True


# -- graph pieces ---------------------------------------------------------------------------------


def bind(ex: aclOpExecutor, self: aclTensor, other: aclTensor | None, out: aclTensor, inplace: bool) -> None:
    """Name the user's tensors for the executor's printouts and phase-2 checks: ``selfRef``
    (and ``other``) for an in-place call, ``self``, ``other``, ``out`` otherwise (``other`` is
    None for a scalar)."""
    if inplace:
        ex.bind_arguments(selfRef=self, other=other)
    else:
        ex.bind_arguments(self=self, other=other, out=out)


def scalar_graph(op: L0Op, view_ok: Callable[[aclTensor], bool] | None = None) -> Graph:
    """The scalar APIs' graph: Contiguous + Cast of self (or, when ``view_ok`` accepts self
    already of the promoted dtype, self's view as it is: CreateView, no kernel), the scalar
    converted to a 0-d tensor of the promoted dtype, then ``op``."""

    def graph(ex: aclOpExecutor, self: aclTensor, other: aclScalar, promote: int) -> aclTensor | None:
        if view_ok is not None and self.dtype == promote and view_ok(self):
            self_p: aclTensor | None = self
        else:
            self_p = contiguous_cast(ex, self, promote)
        if self_p is None:
            return None
        other_t = ex.convert_scalar(other, promote)
        return op(self_p, other_t, ex) if other_t is not None else None

    return graph


def converted_before_cast(
    ex: aclOpExecutor, self: aclTensor, other: aclScalar, promote: int
) -> tuple[aclTensor, aclTensor] | None:
    """The l0 calls GeScalar and LtScalar's Ascend950 graph begin with, in their order: Contiguous
    of self, the scalar converted to a 0-d tensor of ``promote``, **then** Cast of self (unlike
    :func:`scalar_graph`). (self cast, scalar tensor), or None when a step fails."""
    self_c = contiguous(self, ex)
    if self_c is None:
        return None
    other_t = ex.convert_scalar(other, promote)
    if other_t is None:
        return None
    self_p = cast(self_c, promote, ex)
    return None if self_p is None else (self_p, other_t)


def tensor_graph(op: L0Op) -> Graph:
    """The tensor APIs' graph: Contiguous + Cast of self, then of other, then ``op``."""

    def graph(ex: aclOpExecutor, self: aclTensor, other: aclTensor, promote: int) -> aclTensor | None:
        self_c = contiguous_cast(ex, self, promote)
        if self_c is None:
            return None
        other_c = contiguous_cast(ex, other, promote)
        return op(self_c, other_c, ex) if other_c is not None else None

    return graph


def build(
    ex: aclOpExecutor,
    self: aclTensor,
    other: aclTensor | None,
    out: aclTensor,
    workspaceSize: object,
    executor: object,
    inplace: bool,
    result: Callable[[], aclTensor | None],
) -> int:
    """After the checks: name the arguments, the empty shortcut (self, or a tensor ``other``,
    empty), then ``result()`` (the l0 calls up to the BOOL result), Cast and ViewCopy into out."""
    bind(ex, self, other, out, inplace)
    if self.is_empty() or (other is not None and other.is_empty()):
        return empty(ex, workspaceSize, executor)
    return finish(ex, result(), out, workspaceSize, executor)


def common(
    ex: aclOpExecutor,
    self: Any,
    other: Any,
    out: Any,
    workspaceSize: object,
    executor: object,
    inplace: bool,
    check: Check,
    graph: Graph,
) -> int:
    """``aclnn<Op>Common`` after ``L2_DFX_PHASE_1``: ``check`` (CheckParams, with its null checks),
    then :func:`build` with ``graph``. ``out`` is ``selfRef`` for an in-place call."""
    ret, promote = check(self, other, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    other_t = other if isinstance(other, aclTensor) else None
    return build(ex, self, other_t, out, workspaceSize, executor, inplace, lambda: graph(ex, self, other, promote))


def common_empty_first(
    ex: aclOpExecutor,
    self: Any,
    other: Any,
    out: Any,
    workspaceSize: object,
    executor: object,
    inplace: bool,
    check: Check,
    graph: Graph,
) -> int:
    """``aclnnNeTensorCommon`` / ``aclnnLeTensorCommon``: CheckNotNull, then the empty shortcut
    **before** ``check`` (the dtype and shape checks), then the graph."""
    if not check_not_null(self, other, out):
        return S.ACLNN_ERR_PARAM_NULLPTR
    bind(ex, self, other, out, inplace)
    if self.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    ret, promote = check(self, other, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    return finish(ex, graph(ex, self, other, promote), out, workspaceSize, executor)


Common = Callable[[aclOpExecutor, Any, Any, Any, object, object, bool, Check, Graph], int]


def phase1(
    api: str,
    self: Any,
    other: Any,
    out: Any,
    workspaceSize: object,
    executor: object,
    check: Check,
    graph: Graph,
    body: Common = common,
) -> int:
    """``L2_DFX_PHASE_1(api, DFX_IN(self, other), DFX_OUT(out))``, then ``body`` (the Common)."""
    ex = _l2.l2_dfx_phase1(api, workspaceSize, executor, self=self, other=other, out=out)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    return body(ex, self, other, out, workspaceSize, executor, False, check, graph)


def phase1_inplace(
    api: str,
    selfRef: Any,
    other: Any,
    workspaceSize: object,
    executor: object,
    check: Check,
    graph: Graph,
    body: Common = common,
) -> int:
    """An in-place API's own ``L2_DFX_PHASE_1(api, DFX_IN(selfRef, other), DFX_OUT(selfRef))``,
    then its twin's Common ``body`` with out = selfRef."""
    ex = _l2.l2_dfx_phase1(api, workspaceSize, executor, selfRef=selfRef, other=other, out=selfRef)
    if ex is None:  # an op-cache hit
        return S.ACLNN_SUCCESS
    return body(ex, selfRef, other, selfRef, workspaceSize, executor, True, check, graph)
