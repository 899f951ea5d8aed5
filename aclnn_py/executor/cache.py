"""The phase-1 executor cache of composite operators (opbase ``op_cache``).

``L2_DFX_PHASE_1`` hashes the API name, the op configuration and every IN/OUT argument of
the call — for a tensor its view shape, view strides, storage shape, dtype, view offset and
view format, never its address; scalars by value; which arguments are the same aclTensor —
and looks the key up in a per-thread cache. On a hit, phase 1 returns 0 at once with the
cached workspace size and a *cache wrapper* executor, without running the operator's checks
or building its graph; phase 2 replays the cached kernels with the new call's addresses
(read at phase 1) and frees the wrapper.

What the reference (opbase ``op_cache.cpp``, ``op_executor.cpp``) fixes and this module follows:

* an executor's entry is registered when phase 1 hands it out (``ReleaseTo``) and becomes
  usable only when a successful phase 2 has run and freed it; an executor destroyed without
  running, a failed launch, or a phase 2 that hit a null workspace leaves no usable entry;
* ``aclSetAclOpExecutorRepeatable`` takes the executor's entry out of the cache, and returns
  561000 for a cache wrapper (not an executor it knows);
* a graph that ViewCopy left unrepeatable (input and output at the same address) is not cached;
* capacity ``ACLNN_CACHE_LIMIT`` entries per thread (default 10000, at most 10,000,000;
  ``0`` turns caching off); when full, the 30 least recently used entries are dropped;
  ``DISABLE_L2_CACHE`` set to anything turns it off (read once per process).

The operator check order is unchanged for every call that is not a repeat of a successful one:
only successful executors are cached, so a hit reproduces a result the checks already passed.
"""

from __future__ import annotations

import os
import re
import struct
import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from .. import soc as _soc
from ..tensor import Storage, aclBoolArray, aclFloatArray, aclIntArray, aclScalar, aclTensor

ENV_LIMIT = "ACLNN_CACHE_LIMIT"
ENV_DISABLE = "DISABLE_L2_CACHE"
K_CACHE_LIMIT = 10000
K_MAX_CACHE_LIMIT = 10_000_000
K_CACHE_SHRINK_NUM = 30

Key = tuple[Any, ...]


def _limit_from_env() -> int:
    """``GetCacheSizeLimit``: std::stoull of the variable (a leading number; "-1" wraps to a huge
    value), the default when it does not parse, capped at K_MAX_CACHE_LIMIT."""
    raw = os.environ.get(ENV_LIMIT)
    if raw is None:
        return K_CACHE_LIMIT
    m = re.match(r"\s*([+-]?)(\d+)", raw)
    if m is None:
        return K_CACHE_LIMIT
    value = int(m.group(2))
    if m.group(1) == "-" and value:
        return K_MAX_CACHE_LIMIT
    return min(K_MAX_CACHE_LIMIT, value)


class Entry:
    """``OpExecCache``: the kernels of one executor, replayable with other addresses."""

    __slots__ = ("api", "key", "manager", "names", "storages", "template", "usable", "valid")

    def __init__(self, api: str, key: Key, names: list[str], storages: list[Storage], manager: _Manager) -> None:
        self.api = api
        self.key = key
        self.names = names  # the tensor arguments' names, in hashing order
        self.storages = storages  # and their storages (the template's cachedStorageList)
        self.manager = manager
        self.template: Any = None  # the aclOpExecutor whose kernels are replayed
        self.usable = False
        self.valid = True

    def invalidate(self) -> None:
        """``MarkOpCacheInvalid``: the key is dropped, the entry never hits."""
        self.valid = False
        self.usable = False
        self.manager.remove(self)


class _Manager:
    """``OpExecCacheManager``: one per thread, an LRU map from key to entry."""

    def __init__(self) -> None:
        self.limit = _limit_from_env()
        self.full = self.limit == 0  # cacheHasFull_: no new entries on this thread
        self.entries: OrderedDict[Key, Entry] = OrderedDict()

    def find(self, key: Key) -> Entry | None:
        entry = self.entries.get(key)
        if entry is None:
            return None
        self.entries.move_to_end(key, last=False)  # found = most recently used
        return entry if entry.usable else None

    def add(self, entry: Entry) -> bool:
        if self.full:
            return False
        if len(self.entries) >= self.limit:
            for _ in range(min(K_CACHE_SHRINK_NUM, len(self.entries))):
                self.entries.popitem(last=True)
        if entry.key in self.entries:
            return False  # the first executor registered under a key keeps it
        self.entries[entry.key] = entry
        self.entries.move_to_end(entry.key, last=False)
        return True

    def remove(self, entry: Entry) -> None:
        if self.entries.get(entry.key) is entry:
            del self.entries[entry.key]


