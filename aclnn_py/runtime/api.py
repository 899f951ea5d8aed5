"""The AscendCL runtime (``acl.h`` / ``acl_rt.h`` / ``acl_base.h``): every chapter's functions,
re-exported under their C names.

The functions live in one module per chapter of CANN's ``acl_rt.h``: devices and contexts
(:mod:`.api_device`, queries in :mod:`.api_device_info`), streams (:mod:`.api_stream`, host
callbacks in :mod:`.api_callback`), events (:mod:`.api_event`), notifies and IPC
(:mod:`.api_notify`, :mod:`.api_cnt_notify`), memory (:mod:`.api_memory`, copies in
:mod:`.api_memcpy` and :mod:`.api_memcpy_2d`, fills in :mod:`.api_memset`, virtual memory in
:mod:`.api_vmm`, its queries in :mod:`.api_vmm_access`, its shareable handles in
:mod:`.api_vmm_share`), errors and system information (:mod:`.api_system`, :mod:`.api_info`), kernel
launches (:mod:`.api_kernel`), profiling (:mod:`.api_prof`, the msproftx stamps in :mod:`.api_prof_tx`,
the tensor-info ranges in :mod:`.api_prof_range_ex`, the model subscription in :mod:`.api_prof_sub`,
the profile file in :mod:`.prof_file`, the shared state in :mod:`.prof_state`), data dump
(:mod:`.api_dump`, its configuration's checks in :mod:`.dump_config`, its files and kernel hook in
:mod:`.dump_file`, the exception dump in :mod:`.api_dump_exception`), external allocators
(:mod:`.api_allocator`), tensor data transport (:mod:`.api_tdt`), shared queues and their routes
(:mod:`.api_tdt_queue`, parameter objects in
:mod:`.api_tdt_queue_attr`, routes in :mod:`.api_tdt_queue_route`, the host side's refusals in
:mod:`.api_tdt_queue_buf`), shared buffers
(:mod:`.api_mbuf`), model runtime instances (capture in :mod:`.api_model_ri_capture`, built models
and execution in :mod:`.api_model_ri_build`, queries in :mod:`.api_model_ri_query`, their shared
checks in :mod:`._model_ri_checks`) and the ``aclDataBuffer`` family of ``acl_base.h``
(:mod:`.api_buffer`); what they share is in :mod:`._checks`.

**Which chapters load with the package.** The core chapters every program uses (init and errors,
devices and contexts, streams, events, malloc/memcpy/memset, versions and float16 conversions,
and what they import) are star-imported at the top of this file. Every other chapter (model
runtime instances, labels, profiling, dump, tdt, mbufs, allocators, groups, virtual memory, IPC,
host registration, kernels, notifies, callbacks ...) loads when one of its names is first used:
:data:`LAZY` maps each such name to its chapter (generated into :mod:`._lazy_index`, so that
nothing has to import the chapters to know it), and the module ``__getattr__`` (PEP 562) imports
the chapter on first use, so ``import aclnn_py`` does not pay for chapters a program never calls.
Type checkers and editors see those chapters through the star imports of the ``if TYPE_CHECKING:``
block, which take each chapter's ``__all__``.

**How to re-export a new runtime function**: define it in its chapter and list its name once, in
that chapter's ``__all__`` (exactly the chapter's C names: functions, types, constants; never
helpers); then run ``python -m aclnn_py.runtime._lazy_index``, which regenerates the name index
(``tests/test_import_lazy.py`` fails while it is stale). A new chapter file gets an ``__all__``
and one line here: ``from .api_x import *`` in the ``if TYPE_CHECKING:`` block (loaded on first
use; new chapters are lazy unless every program needs them; never import a lazy chapter at the top
of this file: that loads it with the package again), or at the top for a chapter every program
needs; then regenerate.

Other modules keep importing a chapter directly (``from .api_label import aclrtCreateLabel``);
``aclnn_py`` and the C ABI (``getattr(api, name)``) reach lazy names through ``__getattr__``.
"""
# ruff: noqa: F403 - every chapter's names come in through a star import of its __all__

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from . import _lazy_index

# The core chapters every program uses, loaded with the package.
from ._structs import *
from .api_device import *
from .api_device_config import *
from .api_device_query import *
from .api_event import *
from .api_info import *
from .api_memcpy import *
from .api_memory import *
from .api_memset import *
from .api_stream import *
from .api_system import *
from .dump_file import *

if TYPE_CHECKING:
    # The chapters loaded on first use (module __getattr__ below), for type checkers and editors:
    # each star import takes the chapter's __all__. python -m aclnn_py.runtime._lazy_index reads
    # this block to regenerate LAZY.
    from .api_allocator import *
    from .api_buffer import *
    from .api_callback import *
    from .api_cmo import *
    from .api_cnt_notify import *
    from .api_device_atomic import *
    from .api_device_info import *
    from .api_device_repair import *
    from .api_dump import *
    from .api_dump_args import *
    from .api_dump_exception import *
    from .api_group import *
    from .api_hostreg import *
    from .api_init_callback import *
    from .api_ipc import *
    from .api_kernel import *
    from .api_label import *
    from .api_log import *
    from .api_mbuf import *
    from .api_memcpy_2d import *
    from .api_memcpy_batch import *
    from .api_memory_misc import *
    from .api_model_ri_build import *
    from .api_model_ri_capture import *
    from .api_model_ri_query import *
    from .api_notify import *
    from .api_prof import *
    from .api_prof_range_ex import *
    from .api_prof_sub import *
    from .api_prof_tx import *
    from .api_random import *
    from .api_reduce import *
    from .api_snapshot import *
    from .api_stream_attr import *
    from .api_stream_res import *
    from .api_stream_task import *
    from .api_tdt import *
    from .api_tdt_queue import *
    from .api_tdt_queue_attr import *
    from .api_tdt_queue_buf import *
    from .api_tdt_queue_route import *
    from .api_uce import *
    from .api_vmm import *
    from .api_vmm_access import *
    from .api_vmm_link import *
    from .api_vmm_share import *
    from .prof_state import *

#: Each name of a chapter loaded on first use -> that chapter's module (generated: :mod:`._lazy_index`).
LAZY: dict[str, str] = _lazy_index.LAZY


def _by_chapter(index: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """chapter -> its names, from name -> chapter."""
    chapters: dict[str, list[str]] = {}
    for name, chapter in index.items():
        chapters.setdefault(chapter, []).append(name)
    return {chapter: tuple(names) for chapter, names in chapters.items()}


#: The chapters loaded on first use -> the names each re-exports (derived from LAZY).
LAZY_CHAPTERS: dict[str, tuple[str, ...]] = _by_chapter(LAZY)


def __getattr__(name: str) -> object:
    """A lazy chapter's name: import the chapter on first use and keep the name here (PEP 562)."""
    module = LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__package__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every name this module gives, the lazy ones too (tab completion)."""
    return sorted(set(globals()) | set(LAZY))


if not TYPE_CHECKING:
    # Hidden from type checkers, which cannot compute it and would read it as empty: without it
    # their `from aclnn_py.runtime.api import *` takes the star imports above (the chapters'
    # __all__) and the `as` re-exports.
    __all__ = [*_lazy_index.EAGER, *LAZY]
