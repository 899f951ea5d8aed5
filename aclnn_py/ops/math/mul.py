"""aclnnMul, aclnnMuls, aclnnInplaceMul, aclnnInplaceMuls — side by side with ops-math
``math/mul/op_api/aclnn_mul.cpp``: ``out = self * other``.

aclnnMul: L2_DFX_PHASE_1 -> self, other, out non-null -> self, other, out in the chip's list ->
self and other promote (off Ascend950 also: the promoted dtype casts to out's) -> ranks <= 8,
broadcast, == out's shape -> a non-ND format is only a warning -> empty shortcut. Graph: the
mixed FLOAT16/BFLOAT16 + FLOAT pairs multiply directly into FLOAT (strided views on Ascend950);
otherwise Contiguous + Cast of both to the promoted dtype (Ascend950 reads views of rank <= 4
when no cast is needed), Mul, Cast to out's dtype, ViewCopy.

aclnnMuls: the scalar takes part in the promotion by its category only (``InferTensorScalarDtype``,
per chip); FLOAT16/BFLOAT16 tensors with a floating scalar on Ascend950, and a BFLOAT16 tensor with
a DOUBLE scalar elsewhere, go to the ``Muls`` kernel (a float32 attribute, result in the tensor's
dtype); otherwise the scalar becomes a 0-d tensor of the promoted dtype and Mul runs.
aclnnInplaceMul(s) check and compute into ``selfRef`` with their own phase 1.
"""

from __future__ import annotations

from typing import Any

from ... import dtypes, scalars
from ... import soc as _soc
from ..._status import aclnnStatus
from ...dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX32,
    DT_COMPLEX64,
    DT_COMPLEX128,
    DT_DOUBLE,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT16,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
    DT_UNDEFINED,
)  # fmt: skip
from ...executor import checks
from ...executor.checks import MAX_SUPPORT_DIMS_NUMS, op_loge
from ...executor.executor import aclOpExecutor
from ...l0.cast import cast
from ...l0.contiguous import contiguous
from ...l0.mul import is_mix, is_mul_support_non_contiguous
from ...l0.mul import mul as l0_mul
from ...l0.muls import muls as l0_muls
from ...tensor import aclScalar, aclTensor
from .. import _l2
from .._graph import contiguous_cast, contiguous_pair, empty, finish
from .._promote import COMPLEX, casted_float, combine_categories, scalar_default_dtype

S = aclnnStatus

ASCEND910_DTYPE_DTYPE_SUPPORT_LIST = (
    DT_FLOAT, DT_FLOAT16, DT_INT32, DT_DOUBLE, DT_INT8, DT_UINT8, DT_INT16, DT_INT64, DT_BOOL, DT_COMPLEX128,
    DT_COMPLEX64,
)  # fmt: skip
ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST = (*ASCEND910_DTYPE_DTYPE_SUPPORT_LIST, DT_BF16)

# aclnn_mul.cpp's own isFloatType
_FLOAT_TYPE = (DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_BF16)


def dtype_support_list() -> tuple[int, ...]:
    """``GetDtypeSupportList``: ``ASCEND910B <= SocVersion <= ASCEND910E`` (Ascend910B, 910_93,
    950) take the list with BFLOAT16."""
    fam = _soc.current().family
    if fam in ("Ascend910B", "Ascend910_93", "Ascend950"):
        return ASCEND910B_DTYPE_DTYPE_SUPPORT_LIST
    return ASCEND910_DTYPE_DTYPE_SUPPORT_LIST


DTYPE_FACTS = {
    "self, other, out (aclnnMul); selfRef, other (aclnnInplaceMul); self, out (aclnnMuls); "
    "selfRef (aclnnInplaceMuls)": dtype_support_list,
}


# -- aclnnMul -------------------------------------------------------------------------------------


