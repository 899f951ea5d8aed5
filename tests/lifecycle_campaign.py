#!/usr/bin/env python3
"""``make fuzz`` (second part): a long random run of the lifecycle model.

    python tests/lifecycle_campaign.py [--examples N] [--steps K] [--seed S]

The suite runs the machine of ``tests/test_lifecycle.py`` derandomized and short; this runs it
with fresh randomness, longer sequences and many more examples. Prints the sequences and steps
run and each failure hypothesis shrank (a status code or memory content the model did not
expect). Exit status 1 if there is a failure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hypothesis import HealthCheck, seed, settings
from hypothesis.stateful import invariant, run_state_machine_as_test
from test_lifecycle import Lifecycle


class _Counted(Lifecycle):
    sequences = 0
    steps = 0

    every = 0  # a progress line every this many sequences (0: none)
    started = 0.0

    def __init__(self) -> None:
        super().__init__()
        _Counted.sequences += 1
        if _Counted.every and _Counted.sequences % _Counted.every == 0:
            print(f"  ... {_Counted.sequences} sequences, {_Counted.steps} steps, "
                  f"{time.perf_counter() - _Counted.started:.0f} s", flush=True)  # fmt: skip

    @invariant()
    def count_steps(self) -> None:  # invariants run after every step
        _Counted.steps += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=600)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    opts = ap.parse_args()
    machine = seed(opts.seed)(type("LifecycleCampaign", (_Counted,), {}))
    failure = ""
    start = _Counted.started = time.perf_counter()
    _Counted.every = max(1, opts.examples // 20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the random orders make mistakes on purpose
        try:
            run_state_machine_as_test(
                machine,
                settings=settings(
                    max_examples=opts.examples,
                    stateful_step_count=opts.steps,
                    deadline=None,
                    database=None,
                    suppress_health_check=list(HealthCheck),
                ),
            )
        except Exception as e:  # hypothesis shrank it and printed the sequence
            failure = repr(e)
    elapsed = time.perf_counter() - start
    print(
        f"lifecycle campaign: seed {opts.seed}, {_Counted.sequences} sequences, "
        f"{_Counted.steps} steps in {elapsed:.0f} s"
    )
    print(f"failures: {1 if failure else 0}")
    if failure:
        print("  " + failure[:2000])
    return 1 if failure else 0


if __name__ == "__main__":
    sys.exit(main())
