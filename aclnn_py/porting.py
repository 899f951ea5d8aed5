"""Idioms for porting the C++ aclnn samples to Python, in one place.

The samples stay self-contained like their C++ originals; this module is for people writing a
new port quickly::

    from aclnn_py import *
    from aclnn_py.porting import LOG_PRINT, GetShapeSize, CreateAclTensor, host_vector

* :func:`LOG_PRINT` is C's ``printf``: the same conversions, length modifiers (``%ld``,
  ``%zu``, ``%lld`` ...) accepted and ignored, ``-nan`` for negative NaNs as glibc prints them.
* :func:`host_vector` is ``std::vector<T>`` for the element type of an ``aclDataType``
  (``std::vector<char>`` for BOOL masks is ``host_vector(values, ACL_BOOL)``).
* :func:`CreateAclTensor` is the samples' template function: aclrtMalloc, aclrtMemcpy host to
  device, row-major strides, aclCreateTensor.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from . import dtypes
from ._ref import Ref
from .dtypes import aclDataType, aclFormat
from .runtime.api import aclrtMalloc, aclrtMemcpy
from .runtime.enums import aclrtMemcpyKind, aclrtMemMallocPolicy
from .tensor import aclCreateTensor

_SPEC = re.compile(
    r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?(?:hh|h|ll|l|L|q|j|z|t)?(?P<conv>[diouxXeEfFgGcsp%])"
)


def printf_format(fmt: str, *args: Any) -> str:
    """Format like C's printf (glibc): length modifiers are accepted, ``%p`` prints ``0x..``,
    NaN prints as ``nan``/``-nan`` by its sign bit, ``%u``/``%x`` show negative ints as unsigned."""
    out: list[str] = []
    pos = 0
    it = iter(args)
    for m in _SPEC.finditer(fmt):
        out.append(fmt[pos : m.start()])
        pos = m.end()
        conv = m.group("conv")
        if conv == "%":
            out.append("%")
            continue
        width, prec = m.group("width"), m.group("prec")
        if width == "*":
            width = str(int(next(it)))
        if prec == "*":
            prec = str(int(next(it)))
        spec = "%" + m.group("flags") + (width or "") + (f".{prec}" if prec is not None else "")
        value = next(it)
        if conv in "eEfFgG":
            x = float(value)
            if math.isnan(x):
                text = ("-" if math.copysign(1.0, x) < 0 else "") + ("NAN" if conv.isupper() else "nan")
                out.append(("%" + m.group("flags").replace("0", "") + (width or "") + "s") % text)
                continue
            out.append((spec + conv) % x)
        elif conv in "diu":
            v = int(value)
            if conv == "u" and v < 0:
                v += 1 << 64 if v < -(1 << 31) else 1 << 32
            out.append((spec + "d") % v)
        elif conv in "oxX":
            v = int(value)
            if v < 0:
                v += 1 << 64 if v < -(1 << 31) else 1 << 32
            out.append((spec + conv) % v)
        elif conv == "p":
            out.append((spec + "s") % (f"0x{int(value):x}" if value else "(nil)"))
        elif conv == "c":
            out.append((spec + "c") % (chr(value) if isinstance(value, int) else value))
        else:
            out.append((spec + "s") % ("(null)" if value is None else value))
    out.append(fmt[pos:])
    return "".join(out)


def LOG_PRINT(message: str, *args: Any) -> None:
    """``#define LOG_PRINT(message, ...) printf(message, ##__VA_ARGS__)``."""
    sys.stdout.write(printf_format(message, *args))


def GetShapeSize(shape: Iterable[int]) -> int:
    """The samples' element count of a shape (1 for rank 0)."""
    size = 1
    for d in shape:
        size *= int(d)
    return size


def host_vector(values: Iterable[Any] | int, dataType: int) -> np.ndarray:
    """``std::vector<T>`` for the element type of ``dataType``: from values, or zeros if an int
    count is given (``std::vector<float> out(8, 0)`` is ``host_vector(8, ACL_FLOAT)``)."""
    npdt = dtypes.numpy_dtype(dtypes.to_op_dtype(int(dataType)))
    if npdt is None:
        raise ValueError(f"{aclDataType(int(dataType)).name} has no host element type")
    if npdt == np.bool_:
        npdt = np.dtype(np.int8)  # std::vector<char>: the samples fill BOOL tensors with chars
    if isinstance(values, int):
        return np.zeros(values, dtype=npdt)
    return np.array(list(values), dtype=npdt)


def contiguous_strides(shape: Sequence[int]) -> list[int]:
    """The samples' stride loop: row-major strides in elements."""
    return list(dtypes.contiguous_strides(shape))


def CreateAclTensor(
    hostData: np.ndarray, shape: Sequence[int], deviceAddr: Ref[Any], dataType: int, tensor: Ref[Any]
) -> int:
    """The samples' ``CreateAclTensor``: device memory, host-to-device copy, contiguous tensor."""
    size = GetShapeSize(shape) * hostData.itemsize
    ret = aclrtMalloc(deviceAddr, size, aclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST)
    if ret != 0:
        LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret)
        return ret
    ret = aclrtMemcpy(deviceAddr.value, size, hostData, size, aclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE)
    if ret != 0:
        LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret)
        return ret
    strides = contiguous_strides(shape)
    tensor.value = aclCreateTensor(
        list(shape),
        len(shape),
        dataType,
        strides,
        0,
        aclFormat.ACL_FORMAT_ND,
        list(shape),
        len(shape),
        deviceAddr.value,
    )
    return 0
