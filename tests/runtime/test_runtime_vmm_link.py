"""aclrtMemMapNoAccess (a mapping without access: copies through it fail as through an unmapped
address until aclrtMemSetAccess grants a right), aclrtMemMapSelectedLink (a second range onto the
same physical memory through a chosen link) and aclrtMemMapSetLink: CANN's checks and texts."""

from __future__ import annotations

import numpy as np
import pytest
from rt_texts import INDENT, RANGE_SOLUTION, TRACEBACK, null

from aclnn_py import (
    ACL_FLOAT,
    ACL_FORMAT_ND,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyScalar,
    aclDestroyTensor,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclnnInplaceFillScalar,
    aclnnInplaceFillScalarGetWorkspaceSize,
    aclrtGetLastError,
    aclrtMemcpy,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from aclnn_py.runtime import api_vmm as V
from aclnn_py.runtime import api_vmm_access as A
from aclnn_py.runtime import api_vmm_link as L
from aclnn_py.runtime._structs import aclrtMemAccessDesc, aclrtMemLocation, aclrtPhysicalMemProp

MB2 = 2 << 20


@pytest.fixture
def soc(request, monkeypatch):
    """Device 0 of the SoC the test names (default Ascend910B)."""
    monkeypatch.setenv("ACLNN_PY_SOC", getattr(request, "param", "Ascend910B"))
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    yield
    aclrtResetDevice(0)
    aclFinalize()


def reserve(size=4 * MB2):
    va = Ref()
    assert V.aclrtReserveMemAddress(va, size, 0, None, 0) == 0
    return va.value


def physical(size=MB2):
    h = Ref()
    assert V.aclrtMallocPhysical(h, size, aclrtPhysicalMemProp(0, 0, 4, aclrtMemLocation(0, 1)), 0) == 0
    return h.value


def put(addr, values):
    return aclrtMemcpy(addr, values.nbytes, values, values.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)


def get(addr, n):
    out = np.zeros(n, dtype=np.float32)
    assert aclrtMemcpy(out, 4 * n, addr, 4 * n, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return out


def fill_kernel(ptr, n, value):
    """aclnnInplaceFillScalar on ``n`` floats at ``ptr``: a kernel through the executor's checks."""
    t = aclCreateTensor([n], 1, ACL_FLOAT, [1], 0, ACL_FORMAT_ND, [n], 1, ptr)
    s = aclCreateScalar(np.array(value, np.float32), ACL_FLOAT)
    ws, ex = Ref(), Ref()
    try:
        rc = aclnnInplaceFillScalarGetWorkspaceSize(t, s, ws, ex)
        if rc == 0:
            rc = aclnnInplaceFillScalar(None, 0, ex.value, None)
        if rc == 0:
            rc = aclrtSynchronizeStream(None)
        return int(rc)
    finally:
        aclDestroyTensor(t)
        aclDestroyScalar(s)


def test_no_access_mapping_is_refused_until_set_access_grants_a_right(soc):
    va, h = reserve(), physical()
    assert V.aclrtMemMapNoAccess(va, MB2, 0, h, 0) == 0
    x = np.arange(8, dtype=np.float32)
    assert put(va, x) == 107000
    assert "no physical memory is mapped there" in aclGetRecentErrMsg()
    assert fill_kernel(va, 8, 2.0) != 0  # a kernel through the range fails as through an unmapped address
    assert f"0x{va:x}" in aclGetRecentErrMsg()
    flag = Ref()
    assert A.aclrtMemGetAccess(va, aclrtMemLocation(0, 1), flag) == 0 and flag.value == 0
    assert A.aclrtMemSetAccess(va, MB2, aclrtMemAccessDesc(0, aclrtMemLocation(0, 1)), 1) == 0
    assert put(va, x) == 107000  # ACCESS_NONE grants nothing
    assert A.aclrtMemSetAccess(va, MB2, aclrtMemAccessDesc(3, aclrtMemLocation(0, 1)), 1) == 0
    assert put(va, x) == 0 and np.array_equal(get(va, 8), x)
    assert fill_kernel(va, 8, 2.0) == 0 and (get(va, 8) == 2.0).all()
    assert A.aclrtMemGetAccess(va, aclrtMemLocation(0, 1), flag) == 0 and flag.value == 3
    assert V.aclrtUnmapMem(va) == 0 and V.aclrtFreePhysical(h) == 0 and V.aclrtReleaseMemAddress(va) == 0


def test_no_access_mapping_overlaps_and_unmaps_like_a_mapping(soc):
    va, h = reserve(), physical()
    assert V.aclrtMemMapNoAccess(va, MB2, 0, h, 0) == 0
    assert V.aclrtMapMem(va, MB2, 0, h, 0) == 107000
    assert "overlaps mapped allocation" in aclGetRecentErrMsg()
    handle = Ref()
    assert A.aclrtMemRetainAllocationHandle(va + 64, handle) == 0 and handle.value == h
    assert V.aclrtFreePhysical(h) == 107000  # still mapped
    assert V.aclrtUnmapMem(va) == 0
    assert V.aclrtMapMem(va, MB2, 0, h, 0) == 0  # the range is free again
    assert V.aclrtUnmapMem(va) == 0 and V.aclrtFreePhysical(h) == 0 and V.aclrtReleaseMemAddress(va) == 0


def test_no_access_checks(soc):
    va, h = reserve(), physical()
    assert V.aclrtMemMapNoAccess(None, MB2, 0, h, 0) == 100000
    assert aclGetRecentErrMsg() == null("aclrtMemMapNoAccess", "virPtr")
    assert V.aclrtMemMapNoAccess(va, MB2, 0, None, 0) == 100000
    assert aclGetRecentErrMsg() == null("aclrtMemMapNoAccess", "handle")
    assert V.aclrtMemMapNoAccess(va, 0, 0, h, 0) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtMemMapNoAccess failed because value 0 for parameter size is invalid. "
        "Expected value: must be greater than 0."
    )
    assert V.aclrtMemMapNoAccess(va, MB2, 0, h, 1) == 100000
    assert "value 1 for parameter flags is invalid. Expected value: 0." in aclGetRecentErrMsg()
    assert V.aclrtFreePhysical(h) == 0 and V.aclrtReleaseMemAddress(va) == 0


@pytest.mark.parametrize("soc", ["Ascend910_93"], indirect=True)
def test_selected_link_maps_a_second_range_onto_the_same_memory(soc):
    va, h1, h2 = reserve(8 * MB2), physical(), physical()
    assert V.aclrtMapMem(va, MB2, 0, h1, 0) == 0 and V.aclrtMapMem(va + MB2, MB2, 0, h2, 0) == 0
    dst = va + 4 * MB2
    assert L.aclrtMemMapSelectedLink(dst, 2 * MB2, va, L.LINK_IDX_1) == 0, aclGetRecentErrMsg()
    x = np.arange(4, dtype=np.float32)
    assert put(va + MB2, x) == 0
    assert np.array_equal(get(dst + MB2, 4), x)  # the second piece aliases the second handle
    assert put(dst, x + 10) == 0 and np.array_equal(get(va, 4), x + 10)
    assert L.aclrtMemMapSelectedLink(va + 6 * MB2, MB2, va + 64, 0) == 107000  # not a mapping's start
    for p in (dst, dst + MB2, va, va + MB2):
        assert V.aclrtUnmapMem(p) == 0
    assert V.aclrtFreePhysical(h1) == 0 and V.aclrtFreePhysical(h2) == 0 and V.aclrtReleaseMemAddress(va) == 0


def test_selected_link_checks_then_refuses_where_the_chip_has_no_such_link(soc):
    va = reserve()
    assert L.aclrtMemMapSelectedLink(None, MB2, va, 0) == 100000
    assert aclGetRecentErrMsg() == null("aclrtMemMapSelectedLink", "virPtrDst")
    assert L.aclrtMemMapSelectedLink(va, MB2, None, 0) == 100000
    assert aclGetRecentErrMsg() == null("aclrtMemMapSelectedLink", "virPtrSrc")
    assert L.aclrtMemMapSelectedLink(va, 0, va, 0) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0001): Value 0 for size is invalid. Reason: size must be greater than 0."
    )
    assert L.aclrtMemMapSelectedLink(va, MB2, va, 2) == 100000
    assert "Value 2 for linkIdx is invalid. Reason: linkIdx in aclrtMemMapSelectedLink must be 0 or 1." in (
        aclGetRecentErrMsg()
    )
    assert L.aclrtMemMapSelectedLink(va, MB2, va + MB2, 0) == 207000  # Ascend910B: A3 only
    assert V.aclrtReleaseMemAddress(va) == 0


@pytest.mark.parametrize("soc", ["Ascend910_93"], indirect=True)
def test_set_link_checks_and_the_chip_links(soc):
    h = physical()
    assert L.aclrtMemMapSetLink(None, 0) == 100000
    assert aclGetRecentErrMsg() == null("aclrtMemMapSetLink", "handle")
    assert L.aclrtMemMapSetLink(h, 4) == 107000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1003): Setting the link ID for memory mapping failed because value 4 for parameter "
        "adviceLink is invalid. Expected value: [0, 3].\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: rtMemMapSetLink execution failed.\n"
    )
    assert aclrtGetLastError(0) == 107000
    assert L.aclrtMemMapSetLink(h, L.LINK_HCCS) == 0 and V.HANDLES[h].route == L.LINK_HCCS
    assert L.aclrtMemMapSetLink(h, L.LINK_UB_ONE_PORT) == 207021  # a UB path: not between A3 dies
    assert V.aclrtFreePhysical(h) == 0


def test_set_link_on_a_chip_without_links(soc):
    h = physical()
    assert L.aclrtMemMapSetLink(h, 0) == 207000
    assert V.aclrtFreePhysical(h) == 0
