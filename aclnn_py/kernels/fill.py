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


def constant(value: int) -> Compute:
    """Every output element set to ``value`` (0 or 1) in the output's dtype."""

    def compute(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        outs[0][...] = value
        return "numpy"

    return compute


def fill(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
    """Fill(dims, value): the 0-d or one-element ``value`` repeated over the output."""
    outs[0][...] = ins[1].reshape(())
    return "numpy"


def broadcast(ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
    """BroadcastTo(x, shape): numpy's broadcasting rules (the shapes were checked before)."""
    outs[0][...] = ins[0]
    return "numpy"
