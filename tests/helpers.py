"""Test helpers built only on the public C-style API."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

from aclnn_py import (
    ACL_FORMAT_ND,
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    Ref,
    aclCreateTensor,
    aclDataType,
    aclDestroyTensor,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)

ACL_OF = {
    np.dtype(np.float32): aclDataType.ACL_FLOAT,
    np.dtype(np.float16): aclDataType.ACL_FLOAT16,
    np.dtype(ml_dtypes.bfloat16): aclDataType.ACL_BF16,
    np.dtype(np.float64): aclDataType.ACL_DOUBLE,
    np.dtype(np.int8): aclDataType.ACL_INT8,
    np.dtype(np.int16): aclDataType.ACL_INT16,
    np.dtype(np.int32): aclDataType.ACL_INT32,
    np.dtype(np.int64): aclDataType.ACL_INT64,
    np.dtype(np.uint8): aclDataType.ACL_UINT8,
    np.dtype(np.bool_): aclDataType.ACL_BOOL,
    np.dtype(np.complex64): aclDataType.ACL_COMPLEX64,
    np.dtype(np.complex128): aclDataType.ACL_COMPLEX128,
    np.dtype(np.uint16): aclDataType.ACL_UINT16,
    np.dtype(np.uint32): aclDataType.ACL_UINT32,
    np.dtype(np.uint64): aclDataType.ACL_UINT64,
}
NP_OF = {v: k for k, v in ACL_OF.items()}


def contiguous_strides(shape: Sequence[int]) -> list[int]:
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]
    return strides


# float32 values every kernel test should meet, as bits: +-0, +-smallest subnormal, largest
# subnormal, smallest normal, +-max, +-inf, quiet and signalling NaNs of both signs with
# payloads, +-1
FLOAT32_SPECIAL_BITS = (
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
    0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0xFFA00001, 0x7FC12345, 0x3F800000,
    0xBF800000,
)  # fmt: skip


def float32_specials(*extra_bits: int) -> np.ndarray:
    """:data:`FLOAT32_SPECIAL_BITS` and ``extra_bits`` as a float32 array."""
    return np.array([*FLOAT32_SPECIAL_BITS, *extra_bits], dtype=np.uint32).view(np.float32)


def bits(a: np.ndarray) -> np.ndarray:
    """The raw bits of a float array, for bit-exact comparisons (NaNs compare by payload)."""
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def assert_bits_equal(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    a, e = bits(np.ascontiguousarray(actual)), bits(np.ascontiguousarray(expected))
    bad = np.flatnonzero(a.reshape(-1) != e.reshape(-1))
    if bad.size:
        i = bad[0]
        raise AssertionError(
            f"{bad.size} of {a.size} elements differ; first at flat index {i}: "
            f"actual {actual.reshape(-1)[i]!r} (0x{int(a.reshape(-1)[i]):x}) vs "
            f"expected {expected.reshape(-1)[i]!r} (0x{int(e.reshape(-1)[i]):x})"
        )


def record_op_loge(monkeypatch: Any) -> list[tuple[int, str]]:
    """Every ``OP_LOGE(code, text)`` from now on: the rendered message shows no aclnn code."""
    from aclnn_py import _errmsg

    logged: list[tuple[int, str]] = []
    real = _errmsg.report_code

    def report_code(code: int, text: str) -> None:
        logged.append((int(code), text))
        real(code, text)

    monkeypatch.setattr(_errmsg, "report_code", report_code)
    return logged


def tiling_refusal(api: str, op: str, shape: str) -> str:
    """The rendered start of an l0 launch whose tiling refuses a negative dimension (``<n>``
    stands for the call's sequence number; see :func:`normalise_seq`), before the l0 op's own
    report."""
    return (
        f"Execution_Error(EZ1008): Failed to execute operator {api}_<n>_{op}. Reason: Failed to execute tiling.\n"
        "        Solution: 1.If the tiling function does not exist, check whether the tiling function is "
        "registered successfully. 2.If the tiling function fails to be executed, check the implementation "
        "logic of the tiling function.\n"
        "TraceBack (most recent call last):\n"
        f"        the tiling of {op} cannot handle the negative dimension of {shape} (Ascend950's broadcast "
        "tiling refuses it; what the other chips' closed tiling does is not public)\n"
    )


def normalise_seq(msg: str, api: str) -> str:
    """``<api>_<sequence number>_`` -> ``<api>_<n>_``."""
    import re

    return re.sub(rf"{api}_\d+_", f"{api}_<n>_", msg)


OPEN: list[Dev] = []  # the Devs made and not yet closed, the newest last


def own(handle: Any, destroy: Callable[[Any], int]) -> bool:
    """Hand ``handle`` (an aclScalar or aclIntArray ...) to the newest open :class:`Dev`, whose
    close() destroys it with ``destroy`` before aclFinalize, as a C program destroys its scalars
    and arrays before it finalizes the runtime (else aclFinalize's leakcheck names them). False
    when no Dev is open: the caller destroys it then."""
    # A Dev whose stream is destroyed was never closed: the test ended early and the next test's
    # reset of the emulator destroyed its stream. It will not release anything now.
    while OPEN and OPEN[-1].stream.destroyed:
        OPEN.pop()
    if not OPEN:
        return False
    OPEN[-1].handles.append((handle, destroy))
    return True


class Dev:
    """aclInit + device 0 + one stream; allocations, tensors, and the scalars and arrays given to
    it by :func:`own` are released by close()."""

    def __init__(self, device_id: int = 0) -> None:
        assert aclInit(None) == 0
        assert aclrtSetDevice(device_id) == 0
        self.device_id = device_id
        s = Ref()
        assert aclrtCreateStream(s) == 0
        self.stream = s.value
        self.ptrs: list[int] = []
        self.tensors: list[Any] = []
        self.handles: list[tuple[Any, Callable[[Any], int]]] = []
        OPEN.append(self)

    def malloc(self, nbytes: int) -> int:
        p = Ref()
        assert aclrtMalloc(p, nbytes, ACL_MEM_MALLOC_HUGE_FIRST) == 0, aclGetRecentErrMsg()
        self.ptrs.append(p.value)
        return p.value

    def upload(self, arr: np.ndarray) -> int:
        arr = np.ascontiguousarray(arr)
        p = self.malloc(max(arr.nbytes, 1))
        if arr.nbytes:
            assert aclrtMemcpy(p, arr.nbytes, arr, arr.nbytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0
        return p

    def tensor(
        self,
        data: Any,
        dtype: Any = None,
        *,
        acl_dtype: int | None = None,
        fmt: int = ACL_FORMAT_ND,
    ) -> Any:
        """A contiguous tensor holding ``data``."""
        arr = np.asarray(data, dtype=dtype)
        shape = list(arr.shape)
        dt = acl_dtype if acl_dtype is not None else ACL_OF[arr.dtype]
        ptr = self.upload(arr)
        t = aclCreateTensor(shape, len(shape), dt, contiguous_strides(shape), 0, fmt, shape, len(shape), ptr)
        assert t is not None
        self.tensors.append(t)
        return t

    def strided(
        self,
        storage: np.ndarray,
        shape: Sequence[int],
        strides: Sequence[int],
        offset: int = 0,
        *,
        acl_dtype: int | None = None,
        fmt: int = ACL_FORMAT_ND,
    ) -> Any:
        """A view (shape, strides, offset in elements) on a storage holding ``storage``."""
        storage = np.ascontiguousarray(storage)
        dt = acl_dtype if acl_dtype is not None else ACL_OF[storage.dtype]
        ptr = self.upload(storage)
        sshape = list(storage.shape)
        t = aclCreateTensor(list(shape), len(shape), dt, list(strides), offset, fmt, sshape, len(sshape), ptr)
        assert t is not None
        self.tensors.append(t)
        return t

    def empty(self, shape: Sequence[int], dtype: Any, *, fill: float = 0) -> Any:
        return self.tensor(np.full(shape, fill, dtype=dtype))

    def read(self, t: Any, dtype: Any = None) -> np.ndarray:
        """The tensor's view as a numpy array (the stream is synchronised first)."""
        assert aclrtSynchronizeStream(self.stream) == 0, aclGetRecentErrMsg()
        return self.read_now(t, dtype)

    def read_now(self, t: Any, dtype: Any = None) -> np.ndarray:
        npdt = np.dtype(dtype) if dtype is not None else NP_OF[aclDataType(t.dtype)]
        nbytes = int(np.prod(t.storage_shape, dtype=np.int64)) * npdt.itemsize
        host = np.zeros(max(nbytes, 1), dtype=np.uint8)
        if nbytes:
            assert aclrtMemcpy(host, nbytes, t.storage.addr, nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0, (
                aclGetRecentErrMsg()
            )
        storage = host[:nbytes].view(npdt)
        item = npdt.itemsize
        return np.lib.stride_tricks.as_strided(
            storage[t.offset :], shape=t.view_shape, strides=[s * item for s in t.strides]
        ).copy()

    def workspace(self, size: int) -> int | None:
        return self.malloc(size) if size > 0 else None

    def run(self, phase1: Any, phase2: Any, *args: Any) -> tuple[int, int, int]:
        """Phase 1, workspace, phase 2, synchronize: (phase-1 code, phase-2 code, sync code)."""
        ws, ex = Ref(0), Ref()
        r1 = phase1(*args, ws, ex)
        if r1 != 0:
            return r1, -1, -1
        wsp = self.workspace(ws.value)
        r2 = phase2(wsp, ws.value, ex.value, self.stream)
        r3 = aclrtSynchronizeStream(self.stream)
        return r1, r2, r3

    def close(self) -> None:
        if not self.stream.destroyed:
            aclrtSynchronizeStream(self.stream)  # a correct program waits before freeing
            aclGetRecentErrMsg()
        for t in self.tensors:
            if t.alive:
                aclDestroyTensor(t)
        for h, destroy in self.handles:
            if h.alive:  # a test may have destroyed it itself
                destroy(h)
        self.handles.clear()
        for p in self.ptrs:
            aclrtFree(p)
        if not self.stream.destroyed:
            aclrtDestroyStream(self.stream)
        aclrtResetDevice(self.device_id)
        aclFinalize()
        if self in OPEN:
            OPEN.remove(self)
