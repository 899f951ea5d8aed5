"""The arithmetic bound of the accelerated elementwise loops of the half types.

    python bench/arith_bound.py [--only NAME[,NAME...]] [--repeat R] [--asm]

``make bench`` judges each kernel path against its copy bound (``np.copyto`` of the bytes it
moves). A loop that does more work per byte than the copy can miss that bound with no fault in
its code: this script tells the two apart. Each loop runs twice on 2^24 elements:

* **in memory**: the kernel as a launch calls it (the layout of ``make bench``: one operand of
  the output's size, the other a single element or a 1024-element row; SmoothL1LossGradV2 with
  its target a scalar or a row), against ``np.copyto`` of the bytes that layout moves;
* **from L1**: the same inner loop over 4096-element blocks that stay in the L1 cache, 4096
  passes (the repeat compiled, so no Python call per pass): no memory traffic at all, only the
  arithmetic. When this alone takes about as long as the copy bound, the path is compute-bound:
  its loop would need fewer instructions, not a better memory access pattern.

Times are process CPU time (a shared machine disturbs it less than wall time), best of R.
Both move with the load of a shared machine (its two logical CPUs may share one core), so
``--asm`` also counts what no load changes: the instructions of each loop's vectorised body per
8 elements, compiled afresh in a child process (numba's cached kernels cannot be disassembled).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import ml_dtypes
import numpy as np

N = 1 << 24
BLOCK = 4096
F16, BF16 = np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)


def best(fn: Callable[[], Any], repeat: int) -> float:
    """Best of ``repeat`` CPU-time measurements of ``fn`` (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def hot_loop(asm: str, marker: str) -> tuple[int, int, int]:
    """(instructions, vector instructions, elements) of one pass of the loop in ``asm`` with the
    most 256-bit instructions among those with an instruction matching ``marker`` (a kernel holds
    one loop per kind: the kind is a value, not a type): a block that jumps back to itself; its
    index steps by the elements one pass handles (``addq $k`` on an element index)."""
    blocks: dict[str, list[str]] = {}
    name = ""
    for line in asm.splitlines():
        m = re.match(r"^(\.LBB\w+):", line)
        if m:
            name = m.group(1)
            blocks[name] = []
        elif name and line.startswith("\t") and not line.startswith("\t."):
            blocks[name].append(line.strip())
    found = (0, 0, 0)
    for label, body in blocks.items():
        back = [k for k, i in enumerate(body) if re.match(r"j\w+\s+" + re.escape(label) + "$", i)]
        if not back:
            continue
        ins = body[: back[0] + 1]  # the loop ends at its jump back; what follows is its exit
        steps = [int(m.group(1)) for i in ins for m in [re.match(r"addq\s+\$(\d+),", i)] if m]
        vec = sum("ymm" in i for i in ins)
        if vec > found[1] and steps and any(re.search(marker, i) for i in ins):
            found = (len(ins), vec, max(steps))
    return found


def count_instructions() -> None:
    """In a child with an empty numba cache: each loop compiled afresh and its hot loop counted."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        subprocess.run([sys.executable, os.path.abspath(__file__), "--asm-child"], env=env, check=True)


def asm_child() -> None:
    from aclnn_py.kernels import _numba as nb
    from aclnn_py.kernels import _numba_ew as ew

    f32 = np.float32
    a, b, o = np.zeros(64, np.uint16), np.ones(64, np.uint16), np.zeros(64, np.uint16)

    print("instructions of each loop's vectorised body (256-bit), per 8 elements")
    # what marks each kind's loop: F16C's conversions; bfloat16's shifts by 16 (no F16C: the
    # float16 loops are integer code too, and not told apart here)
    markers = {nb.KIND_F16: r"vcvtp[sh]2p[sh]", nb.KIND_BF16: r"vps[lr]ld\s+\$16,"}
    for kind, dt in ((nb.KIND_F16, "float16"), (nb.KIND_BF16, "bfloat16")):
        runs: list[tuple[str, Any, Callable[[], Any]]] = [
            (f"Add {dt} (two arrays: same shape, row)", ew._add, lambda: ew._add(kind, a, b, o)),
            (f"Add {dt} (a register scalar)", ew._add_scalar, lambda: ew._add_scalar(kind, a, np.uint16(0), f32(1), o)),
            (f"Div {dt} (a register scalar)", ew._div_by, lambda: ew._div_by(kind, a, f32(3), o)),
            (f"Maximum {dt} (int16 lanes)", ew._max, lambda: ew._max(kind, a, b, o)),
            (f"SmoothL1LossGradV2 {dt} (TBE)", nb._sl1_tbe_same,
             lambda: nb._sl1_tbe_same(a, b, a, o, kind, f32(1), f32(1), np.uint32(0xFFFFFFFF), f32(1), False)),
        ]  # fmt: skip
        if kind == nb.KIND_BF16:
            runs.append(
                (
                    "HardSwish bfloat16 (TBE, pairs)",
                    ew._hardswish_tbe_bf16_pairs,
                    lambda: ew._hardswish_tbe_bf16_pairs(a, o),
                )
            )
        if kind == nb.KIND_F16:
            runs += [
                ("Axpy float16, rounded to odd (two arrays: row)", ew._axpy_once,
                 lambda: ew._axpy_once(f32(1.7), a, b, o)),
                ("Axpy float16, rounded to odd (a register scalar)", ew._axpy_once_scalar_x2,
                 lambda: ew._axpy_once_scalar_x2(f32(1.7), a, o)),
                ("Axpy float16, alpha 2^k: fma (two arrays: row)", ew._axpy_twice,
                 lambda: ew._axpy_twice(nb.KIND_F16, f32(2), a, b, o)),
            ]  # fmt: skip
        for name, fn, call in runs:
            call()
            # the signature of this kind: the last compiled (kinds are values, not types)
            marker = r"vpcmpgtw" if fn is ew._max else markers[kind]
            total, vec, elements = hot_loop(fn.inspect_asm(fn.signatures[-1]), marker)
            elements *= 2 if fn is ew._hardswish_tbe_bf16_pairs else 1  # its index counts uint32 words
            if elements:
                print(f"  {name:48s} {8 * (total - 3) / elements:5.1f} ({8 * vec / elements:4.1f} on vectors)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated substrings of the loop names")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--asm", action="store_true", help="also count each loop's instructions per 8 elements")
    ap.add_argument("--asm-child", action="store_true", help=argparse.SUPPRESS)
    opts = ap.parse_args()
    if opts.asm_child:
        asm_child()
        return 0
    only = opts.only.split(",") if opts.only else None
    try:
        import numba

        from aclnn_py.kernels import _numba as nb
        from aclnn_py.kernels import _numba_ew as ew
    except ImportError:
        print("needs numba, the optional accelerator (pip install numba)")
        return 1
    f32 = np.float32

    @numba.njit(cache=False)
    def passes_binary(reps: int, op: int, kind: int, a: Any, b: Any, o: Any) -> None:
        for _ in range(reps):
            ew._arith_same_size(op, kind, a, b, o)

    @numba.njit(cache=False)
    def passes_scalar(reps: int, op: int, kind: int, a: Any, b: Any, o: Any) -> None:
        for _ in range(reps):
            ew._half_with_scalar(op, kind, a, b, o)

    @numba.njit(cache=False)
    def passes_max(reps: int, kind: int, a: Any, b: Any, o: Any) -> None:
        for _ in range(reps):
            ew._max(kind, a, b, o)

    @numba.njit(cache=False)
    def passes_axpy(reps: int, alpha: Any, a: Any, b: Any, o: Any) -> None:
        # the launch itself on a block (its route by alpha and by a single-element x2 included)
        for _ in range(reps):
            ew.axpy(ew.AXPY_F16_ONCE, nb.KIND_F16, alpha, a, b, o)

    @numba.njit(cache=False)
    def passes_axpy_scalar(reps: int, plain: bool, p: Any, a: Any, o: Any) -> None:
        for _ in range(reps):
            if plain:
                ew._add_scalar(nb.KIND_F16, a, np.uint16(0), p, o)
            else:
                ew._axpy_once_scalar_x2(p, a, o)

    @numba.njit(cache=False)
    def passes_hardswish(reps: int, kind: int, a: Any, o: Any) -> None:
        for _ in range(reps):
            ew.hardswish(False, kind, a, o)

    @numba.njit(cache=False)
    def passes_sl1(reps: int, kind: int, p: Any, lab: Any, d: Any, o: Any) -> None:
        for _ in range(reps):
            nb._sl1_tbe_same(p, lab, d, o, kind, f32(1.0), f32(1.0), np.uint32(0xFFFFFFFF), f32(1.0), False)

    rng = np.random.default_rng(0)
    src = np.ones(3 * N, np.uint8)
    dst = np.ones_like(src)
    print(f"arithmetic bound of the half types' elementwise loops ({N} elements; CPU time, best of {opts.repeat})")
    print(f"  numba {numba.__version__}; 'bound': np.copyto of the bytes the layout moves")
    print(f"  {'loop':40s} {'in memory':>10s} {'from L1':>10s} {'bound':>8s}   in memory/bound  L1/bound")
    reps = N // BLOCK
    for dt, kind in ((F16, nb.KIND_F16), (BF16, nb.KIND_BF16)):
        x = (rng.standard_normal(N) * 3).astype(np.float32).astype(dt).view(np.uint16)
        y = (rng.standard_normal(N) * 3).astype(np.float32).astype(dt).view(np.uint16)
        o = np.zeros(N, np.uint16)
        one, row = y[:1].copy(), y[:1024].copy()
        xs, ys, os_ = x[:BLOCK].copy(), y[:BLOCK].copy(), np.zeros(BLOCK, np.uint16)
        al = f32(2.0)
        # (name, bytes an element, the launch on 2^24 elements, the same inner loop from L1)
        loops: list[tuple[str, int, Callable[[], Any], Callable[[], Any]]] = []
        for name, op in (("Add", ew.ADD), ("Mul", ew.MUL), ("Div", ew.DIV)):
            loops.append((f"{name} {dt.name}, row", 4, partial(ew.binary_arith, op, kind, x, row, o),
                          partial(passes_binary, reps, op, kind, xs, ys, os_)))  # fmt: skip
            loops.append((f"{name} {dt.name}, scalar", 4, partial(ew.binary_arith, op, kind, x, one, o),
                          partial(passes_scalar, reps, op, kind, xs, one, os_)))  # fmt: skip
        loops.append((f"Maximum {dt.name}, row", 4, lambda: ew.maxmin(True, kind, x, row, o),
                      lambda: passes_max(reps, kind, xs, ys, os_)))  # fmt: skip
        if kind == nb.KIND_F16:  # TBE's one rounding (Axpy of aclnnAdd with alpha on Ascend910B)
            # alpha 2 (make bench's: the route of one significant bit) and 1.7 (rounded to odd;
            # its scalar x2 1.7 too, so that alpha * x2 has more than 11 bits)
            for a16 in (2.0, 1.7):
                al = f32(np.float16(a16))
                loops.append((f"Axpy float16 alpha={a16:g}, row", 4, partial(ew.axpy, 1, kind, al, x, row, o),
                              partial(passes_axpy, reps, al, xs, ys, os_)))  # fmt: skip
            # a scalar x2: alpha 2 (a short product), 1.7 * 1.7 (long, passes the check of large
            # calls), 3 * 683 = 2049 (a float16 midpoint: rounded to odd); from L1 the loop the
            # launch of 2^24 elements takes (a 4096-element block would not check)
            for a16, v in ((2.0, float(y[:1].view(F16)[0])), (1.7, 1.7), (3.0, 683.0)):
                al, x2 = f32(np.float16(a16)), np.array([v], np.float16).view(np.uint16)
                p = al * f32(np.float16(v))
                plain = bool(ew._plain_sum_rounds_right(p))  # true of short products too
                loops.append((f"Axpy float16 alpha={a16:g}, scalar {v:g}", 4, partial(ew.axpy, 1, kind, al, x, x2, o),
                              partial(passes_axpy_scalar, reps, plain, p, xs, os_)))  # fmt: skip
        loops.append((f"Hardswish {dt.name} (TBE), same shape", 4, partial(ew.hardswish, False, kind, x, o),
                      partial(passes_hardswish, reps, kind, xs, os_)))  # fmt: skip
        loops.append((f"SmoothL1LossGradV2 {dt.name}, scalar target", 6,
                      lambda: nb.smooth_l1_tbe(x, one, y, o, kind, f32(1.0), f32(0.0), f32(1.0), False),
                      lambda: passes_sl1(reps, kind, xs, ys, xs, os_)))  # fmt: skip
        for name, per, launch, l1 in loops:
            if only and not any(s.lower() in name.lower() for s in only):
                continue
            half = per * N // 2  # read and written
            copy = min(best(partial(np.copyto, dst[:half], src[:half]), opts.repeat) for _ in range(2))
            t_mem, t_l1 = best(launch, opts.repeat), best(l1, opts.repeat)
            print(
                f"  {name:40s} {t_mem * 1e3:7.2f} ms {t_l1 * 1e3:7.2f} ms {copy * 1e3:5.2f} ms"
                f"   {t_mem / copy:9.2f}x      {t_l1 / copy:6.2f}x",
                flush=True,
            )
    if opts.asm:
        count_instructions()
    return 0


if __name__ == "__main__":
    sys.exit(main())
