"""Kernels that write without computing: a constant (ZerosLike, OnesLike), a value broadcast to
the output (Fill) and a tensor broadcast to the output (BroadcastTo).

Each writes the destination dtype's own encoding of the value: 0 is all-zero bits, 1 is 1.0 /
1 / true; a filled value is copied bit for bit (it was converted on the host before the launch).
ZerosLike and OnesLike read only their input's shape, never its data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

Compute = Callable[[Sequence[np.ndarray], Sequence[np.ndarray]], str]


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _as_bits(a: np.ndarray) -> np.ndarray:
    """The same elements as unsigned integers of their width: a repeated bit pattern is then a
    plain integer fill (ml_dtypes' bfloat16 converts element by element, 3-4x slower)."""
    bits = _BITS.get(a.dtype.itemsize)
    return a if bits is None or a.dtype.kind == "c" else a.view(bits)


def _repeat(out: np.ndarray, value: np.ndarray) -> None:
    """``out[...] = value`` (0-d, already in ``out``'s dtype), bit for bit."""
    _as_bits(out)[...] = _as_bits(value.reshape(1))[0]


def constant(value: int) -> Compute:
    """Every output element set to ``value`` (0 or 1) in the output's dtype."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        out = outs[0]
        _repeat(out, np.array(value, out.dtype))
        return "numpy"

    return compute


def fill(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
    """Fill(dims, value): the 0-d or one-element ``value`` repeated over the output."""
    out, value = outs[0], ins[1].reshape(())
    if value.dtype == out.dtype:
        _repeat(out, value)
    else:
        out[...] = value
    return "numpy"


def broadcast(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
    """BroadcastTo(x, shape): numpy's broadcasting rules (the shapes were checked before)."""
    outs[0][...] = ins[0]
    return "numpy"