def _check_mul_params(self: Any, other: Any, out: Any) -> int:
    if not (checks.check_null(self, "self") and checks.check_null(other, "other") and checks.check_null(out, "out")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not all(
        checks.check_dtype_support(t, supported, n) for t, n in ((self, "self"), (other, "other"), (out, "out"))
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    promote = dtypes.promote_type(self.dtype, other.dtype)
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Expected aclnnMul self dtype [{dtypes.dt_name(self.dtype)}] and other dtype "
            f"[{dtypes.dt_name(other.dtype)}] to be promotable but check failed.",
        )
        return S.ACLNN_ERR_PARAM_INVALID
    if not _soc.current().is_regbase and not checks.check_result_dtype_cast(promote, out.dtype):
        return S.ACLNN_ERR_PARAM_INVALID
    if not (
        checks.check_max_dim(self, MAX_SUPPORT_DIMS_NUMS, "self")
        and checks.check_max_dim(other, MAX_SUPPORT_DIMS_NUMS, "other")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    shape = checks.broadcast_and_infer_shape(self, other, "self", "other")
    if shape is None or not checks.check_shape_equal_expected(out, shape, "out"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # MulCheckFormat: a non-ND storage format is only a warning


# MulPreferContiguous: the thresholds ops-math calibrated on Ascend950 for its non-contiguous kernel
MUL_NC_BCAST_FACTOR_MIN = 320
MUL_NC_PAYLOAD_MIN = 512
MUL_NC_CONTIG_RUN_MIN = 32
MUL_NC_GATHER_STRIDE_MIN = 24
MUL_NC_MAX_DIM = 8


def _inner_run_and_gather(x: aclTensor) -> tuple[int, int]:
    """``MulInnerRunAndGather``: the innermost contiguous run and the stride where it breaks
    (0: no break, or a run long enough to vectorise)."""
    dims = [(st, sz) for sz, st in zip(x.view_shape, x.strides) if not (sz <= 1 or st == 0)][:MUL_NC_MAX_DIM]
    dims.sort(key=lambda d: d[0])  # a stable insertion sort by stride in the C++
    run = 1
    for st, sz in dims:
        if st != run:
            return run, st
        if run >= MUL_NC_CONTIG_RUN_MIN or sz >= MUL_NC_CONTIG_RUN_MIN:
            return MUL_NC_CONTIG_RUN_MIN, 0
        run *= sz
    return run, 0


def _broadcast_factor(x: aclTensor, y: aclTensor) -> int:
    """``MulBroadcastFactor``: how many times x is re-read against y (saturating at the threshold)."""
    xs, ys = x.view_shape, y.view_shape
    factor = 1
    for i in range(max(len(xs), len(ys))):
        xd = xs[len(xs) - 1 - i] if i < len(xs) else 1
        yd = ys[len(ys) - 1 - i] if i < len(ys) else 1
        if xd == 1 and yd > 1:
            if factor >= MUL_NC_BCAST_FACTOR_MIN or yd >= MUL_NC_BCAST_FACTOR_MIN:
                return MUL_NC_BCAST_FACTOR_MIN
            factor *= yd
    return factor


def _view_numel(x: aclTensor) -> int:
    """``MulViewNumel`` (saturating at the threshold)."""
    numel = 1
    for d in x.view_shape:
        if numel >= MUL_NC_PAYLOAD_MIN or d >= MUL_NC_PAYLOAD_MIN:
            return MUL_NC_PAYLOAD_MIN
        numel *= d
    return numel


def _is_sparse_broadcast_operand(x: aclTensor, y: aclTensor) -> bool:
    run, gather = _inner_run_and_gather(x)
    return (
        _broadcast_factor(x, y) >= MUL_NC_BCAST_FACTOR_MIN
        and _view_numel(x) >= MUL_NC_PAYLOAD_MIN
        and run < MUL_NC_CONTIG_RUN_MIN
        and gather >= MUL_NC_GATHER_STRIDE_MIN
    )


def mul_prefer_contiguous(self: aclTensor, other: aclTensor) -> bool:
    """``MulPreferContiguous``: a sparse, heavily broadcast operand is copied dense first."""
    return _is_sparse_broadcast_operand(self, other) or _is_sparse_broadcast_operand(other, self)


def _mul_tensors(ex: aclOpExecutor, self: aclTensor, other: aclTensor) -> aclTensor | None:
    """The compute part of aclnnMul's graph: the product before the cast to out's dtype."""
    prefer_contiguous = mul_prefer_contiguous(self, other)
    if is_mix(self, other):  # no cast: the kernel takes the pair and writes FLOAT
        if _soc.current().is_regbase and not prefer_contiguous:
            return l0_mul(self, other, ex)
        pair = contiguous_pair(ex, self, other)
        return l0_mul(*pair, ex) if pair is not None else None
    promote = dtypes.promote_type(self.dtype, other.dtype)
    if self.dtype == promote == other.dtype and is_mul_support_non_contiguous(self, other) and not prefer_contiguous:
        return l0_mul(self, other, ex)
    pair = contiguous_pair(ex, self, other)
    if pair is None:
        return None
    self_cast = cast(pair[0], promote, ex)
    if self_cast is None:
        return None
    other_cast = cast(pair[1], promote, ex)
    if other_cast is None:
        return None
    return l0_mul(self_cast, other_cast, ex)


@_l2.phase1("aclnnMul")
def aclnnMulGetWorkspaceSize(
    self: aclTensor | None, other: aclTensor | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnMul: ``out = self * other`` (broadcast)."""
    ex = _l2.l2_dfx_phase1("aclnnMul", workspaceSize, executor, self=self, other=other, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_mul_params(self, other, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and other is not None and out is not None
    ex.bind_arguments(self=self, other=other, out=out)
    if self.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    return finish(ex, _mul_tensors(ex, self, other), out, workspaceSize, executor)


aclnnMul = _l2.phase2("aclnnMul")


# -- aclnnMuls ------------------------------------------------------------------------------------


def infer_tensor_scalar_dtype(self: aclTensor, other: aclScalar, out: aclTensor) -> int:
    """``InferTensorScalarDtype``: the dtype a tensor times a scalar computes in."""
    s, o = self.dtype, other.dtype
    if _soc.current().is_regbase:
        promote = combine_categories(s, scalar_default_dtype(o))
        if promote in (DT_FLOAT16, DT_BF16):
            # kept only if the scalar survives the rounding within FLT_EPSILON (absolute)
            keep = abs(casted_float(promote, other) - float(scalars.to_float(other))) <= scalars.FLT_EPSILON
            promote = promote if keep else DT_FLOAT
        return DT_COMPLEX64 if promote == DT_COMPLEX32 else promote
    if s in COMPLEX or o in COMPLEX:
        return dtypes.promote_type(s, o)
    if s in _FLOAT_TYPE:
        return s if s != DT_BF16 else DT_FLOAT  # BFLOAT16 computes in FLOAT
    if (s == DT_BOOL and o == DT_DOUBLE) or (o == DT_DOUBLE and out.dtype == DT_FLOAT):
        return DT_FLOAT
    if o in _FLOAT_TYPE or s == DT_BOOL:
        return dtypes.promote_type(s, o)
    return s


def _check_muls_promote_dtype(self: aclTensor, other: aclScalar, out: aclTensor) -> bool:
    """``CheckMulsPromoteDtype``: Ascend950 only; elsewhere nothing is checked."""
    if not _soc.current().is_regbase:
        return True
    infer = infer_tensor_scalar_dtype(self, other, out)
    name = dtypes.dt_name
    if infer == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Self dtype {name(self.dtype)} and other dtype {name(other.dtype)} can not promote dtype.",
        )
        return False
    supported = dtype_support_list()
    if infer not in supported:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"input dtype {name(self.dtype)} and {name(other.dtype)} after promote is {name(infer)}, which should "
            f"be in dtype support list {dtypes.dt_list_str(supported)}.",
        )
        return False
    return (
        checks.check_result_dtype_cast(self.dtype, infer)
        and checks.check_result_dtype_cast(other.dtype, infer)
        and checks.check_result_dtype_cast(infer, out.dtype)
    )


def _check_muls_params(self: Any, other: Any, out: Any) -> int:
    if not (
        checks.check_null(self, "self")
        and checks.check_null(other, "other", "aclScalar")
        and checks.check_null(out, "out")
    ):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (checks.check_dtype_support(self, supported, "self") and checks.check_dtype_support(out, supported, "out")):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_muls_promote_dtype(self, other, out):
        return S.ACLNN_ERR_PARAM_INVALID
    if not checks.check_shape_equal(self, out, "self", "out"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # MulsCheckFormat: a warning only; no rank check (the page lists one)


def can_use_muls(self_dtype: int, other: aclScalar) -> bool:
    """Ascend950: a FLOAT16/BFLOAT16 tensor and a floating scalar; elsewhere: a BFLOAT16 tensor
    and a DOUBLE scalar (``Muls`` keeps the tensor's dtype without rounding the scalar to it)."""
    if _soc.current().is_regbase:
        return self_dtype in (DT_BF16, DT_FLOAT16) and scalar_default_dtype(other.dtype) == DT_FLOAT
    return self_dtype == DT_BF16 and other.dtype == DT_DOUBLE


@_l2.phase1("aclnnMuls")
def aclnnMulsGetWorkspaceSize(
    self: aclTensor | None, other: aclScalar | None, out: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnMuls: ``out = self * other`` with a scalar ``other``."""
    ex = _l2.l2_dfx_phase1("aclnnMuls", workspaceSize, executor, self=self, other=other, out=out)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_muls_params(self, other, out)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert self is not None and other is not None and out is not None
    ex.bind_arguments(self=self, out=out)
    if self.is_empty():
        return empty(ex, workspaceSize, executor)
    infer = infer_tensor_scalar_dtype(self, other, out)
    result: aclTensor | None
    if can_use_muls(self.dtype, other):
        self_c = contiguous(self, ex)
        result = l0_muls(self_c, float(scalars.to_float(other)), ex) if self_c is not None else None
    else:
        # ConvertToTensor's result is not checked here: a failure surfaces at the Cast below
        other_t = ex.convert_scalar(other, infer)
        if other_t is not None and self.dtype == infer and is_mul_support_non_contiguous(self, other_t):
            result = l0_mul(self, other_t, ex)
        else:
            self_cast = contiguous_cast(ex, self, infer)
            result = l0_mul(self_cast, other_t, ex) if self_cast is not None and other_t is not None else None
    return finish(ex, result, out, workspaceSize, executor)


aclnnMuls = _l2.phase2("aclnnMuls")


# -- in place -------------------------------------------------------------------------------------


def _check_inplace_mul_params(selfRef: Any, other: Any) -> int:
    if not (checks.check_null(selfRef, "selfRef") and checks.check_null(other, "other")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    supported = dtype_support_list()
    if not (
        checks.check_dtype_support(selfRef, supported, "selfRef")
        and checks.check_dtype_support(other, supported, "other")
    ):
        return S.ACLNN_ERR_PARAM_INVALID
    promote = dtypes.promote_type(selfRef.dtype, other.dtype)
    if promote == DT_UNDEFINED:
        op_loge(
            S.ACLNN_ERR_PARAM_INVALID,
            f"Expected aclnnInplaceMul selfRef dtype [{dtypes.dt_name(selfRef.dtype)}] and other dtype "
            f"[{dtypes.dt_name(other.dtype)}] to be promotable but check failed.",
        )
        return S.ACLNN_ERR_PARAM_INVALID
    if not _soc.current().is_regbase and not checks.check_result_dtype_cast(promote, selfRef.dtype):
        return S.ACLNN_ERR_PARAM_INVALID
    shape = checks.broadcast_and_infer_shape(selfRef, other, "selfRef", "other")
    if shape is None or not checks.check_shape_equal_expected(selfRef, shape, "selfRef"):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # no rank check here


@_l2.phase1("aclnnInplaceMul")
def aclnnInplaceMulGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclTensor | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceMul: ``selfRef *= other`` (other broadcast to selfRef)."""
    ex = _l2.l2_dfx_phase1("aclnnInplaceMul", workspaceSize, executor, selfRef=selfRef, other=other, out=selfRef)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_inplace_mul_params(selfRef, other)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert selfRef is not None and other is not None
    ex.bind_arguments(selfRef=selfRef, other=other)
    if selfRef.is_empty() or other.is_empty():
        return empty(ex, workspaceSize, executor)
    pair = contiguous_pair(ex, selfRef, other)
    result: aclTensor | None = None
    if pair is not None:
        self_c, other_c = pair
        if _soc.current().is_regbase and is_mix(self_c, other_c):
            result = l0_mul(self_c, other_c, ex)
        else:
            promote = dtypes.promote_type(selfRef.dtype, other.dtype)
            self_cast = cast(self_c, promote, ex)
            other_cast = cast(other_c, promote, ex) if self_cast is not None else None
            result = l0_mul(self_cast, other_cast, ex) if self_cast is not None and other_cast is not None else None
    return finish(ex, result, selfRef, workspaceSize, executor)


aclnnInplaceMul = _l2.phase2("aclnnInplaceMul")


def _check_inplace_muls_params(selfRef: Any, other: Any) -> int:
    if not (checks.check_null(selfRef, "selfRef") and checks.check_null(other, "other", "aclScalar")):
        return S.ACLNN_ERR_PARAM_NULLPTR
    if not checks.check_dtype_support(selfRef, dtype_support_list(), "selfRef"):
        return S.ACLNN_ERR_PARAM_INVALID
    if not _check_muls_promote_dtype(selfRef, other, selfRef):
        return S.ACLNN_ERR_PARAM_INVALID
    return S.ACLNN_SUCCESS  # no shape check, no rank check, no format warning


@_l2.phase1("aclnnInplaceMuls")
def aclnnInplaceMulsGetWorkspaceSize(
    selfRef: aclTensor | None, other: aclScalar | None, workspaceSize: Any, executor: Any
) -> int:
    """Phase 1 of aclnnInplaceMuls: ``selfRef *= other`` with a scalar ``other``."""
    ex = _l2.l2_dfx_phase1("aclnnInplaceMuls", workspaceSize, executor, selfRef=selfRef, other=other, out=selfRef)
    if ex is None:
        return S.ACLNN_SUCCESS
    ret = _check_inplace_muls_params(selfRef, other)
    if ret != S.ACLNN_SUCCESS:
        return ret
    assert selfRef is not None and other is not None
    ex.bind_arguments(selfRef=selfRef)
    if selfRef.is_empty():
        return empty(ex, workspaceSize, executor)
    infer = infer_tensor_scalar_dtype(selfRef, other, selfRef)
    self_c = contiguous(selfRef, ex)  # no strided-view path in place
    result: aclTensor | None = None
    if self_c is not None:
        if can_use_muls(self_c.dtype, other):
            result = l0_muls(self_c, float(scalars.to_float(other)), ex)
        else:
            self_cast = cast(self_c, infer, ex)
            other_t = ex.convert_scalar(other, infer) if self_cast is not None else None
            result = l0_mul(self_cast, other_t, ex) if self_cast is not None and other_t is not None else None
    return finish(ex, result, selfRef, workspaceSize, executor)


aclnnInplaceMuls = _l2.phase2("aclnnInplaceMuls")
