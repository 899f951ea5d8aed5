"""The ``Muls`` kernel: ``y = x * value`` with ``value`` a float32 attribute.

* Ascend950 (ops-math ``math/muls/op_kernel/arch35/muls_dag.h``, ``MulsOp<T, NONE, RINT>``):
  FLOAT16/BFLOAT16/FLOAT are widened to float32 (exact), multiplied by ``value`` in float32 (one
  rounding), then narrowed to the input dtype to nearest even — **two roundings** for the half
  types. COMPLEX64 multiplies both parts by ``value``.
* TBE (``dynamic/muls.py``, registered with ``support_bfp16``): BFLOAT16 is widened to float32
  before the compute and the float32 product rounded to bfloat16, as on Ascend950; FLOAT16 takes
  ``value`` rounded to float16 (``get_attr_by_cls(value, ..., "float16")``) and multiplies in
  float16 (one rounding of the exact product); FLOAT multiplies in float32.
"""

from __future__ import annotations

from collections.abc import Sequence

import ml_dtypes
import numpy as np

from ._fp import store
from .elementwise import Compute

_BF16 = np.dtype(ml_dtypes.bfloat16)
FLOAT_DTYPES = (np.dtype(np.float16), _BF16, np.dtype(np.float32))
EMULATED = (*FLOAT_DTYPES, np.dtype(np.complex64))


def muls(recipe: str, value: float) -> Compute:
    """``Muls`` of the chip's kernel family (``tbe`` or ``arch35``) with the attribute ``value``."""
    v32 = np.float32(value)

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, out = ins[0], outs[0]
        with np.errstate(all="ignore"):
            if x.dtype == np.complex64:
                r = np.empty(x.shape, np.complex64)
                r.real, r.imag = x.real * v32, x.imag * v32
                out[...] = r
                return "numpy"
            v = np.float32(np.float16(v32)) if (recipe == "tbe" and x.dtype == np.float16) else v32
            # the product of a float16 and a float16 value is exact in float32: store() then
            # rounds once, as the TBE float16 vmuls does
            store(out, np.multiply(x.astype(np.float32), v, dtype=np.float32))
        return "numpy"

    return compute
