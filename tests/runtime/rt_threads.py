"""Running a runtime call on a thread of its own (no context bound there)."""

from __future__ import annotations

import threading
import time
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


def waits_for(fn: Callable[[], object], release: Callable[[], object]) -> object:
    """``fn()`` in a new thread is still waiting after 0.2 s and returns only after ``release()``
    (which must return 0) ran: its result."""
    done: list[tuple[object, float]] = []
    other = threading.Thread(target=lambda: done.append((fn(), time.monotonic())))
    other.start()
    other.join(0.2)
    assert other.is_alive() and not done
    released = time.monotonic()
    assert release() == 0
    other.join(5)
    assert done and done[0][1] >= released
    return done[0][0]
