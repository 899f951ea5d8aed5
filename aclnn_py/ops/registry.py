"""Every aclnn API aclnn_py implements: the module that holds it, its C prototype and its header.

This table is the one list of the APIs: the package exports them from it (loading a module
only when one of its names is first used), the C ABI generates its headers and wrappers from
it, and the tests check that each API is exported, documented, tested and reachable from C.
``params`` are the phase-1 parameters before ``uint64_t* workspaceSize, aclOpExecutor**
executor``, as CANN's header declares them; phase 2 is always ``(void* workspace, uint64_t
workspaceSize, aclOpExecutor* executor, aclrtStream stream)``.

Importing this module only builds the rows and the name tables: a row's C prototype is parsed
when its ``params`` are first read, and nothing checks here that the modules exist (both would
cost every program's start-up once per API, issue 19); ``tests/test_registry.py`` checks that
every prototype parses and every row's module defines its two functions.

Adding an API: one row here when its module lands under ``ops/<group>/`` (every row is exported),
its two names in ``ops/_typed.py`` (what type checkers see), its tests, its page.
"""

from __future__ import annotations

import functools
import re

import attrs


@attrs.frozen
class Param:
    """One C parameter: its C type (``const aclTensor*``, ``int64_t`` ...) and its name."""

    ctype: str
    name: str

    @property
    def kind(self) -> str:
        """``tensor``, ``scalar``, ``int_array``, ``bool_array``, ``float_array``, ``tensor_list``,
        ``scalar_list``, ``int``, ``float``, ``double``, ``bool`` or ``dtype``."""
        return _KINDS[self.ctype]


_KINDS = {
    "const aclTensor*": "tensor",
    "aclTensor*": "tensor",
    "const aclScalar*": "scalar",
    "const aclIntArray*": "int_array",
    "const aclBoolArray*": "bool_array",
    "const aclFloatArray*": "float_array",
    "const aclTensorList*": "tensor_list",
    "const aclScalarList*": "scalar_list",
    "int64_t": "int",
    "int32_t": "int",
    "int8_t": "int",
    "uint64_t": "int",
    "float": "float",
    "double": "double",
    "bool": "bool",
    "aclDataType": "dtype",
}


@functools.cache
def parse_params(text: str) -> tuple[Param, ...]:
    """The parameters of a C parameter list (``const aclTensor* self, int64_t dim``); ValueError
    for a parameter it cannot split or a C type outside the kinds above."""
    out = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*(.+?[*\s])\s*(\w+)\s*", part)
        if m is None:
            raise ValueError(f"bad parameter {part!r}")
        ctype = " ".join(m.group(1).replace("*", "* ").split()).replace(" *", "*")
        if ctype not in _KINDS:
            raise ValueError(f"unknown C type {ctype!r} in {text!r}")
        out.append(Param(ctype, m.group(2)))
    return tuple(out)


@attrs.frozen
class Api:
    """One two-phase aclnn API."""

    name: str  # aclnnAdd
    module: str  # the module under aclnn_py.ops: "math.add"
    prototype: str  # the phase-1 parameters as CANN's header spells them, parsed on first use
    header: str  # where CANN installs its header: "aclnnop/aclnn_add.h"

    @property
    def params(self) -> tuple[Param, ...]:
        """The phase-1 parameters (parsed once per prototype, on first use)."""
        return parse_params(self.prototype)

    @property
    def phase1(self) -> str:
        return f"{self.name}GetWorkspaceSize"

    @property
    def names(self) -> tuple[str, str]:
        """The two C functions."""
        return (self.phase1, self.name)

    @property
    def module_path(self) -> str:
        return f"aclnn_py.ops.{self.module}"


