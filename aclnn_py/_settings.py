"""Settings read from the environment that name one of a few choices (the sanitizer's mode, the
stream policy, the kernel path): one check and one message for all of them, so a bad value is
refused the same way whichever variable it is in. See docs/runtime.md's settings table."""

from __future__ import annotations

import os
from collections.abc import Sequence

# ACLNN_PY_KERNELS: aclnn_py.kernels.accel reads it at every launch; aclInit checks it first.
KERNELS_ENV = "ACLNN_PY_KERNELS"
KERNEL_PATHS = ("numpy", "numba", "auto")


def choice(var: str, choices: Sequence[str], default: str, noun: str, value: str | None = None) -> str:
    """The value of ``var`` (or ``value`` when the caller read it already), ``default`` when
    unset or empty; ValueError naming the variable and the choices for anything else."""
    v = (os.environ.get(var, "") if value is None else value) or default
    if v not in choices:
        raise ValueError(f"unknown {noun} {v!r} in {var}; expected one of {', '.join(choices)}")
    return v
