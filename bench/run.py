#!/usr/bin/env python3
"""aclnn_py benchmarks: start-up, small calls, every kernel path against the copy bound and
PyTorch, memory.

    python bench/run.py [--json results.json] [--quick] [--only NAME[,NAME...]]

Prints the machine (CPU, the vector instructions numba compiles for) and tables. Yardsticks
measured in the same run: a plain ``np.copyto`` moving the bytes every kernel of the call's
executor graph moves (the machine's memory bandwidth limit: "the copy bound", read from the
executor's launches: a call CANN runs as several kernels, e.g. bfloat16 Muls as Cast, Mul and
Cast, or a strided input through the Slice, StridedSlice, Transpose or BroadcastTo kernels
CANN's Contiguous chooses, is held to the sum of its kernels' bounds, and the line says how much
more that is than the call's own bytes; a view a kernel reads through its strides, and the box
a Slice or StridedSlice reads unless it is one contiguous run, as a strided copy) and, when torch is
importable, PyTorch CPU's own kernels for the same maths with one thread, writing into a
preallocated output as the aclnn call does (``out=``; an allocating torch call pays page faults
on every fresh output, which would make the yardstick up to 5x slower). Every operator's kernel
paths are timed for each dtype and layout (same shape, a scalar operand, a row broadcast, a
strided view) on the numpy and the numba path; an accelerated path slower than 1.5x its copy
bound is flagged with '!' and listed at the end (the speed goals live here, not in tests).
Ratios are what to compare across machines; absolute times drift. The emulated chip is
``ACLNN_PY_SOC`` (default Ascend910B).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, ROOT)

import aclnn_py as A  # noqa: E402  # the API functions, by name (every case below names its pair)
from aclnn_py import (  # noqa: E402
    ACL_FORMAT_ND,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclCreateTensor,
    aclDestroyTensor,
    aclFinalize,
    aclInit,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from aclnn_py.executor import cache  # noqa: E402
from aclnn_py.kernels import accel  # noqa: E402

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # the torch yardstick is optional
    torch = None

BF16 = np.dtype(ml_dtypes.bfloat16)
F32, F16 = np.dtype(np.float32), np.dtype(np.float16)
ACL = {F32: 0, F16: 1, BF16: 27, np.dtype(np.bool_): 12, np.dtype(np.int64): 9}
ROWS: list[dict[str, Any]] = []
# The targets, checked at the end of the run: (section, what, limit)


# What the in-process timings read: wall time (the default), or with --cpu-time this process's
# CPU time (every thread of it: a stream's worker too), which time spent waiting for a CPU that
# other work holds does not inflate (a machine shared with other jobs); start-up is wall time.
CLOCK: Callable[[], float] = time.perf_counter


def best(fn: Callable[[], Any], repeat: int, number: int = 1) -> float:
    """Best of ``repeat`` timings of ``number`` calls, in seconds per call."""
    times = []
    for _ in range(repeat):
        gc.collect()
        t = CLOCK()
        for _ in range(number):
            fn()
        times.append((CLOCK() - t) / number)
    return min(times)


class Device:
    def __init__(self) -> None:
        aclInit(None)
        aclrtSetDevice(0)
        s = Ref()
        aclrtCreateStream(s)
        self.stream = s.value
        self.ptrs: list[int] = []
        self.tensors: list[Any] = []
        self.scalars: list[Any] = []

    def tensor(self, a: np.ndarray) -> Any:
        a = np.ascontiguousarray(a)
        p = Ref()
        aclrtMalloc(p, max(a.nbytes, 1), ACL_MEM_MALLOC_HUGE_FIRST)
        aclrtMemcpy(p.value, a.nbytes, a, a.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
        self.ptrs.append(p.value)
        shape = list(a.shape)
        t = aclCreateTensor(shape, len(shape), ACL[a.dtype], None, 0, ACL_FORMAT_ND, shape, len(shape), p.value)
        self.tensors.append(t)
        return t

    def strided(self, a: np.ndarray, n: int) -> Any:
        """A [n] view of every second element of ``a`` (2n elements) in device memory."""
        p = Ref()
        aclrtMalloc(p, a.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
        aclrtMemcpy(p.value, a.nbytes, a, a.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
        self.ptrs.append(p.value)
        t = aclCreateTensor([n], 1, ACL[a.dtype], [2], 0, ACL_FORMAT_ND, [a.size], 1, p.value)
        self.tensors.append(t)
        return t

    def scalar(self, value: float) -> Any:
        s = A.aclCreateScalar(np.float32(value), ACL[F32])
        self.scalars.append(s)
        return s

    def int_array(self, values: list[int]) -> Any:
        a = A.aclCreateIntArray(values, len(values))
        self.scalars.append(a)
        return a

    def workspace(self, n: int) -> int | None:
        if not n:
            return None
        p = Ref()
        aclrtMalloc(p, n, ACL_MEM_MALLOC_HUGE_FIRST)
        self.ptrs.append(p.value)
        return p.value

    def call(self, p1: Callable[..., int], p2: Callable[..., int], args: tuple[Any, ...], ws_cache: dict) -> None:
        ws, ex = Ref(0), Ref()
        assert p1(*args, ws, ex) == 0
        key = (p1, ws.value)
        if key not in ws_cache:
            ws_cache[key] = self.workspace(ws.value)
        assert p2(ws_cache[key], ws.value, ex.value, self.stream) == 0
        assert aclrtSynchronizeStream(self.stream) == 0

    def close(self) -> None:
        for t in self.tensors:
            aclDestroyTensor(t)
        for s in self.scalars:
            if type(s).__name__ == "aclScalar":
                A.aclDestroyScalar(s)
            else:
                A.aclDestroyIntArray(s)
        for p in self.ptrs:
            aclrtFree(p)
        aclrtDestroyStream(self.stream)
        aclrtResetDevice(0)
        aclFinalize()


def row(section: str, case: str, seconds: float, show: bool = True, unit: str = "ms", **extra: Any) -> None:
    """One result: kept for the JSON file and, with ``show``, printed in ``unit`` (one unit a
    section; ratios as x, the torch time in the section's unit)."""
    entry = {"section": section, "case": case, "seconds": seconds, **extra}
    ROWS.append(entry)
    if show:
        scale = 1e6 if unit == "us" else 1e3
        shown = []
        for k, v in extra.items():
            if k == "torch":
                shown.append(f"torch {v * scale:8.1f} {unit}")
            elif isinstance(v, float):
                shown.append(f"{k}={v:.2f}")
        print(f"  {case:64s} {seconds * scale:9.1f} {unit}  " + "  ".join(shown))


def to_torch(a: np.ndarray) -> Any:
    if a.dtype == BF16:
        return torch.from_numpy(a.view(np.uint16).astype(np.int32) << 16).view(torch.float32).to(torch.bfloat16)
    return torch.from_numpy(a.copy())


# -- the cases ----------------------------------------------------------------------------------
# A case: (phase 1, phase 2, arguments, bytes the call moves, the torch yardstick or None).
# The bytes: a count (moved contiguously), or (contiguous bytes, elements read through a
# strided view): the copy bound is then np.copyto of those bytes plus np.copyto of such a view.
Case = tuple[Callable[..., int], Callable[..., int], tuple[Any, ...], Any, Callable[[], Any] | None]


def _api(name: str) -> tuple[Callable[..., int], Callable[..., int]]:
    return getattr(A, f"{name}GetWorkspaceSize"), getattr(A, name)


LAYOUTS = ("same shape", "scalar operand", "row broadcast", "strided view")


class Inputs:
    """The device tensors (and their torch twins) the cases of one size and dtype share: [n]
    vectors, their [n/1024, 1024] views, a [1] tensor (a scalar operand), a [1024] row, and a
    strided view (every second element of a 2n buffer)."""

    def __init__(self, dev: Device, n: int, dtype: np.dtype, rng: np.random.Generator) -> None:
        self.dev, self.n, self.dtype = dev, n, dtype
        self.x = (rng.standard_normal(n) * 3).astype(np.float32).astype(dtype)
        self.y = (rng.standard_normal(n) * 3).astype(np.float32).astype(dtype)
        self.g = rng.standard_normal(n).astype(np.float32).astype(dtype)
        self.xt, self.yt, self.gt = dev.tensor(self.x), dev.tensor(self.y), dev.tensor(self.g)
        self.ot = dev.tensor(np.zeros(n, dtype))
        self.bt = dev.tensor(np.zeros(n, np.bool_))
        other = F16 if dtype == F32 else F32
        self.cast_dtype = other
        self.ct = dev.tensor(np.zeros(n, other))
        rows = max(n // 1024, 1)
        self.rows, self.cols = rows, n // rows
        self.x2t = dev.tensor(self.x.reshape(rows, -1))
        self.g2t = dev.tensor(self.g.reshape(rows, -1))
        self.o2t = dev.tensor(np.zeros((rows, n // rows), dtype))
        self.b2t = dev.tensor(np.zeros((rows, n // rows), np.bool_))
        self.row = self.y[: self.cols].copy()
        self.rowt = dev.tensor(self.row)
        self.one = self.y[:1].copy()
        self.onet = dev.tensor(self.one)
        self.wide = (rng.standard_normal(2 * n) * 3).astype(np.float32).astype(dtype)
        self.st = dev.strided(self.wide, n)
        self.index = np.arange(rows, dtype=np.int64)[::-1].copy()
        self.it = dev.tensor(self.index)
        self.t: dict[str, Any] = {}
        if torch is not None:
            self.t = {
                "x": to_torch(self.x), "y": to_torch(self.y), "g": to_torch(self.g),
                "o": to_torch(np.zeros(n, dtype)), "b": torch.zeros(n, dtype=torch.bool),
                "c": to_torch(np.zeros(n, other)), "i": torch.from_numpy(self.index),
                "row": to_torch(self.row), "one": to_torch(self.one), "s": to_torch(self.wide)[::2],
            }  # fmt: skip
            self.t["x2"] = self.t["x"].view(rows, -1)
            self.t["g2"] = self.t["g"].view(rows, -1)
            self.t["o2"] = self.t["o"].view(rows, -1)
            self.t["b2"] = self.t["b"].view(rows, -1)

    def operands(self, layout: str) -> tuple[Any, Any, Any, Any, Any, Any, Any]:
        """(first, second, out, BOOL out, and their torch twins but the BOOL one's) of a layout."""
        t = self.t
        if layout == "same shape":
            return self.xt, self.yt, self.ot, self.bt, t.get("x"), t.get("y"), t.get("o")
        if layout == "scalar operand":
            return self.xt, self.onet, self.ot, self.bt, t.get("x"), t.get("one"), t.get("o")
        if layout == "row broadcast":
            return self.x2t, self.rowt, self.o2t, self.b2t, t.get("x2"), t.get("row"), t.get("o2")
        return self.st, self.yt, self.ot, self.bt, t.get("s"), t.get("y"), t.get("o")

    def moved(self, layout: str, reads: int, writes: int, out_item: int | None = None) -> tuple[int, int]:
        """(contiguous bytes, elements read through the strided view) a call moves: ``reads``
        inputs (the first strided in that layout; the second broadcast, its bytes negligible)
        and ``writes`` outputs of ``out_item`` bytes an element."""
        n, item = self.n, self.dtype.itemsize
        out_item = item if out_item is None else out_item
        if layout in ("scalar operand", "row broadcast"):
            reads -= 1  # the broadcast operand's bytes are negligible
        strided = n if layout == "strided view" else 0
        return (reads * n * item - strided * item) + writes * n * out_item, strided


def elementwise_cases(s: Inputs, layout: str = "same shape") -> dict[str, Case]:
    """Every elementwise operator on ``n`` elements of one dtype in one layout (the operators
    that take one tensor: same shape and strided view; the scalar APIs: their scalar operand
    and strided view)."""
    dev, n, item = s.dev, s.n, s.dtype.itemsize
    one, two, lo, hi = dev.scalar(1.0), dev.scalar(2.0), dev.scalar(-1.0), dev.scalar(1.0)
    s7 = dev.scalar(1.7)
    t = s.t
    ops = torch.ops.aten if torch else None
    a, b, o, ob, ta, tb, to = s.operands(layout)
    tob = t.get("b2") if layout == "row broadcast" else t.get("b")
    tg = t.get("g")

    def tf(fn: Callable[[], Any]) -> Callable[[], Any] | None:
        return fn if torch is not None else None

    def mv(reads: int, writes: int = 1, out_item: int | None = None) -> Any:
        return s.moved(layout, reads, writes, out_item)

    cases: dict[str, Case] = {}
    # two tensors: every layout
    cases.update({
        "Add": (*_api("aclnnAdd"), (a, b, one, o), mv(2), tf(lambda: torch.add(ta, tb, out=to))),
        "Add alpha=2 (Axpy)": (*_api("aclnnAdd"), (a, b, two, o), mv(2),
                               tf(lambda: torch.add(ta, tb, alpha=2, out=to))),
        # alpha = 2 takes the exact short routes (a power of two); 1.7 the general one-rounding
        # loops (float16: rounded to odd; float32 numpy: the float64 sum and its breakpoints)
        "Add alpha=1.7 (Axpy)": (*_api("aclnnAdd"), (a, b, s7, o), mv(2),
                                 tf(lambda: torch.add(ta, tb, alpha=1.7, out=to))),
        "Sub": (*_api("aclnnSub"), (a, b, one, o), mv(2), tf(lambda: torch.sub(ta, tb, out=to))),
        "Mul": (*_api("aclnnMul"), (a, b, o), mv(2), tf(lambda: torch.mul(ta, tb, out=to))),
        "Div": (*_api("aclnnDiv"), (a, b, o), mv(2), tf(lambda: torch.div(ta, tb, out=to))),
        "GtTensor": (*_api("aclnnGtTensor"), (a, b, ob), mv(2, 1, 1), tf(lambda: torch.gt(ta, tb, out=tob))),
        "Maximum": (*_api("aclnnMaximum"), (a, b, o), mv(2), tf(lambda: torch.maximum(ta, tb, out=to))),
        "SmoothL1LossBackward": (*_api("aclnnSmoothL1LossBackward"), (s.g2t if layout == "row broadcast" else s.gt,
                                 a, b, 0, 1.0, o), mv(3),
                                 tf(lambda: ops.smooth_l1_loss_backward.grad_input(
                                     t["g2"] if layout == "row broadcast" else tg, ta, tb, 0, 1.0, grad_input=to))),
    })  # fmt: skip
    if layout in ("scalar operand", "row broadcast"):
        return cases
    # one tensor (and the scalar APIs): contiguous and strided
    cases.update({
        "InplaceAdd": (*_api("aclnnInplaceAdd"), (s.ot, a, one), mv(2), tf(lambda: t["o"].add_(ta))),
        "Adds": (*_api("aclnnAdds"), (a, two, one, o), mv(1), tf(lambda: torch.add(ta, 2.0, out=to))),
        "Muls": (*_api("aclnnMuls"), (a, two, o), mv(1), tf(lambda: torch.mul(ta, 2.0, out=to))),
        "Divs": (*_api("aclnnDivs"), (a, two, o), mv(1), tf(lambda: torch.div(ta, 2.0, out=to))),
        "LeScalar": (*_api("aclnnLeScalar"), (a, two, ob), mv(1, 1, 1), tf(lambda: torch.le(ta, 2.0, out=tob))),
        f"Cast to {s.cast_dtype.name}": (*_api("aclnnCast"), (a, ACL[s.cast_dtype], s.ct),
                                         mv(1, 1, s.cast_dtype.itemsize), tf(lambda: t["c"].copy_(ta))),
        "InplaceCopy": (*_api("aclnnInplaceCopy"), (s.ot, a), mv(1), tf(lambda: t["o"].copy_(ta))),
        "Sign": (*_api("aclnnSign"), (a, o), mv(1), tf(lambda: torch.sign(ta, out=to))),
        "Clamp": (*_api("aclnnClamp"), (a, lo, hi, o), mv(1), tf(lambda: torch.clamp(ta, -1, 1, out=to))),
        "Hardswish": (*_api("aclnnHardswish"), (a, o), mv(1), tf(lambda: ops.hardswish.out(ta, out=to))),
        "SmoothL1Loss (none)": (*_api("aclnnSmoothL1Loss"), (a, s.yt, 0, 1.0, o), mv(2),
                                tf(lambda: ops.smooth_l1_loss.out(ta, t["y"], 0, 1.0, out=to))),
        "HardswishBackward": (*_api("aclnnHardswishBackward"), (s.gt, a, o), mv(2),
                              tf(lambda: ops.hardswish_backward.out(tg, ta, out=to))),
    })  # fmt: skip
    if layout == "same shape":
        cases.update({
            "InplaceZero": (*_api("aclnnInplaceZero"), (s.ot,), (n * item, 0), tf(lambda: t["o"].zero_())),
            "InplaceFillScalar": (*_api("aclnnInplaceFillScalar"), (s.ot, two), (n * item, 0),
                                  tf(lambda: t["o"].fill_(2.0))),
            "IndexSelect (rows of 1024)": (*_api("aclnnIndexSelect"), (s.x2t, 0, s.it, s.o2t), (2 * n * item, 0),
                                           tf(lambda: torch.index_select(t["x2"], 0, t["i"], out=t["o2"]))),
        })  # fmt: skip
    return cases


def reduction_cases(s: Inputs) -> dict[str, Case]:
    """Reductions and softmax over the [n/1024, 1024] view of the same data."""
    dev, n, item, rows = s.dev, s.n, s.dtype.itemsize, s.rows
    cols = n // rows
    t = s.t
    acl = ACL[s.dtype]
    last, first = dev.int_array([1]), dev.int_array([0])
    o_rows, o_cols = dev.tensor(np.zeros(rows, s.dtype)), dev.tensor(np.zeros(cols, s.dtype))
    ob = dev.tensor(np.zeros(rows, np.bool_))
    o0 = dev.tensor(np.zeros((), s.dtype))
    tt: dict[str, Any] = {}
    if torch is not None:
        tt = {"r": to_torch(np.zeros(rows, s.dtype)), "c": to_torch(np.zeros(cols, s.dtype)),
              "b": torch.zeros(rows, dtype=torch.bool)}  # fmt: skip
    ops = torch.ops.aten if torch else None
    x2, o2 = t.get("x2"), t.get("o2")

    def tf(fn: Callable[[], Any]) -> Callable[[], Any] | None:
        return fn if torch is not None else None

    return {
        "ReduceSum dim=-1": (*_api("aclnnReduceSum"), (s.x2t, last, False, acl, o_rows), (n + rows) * item,
                             tf(lambda: torch.sum(x2, -1, out=tt["r"]))),
        "ReduceSum dim=0": (*_api("aclnnReduceSum"), (s.x2t, first, False, acl, o_cols), (n + cols) * item,
                            tf(lambda: torch.sum(x2, 0, out=tt["c"]))),
        "Softmax dim=-1": (*_api("aclnnSoftmax"), (s.x2t, -1, s.o2t), 2 * n * item,
                           tf(lambda: ops._softmax.out(x2, -1, False, out=o2))),
        "Softmax dim=0": (*_api("aclnnSoftmax"), (s.x2t, 0, s.o2t), 2 * n * item,
                          tf(lambda: ops._softmax.out(x2, 0, False, out=o2))),
        "All dim=-1": (*_api("aclnnAll"), (s.x2t, last, False, ob), n * item + rows,
                       tf(lambda: torch.all(x2, 1, out=tt["b"]))),
        "SmoothL1Loss (mean)": (*_api("aclnnSmoothL1Loss"), (s.xt, s.yt, 1, 1.0, o0), 2 * n * item,
                                tf(lambda: ops.smooth_l1_loss(t["x"], t["y"], 1, 1.0))),
    }  # fmt: skip


# -- the machine ----------------------------------------------------------------------------------


def cpu_model() -> str:
    """The CPU's model name (Linux /proc/cpuinfo; platform.processor() elsewhere)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


VECTOR_FEATURES = ("sse4.2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512fp16")


def accelerator_target() -> str:
    """The CPU numba compiles for, the vector features it may use, and the widest vector
    registers a float32 loop compiled like the kernels (same flags, no fastmath) really uses.
    (The kernels themselves come from numba's cache, whose machine code cannot be inspected.)"""
    if accel.numba_kernels() is None:
        return "numba not installed"
    import re

    import llvmlite.binding as llvm
    from numba import njit

    features = set(llvm.get_host_cpu_features().flatten().split(","))
    have = [f for f in VECTOR_FEATURES if f"+{f}" in features]

    @njit(cache=False, fastmath=False, error_model="numpy")
    def probe(a, b, out):  # type: ignore[no-untyped-def]
        for i in range(out.size):
            out[i] = a[i] + b[i]

    v = np.ones(64, np.float32)
    probe(v, v, v.copy())
    asm = probe.inspect_asm(probe.signatures[0])
    width = next((w for r, w in (("zmm", 512), ("ymm", 256), ("xmm", 128)) if re.search(rf"%{r}\d", asm)), 0)
    return f"{llvm.get_host_cpu_name()} [{' '.join(have)}]; a float32 loop compiles to {width}-bit vectors"


def machine() -> dict[str, str]:
    """What the figures were measured on: CPU, cores, versions, the accelerator's target."""
    return {
        "cpu": f"{cpu_model()} ({os.cpu_count()} logical CPUs, {platform.machine()})",
        "python": f"{platform.python_version()} / numpy {np.__version__} / ml_dtypes {ml_dtypes.__version__}",
        "numba": f"{_numba_version()}: {accelerator_target()}",
        "torch": f"{torch.__version__} (1 thread)" if torch is not None else "not installed (no torch yardstick)",
        "emulating": f"SoC {os.environ.get('ACLNN_PY_SOC', 'Ascend910B')}, "
        f"sanitizer {os.environ.get('ACLNN_PY_SANITIZER', 'warn')}",
    }


def _numba_version() -> str:
    mod = accel.numba_kernels()
    return "not installed" if mod is None else str(mod.VERSION)


# -- sections -----------------------------------------------------------------------------------


@contextlib.contextmanager
def op_cache_off() -> Iterator[None]:
    """Phase 1 with CANN's op cache turned off (ACLNN_CACHE_LIMIT=0): every call checks and builds."""
    os.environ[cache.ENV_LIMIT] = "0"
    cache.reset()
    try:
        yield
    finally:
        del os.environ[cache.ENV_LIMIT]
        cache.reset()


def _process_clock() -> float:
    """Wall time, or under --cpu-time the CPU time (user + system) the finished child processes took."""
    if CLOCK is time.perf_counter:
        return time.perf_counter()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def paired_processes(code: str, yardstick: str, runs: int) -> tuple[float, float, list[float]]:
    """``python -c code`` and ``python -c yardstick`` in fresh processes, in turn (after one warm-up
    pair): the median time of ``code`` (wall; the children's CPU time under --cpu-time), the median
    of the pair-by-pair ratios (pairing keeps the ratio meaningful while a shared machine's speed
    drifts) and the yardstick's times."""
    times, ratios, bases = [], [], []
    for i in range(runs + 1):
        pair = []
        for c in (code, yardstick):
            t = _process_clock()
            subprocess.run([sys.executable, "-c", c], check=True, cwd=ROOT)
            pair.append(_process_clock() - t)
        if i:
            times.append(pair[0])
            bases.append(pair[1])
            ratios.append(pair[0] / pair[1])
    return statistics.median(times), statistics.median(ratios), bases


def section_import(runs: int) -> None:
    """Start-up: ``import aclnn_py`` against a bare ``import numpy, ml_dtypes, attrs`` process
    (each run paired with a yardstick run), then with the first k operator APIs used (each loads
    its module when first named), with every runtime chapter that loads on first use used, and
    ``from aclnn_py import *`` (which names them all)."""
    from aclnn_py.ops import registry
    from aclnn_py.runtime import api as rt_api

    names = [api.name for api in registry.APIS]
    lazy = sorted(rt_api.LAZY)
    chapters = len(rt_api.LAZY_CHAPTERS)
    clock = "wall time" if CLOCK is time.perf_counter else "CPU time"
    print(
        f"\nstart-up ({clock}, median of {runs} fresh processes, each paired with a yardstick run; "
        f"{len(names)} operator APIs registered; {chapters} runtime chapters, {len(lazy)} names, load on first use)"
    )
    yardstick = "import numpy, ml_dtypes, attrs"
    variants = [("import aclnn_py", "import aclnn_py")]
    for k in (1, 3, 10, 25, len(names)):
        if k <= len(names):
            listed = ", ".join(repr(nm) for nm in names[:k])
            code = f"import aclnn_py\nfor nm in [{listed}]: getattr(aclnn_py, nm)"
            variants.append((f"import aclnn_py, then {k} API{'s' if k > 1 else ''} used", code))
    code = f"import aclnn_py\nfor nm in {lazy!r}: getattr(aclnn_py, nm)"
    variants.append((f"import aclnn_py, then all {chapters} lazy runtime chapters used", code))
    variants.append(("from aclnn_py import *", "from aclnn_py import *"))
    measured, bases = [], []
    for label, code in variants:
        t, ratio, base = paired_processes(code + "\nimport sys; assert 'numba' not in sys.modules", yardstick, runs)
        measured.append((label, t, ratio))
        bases += base
    row("import", f"python -c '{yardstick}' (the yardstick)", statistics.median(bases), unit="ms")
    for label, t, ratio in measured:
        row("import", label, t, unit="ms", x_bare=ratio)


SMALL_CALLS = ("SmoothL1LossBackward", "Add", "Mul", "Cast to float16", "HardswishBackward", "Muls")
SMALL_TARGET = ("SmoothL1LossBackward", "Add", "Mul", "Cast to float16")  # <= 2x PyTorch eager


def section_overhead(repeat: int) -> None:
    print("\nsmall calls (8 elements, float32, best per call; PyTorch eager with out= in the same process)")
    dev = Device()
    rng = np.random.default_rng(0)
    s = Inputs(dev, 8, F32, rng)
    everything = {**elementwise_cases(s), **reduction_cases(s)}
    ws_cache: dict[Any, Any] = {}
    for name in (*SMALL_CALLS, "Softmax dim=-1"):
        p1, p2, args, _, tfn = everything[name]
        full = best(lambda p1=p1, p2=p2, args=args: dev.call(p1, p2, args, ws_cache), repeat, 300)
        tt = best(tfn, repeat, 2000) if tfn is not None else None
        extra: dict[str, Any] = {} if tt is None else {"torch": tt, "x_torch": full / tt}
        row("overhead", f"{name}: GetWorkspaceSize + phase 2 + synchronize", full, unit="us", **extra)
        RESULTS[("overhead", name)] = {"call": full, **({"torch": tt} if tt else {})}

        def phase1(p1: Any = p1, args: Any = args) -> None:
            ws, ex = Ref(0), Ref()
            p1(*args, ws, ex)
            ex.value.release()

        row("overhead", f"{name}: GetWorkspaceSize alone (op-cache hit)", best(phase1, repeat, 300), unit="us")
        with op_cache_off():
            cold = best(lambda p1=p1, p2=p2, args=args: dev.call(p1, p2, args, ws_cache), repeat, 300)
            row("overhead", f"{name}: the full call with the op cache off", cold, unit="us",
                **({} if tt is None else {"x_torch": cold / tt}))  # fmt: skip
            row("overhead", f"{name}: GetWorkspaceSize alone (op cache off)", best(phase1, repeat, 300), unit="us")
        exes = []

        def prep(p1: Any = p1, args: Any = args) -> None:
            exes.clear()
            for _ in range(300):
                ws, ex = Ref(0), Ref()
                p1(*args, ws, ex)
                exes.append((ex.value, ws.value))

        times = []
        for _ in range(repeat):
            prep()
            t = CLOCK()
            for e, w in exes:
                p2(ws_cache.get((p1, w)), w, e, dev.stream)
            aclrtSynchronizeStream(dev.stream)
            times.append((CLOCK() - t) / len(exes))
        row("overhead", f"{name}: phase 2 + its share of one synchronize", min(times), unit="us")

    def create_destroy() -> None:
        t = aclCreateTensor([8], 1, 0, None, 0, ACL_FORMAT_ND, [8], 1, dev.ptrs[0])
        aclDestroyTensor(t)

    row("overhead", "aclCreateTensor + aclDestroyTensor", best(create_destroy, repeat, 3000), unit="us")
    dev.close()


# Where a small call's time goes: each function's own time (cProfile) summed by the layer its
# file belongs to, first match wins; the shares are scaled to the call's unprofiled time.
LAYERS = (
    ("bench/", "the bench's driver (Ref, workspace lookup)"),
    ("aclnn_py/_capi.py", "C-style wrappers (argument checks, error capture)"),
    ("aclnn_py/trace.py", "call trace hooks"),
    ("aclnn_py/executor/cache.py", "op cache (key, lookup, replay)"),
    ("aclnn_py/ops/", "phase 1: the API's checks and l0 graph"),
    ("aclnn_py/l0/", "phase 1: the API's checks and l0 graph"),
    ("aclnn_py/executor/", "executor (phase 2: bind, check, queue)"),
    ("aclnn_py/runtime/sanitizer.py", "sanitizer (byte tracking, hazards)"),
    ("aclnn_py/runtime/", "runtime (stream, memory views, synchronize)"),
    ("aclnn_py/kernels/", "kernel (the recipe on 8 elements)"),
    ("aclnn_py/", "other aclnn_py (tensor, dtypes)"),
    ("numpy", "numpy and ml_dtypes calls"),
    ("ml_dtypes", "numpy and ml_dtypes calls"),
)


def section_profile(repeat: int) -> None:
    """The small calls' time by layer (see LAYERS), and the Python function calls each makes."""
    import cProfile
    import pstats

    print("\nwhere a small call's time goes (8 elements float32; own time per layer, scaled to the unprofiled call)")
    dev = Device()
    s = Inputs(dev, 8, F32, np.random.default_rng(0))
    everything = elementwise_cases(s)
    ws_cache: dict[Any, Any] = {}
    for name in SMALL_TARGET:
        p1, p2, args, _, _ = everything[name]

        def call(p1: Any = p1, p2: Any = p2, args: Any = args) -> None:
            dev.call(p1, p2, args, ws_cache)

        t = best(call, repeat, 300)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(2000):
            call()
        prof.disable()
        stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
        layers: dict[str, float] = {}
        calls = 0
        for (filename, _line, _fn), (_cc, nc, tottime, _ct, _callers) in stats.items():
            calls += nc
            where = os.path.normpath(filename).replace(os.sep, "/")
            layer = next((lb for key, lb in LAYERS if key in where), "Python built-ins (dict, isinstance, ...)")
            layers[layer] = layers.get(layer, 0.0) + tottime
        total = sum(layers.values())
        parts = sorted(layers.items(), key=lambda kv: -kv[1])
        print(f"  {name}: {t * 1e6:.1f} us, {calls / 2000:.0f} Python function calls a call")
        for layer, own in parts:
            us = t * own / total * 1e6
            ROWS.append({"section": "profile", "case": name, "layer": layer, "us": us})
            print(f"    {layer:58s} {us:7.1f} us")
    dev.close()


_COPY_BUFFERS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def copy_time(nbytes: int, repeat: int) -> float:
    """np.copyto moving ``nbytes`` in all (half read, half written), measured once per size."""
    if nbytes <= 0:
        return 0.0
    if nbytes not in _COPY_BUFFERS:
        _COPY_BUFFERS.clear()
        src = np.ones(nbytes // 2, np.uint8)
        _COPY_BUFFERS[nbytes] = (src, np.ones_like(src))
    src, dst = _COPY_BUFFERS[nbytes]
    return best(lambda: np.copyto(dst, src), repeat)  # measured next to each case: the machine drifts


def strided_copy_time(n: int, dtype: np.dtype, repeat: int) -> float:
    """np.copyto of a [n] view of every second element of a 2n array into a contiguous array."""
    wide = np.ones(2 * n, np.dtype(f"u{dtype.itemsize}"))
    dst = np.ones(n, wide.dtype)
    return best(lambda: np.copyto(dst, wide[::2]), repeat)


def bound(moved: Any, dtype: np.dtype, repeat: int) -> tuple[float, int]:
    """(the copy bound's time, the bytes it moves) for a case's byte count."""
    if isinstance(moved, int):
        return copy_time(moved, repeat), moved
    contiguous, strided = moved
    t = copy_time(contiguous, repeat)
    if strided:
        t += strided_copy_time(strided, dtype, repeat)
    return t, contiguous + 2 * strided * dtype.itemsize


def graph_moved(executor: Any) -> tuple[int, dict[np.dtype, int], int]:
    """What the kernels of an executor's graph move, read from its launches: (bytes read or
    written through dense tensors, elements read through strided views by dtype, kernels).
    Every launch counts each of its input and output tensors once (an in-place output that is
    also an input: read and written), a broadcast operand with its own few bytes."""
    from aclnn_py import dtypes

    contiguous = 0
    strided: dict[np.dtype, int] = {}
    for ln in executor.launches:
        for t in (*ln.inputs, *ln.outputs):
            bits = dtypes.element_bits(t.dtype)
            elements = dtypes.numel(t.view_shape)
            box = _sliced_box(ln) if ln.inputs and t is ln.inputs[0] else None
            if box is not None:  # a Slice/StridedSlice reads only its box of the source
                elements = dtypes.numel(box)
                dense = _box_is_dense(t.view_shape, box, ln.attrs.get("strides"))
            else:
                dense = t.strides == dtypes.contiguous_strides(t.view_shape) or elements <= 1
            if dense:
                contiguous += (elements * bits + 7) // 8
            else:  # as the call's own count: a strided copy of the view (which also writes it out)
                dt = dtypes.numpy_dtype(t.dtype) or np.dtype(f"u{max(bits // 8, 1)}")
                strided[dt] = strided.get(dt, 0) + elements
    return contiguous, strided, len(executor.launches)


def _sliced_box(ln: Any) -> tuple[int, ...] | None:
    """The shape of the box a Slice or StridedSlice launch reads from its source, else None."""
    if ln.op_type == "Slice":
        return tuple(ln.attrs["size"])
    if ln.op_type == "StridedSlice":
        a = ln.attrs
        return tuple((e - b) // k for b, e, k in zip(a["begin"], a["end"], a["strides"]))
    return None


def _box_is_dense(src: tuple[int, ...], box: tuple[int, ...], steps: Any) -> bool:
    """Whether a box of a row-major source is one contiguous run: steps of 1, whole trailing dims
    after the last partial one, size-1 dims before it."""
    if steps is not None and any(k != 1 for k in steps):
        return False
    partial = [i for i, (s, n) in enumerate(zip(src, box)) if n != s]
    return not partial or all(n == 1 for n in box[: partial[-1]])


def graph_bound(graph: tuple[int, dict[np.dtype, int], int], repeat: int) -> tuple[float, int]:
    """(the copy bound of every kernel of the graph, the bytes they move)."""
    contiguous, strided, _ = graph
    t = copy_time(contiguous, repeat)
    for dt, elements in strided.items():
        t += strided_copy_time(elements, dt, repeat)
    return t, contiguous + sum(2 * k * dt.itemsize for dt, k in strided.items())


def paths() -> list[str]:
    return ["numpy", "numba"] if accel.numba_kernels() is not None else ["numpy"]


FLAG = 1.5  # an accelerated path slower than this many copy bounds is flagged
TORCH_FLAG = 2.0  # reductions and softmax: flagged when slower than this many PyTorch times


def measure(
    section: str,
    dev: Device,
    label: str,
    case: Case,
    repeat: int,
    dtype: np.dtype = F32,
    judge: str = "copy",
    layout: str | None = None,
) -> dict[str, Any] | None:
    """Time one case on each kernel path against its yardsticks; one printed line, JSON rows.
    ``judge``: what flags the accelerated path, its copy bound (elementwise) or PyTorch
    (``torch``: reductions and softmax, whose exponentials and summation orders make them
    compute-bound: PyTorch's own kernels are 2-6x their copy bound here). ``layout`` goes into
    every JSON row (the same case name serves each layout). None when the API refuses the layout
    (printed with its code)."""
    p1, p2, args, moved, tfn = case
    where: dict[str, Any] = {"layout": layout} if layout else {}
    ws_cache: dict[Any, Any] = {}
    ws, ex = Ref(0), Ref()
    status = p1(*args, ws, ex)
    if status != 0:
        # the whole message: an internal error's second line names its cause
        msg = (A.aclGetRecentErrMsg() or "").rstrip().replace("\n", "\n    ")
        print(f"  {label:44s} refused by the API ({status}): {msg}")
        return None
    graph = graph_moved(ex.value)
    ex.value.release()
    call_copy, call_bytes = bound(moved, dtype, repeat)
    copy, nbytes = graph_bound(graph, repeat)
    torch_t = None
    if tfn is not None:
        tfn()
        torch_t = best(tfn, repeat)
    out: dict[str, Any] = {
        "copy": copy,
        "call copy": call_copy,
        "kernels": graph[2],
        "graph bytes": nbytes,
        "call bytes": call_bytes,
    }
    parts = []
    for path in paths():
        os.environ[accel.ENV_VAR] = path
        with A.trace.tracing() as events:  # warm up (numba compiles or loads on first use)
            dev.call(p1, p2, args, ws_cache)
        took = ", ".join(sorted({str(e["path"]) for e in events or [] if e["event"] == "task" and e.get("path")}))
        t = best(lambda: dev.call(p1, p2, args, ws_cache), repeat)
        extra: dict[str, Any] = {"GB/s": nbytes / t / 1e9, "x_copy": t / copy, "kernel": took, **where}
        if torch_t is not None:
            extra["x_torch"] = t / torch_t
        row(section, f"{label} [{path}]", t, show=False, **extra)
        out[path] = t
        out[f"{path} kernel"] = took
        over = t / torch_t > TORCH_FLAG if judge == "torch" and torch_t else t / copy > FLAG
        flag = " !" if path == "numba" and "numba" in took and over else "  "
        parts.append(f"{path} {t * 1e3:8.2f} ms {t / copy:5.2f}x{flag}")
    os.environ.pop(accel.ENV_VAR, None)
    row(section, f"  copy bound of {label}", copy, show=False, kernels=graph[2], graph_bytes=nbytes,
        call_bytes=call_bytes, call_copy=call_copy, **where)  # fmt: skip
    tail = ""
    if torch_t is not None:
        row(section, f"  torch {label} (1 thread, out=)", torch_t, show=False, **where)
        out["torch"] = torch_t
        tail = "  torch " + "  ".join(f"{out[p] / torch_t:5.2f}x" for p in paths())
    if graph[2] > 1 and nbytes > 1.05 * call_bytes:  # the graph moves more than the call's own bytes
        numba_t = out.get("numba", out["numpy"])
        tail += (
            f"  [{graph[2]} kernels move {nbytes / call_bytes:.2f}x the call's bytes;"
            f" {numba_t / call_copy:.2f}x the call's bound]"
        )
    print(f"  {label:44s} " + "  ".join(parts) + f"  | bound {copy * 1e3:7.2f} ms" + tail, flush=True)
    return out


RESULTS: dict[tuple[str, str], dict[str, Any]] = {}


def selected(name: str, only: list[str] | None) -> bool:
    return not only or any(o.lower() in name.lower() for o in only)


def section_paths(repeat: int, n: int, only: list[str] | None) -> None:
    print(
        f"\nevery kernel path ({n} elements; the copy bound is np.copyto of the bytes every kernel of the call's"
        f" graph moves, a strided view's as a strided copy; 'x' = time / bound, '!' = an accelerated path over"
        f" {FLAG}x; torch: time / torch's; [k kernels ...]: the graph moves more than the call's own bytes, and"
        " the accelerated path against the bound of those)"
    )
    rng = np.random.default_rng(1)
    for dtype in (F32, F16, BF16):
        dev = Device()
        s = Inputs(dev, n, dtype, rng)
        for layout in LAYOUTS:
            print(f" {dtype.name}, {layout}")
            for name, case in elementwise_cases(s, layout).items():
                label = f"{name} {dtype.name} {layout}"
                if selected(label, only):
                    r = measure("paths", dev, f"{name} {dtype.name}", case, repeat, dtype, layout=layout)
                    if r is not None:
                        RESULTS[("paths", label)] = r
        dev.close()


def section_reductions(repeat: int, n: int, only: list[str] | None) -> None:
    print(f"\nreductions and softmax ([{n // 1024}, 1024]; '!' = accelerated and over {TORCH_FLAG}x torch)")
    rng = np.random.default_rng(4)
    for dtype in (F32, F16, BF16):
        dev = Device()
        s = Inputs(dev, n, dtype, rng)
        for name, case in reduction_cases(s).items():
            label = f"{name} {dtype.name}"
            if selected(label, only):
                r = measure("reduction", dev, label, case, repeat, dtype, judge="torch")
                if r is not None:
                    RESULTS[("reduction", label)] = r
        dev.close()


def section_softmax(repeat: int, shapes: list[tuple[int, ...]], only: list[str] | None) -> None:
    print(f"\nScaledMaskedSoftmax and backward (float16, mask over B, scale 0.5; '!' = over {TORCH_FLAG}x torch)")
    rng = np.random.default_rng(2)
    for shape in shapes:
        dev = Device()
        g = rng.standard_normal(shape).astype(np.float16)
        x = (rng.standard_normal(shape) * 3).astype(np.float16)
        y = rng.uniform(0, 1, shape).astype(np.float16)
        m = rng.uniform(0, 1, (1, *shape[1:])) < 0.2
        gt, xt, yt, mt = dev.tensor(g), dev.tensor(x), dev.tensor(y), dev.tensor(m)
        ot = dev.tensor(np.zeros(shape, np.float16))
        nbytes = 3 * g.nbytes + m.nbytes
        fwd_t = bwd_t = None
        if torch is not None:
            tg, tx, ty, tm = (torch.from_numpy(a) for a in (g, x, y, m))
            to, tmp = torch.empty(shape, dtype=torch.float16), torch.empty(shape, dtype=torch.float16)

            def fwd_t() -> None:
                torch.mul(tx, 0.5, out=tmp).masked_fill_(tm, -10000.0)
                torch.ops.aten._softmax.out(tmp, -1, False, out=to)

            def bwd_t() -> None:
                torch.ops.aten._softmax_backward_data.out(tg, ty, -1, torch.float16, grad_input=to)
                to.mul_(0.5).masked_fill_(tm, 0)

        cases: dict[str, Case] = {
            "ScaledMaskedSoftmax": (*_api("aclnnScaledMaskedSoftmax"), (xt, mt, 0.5, False, ot),
                                    2 * x.nbytes + m.nbytes, fwd_t),
            "ScaledMaskedSoftmaxBackward": (*_api("aclnnScaledMaskedSoftmaxBackward"), (gt, yt, mt, 0.5, False, ot),
                                            nbytes, bwd_t),
        }  # fmt: skip
        for name, case in cases.items():
            label = f"{name} {list(shape)}"
            if selected(label, only):
                r = measure("softmax", dev, label, case, repeat, F16, judge="torch")
                if r is not None:
                    RESULTS[("softmax", label)] = r
        dev.close()


def section_memory(n: int) -> None:
    print(f"\npeak extra host memory of one call beyond its tensors ({n} float32 elements)")
    rng = np.random.default_rng(3)
    dev = Device()
    s = Inputs(dev, n, F32, rng)
    everything = {**elementwise_cases(s), **reduction_cases(s)}
    for name in ("Add", "Div", "SmoothL1LossBackward", "HardswishBackward", "ReduceSum dim=0", "Softmax dim=-1"):
        p1, p2, args, moved, _ = everything[name]
        nbytes = moved if isinstance(moved, int) else moved[0]
        for path in paths():
            os.environ[accel.ENV_VAR] = path
            ws_cache: dict[Any, Any] = {}
            dev.call(p1, p2, args, ws_cache)
            tracemalloc.start()
            tracemalloc.reset_peak()
            dev.call(p1, p2, args, ws_cache)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            ROWS.append({"section": "memory", "case": f"{name} [{path}]", "peak_MiB": peak / 2**20,
                         "x_tensors": peak / nbytes})  # fmt: skip
            print(
                f"  {name + ' [' + path + ']':44s} {peak / 2**20:9.2f} MiB  ({peak / nbytes:.3f}x its tensors' bytes)"
            )
    os.environ.pop(accel.ENV_VAR, None)
    dev.close()


NUMPY_TORCH_TARGET = 2.5  # issue 14: a float32 elementwise path on the numpy path against PyTorch


def check_targets() -> None:
    """The issue's targets, row by row: which are met."""
    print("\ntargets")
    misses = []
    checked = 0
    for (section, label), r in RESULTS.items():
        tests = []
        accelerated = "numba" in r and "numba" in str(r.get("numba kernel"))
        if section == "paths" and accelerated:
            tests.append(("accelerated x copy bound", r["numba"] / r["copy"], FLAG))
        if section == "paths" and " float32 " in f"{label} " and "numpy" in r and "torch" in r:
            tests.append(("numpy path x torch", r["numpy"] / r["torch"], NUMPY_TORCH_TARGET))
        if section in ("reduction", "softmax") and accelerated and "torch" in r:
            tests.append(("accelerated x torch", r["numba"] / r["torch"], TORCH_FLAG))
        if section == "overhead" and label in SMALL_TARGET and "torch" in r:
            tests.append(("small call x torch", r["call"] / r["torch"], 2.0))
        for what, value, limit in tests:
            checked += 1
            if value > limit:
                misses.append(f"{label}: {what} {value:.2f} > {limit}")
    for r in ROWS:
        if r["section"] == "import" and r["case"] == "import aclnn_py":
            checked += 1
            if r["x_bare"] > 2.0:
                misses.append(f"import aclnn_py: {r['x_bare']:.2f}x a bare numpy/ml_dtypes/attrs process > 2.0")
    ROWS.append({"section": "targets", "case": "checked", "checked": checked, "missed": len(misses), "misses": misses})
    print(f"  {checked - len(misses)} of {checked} met")
    for m in misses:
        print(f"  missed: {m}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats: a smoke run")
    ap.add_argument("--only", help="comma-separated substrings: only the kernel-path cases whose names match")
    ap.add_argument("--log2n", type=int, help="elements of the kernel-path cases, as a power of two (default 24)")
    ap.add_argument("--startup", action="store_true", help="only the start-up section (and its target)")
    ap.add_argument("--small", action="store_true", help="only the small-call sections (the calls and their profile)")
    ap.add_argument(
        "--cpu-time",
        action="store_true",
        help="time the calls and their yardsticks by this process's CPU time, not wall time (a shared machine)",
    )
    opts = ap.parse_args()
    global CLOCK
    if opts.cpu_time:
        CLOCK = time.process_time
    only = opts.only.split(",") if opts.only else None
    repeat = 3
    n = 1 << (opts.log2n or (18 if opts.quick else 24))
    shapes = [(2, 2, 16, 128), (1, 2, 8, 1024)] if opts.quick else [(16, 16, 128, 128), (4, 8, 256, 1024)]
    info = machine()
    info["clock"] = "process CPU time (--cpu-time)" if opts.cpu_time else "wall time"
    print("aclnn_py benchmarks")
    for k, v in info.items():
        print(f"  {k:12s} {v}")
    ROWS.append({"section": "machine", **info})
    start = time.perf_counter()
    if opts.small:
        section_overhead(repeat)
        section_profile(repeat)
    elif not only:
        section_import(3 if opts.quick else 7)
    if not (opts.startup or opts.small):
        if not only:
            section_overhead(repeat)
            section_profile(repeat)
        section_paths(repeat, n, only)
        section_reductions(repeat, n, only)
        section_softmax(repeat, shapes, only)
        if not only:
            section_memory(n)
    check_targets()
    print(f"\ntotal {time.perf_counter() - start:.1f} s")
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as f:
            json.dump({"machine": info, "rows": ROWS}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
