"""``l0op::Cast`` — ops-math ``math/cast``: nothing when the dtype already matches, else a Cast
kernel into the workspace."""

from __future__ import annotations

from .. import dtypes
from ..executor.executor import aclOpExecutor
from ..kernels import cast as cast_kernel
from ..tensor import aclTensor


def cast(x: aclTensor, dst: int, ex: aclOpExecutor) -> aclTensor | None:
    """``l0op::Cast``: nothing when the dtype already matches, else a Cast kernel into workspace."""
    step = ex.step("Cast", [x], dst_type=dtypes.dt_name(dst))
    if x.dtype == dst:
        step.outputs = [x]
        step.note = f"no kernel: already {dtypes.dt_name(dst)}"
        return x
    if dtypes.numpy_dtype(x.dtype) is None or dtypes.numpy_dtype(dst) is None:
        return None  # neither AI Core nor AI CPU casts these (unreported "check ... failed.")
    out = ex.alloc_tensor(x.view_shape, dst, x.storage_format)
    ex.launch(step, "Cast", [x], [out], cast_kernel.make(dst), dst_type=dtypes.dt_name(dst))
    step.outputs = [out]
    return out
