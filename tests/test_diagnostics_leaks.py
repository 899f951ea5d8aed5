"""Leak reports name each object (issue 15, item 2): its kind, shape, dtype, address, and the
program's line that made it — through the program's own helpers, so that three tensors made by
one ``CreateAclTensor`` helper get three different lines."""

from __future__ import annotations

import re

import pytest

from aclnn_py import (
    ACL_FLOAT,
    ACL_FORMAT_ND,
    Ref,
    aclCreateBoolArray,
    aclCreateFloatArray,
    aclCreateIntArray,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyIntArray,
    aclDestroyScalar,
    aclDestroyTensor,
    aclFinalize,
    aclInit,
    aclrtCreateEvent,
    aclrtCreateStream,
    aclrtMalloc,
    aclrtMallocHost,
    aclrtResetDevice,
    aclrtSetDevice,
)


def CreateAclTensor(shape, addr):
    """The helper every example of CANN's documents has: each tensor is made on the same line."""
    return aclCreateTensor(shape, len(shape), ACL_FLOAT, None, 0, ACL_FORMAT_ND, shape, len(shape), addr)


def _malloc(n):
    p = Ref()
    assert aclrtMalloc(p, n, 0) == 0
    return p.value


HELPER_LINE = CreateAclTensor.__code__.co_firstlineno + 2


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_each_leaked_object_is_named(policy, monkeypatch, findings):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    p = _malloc(64)
    a = CreateAclTensor([2, 3], p)
    b = CreateAclTensor([4], p)
    c = CreateAclTensor([1, 1, 2], p)
    first = a.origin.split(":")[1].split(" ")[0]
    scalar = aclCreateScalar(2.5, ACL_FLOAT)
    ints = aclCreateIntArray([1, 2, 3, 4, 5], 5)
    floats = aclCreateFloatArray([0.5], 1)
    bools = aclCreateBoolArray([True, False], 2)
    s, e, h = Ref(), Ref(), Ref()
    assert aclrtCreateStream(s) == 0 and aclrtCreateEvent(e) == 0 and aclrtMallocHost(h, 16) == 0
    assert aclrtResetDevice(0) == 0
    text = findings.refresh().text()
    assert "aclrtResetDevice: 3 resource(s) of device 0 never released" in text
    assert re.search(r"device allocation \[0x\w+, 0x\w+\) \(\d+ bytes, 64 requested\) made by aclrtMalloc at test_diagnostics_leaks\.py:\d+, "
                     r"from test_diagnostics_leaks\.py:\d+ \(through _malloc at test_diagnostics_leaks\.py:\d+\)", text)  # fmt: skip
    assert re.search(r"<aclrtStream #2 \(stream of device 0\)> made at test_diagnostics_leaks\.py:\d+ \(never", text)
    assert re.search(r"<aclrtEvent #1> made at test_diagnostics_leaks\.py:\d+ \(never aclrtDestroyEvent'ed\)", text)
    assert aclFinalize() == 0
    text = findings.refresh().text()
    assert "aclFinalize: 8 resource(s) of the process never released" in text
    lines = {}
    for shape in ("[2, 3]", "[4]", "[1, 1, 2]"):
        m = re.search(
            re.escape(f"aclTensor {shape} DT_FLOAT at 0x{p:x} made at ") + r"test_diagnostics_leaks\.py:(\d+) "
            + re.escape(f"(through CreateAclTensor at test_diagnostics_leaks.py:{HELPER_LINE})"),
            text,
        )  # fmt: skip
        assert m, shape
        lines[shape] = int(m.group(1))
    assert len(set(lines.values())) == 3 and str(lines["[2, 3]"]) == first  # three lines, the callers'
    assert "aclScalar 2.5 DT_FLOAT made at test_diagnostics_leaks.py:" in text and "never aclDestroyScalar'ed" in text
    assert "aclIntArray [1, 2, 3, 4, ...] (5 element(s)) made at test_diagnostics_leaks.py:" in text
    assert "never aclDestroyIntArray'ed" in text and "aclFloatArray [0.5] (1 element(s))" in text
    assert "aclBoolArray [True, False] (2 element(s))" in text
    assert re.search(r"host allocation \[0x\w+, 0x\w+\) \(32 bytes, 16 requested\) made by aclrtMallocHost", text)
    _ = (a, b, c, scalar, ints, floats, bools)


def test_released_objects_are_not_reported(findings):
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    t = CreateAclTensor([2], _malloc(8))
    scalar = aclCreateScalar(1.0, ACL_FLOAT)
    assert aclDestroyTensor(t) == 0 and aclDestroyScalar(scalar) == 0
    assert aclrtResetDevice(0) == 0  # the allocation is reported (never freed), nothing else
    assert aclFinalize() == 0
    text = findings.refresh().text()
    assert "aclTensor" not in text and "aclScalar" not in text and "never aclrtFree'd" in text


def test_scalars_and_arrays_are_named_at_finalize(findings):
    """They hold no device resource, but a program that never destroys them leaks them all the
    same: aclFinalize names each, with the line that made it."""
    assert aclInit(None) == 0
    scalar = aclCreateScalar(2.5, ACL_FLOAT)
    line = scalar.origin.split(":")[1].split(" ")[0]
    ints = aclCreateIntArray([7], 1)
    kept = aclCreateIntArray([8], 1)
    assert aclDestroyIntArray(kept) == 0
    assert aclFinalize() == 0
    text = findings.refresh().text()
    assert "aclFinalize: 2 resource(s) of the process never released" in text
    assert f"aclScalar 2.5 DT_FLOAT made at test_diagnostics_leaks.py:{line} (never aclDestroyScalar'ed)" in text
    assert "aclIntArray [7] (1 element(s)) made at test_diagnostics_leaks.py:" in text and "[8]" not in text
    _ = (scalar, ints)
