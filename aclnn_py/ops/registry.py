"""Every aclnn API aclnn_py implements: the module that holds it, its C prototype and its header.

This table is the one list of the APIs: the package exports them from it (loading a module
only when one of its names is first used), the C ABI generates its headers and wrappers from
it, and the tests check that each API is exported, documented, tested and reachable from C.
``params`` are the phase-1 parameters before ``uint64_t* workspaceSize, aclOpExecutor**
executor``, as CANN's header declares them; phase 2 is always ``(void* workspace, uint64_t
workspaceSize, aclOpExecutor* executor, aclrtStream stream)``.

Adding an API: one row here, its module under ``ops/<group>/``, its tests, its page.
"""

from __future__ import annotations

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


def _params(text: str) -> tuple[Param, ...]:
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
    params: tuple[Param, ...] = attrs.field(converter=_params)
    header: str  # where CANN installs its header: "aclnnop/aclnn_add.h"

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
    # -- ops-math math/add ------------------------------------------------------------------------
    Api("aclnnAdd", "math.add", "const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out",
        "aclnnop/aclnn_add.h"),
    Api("aclnnAdds", "math.add",
        "const aclTensor* self, const aclScalar* other, const aclScalar* alpha, aclTensor* out", "aclnnop/aclnn_add.h"),
    Api("aclnnInplaceAdd", "math.add", "const aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha",
        "aclnnop/aclnn_add.h"),
    Api("aclnnInplaceAdds", "math.add", "const aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha",
        "aclnnop/aclnn_add.h"),
    # -- ops-nn ----------------------------------------------------------------------------------
    Api("aclnnHardswishBackward", "activation.hardswish_backward",
        "const aclTensor* gradOutput, const aclTensor* self, aclTensor* out", "aclnnop/aclnn_hardswish_backward.h"),
    Api("aclnnSmoothL1LossBackward", "loss.smooth_l1_loss_backward",
        "const aclTensor* gradOut, const aclTensor* self, const aclTensor* target, int64_t reduction, float beta, "
        "aclTensor* gradInput", "aclnnop/aclnn_smooth_l1_loss_backward.h"),
    Api("aclnnScaledMaskedSoftmaxBackward", "vfusion.scaled_masked_softmax_backward",
        "const aclTensor* gradOutput, const aclTensor* y, const aclTensor* mask, double scale, bool fixTriuMask, "
        "aclTensor* out", "aclnnop/aclnn_scaled_masked_softmax_backward.h"),
)  # fmt: skip

BY_NAME: dict[str, Api] = {a.name: a for a in APIS}

# Every exported C function name -> the module that defines it.
EXPORTS: dict[str, str] = {n: a.module_path for a in APIS for n in a.names}
