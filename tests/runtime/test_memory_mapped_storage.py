"""The largest allocations' storage (an anonymous mapping faulted in at once, see
:data:`aclnn_py.runtime.memory.MAP_MIN_BYTES`) behaves as every other allocation's: poisoned when
fresh, guarded by canaries, readable and writable through the copy functions, freed like the rest.
The threshold is lowered here so that a small allocation takes that path."""

from __future__ import annotations

import mmap

import numpy as np
import pytest

from aclnn_py import (
    ACL_ERROR_RT_MEMORY_ALLOCATION,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtFree,
    aclrtMalloc,
    aclrtMallocHost,
    aclrtMemcpy,
    aclrtResetDevice,
    aclrtSetDevice,
)
from aclnn_py.runtime import memory
from aclnn_py.runtime.memory import POISON, SPACE

SIZE = 3 * 4096


@pytest.fixture
def mapped(monkeypatch):
    if getattr(mmap, "MAP_POPULATE", None) is None:
        pytest.skip("this platform has no MAP_POPULATE: every allocation is a numpy array")
    monkeypatch.setattr(memory, "MAP_MIN_BYTES", 4096)
    assert aclInit(None) == 0
    assert aclrtSetDevice(0) == 0
    yield
    aclrtResetDevice(0)
    aclFinalize()


def test_mapped_storage_is_poisoned_guarded_and_copied_like_any_other(mapped, findings):
    p = Ref()
    assert aclrtMalloc(p, SIZE, ACL_MEM_MALLOC_HUGE_FIRST) == 0
    alloc = SPACE.find(p.value)
    assert alloc is not None
    base = alloc.raw.base  # the path under test was taken: the bytes are the mapping's
    assert isinstance(base, memoryview) and isinstance(base.obj, mmap.mmap)
    assert alloc.canaries_intact()
    host = np.zeros(SIZE, np.uint8)
    assert aclrtMemcpy(host, SIZE, p.value, SIZE, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (host == POISON).all()
    assert findings.refresh().checks() == ["initcheck"]  # the fresh bytes were read unwritten
    data = np.arange(SIZE, dtype=np.uint32).astype(np.uint8)
    assert aclrtMemcpy(p.value, SIZE, data, SIZE, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert aclrtMemcpy(host, SIZE, p.value, SIZE, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert (host == data).all()
    assert alloc.canaries_intact()
    assert aclrtFree(p.value) == 0
    assert SPACE.find(p.value) is None


def test_a_refused_mapping_falls_back_to_a_numpy_array(mapped, monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(mmap, "mmap", refuse)
    p = Ref()
    assert aclrtMalloc(p, SIZE, ACL_MEM_MALLOC_HUGE_FIRST) == 0
    alloc = SPACE.find(p.value)
    assert alloc is not None and not isinstance(alloc.raw.base, memoryview)
    assert alloc.canaries_intact() and (alloc.buf == POISON).all()
    assert aclrtFree(p.value) == 0


def test_storage_the_host_cannot_back_is_a_memory_allocation_error(mapped, monkeypatch):
    """numpy's MemoryError becomes ACL_ERROR_RT_MEMORY_ALLOCATION with a note naming the size."""

    def short(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(SPACE, "allocate", short)
    p = Ref()
    assert aclrtMalloc(p, SIZE, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_ERROR_RT_MEMORY_ALLOCATION
    msg = aclGetRecentErrMsg()  # the whole text names the rounded size
    assert "aclrtMalloc: the host cannot back " in msg and " bytes of simulated device memory." in msg
    assert aclrtMallocHost(p, 100) == ACL_ERROR_RT_MEMORY_ALLOCATION
    assert "aclrtMallocHost: the host cannot back 128 bytes." in aclGetRecentErrMsg()  # 100 rounded up to 32