APIS: tuple[Api, ...] = (
    # -- ops-math math/ -----------------------------------------------------------------------------
    Api("aclnnAdd", "math.add", "const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out", "aclnnop/aclnn_add.h"),
    Api("aclnnAdds", "math.add", "const aclTensor* self, const aclScalar* other, const aclScalar* alpha, aclTensor* out", "aclnnop/aclnn_add.h"),
    Api("aclnnInplaceAdd", "math.add", "const aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha", "aclnnop/aclnn_add.h"),
    Api("aclnnInplaceAdds", "math.add", "const aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha", "aclnnop/aclnn_add.h"),
    Api("aclnnSub", "math.sub", "const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out", "aclnnop/aclnn_sub.h"),
    Api("aclnnSubs", "math.sub", "const aclTensor* self, const aclScalar* other, const aclScalar* alpha, aclTensor* out", "aclnnop/aclnn_sub.h"),
    Api("aclnnInplaceSub", "math.sub", "aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha", "aclnnop/aclnn_sub.h"),
    Api("aclnnInplaceSubs", "math.sub", "aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha", "aclnnop/aclnn_sub.h"),
    Api("aclnnMul", "math.mul", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_mul.h"),
    Api("aclnnMuls", "math.mul", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_mul.h"),
    Api("aclnnInplaceMul", "math.mul", "aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_mul.h"),
    Api("aclnnInplaceMuls", "math.mul", "aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_mul.h"),
    Api("aclnnDiv", "math.div", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_div.h"),
    Api("aclnnDivs", "math.div", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_div.h"),
    Api("aclnnInplaceDiv", "math.div", "aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_div.h"),
    Api("aclnnInplaceDivs", "math.div", "aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_div.h"),
    Api("aclnnEqTensor", "math.eq_tensor", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_eq_tensor.h"),
    Api("aclnnInplaceEqTensor", "math.eq_tensor", "const aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_eq_tensor.h"),
    Api("aclnnEqScalar", "math.eq_scalar", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_eq_scalar.h"),
    Api("aclnnInplaceEqScalar", "math.eq_scalar", "const aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_eq_scalar.h"),
    Api("aclnnNeTensor", "math.ne_tensor", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_ne_tensor.h"),
    Api("aclnnInplaceNeTensor", "math.ne_tensor", "aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_ne_tensor.h"),
    Api("aclnnNeScalar", "math.ne_scalar", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_ne_scalar.h"),
    Api("aclnnInplaceNeScalar", "math.ne_scalar", "aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_ne_scalar.h"),
    Api("aclnnGtTensor", "math.gt_tensor", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_gt_tensor.h"),
    Api("aclnnInplaceGtTensor", "math.gt_tensor", "const aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_gt_tensor.h"),
    Api("aclnnGtScalar", "math.gt_scalar", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_gt_scalar.h"),
    Api("aclnnInplaceGtScalar", "math.gt_scalar", "aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_gt_scalar.h"),
    Api("aclnnGeTensor", "math.ge_tensor", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_ge_tensor.h"),
    Api("aclnnInplaceGeTensor", "math.ge_tensor", "aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_ge_tensor.h"),
    Api("aclnnGeScalar", "math.ge_scalar", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_ge_scalar.h"),
    Api("aclnnInplaceGeScalar", "math.ge_scalar", "aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_ge_scalar.h"),
    Api("aclnnLtTensor", "math.lt_tensor", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_lt_tensor.h"),
    Api("aclnnInplaceLtTensor", "math.lt_tensor", "const aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_lt_tensor.h"),
    Api("aclnnLtScalar", "math.lt_scalar", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_lt_scalar.h"),
    Api("aclnnInplaceLtScalar", "math.lt_scalar", "const aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_lt_scalar.h"),
    Api("aclnnLeTensor", "math.le_tensor", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_le_tensor.h"),
    Api("aclnnInplaceLeTensor", "math.le_tensor", "aclTensor* selfRef, const aclTensor* other", "aclnnop/aclnn_le_tensor.h"),
    Api("aclnnLeScalar", "math.le_scalar", "const aclTensor* self, const aclScalar* other, aclTensor* out", "aclnnop/aclnn_le_scalar.h"),
    Api("aclnnInplaceLeScalar", "math.le_scalar", "aclTensor* selfRef, const aclScalar* other", "aclnnop/aclnn_le_scalar.h"),
    Api("aclnnMaximum", "math.maximum", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_maximum.h"),
    Api("aclnnMinimum", "math.minimum", "const aclTensor* self, const aclTensor* other, aclTensor* out", "aclnnop/aclnn_minimum.h"),
    Api("aclnnCast", "math.cast", "const aclTensor* self, aclDataType dtype, aclTensor* out", "aclnnop/aclnn_cast.h"),
    Api("aclnnInplaceZero", "math.zero", "aclTensor* selfRef", "aclnnop/aclnn_zero.h"),
    Api("aclnnInplaceOne", "math.ones", "const aclTensor* selfRef", "aclnnop/aclnn_ones.h"),
    Api("aclnnSign", "math.sign", "const aclTensor* self, aclTensor* result", "aclnnop/aclnn_sign.h"),
    Api("aclnnAll", "math.all", "const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out", "aclnnop/aclnn_all.h"),
    Api("aclnnAny", "math.any", "const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out", "aclnnop/aclnn_any.h"),
    Api("aclnnReduceSum", "math.reduce_sum", "const aclTensor* self, const aclIntArray* dims, bool keepDims, aclDataType dtype, aclTensor* out", "aclnnop/aclnn_reduce_sum.h"),
    # -- ops-math conversion/ -----------------------------------------------------------------------
    Api("aclnnInplaceCopy", "conversion.copy", "aclTensor* selfRef, const aclTensor* src", "aclnnop/aclnn_copy.h"),
    Api("aclnnInplaceFillScalar", "conversion.fill_scalar", "aclTensor* selfRef, const aclScalar* value", "aclnnop/aclnn_fill_scalar.h"),
    Api("aclnnClamp", "conversion.clamp", "const aclTensor* self, const aclScalar* clipValueMin, const aclScalar* clipValueMax, aclTensor* out", "aclnnop/aclnn_clamp.h"),
    Api("aclnnClampMin", "conversion.clamp", "const aclTensor* self, const aclScalar* clipValueMin, aclTensor* out", "aclnnop/aclnn_clamp.h"),
    Api("aclnnClampMax", "conversion.clamp", "const aclTensor* self, const aclScalar* clipValueMax, aclTensor* out", "aclnnop/aclnn_clamp.h"),
    # -- ops-nn ---------------------------------------------------------------------------------------
    Api("aclnnIndexSelect", "index.index_select", "const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out", "aclnnop/aclnn_index_select.h"),
    Api("aclnnSoftmax", "activation.softmax", "const aclTensor* self, int64_t dim, aclTensor* out", "aclnnop/aclnn_softmax.h"),
    Api("aclnnHardswish", "activation.hardswish", "const aclTensor* self, const aclTensor* out", "aclnnop/aclnn_hardswish.h"),
    Api("aclnnInplaceHardswish", "activation.hardswish", "const aclTensor* self", "aclnnop/aclnn_hardswish.h"),
    Api("aclnnHardswishBackward", "activation.hardswish_backward", "const aclTensor* gradOutput, const aclTensor* self, aclTensor* out", "aclnnop/aclnn_hardswish_backward.h"),
    Api("aclnnSmoothL1Loss", "loss.smooth_l1_loss", "const aclTensor* self, const aclTensor* target, int64_t reduction, float beta, aclTensor* result", "aclnnop/aclnn_smooth_l1_loss.h"),
    Api("aclnnSmoothL1LossBackward", "loss.smooth_l1_loss_backward", "const aclTensor* gradOut, const aclTensor* self, const aclTensor* target, int64_t reduction, float beta, aclTensor* gradInput", "aclnnop/aclnn_smooth_l1_loss_backward.h"),
    Api("aclnnScaledMaskedSoftmax", "vfusion.scaled_masked_softmax", "const aclTensor* x, const aclTensor* mask, double scale, bool fixedTriuMask, aclTensor* y", "aclnnop/aclnn_scaled_masked_softmax.h"),
    Api("aclnnScaledMaskedSoftmaxBackward", "vfusion.scaled_masked_softmax_backward", "const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask, double scale, bool fixTriuMask, aclTensor* out", "aclnnop/aclnn_scaled_masked_softmax_backward.h"),
)  # fmt: skip

BY_NAME: dict[str, Api] = {a.name: a for a in APIS}


# Every row is an implemented API (tests/test_registry.py checks that each module defines its two
# functions); the name is kept for the code that reads it.
IMPLEMENTED: tuple[Api, ...] = APIS

# Every exported C function name -> the module that defines it.
EXPORTS: dict[str, str] = {n: a.module_path for a in APIS for n in a.names}
