"""The Sub kernel's bool path (every other dtype is :func:`aclnn_py.kernels.elementwise.sub`).

``Sub`` on bool computes ``|x1 - x2|`` on the stored bytes: the TBE kernel (``dynamic/sub.py``)
casts both to float16, subtracts, takes ``vabs`` and casts back to bool (int8 storage); the
Ascend950 kernel (``sub_dag.h``, ``SubBoolCompute``) subtracts as int8 and takes ``Abs``. For
true/false (bytes 1/0) this is an exclusive or; it differs from a bitwise xor only for the
byte 2 that the TBE Add stores for True + True (|2 - 1| = 1, while 2 ^ 1 = 3).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import elementwise
from .elementwise import Compute


def _bool_bytes(a: np.ndarray) -> np.ndarray:
    """The bytes of a bool array as int16 (as the kernels read them: signed int8)."""
    return a.view(np.int8).astype(np.int16)


def sub(recipe: str) -> Compute:
    """``Sub``: x1 - x2; bool: ``|x1 - x2|`` of the stored bytes."""
    shared = elementwise.sub(recipe)

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        a, b = ins
        if a.dtype != np.bool_:
            return shared(ins, outs)
        d = _bool_bytes(a) - _bool_bytes(b)
        # int8 arithmetic: the difference wraps to int8 and |-128| stays -128 (Ascend950's Sub
        # and Abs on int8; the TBE float16 path agrees on every byte pair a bool can hold: 0..2)
        with np.errstate(all="ignore"):
            d8 = d.astype(np.int8)
            outs[0].view(np.int8)[...] = np.where(d8 < 0, -d8, d8)
        return "numpy"

    return compute
