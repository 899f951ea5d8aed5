"""Helpers for test suites that use aclnn_py (not part of the C API).

:func:`reset` returns the emulator to the state of a fresh process: no init, no devices, no
memory, no pending messages, a cold op cache. Use it between tests that must not see each other's state.
"""

from __future__ import annotations

import itertools
import sys

from . import _errmsg, trace
from . import soc as _soc
from .executor import cache
from .runtime import (
    api_allocator,
    api_device_query,
    api_dump,
    api_dump_args,
    api_init_callback,
    api_log,
    api_prof,
    model_ri,
    sanitizer,
)
from .runtime.device import RT, Context
from .runtime.memory import SPACE
from .runtime.stream import Event, Stream, Task


def reset() -> None:
    """Forget all runtime state, memory and pending error messages."""
    for dev in RT.devices.values():
        for ctx in ([dev.primary] if dev.primary else []) + dev.contexts:
            for stream in ctx.all_streams():
                stream.destroyed = True
                RT.policy.shutdown(stream)
    RT.reset()
    SPACE.reset()
    _soc.set_active(None)
    _errmsg.set_process_mode(False)
    _errmsg.clear()
    cache.reset()
    api_prof.reset()  # the profiler, the dump service and the allocator registrations
    api_dump.reset()
    api_allocator.reset()
    api_init_callback.reset()  # the init/finalize, device-state, task-abort and stream-state callbacks
    api_device_query.reset()
    api_log.reset()  # the app log's level and file
    api_dump_args.reset()
    model_ri.reset()  # the model runtime instances, their numbers, the capture exchange mode
    tdt_queue = sys.modules.get("aclnn_py.runtime.api_tdt_queue")  # loads on first use
    if tdt_queue is not None:
        tdt_queue.reset()  # the shared queues and routes
    with sanitizer._lock:
        sanitizer._pending.clear()
    # Handle numbers restart, so that printouts (stream #2 ...) do not depend on earlier tests.
    Stream._ids = itertools.count(1)
    Event._ids = itertools.count(1)
    Task._seq = itertools.count()
    Context._next = 1
    trace._seq = itertools.count(1)
