"""A pinned block handed to C (aclrtGetBufData's data pointer, aclrtMallocHost's block) maps C's
address back to the simulated block while the block lives, and while its freed bytes are still
held (a use after free is reported as one); once they are released, malloc may give the address
to the program again, and it is the program's own host memory."""

from __future__ import annotations

import pytest

from aclnn_py import Ref, aclrtAllocBuf, aclrtFree, aclrtFreeBuf, aclrtGetBufData, aclrtMalloc
from aclnn_py.runtime import memory

_cabi_core = pytest.importorskip("aclnn_py._cabi_core")
_cabi_services = pytest.importorskip("aclnn_py._cabi_services")


def _exposed_block(n: int = 4096) -> tuple[object, int, int]:
    buf, data, size = Ref(), Ref(), Ref()
    assert aclrtAllocBuf(buf, n) == 0
    assert aclrtGetBufData(buf.value, data, size) == 0
    return buf.value, data.value, _cabi_services._expose_pinned(data.value)  # what C receives


def test_a_freed_block_whose_bytes_are_held_still_maps_to_its_record(dev0):
    buf, sim, real = _exposed_block()
    assert _cabi_core._pinned_to_sim(real) == sim
    assert aclrtFreeBuf(buf) == 0
    assert _cabi_core._pinned_to_sim(real) == sim  # a use after free: the record says so
    assert "freed by aclrtFreeBuf" in memory.SPACE.describe_address(sim)


def test_a_released_block_is_the_programs_memory_again(dev0, monkeypatch):
    monkeypatch.setattr(memory, "FREED_BYTES_KEPT", 0)
    buf, _, real = _exposed_block()
    assert aclrtFreeBuf(buf) == 0
    p = Ref()
    assert aclrtMalloc(p, 64, 0) == 0 and aclrtFree(p.value) == 0  # a newer free: the block's bytes go
    assert _cabi_core._pinned_to_sim(real) is None
    assert real not in _cabi_core._pinned and real not in _cabi_core._pinned_starts
    assert sorted(set(_cabi_core._pinned_starts)) == _cabi_core._pinned_starts
