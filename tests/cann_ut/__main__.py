"""``python -m cann_ut <folder>`` (in ``tests/``): every case and skip read under the folder, the
counts per API, and the commonest reasons for a skip."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from aclnn_py.ops import registry

from . import count_calls, read_tree


def main() -> None:
    all_cases, all_skipped = read_tree(Path(sys.argv[1]), {a.name: len(a.params) for a in registry.APIS})
    for c in all_cases:
        print(c.id, "|", c.describe())
    for s in all_skipped:
        print("SKIP", s.kind, s.id, "|", s.reason)
    for api, r, u in count_calls(all_cases, all_skipped):
        print(f"{api:36} read {r:4}  unreadable {u:4}")
    print(Counter((s.kind, re.sub(r"line \d+: ", "", s.reason)) for s in all_skipped).most_common(20))


if __name__ == "__main__":
    main()
