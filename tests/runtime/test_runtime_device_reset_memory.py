"""A device reset takes the memory mapped onto the device with it: virtual ranges, physical
handles, host registrations and IPC imports (CANN's driver frees the device's address space)."""

from __future__ import annotations

import numpy as np

from aclnn_py import (
    ACL_MEM_HUGE,
    ACL_MEM_LOCATION_TYPE_DEVICE,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclFinalize,
    aclInit,
    aclrtFree,
    aclrtFreePhysical,
    aclrtGetMemInfo,
    aclrtHostRegister,
    aclrtIpcMemGetExportKey,
    aclrtIpcMemImportByKey,
    aclrtIpcMemSetImportPid,
    aclrtMalloc,
    aclrtMallocPhysical,
    aclrtMapMem,
    aclrtMemcpy,
    aclrtMemLocation,
    aclrtPhysicalMemProp,
    aclrtReserveMemAddress,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtUnmapMem,
)
from aclnn_py.runtime import api_hostreg, api_ipc, api_vmm
from aclnn_py.runtime.memory import SPACE

MB2 = 2 << 20


def _write(ptr: int) -> int:
    a = np.arange(4, dtype=np.float32)
    return int(aclrtMemcpy(ptr, a.nbytes, a, a.nbytes, ACL_MEMCPY_HOST_TO_DEVICE))


def test_reset_releases_what_is_mapped_onto_the_device():
    import os

    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        free0, total = Ref(), Ref()
        assert aclrtGetMemInfo(0, free0, total) == 0  # ACL_DDR_MEM... the device's own pool
        h, va = Ref(), Ref()
        prop = aclrtPhysicalMemProp(0, 0, ACL_MEM_HUGE, aclrtMemLocation(0, ACL_MEM_LOCATION_TYPE_DEVICE), 0)
        assert aclrtMallocPhysical(h, MB2, prop, 0) == 0
        assert aclrtReserveMemAddress(va, 2 * MB2, 0, None, 0) == 0
        assert aclrtMapMem(va.value, MB2, 0, h.value, 0) == 0 and _write(va.value) == 0
        host = np.zeros(1024, np.uint8)
        dptr = Ref()
        assert aclrtHostRegister(host, host.nbytes, 0, dptr) == 0
        p, imported = Ref(), Ref()
        assert aclrtMalloc(p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == 0
        key = Ref()
        assert aclrtIpcMemGetExportKey(p.value, 4096, key, 65, 0) == 0
        assert aclrtIpcMemSetImportPid(key.value, [os.getpid()], 1) == 0
        assert aclrtIpcMemImportByKey(imported, key.value, 0) == 0 and _write(imported.value) == 0
        assert aclrtUnmapMem(va.value) == 0 and aclrtMapMem(va.value, MB2, 0, h.value, 0) == 0  # still usable
        assert aclrtFree(p.value) == 0  # the exporter's memory (its key and the import stay)
    finally:
        assert aclrtResetDevice(0) == 0
    # everything mapped onto device 0 is gone with it
    assert SPACE.find(va.value) is None and SPACE.reservation(va.value) is None
    assert SPACE.find(dptr.value) is None and SPACE.find(imported.value) is None
    assert not api_vmm.RESERVED and not api_vmm.HANDLES and not api_hostreg.REGISTERED and not api_ipc.KEYS
    assert aclrtSetDevice(0) == 0
    try:
        assert aclrtFreePhysical(h.value) != 0  # the handle died with the device
        free1 = Ref()
        assert aclrtGetMemInfo(0, free1, total) == 0 and free1.value == free0.value  # the pool is whole again
    finally:
        aclrtResetDevice(0)
        aclFinalize()
