#!/usr/bin/env python3
"""aclnn_py benchmarks: call overhead, throughput against the copy bound and PyTorch, memory.

    python bench/run.py [--json results.json] [--quick]

Prints a table. Yardsticks measured in the same run: a plain ``np.copyto`` moving the same
number of bytes (the machine's memory bandwidth limit) and, when torch is importable, PyTorch
CPU's own kernels for the same maths with one thread. Ratios are what to compare across
machines; absolute times drift.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from aclnn_py import (
    ACL_FORMAT_ND,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclCreateTensor,
    aclDestroyTensor,
    aclFinalize,
    aclInit,
    aclnnHardswishBackward,
    aclnnHardswishBackwardGetWorkspaceSize,
    aclnnScaledMaskedSoftmaxBackward,
    aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize,
    aclnnSmoothL1LossBackward,
    aclnnSmoothL1LossBackwardGetWorkspaceSize,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from aclnn_py.executor import cache
from aclnn_py.kernels import accel

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # the torch yardstick is optional
    torch = None

BF16 = np.dtype(ml_dtypes.bfloat16)
ACL = {np.dtype(np.float32): 0, np.dtype(np.float16): 1, BF16: 27, np.dtype(np.bool_): 12}
ROWS: list[dict[str, Any]] = []


def best(fn: Callable[[], Any], repeat: int, number: int = 1) -> float:
    """Best of ``repeat`` timings of ``number`` calls, in seconds per call."""
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number)
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
        for p in self.ptrs:
            aclrtFree(p)
        aclrtDestroyStream(self.stream)
        aclrtResetDevice(0)
        aclFinalize()


def row(section: str, case: str, seconds: float, **extra: Any) -> None:
    entry = {"section": section, "case": case, "seconds": seconds, **extra}
    ROWS.append(entry)
    ratio = "  ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in extra.items())
    unit = f"{seconds * 1e6:9.1f} us" if seconds < 1e-2 else f"{seconds * 1e3:9.2f} ms"
    print(f"  {case:58s} {unit}  {ratio}")


def ops(dev: Device, n: int, dtype: np.dtype, rng: np.random.Generator) -> dict[str, Any]:
    x = (rng.standard_normal(n) * 3).astype(dtype)
    g = rng.standard_normal(n).astype(dtype)
    t = rng.standard_normal(n).astype(dtype)
    gt, xt, tt, ot = dev.tensor(g), dev.tensor(x), dev.tensor(t), dev.tensor(np.zeros(n, dtype))
    return {
        "SmoothL1LossBackward": (
            aclnnSmoothL1LossBackwardGetWorkspaceSize, aclnnSmoothL1LossBackward, (gt, xt, tt, 0, 1.0, ot), 4,
            (lambda tg, tx, tt_: torch.ops.aten.smooth_l1_loss_backward(tg, tx, tt_, 0, 1.0)) if torch else None,
            (g, x, t),
        ),
        "HardswishBackward": (
            aclnnHardswishBackwardGetWorkspaceSize, aclnnHardswishBackward, (gt, xt, ot), 3,
            (lambda tg, tx: torch.ops.aten.hardswish_backward(tg, tx)) if torch else None,
            (g, x),
        ),
    }  # fmt: skip


def to_torch(a: np.ndarray) -> Any:
    if a.dtype == BF16:
        return torch.from_numpy(a.view(np.uint16).astype(np.int32) << 16).view(torch.float32).to(torch.bfloat16)
    return torch.from_numpy(a.copy())


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


def section_overhead(repeat: int) -> None:
    print("\ncall overhead (8 elements, float32, best per call)")
    dev = Device()
    rng = np.random.default_rng(0)
    cache: dict = {}
    for name, (p1, p2, args, _, tfn, host) in ops(dev, 8, np.dtype(np.float32), rng).items():
        full = best(lambda p1=p1, p2=p2, args=args: dev.call(p1, p2, args, cache), repeat, 300)
        extra: dict[str, Any] = {}
        if tfn is not None:
            targs = [to_torch(h) for h in host]
            tt = best(lambda tfn=tfn, targs=targs: tfn(*targs), repeat, 2000)
            extra = {"torch_us": tt * 1e6, "x_torch": full / tt}
        row("overhead", f"{name}: GetWorkspaceSize + phase 2 + synchronize", full, **extra)

        def phase1(p1: Any = p1, args: Any = args) -> None:
            ws, ex = Ref(0), Ref()
            p1(*args, ws, ex)
            ex.value.release()

        row("overhead", f"{name}: GetWorkspaceSize alone (op-cache hit)", best(phase1, repeat, 300))
        with op_cache_off():
            cold = best(lambda p1=p1, p2=p2, args=args: dev.call(p1, p2, args, cache), repeat, 300)
            row("overhead", f"{name}: the full call with the op cache off", cold, x_torch=cold / tt if tfn else "")
            row("overhead", f"{name}: GetWorkspaceSize alone (op cache off)", best(phase1, repeat, 300))
        exes = []

        def prep(p1: Any = p1, args: Any = args) -> None:
            exes.clear()
            for _ in range(300):
                ws, ex = Ref(0), Ref()
                p1(*args, ws, ex)
                exes.append(ex.value)

        times = []
        for _ in range(repeat):
            prep()
            t = time.perf_counter()
            for e in exes:
                p2(None, 0, e, dev.stream)
            aclrtSynchronizeStream(dev.stream)
            times.append((time.perf_counter() - t) / len(exes))
        row("overhead", f"{name}: phase 2 + its share of one synchronize", min(times))

    def create_destroy() -> None:
        t = aclCreateTensor([8], 1, 0, None, 0, ACL_FORMAT_ND, [8], 1, dev.ptrs[0])
        aclDestroyTensor(t)

    row("overhead", "aclCreateTensor + aclDestroyTensor", best(create_destroy, repeat, 3000))
    dev.close()


def section_throughput(repeat: int, n: int) -> None:
    print(f"\nthroughput (elementwise: {n} elements; kernel path: numpy and numba)")
    rng = np.random.default_rng(1)
    for dtype in (np.dtype(np.float32), np.dtype(np.float16), BF16):
        dev = Device()
        cases = ops(dev, n, dtype, rng)
        for name, (p1, p2, args, ntensors, tfn, host) in cases.items():
            nbytes = ntensors * n * dtype.itemsize
            src = np.ones(nbytes // 2, np.uint8)
            dst = np.empty_like(src)
            copy = best(lambda src=src, dst=dst: np.copyto(dst, src), repeat)
            torch_t = None
            if tfn is not None:
                targs = [to_torch(h) for h in host]
                torch_t = best(lambda tfn=tfn, targs=targs: tfn(*targs), repeat)
            cache: dict = {}
            for path in ("numpy", "numba"):
                if path == "numba" and accel.numba_kernels() is None:
                    continue
                os.environ[accel.ENV_VAR] = path
                dev.call(p1, p2, args, cache)  # warm up (numba compiles on first use)
                t = best(lambda p1=p1, p2=p2, args=args: dev.call(p1, p2, args, cache), repeat)
                extra: dict[str, Any] = {"GB/s": nbytes / t / 1e9, "x_copy": t / copy}
                if torch_t is not None:
                    extra["x_torch"] = t / torch_t
                row("throughput", f"{name} {dtype.name} [{path}]", t, **extra)
            os.environ.pop(accel.ENV_VAR, None)
            row("throughput", f"  yardstick np.copyto of {nbytes >> 20} MiB", copy)
            if torch_t is not None:
                row("throughput", f"  yardstick torch {name} {dtype.name} (1 thread)", torch_t)
        dev.close()


def section_softmax(repeat: int, shapes: list[tuple[int, ...]]) -> None:
    print("\nScaledMaskedSoftmaxBackward (float16, mask broadcast over B, scale 0.5)")
    rng = np.random.default_rng(2)
    for shape in shapes:
        dev = Device()
        g = rng.standard_normal(shape).astype(np.float16)
        y = rng.uniform(0, 1, shape).astype(np.float16)
        m = rng.uniform(0, 1, (1, *shape[1:])) < 0.2
        args = (dev.tensor(g), dev.tensor(y), dev.tensor(m), 0.5, False, dev.tensor(np.zeros(shape, np.float16)))
        p1, p2 = aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize, aclnnScaledMaskedSoftmaxBackward
        torch_t = None
        if torch is not None:
            tg, ty, tm = torch.from_numpy(g), torch.from_numpy(y), torch.from_numpy(m)
            torch_t = best(
                lambda: torch._softmax_backward_data(tg, ty, -1, torch.float16).mul_(0.5).masked_fill_(tm, 0), repeat
            )
        cache: dict = {}
        for path in ("numpy", "numba"):
            if path == "numba" and accel.numba_kernels() is None:
                continue
            os.environ[accel.ENV_VAR] = path
            dev.call(p1, p2, args, cache)
            t = best(lambda: dev.call(p1, p2, args, cache), repeat)
            extra = {"x_torch": t / torch_t} if torch_t else {}
            row("softmax", f"{list(shape)} [{path}]", t, **extra)
        os.environ.pop(accel.ENV_VAR, None)
        if torch_t is not None:
            row("softmax", f"  yardstick torch softmax backward * scale, masked_fill {list(shape)}", torch_t)
        dev.close()


def section_memory(n: int) -> None:
    print(f"\npeak extra host memory of one call beyond its tensors ({n} float32 elements)")
    rng = np.random.default_rng(3)
    dev = Device()
    for name, (p1, p2, args, ntensors, _, _) in ops(dev, n, np.dtype(np.float32), rng).items():
        for path in ("numpy", "numba"):
            if path == "numba" and accel.numba_kernels() is None:
                continue
            os.environ[accel.ENV_VAR] = path
            cache: dict = {}
            dev.call(p1, p2, args, cache)
            tracemalloc.start()
            tracemalloc.reset_peak()
            dev.call(p1, p2, args, cache)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            tensor_bytes = ntensors * n * 4
            row("memory", f"{name} [{path}]", 0.0, peak_MiB=peak / 2**20, x_tensors=peak / tensor_bytes)
    os.environ.pop(accel.ENV_VAR, None)
    dev.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    opts = ap.parse_args()
    repeat = 3
    n = 1 << (16 if opts.quick else 24)
    shapes = [(2, 2, 16, 128), (1, 2, 8, 1024)] if opts.quick else [(16, 16, 128, 128), (4, 8, 256, 1024)]
    print(f"aclnn_py benchmarks on {platform.machine()} / Python {platform.python_version()} / numpy {np.__version__}"
          f" / numba {'yes' if accel.numba_kernels() else 'no'} / torch {torch.__version__ if torch else 'no'}"
          f" / sanitizer {os.environ.get('ACLNN_PY_SANITIZER', 'warn')}")  # fmt: skip
    start = time.perf_counter()
    section_overhead(repeat)
    section_throughput(repeat, n)
    section_softmax(repeat, shapes)
    section_memory(n)
    print(f"\ntotal {time.perf_counter() - start:.1f} s")
    if opts.json:
        with open(opts.json, "w", encoding="utf-8") as f:
            json.dump({"machine": platform.platform(), "rows": ROWS}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
