"""The ``RealDiv`` kernel: true division ``x1 / x2`` (integers and bool through float32).

AI Core:

* Ascend950 (ops-math ``math/real_div/op_kernel/arch35``): FLOAT divides with
  ``DivHighPrecision`` (AscendC ``Div`` with ``DivAlgo::DIFF_COMPENSATION``: correctly rounded,
  "0 ulp", and **flush to zero**: a subnormal operand counts as a zero of its sign and a
  subnormal quotient becomes a zero of its sign); FLOAT16 and BFLOAT16 are widened to float32
  (exact), divided the same way, and narrowed to nearest even (the double rounding cannot
  differ from one correct rounding: 24 >= 2p + 2); INT32 is converted to float32 (nearest even)
  and divided into a FLOAT result; BOOL (0/1 bytes) through float16 and float32 into FLOAT.
* TBE (Ascend910B, 910_93, 910, 310P): ``vdiv``, taken as IEEE division correctly rounded in
  float32 without flushing subnormals (the instruction's precision is not documented);
  FLOAT16/BFLOAT16 divided in float32 and rounded once; INT32 and BOOL through float32 into
  FLOAT; the mixed pairs Ascend910B's op_api sends (FLOAT16/BFLOAT16/FLOAT in any combination,
  including a float32 divisor for a float16 result) are widened to float32, divided, and the
  quotient rounded to the output dtype (a second rounding when the output is FLOAT16/BFLOAT16).

AI CPU (``math/real_div/op_kernel_aicpu/real_div_aicpu.cpp``, same dtype on both sides): C++
``/`` — IEEE for FLOAT16 (Eigen, through float), FLOAT, DOUBLE; ``std::complex`` division
for COMPLEX64/128 (numpy's here); integers divide with C truncation, and a zero divisor anywhere
fails the kernel (``Invalid argument, division by zero.``), which the stream reports at its next
synchronize.
"""

from __future__ import annotations

from collections.abc import Sequence

import ml_dtypes
import numpy as np

from .._status import aclError
from ..runtime.stream import TaskFault
from . import accel
from ._fp import run_elementwise, run_ufunc, store
from .elementwise import DIV, DIV_FTZ, FLOATS, Compute

_BF16 = np.dtype(ml_dtypes.bfloat16)
_HALF = (np.dtype(np.float16), _BF16)
_HALF_FLOATS = (*_HALF, np.dtype(np.float32))
_TINY = np.float32(np.finfo(np.float32).tiny)


def flush_to_zero(a: np.ndarray) -> np.ndarray:
    """float32 subnormals replaced by a zero of their sign."""
    sub = (a != 0) & (np.abs(a) < _TINY)
    if not sub.any():
        return a
    return np.where(sub, np.copysign(np.float32(0), a), a).astype(np.float32)


def _as_f32(a: np.ndarray) -> np.ndarray:
    if a.dtype == np.bool_:
        return a.view(np.uint8).astype(np.float32)
    return a.astype(np.float32)  # exact for the half types; int32 rounds to nearest even


def real_div(recipe: str, aicpu: bool = False) -> Compute:
    """``RealDiv`` on the AI Core of the chip's kernel family, or on the AI CPU."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        out = outs[0]
        with np.errstate(all="ignore"):
            if aicpu:
                _aicpu(a, b, out)
                return "numpy"
            ftz = recipe == "arch35" and a.dtype != np.bool_
            if a.dtype in FLOATS and b.dtype == a.dtype and out.dtype == a.dtype:
                acc = accel.elementwise(out, a, b, halves=True)
                if acc is not None:
                    nb, kind, o, (x, y) = acc
                    nb.ew.binary_arith(DIV_FTZ if ftz else DIV, kind, x, y, o)
                    return "numba"
                if out.dtype == np.float32 and not ftz:
                    run_ufunc(np.divide, [a, b], out)
                else:
                    run_elementwise(lambda x, y: _quotient(x, y, ftz), [a, b], out)
                return "numpy"
            if a.dtype in _HALF and out.dtype == a.dtype and b.dtype == np.float32 and b.size == 1:
                acc = accel.elementwise(out, a)  # Divs of a half tensor: the scalar stays float32
                if acc is not None:
                    nb, kind, o, (x,) = acc
                    nb.ew.div_by_f32_scalar(ftz, kind, x, np.float32(b.reshape(-1)[0]), o)
                    return "numba"
            store(out, _quotient(a, b, ftz))
        return "numpy"

    return compute


def _quotient(a: np.ndarray, b: np.ndarray, ftz: bool) -> np.ndarray:
    """The float32 quotient (flushing subnormal operands and results when ``ftz``)."""
    x, y = _as_f32(a), _as_f32(b)
    if ftz:
        x, y = flush_to_zero(x), flush_to_zero(y)
    q = np.divide(x, y, dtype=np.float32)
    if ftz:
        q = flush_to_zero(q)
    return np.asarray(q)


def _aicpu(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    if a.dtype.kind in "iu":
        if np.any(b == 0):
            raise TaskFault(aclError.ACL_ERROR_RT_AICPU_EXCEPTION, "RealDiv: Invalid argument, division by zero.")
        q = np.abs(a) // np.abs(b)  # C truncation toward zero, wrapping like the C++ kernel
        out[...] = np.where((a < 0) != (b < 0), -q, q).astype(out.dtype)
        return
    if a.dtype.kind == "c":
        out[...] = np.divide(a, b)
        return
    store(out, np.divide(a, b))