_local = threading.local()
_disabled: bool | None = None


def manager() -> _Manager:
    """This thread's cache."""
    m: _Manager | None = getattr(_local, "manager", None)
    if m is None:
        m = _local.manager = _Manager()
    return m


def cacheable() -> bool:
    """``CheckCacheable``: ``DISABLE_L2_CACHE`` (read once per process) turns the cache off."""
    global _disabled
    if _disabled is None:
        _disabled = os.environ.get(ENV_DISABLE) is not None
    return not _disabled


def reset() -> None:
    """Empty this thread's cache and read ``ACLNN_CACHE_LIMIT`` and ``DISABLE_L2_CACHE`` again
    (opbase's ``ReinitOpCacheManager``; tests use it to start from a cold cache)."""
    global _disabled
    _disabled = None
    _local.manager = _Manager()


_pack_double = struct.Struct("<d").pack


def make_key(api: str, named: dict[str, Any]) -> tuple[Key, list[str], list[aclTensor]]:
    """The hash key of a call: API, chip, then each argument in DFX_IN/DFX_OUT order."""
    parts: list[Any] = [api, _soc.current().name]
    labels: dict[int, int] = {}
    names: list[str] = []
    tensors: list[aclTensor] = []
    for name, a in named.items():
        kind = type(a)
        if kind is aclTensor:
            parts.append((a.view_shape, a.strides, a.storage_shape, a.dtype, a.offset, a.view_format))
            parts.append(labels.setdefault(id(a), len(labels)))  # which arguments are one tensor
            names.append(name)
            tensors.append(a)
        elif kind is float:
            parts.append(_pack_double(a))  # by bytes: -0.0 != 0.0, a NaN matches itself
        elif kind is aclScalar:  # by dtype and value bytes, never by object
            v = a.value
            kb = a.key_bytes
            if kb is not None and kb[0] is v:
                vb = kb[1]
            else:
                vb = np.asarray(v).tobytes()
                if isinstance(v, (np.generic, int, float)):  # immutable: its bytes are kept with it
                    a.key_bytes = (v, vb)
            parts.append(("aclScalar", a.dtype, vb))
        elif isinstance(a, (aclIntArray, aclFloatArray, aclBoolArray)):
            parts.append((kind.__name__, np.asarray(a.values).tobytes(), len(a.values)))
        else:
            parts.append(a)  # None (a null pointer) or an integer
    return tuple(parts), names, tensors


def lookup(api: str, named: dict[str, Any]) -> tuple[Entry | None, list[str], list[aclTensor]]:
    """Phase 1's lookup (``GetFromCache``): the usable entry for this call, or None.

    On a miss the key is kept for the executor the call goes on to create (``CREATE_EXECUTOR``
    picks it up with :func:`take_pending`)."""
    key, names, tensors = make_key(api, named)
    m = getattr(_local, "manager", None) or manager()
    _local.pending = None
    if _disabled is not False and not cacheable():  # cacheable() only when not yet read or off
        m.full = True
        return None, names, tensors
    entry = m.find(key)
    if entry is None and not m.full:
        _local.pending = (api, key, names, [t.storage for t in tensors])
    return entry, names, tensors


def take_pending(api: str) -> Entry | None:
    """The cache entry of a new executor (``new OpExecCache()`` in its constructor), from the
    key the same thread's phase 1 just hashed; None when caching is off or full."""
    pending = getattr(_local, "pending", None)
    _local.pending = None
    if pending is None or pending[0] != api:
        return None
    _, key, names, storages = pending
    return Entry(api, key, names, storages, manager())


def register(entry: Entry) -> bool:
    """``ReleaseTo`` -> ``AddCache``: put the entry in its thread's cache (not usable yet)."""
    return entry.valid and entry.manager.add(entry)
