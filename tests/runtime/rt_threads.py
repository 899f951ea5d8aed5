"""Running a runtime call on a thread of its own (no context bound there)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from aclnn_py import aclGetRecentErrMsg


def in_thread(fn: Callable[[], object]) -> tuple[object, str]:
    """``fn()`` in a new thread (no context bound); its result and the thread's error text."""
    out: list[object] = []

    def run() -> None:
        out.append(fn())
        out.append(aclGetRecentErrMsg())

    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out[0], str(out[1])
