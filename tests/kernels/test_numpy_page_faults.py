"""The numpy path's blocks do not page-fault their temporaries anew.

A block of 256 Ki elements makes temporaries of 1 MiB (float32) or 2 MiB (float64), over
glibc's initial threshold for giving freed memory back to the system: a new temporary each
block then costs its pages' faults again (4x the arithmetic's time on 2^24 float32 Axpy
elements). Two defences, each tested in a fresh process (page faults are counted, not timed):
the routes that need float64 buffers allocate them once a call, and importing the kernels
raises glibc's thresholds the way a freed 16 MiB array does (``_fp._raise_malloc_thresholds``)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")

_COUNT = r"""
import resource
import numpy as np

def faults(call, times=3):
    call()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(times):
        call()
    print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) // times)

n = 1 << 22  # 16 blocks
rng = np.random.default_rng(0)
"""


def _faults(script: str) -> list[int]:
    env = {**os.environ, "ACLNN_PY_KERNELS": "numpy"}
    run = subprocess.run([sys.executable, "-c", _COUNT + script], capture_output=True, text=True, check=True, env=env)
    return [int(v) for v in run.stdout.split()]


def test_axpy_float32_routes_allocate_once_a_call():
    """glibc's thresholds fixed at their defaults (mallopt: no raising them): each route of
    the float32 Axpy (float64 sums; alpha = 2; same shape, scalar and row x2) takes fewer page
    faults a call of 16 blocks than half its 16 MiB output's pages (16,641 with a new float64
    temporary a block)."""
    faults = _faults(
        """
import ctypes
libc = ctypes.CDLL("libc.so.6")
assert libc.mallopt(-3, 131072) == 1 and libc.mallopt(-1, 131072) == 1  # M_MMAP_/M_TRIM_THRESHOLD
from aclnn_py.kernels import elementwise
x1 = rng.standard_normal(n).astype(np.float32).reshape(-1, 1024)
x2 = rng.standard_normal(n).astype(np.float32)
out = np.empty_like(x1)
for alpha in (np.float32(1.7), np.float32(2.0)):
    for b in (x2.reshape(-1, 1024), x2[:1], x2[:1024]):
        faults(lambda: elementwise.axpy_float32(x1, b, alpha, out))
"""
    )
    assert len(faults) == 6 and max(faults) < 2048, faults


def test_recipes_run_whole_keep_their_temporaries():
    """A fresh process with glibc's own (rising) thresholds: a float16 recipe run block by
    block (``_fp.run_elementwise``, Hardswish's TBE recipe: five float32 temporaries a block)
    and a float16 fast form (``_fp.run_blocks``, SmoothL1LossBackward: float32 copies of its
    inputs) take no more page faults a call than a tenth of their output's pages (10,240 and 384
    before the thresholds were raised and the copies got buffers)."""
    faults = _faults(
        """
from aclnn_py.kernels import _fp, hard_swish, smooth_l1_loss_grad_v2 as sl1b
def normals(scale):  # made in small pieces: freeing a large temporary would raise the thresholds
    a = np.empty(n, np.float16)
    for i in range(0, n, 4096):
        a[i : i + 4096] = rng.standard_normal(4096) * scale
    return a

x, y, g = normals(3), normals(3), normals(1)
out = np.empty_like(x)
faults(lambda: _fp.run_elementwise(hard_swish.tbe, [x], out))
kernel = sl1b.make("tbe", 1.0, "none", (n,))
faults(lambda: kernel([x, y, g], [out]))
"""
    )
    assert len(faults) == 2 and max(faults) < 2048 // 10, faults
