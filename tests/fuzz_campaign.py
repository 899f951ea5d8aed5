#!/usr/bin/env python3
"""``make fuzz``: a long fuzz campaign of the C-style surface (default 100,000 calls).

    python tests/fuzz_campaign.py [--calls N] [--seed S] [--sanitizer warn|error]

Prints the number of calls, the status codes seen, the functions exercised and the findings
(promises broken: an exception escaping, a non-zero status without a message, memory changed
outside a call's declared writes, damaged guard bytes). Exit status 1 if there is a finding.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("ACLNN_PY_RAISE_INTERNAL", "1")
os.environ["ACLNN_PY_SANITIZER"] = "warn"
# The memory guard must know which call lets queued work run: under the deferred policy only the
# synchronising calls do (RUNS_QUEUED_WORK); under eager or thread any call might. The other
# policies are exercised by the lifecycle campaign, which compares memory only once work settled.
os.environ["ACLNN_PY_STREAM"] = "deferred"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzing import FUNCTIONS, Stats, World, call_once
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from aclnn_py.runtime import sanitizer

CALLS_PER_EXAMPLE = 25


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--sanitizer", choices=("warn", "error"), default="warn")
    opts = ap.parse_args()
    sanitizer.set_mode(opts.sanitizer)  # error: a finding fails its call, with a code and message
    names = sorted(FUNCTIONS)
    stats = Stats()
    examples = max(1, opts.calls // CALLS_PER_EXAMPLE)
    devnull = open(os.devnull, "w")  # noqa: SIM115 - sanitizer warnings of bad calls are expected noise
    real_stderr = sys.stderr

    @seed(opts.seed)
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def campaign(data: st.DataObject) -> None:
        world = World()
        try:
            for _ in range(CALLS_PER_EXAMPLE):
                call_once(world, data, stats, names)
        finally:
            world.close()

    start = time.perf_counter()
    sys.stderr = devnull
    try:
        campaign()
    except Exception as e:  # a broken promise: hypothesis already shrank it
        stats.findings.append(repr(e))
    finally:
        sys.stderr = real_stderr
    elapsed = time.perf_counter() - start
    print(f"fuzz campaign: seed {opts.seed}, sanitizer {opts.sanitizer}, {stats.calls} calls in {elapsed:.0f} s, "
          f"{len(stats.per_function)} of {len(names)} functions exercised")  # fmt: skip
    print(f"distinct results: {len(stats.codes)}")
    for code, count in stats.codes.most_common():
        print(f"  {code:45s} {count}")
    never = sorted(set(names) - set(stats.per_function))
    if never:
        print("never called:", ", ".join(never))
    print(f"findings: {len(stats.findings)}")
    for f in stats.findings:
        print("  " + f[:2000])
    return 1 if stats.findings else 0


if __name__ == "__main__":
    sys.exit(main())
