"""``l0op::Sub`` — ops-math ``math/sub/op_api/sub.cpp``: broadcast shape, self's dtype; AI Core
by self's dtype and SoC (910B up to 950: FLOAT, FLOAT16, BF16, INT64, INT32, INT8, UINT8, BOOL,
COMPLEX64; 910 and 310P: no BF16, no COMPLEX64), else AI CPU."""

from __future__ import annotations

from .. import soc as _soc
from ..dtypes import (
    DT_BF16,
    DT_BOOL,
    DT_COMPLEX64,
    DT_FLOAT,
    DT_FLOAT16,
    DT_INT8,
    DT_INT32,
    DT_INT64,
    DT_UINT8,
)  # fmt: skip
from ..executor.executor import aclOpExecutor
from ..kernels import elementwise
from ..tensor import aclTensor
from ._binary import elementwise as launch_elementwise

AICORE_910B_TO_910E = (DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT64, DT_INT32, DT_INT8, DT_UINT8, DT_BOOL, DT_COMPLEX64)
AICORE_910 = (DT_FLOAT, DT_FLOAT16, DT_INT32, DT_INT64, DT_INT8, DT_UINT8, DT_BOOL)


def aicore_dtypes() -> tuple[int, ...]:
    """Keyed on the SoC version: Ascend910B <= soc <= Ascend910E covers 910B, 910_93 and 950."""
    return AICORE_910B_TO_910E if _soc.current().family in ("Ascend910B", "Ascend910_93", "Ascend950") else AICORE_910


def sub(ex: aclOpExecutor, self: aclTensor, other: aclTensor) -> aclTensor | None:
    """``l0op::Sub(self, other, executor)``."""
    recipe = _soc.current().kernel_family
    aicore = self.dtype in aicore_dtypes()
    return launch_elementwise(ex, "Sub", [self, other], self.dtype, aicore, elementwise.sub(recipe))
