#!/usr/bin/env python3
"""``make fuzz``: a long fuzz campaign of the C-style surface (default 100,000 calls).

    python tests/fuzz_campaign.py [--calls N] [--seed S] [--sanitizer warn|error] [--triage]
    python tests/fuzz_campaign.py --seed S --example I     # replay one example, printing its calls

Prints the number of calls, the status codes seen, the functions exercised, how far the operators
got, and the findings (promises broken: an exception escaping, a non-zero status without a
message, memory changed outside a call's declared writes, damaged guard bytes). Exit status 1 if
there is a finding.

Example ``I`` of seed ``S`` draws everything from ``random.Random(f"{S}/{I}")``: each example is
new (hypothesis' engine, which the suite's short run uses, replays and mutates earlier examples,
so most of a long run's calls repeated earlier ones) and any failure replays exactly with
``--seed S --example I``. The campaign stops at the first failing example; ``--triage`` goes on
and lists every distinct failure (one example each).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
import traceback
import warnings

os.environ.setdefault("ACLNN_PY_RAISE_INTERNAL", "1")
os.environ["ACLNN_PY_SANITIZER"] = "warn"
# The memory guard must know which call lets queued work run: under the deferred policy only the
# synchronising calls do (RUNS_QUEUED_WORK); under eager or thread any call might. The other
# policies are exercised by the lifecycle campaign, which compares memory only once work settled.
os.environ["ACLNN_PY_STREAM"] = "deferred"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fuzzing
from fuzzing import FUNCTIONS, OP_APIS, Stats, example

from aclnn_py import soc
from aclnn_py.runtime import sanitizer
from aclnn_py.runtime import stream as stream_mod

CALLS_PER_EXAMPLE = 25
OP_APIS_BY_PHASE = {p: {api.name: name for name, (api, ph) in OP_APIS.items() if ph == p} for p in (1, 2)}


def _triage_key(e: BaseException) -> str:
    """What tells two failures apart: the function and what went wrong, where."""
    text = str(e)
    name = text.split("(", 1)[0]
    if " raised " in text:
        cause = e.__cause__ or e
        tb = traceback.extract_tb(cause.__traceback__)
        where = f"{os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else "?"
        return f"{name} raised {type(cause).__name__} at {where}"
    if "without a message" in text:
        return name + text[text.rindex(" returned ") :]
    if "): " in text:
        return name + ": " + text.rsplit("): ", 1)[1].split(" of ", 1)[0]
    return f"{type(e).__name__}: {text[:120]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--sanitizer", choices=("warn", "error"), default="warn")
    ap.add_argument("--triage", action="store_true", help="go on after a failure; list every distinct one")
    ap.add_argument("--example", type=int, default=None, help="replay this example only, printing its calls")
    opts = ap.parse_args()
    # what the calls make under ./ (dump and profiling folders) goes to a scratch folder
    os.chdir(tempfile.mkdtemp(prefix="aclnn_py_fuzz_"))
    sanitizer.set_mode(opts.sanitizer)  # error: a finding fails its call, with a code and message
    warnings.simplefilter("error")  # as in the test suite (pyproject's filterwarnings): a warning escapes
    names = sorted(FUNCTIONS)
    stats = Stats()
    if opts.example is not None:
        fuzzing.VERBOSE = True
        indices: range | list[int] = [opts.example]
    else:
        indices = range(max(1, opts.calls // CALLS_PER_EXAMPLE))
    distinct: dict[str, str] = {}
    tasks = [0]

    def count_task(task: object) -> None:
        tasks[0] += 1

    stream_mod.FINISH_HOOKS.append(count_task)
    devnull = open(os.devnull, "w")  # noqa: SIM115 - sanitizer warnings of bad calls are expected noise
    real_stderr = sys.stderr
    start = time.perf_counter()
    if opts.example is None:
        sys.stderr = devnull
    try:
        step = max(1, len(indices) // 20)  # a progress line every 5 %
        for i in indices:
            if opts.example is None and i and i % step == 0:
                print(f"  ... {stats.calls} calls, {time.perf_counter() - start:.0f} s, "
                      f"{len(distinct)} findings", flush=True)  # fmt: skip
            try:
                example(random.Random(f"{opts.seed}/{i}"), stats, names, CALLS_PER_EXAMPLE)
            except Exception as e:  # a broken promise
                key = _triage_key(e)
                if key not in distinct:
                    distinct[key] = f"{key} (replay: --seed {opts.seed} --example {i})\n    {str(e)[:1500]}"
                if not opts.triage:
                    break
    finally:
        sys.stderr = real_stderr
        devnull.close()
    stats.findings += distinct.values()
    elapsed = time.perf_counter() - start
    print(f"fuzz campaign: seed {opts.seed}, SoC {soc.current().name}, sanitizer {opts.sanitizer}, "
          f"{stats.calls} calls in {elapsed:.0f} s, "
          f"{len(stats.per_function)} of {len(names)} functions exercised")  # fmt: skip
    print(f"distinct results: {len(stats.codes)}")
    for code, count in stats.codes.most_common():
        print(f"  {code:45s} {count}")
    ops = sorted({api.name for api, _ in OP_APIS.values()})
    for phase, label in ((1, "phase 1"), (2, "phase 2")):
        fns = [OP_APIS_BY_PHASE[phase][a] for a in ops]
        ok = sum(stats.succeeded[f] for f in fns)
        never_ok = [f for f in fns if not stats.succeeded[f]]
        print(f"operators, {label}: {sum(stats.per_function[f] for f in fns)} calls, {ok} returned 0, "
              f"{len(fns) - len(never_ok)} of {len(fns)} APIs at least once"
              + (f" (never: {', '.join(never_ok)})" if never_ok else ""))  # fmt: skip
    print(f"op-cache hits: {stats.cache_hits}; device tasks finished (run, or dropped after a fault): {tasks[0]}")
    never = sorted(set(names) - set(stats.per_function))
    if never and opts.example is None:
        print("never called:", ", ".join(never))
    print(f"findings: {len(stats.findings)}")
    for f in stats.findings:
        print("  " + f)
    return 1 if stats.findings else 0


if __name__ == "__main__":
    sys.exit(main())
