"""The GatherV2 / GatherV3 kernels: copy the slices of ``x`` along ``axis`` that ``indices`` name.

A gather only moves data, so every dtype is copied bit for bit. What differs between the
kernels is an index outside ``[0, x.shape[axis])`` (CANN's documents require in-range indices):

* ``zero`` — Ascend950's GatherV2 AI Core kernels (``negative_index_support`` false): the
  slice of an index < 0 or >= size is written as zeros;
* ``aicpu`` — the AI CPU GatherV2: a negative index is wrapped once (``index + size``); the
  first index still outside the range stops the kernel (KERNEL_STATUS_PARAM_INVALID: the task
  fails, the stream reports it at the next synchronize) after the slices before it were
  written. An index below ``-size`` stays negative after the wrap and the chip reads outside
  ``x`` (undefined); aclnn_py fails the task on it too;
* ``undefined`` — the TBE GatherV2 (Ascend910, 310P) and GatherV3 (Ascend910B, 910_93) AI Core
  kernels check nothing (GatherV3's AscendC ``assert`` is compiled out in release kernels): the
  chip reads outside the row or the tensor. aclnn_py writes the poison pattern (0xFF bytes)
  into those slices and the sanitizer reports it (in ``error`` mode the task fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._status import aclError
from ..runtime import sanitizer
from ..runtime.stream import TaskFault

MODES = ("zero", "aicpu", "undefined")


def _bytes(a: np.ndarray) -> np.ndarray:
    """A uint8 view of ``a``'s elements (an extra last axis of itemsize bytes)."""
    return np.ascontiguousarray(a).view(np.uint8).reshape(*a.shape, a.dtype.itemsize)


def _write(out: np.ndarray, value: np.ndarray) -> None:
    """Copy ``value`` into ``out`` bit for bit (bool bytes and NaN payloads included)."""
    if out.dtype == np.bool_:
        out.view(np.uint8)[...] = value.view(np.uint8)
    else:
        out[...] = value


class Gather:
    """The computation of one gather launch; ``label`` names the launch in fault messages."""

    def __init__(self, op: str, mode: str, axis: int) -> None:
        assert mode in MODES
        self.op, self.mode, self.axis = op, mode, axis
        self.launch: Any = None  # the executor's Launch, set by the l0 op (its label names the kernel)

    @property
    def label(self) -> str:
        return str(self.launch.label) if self.launch is not None else self.op

    def __call__(self, ins: Sequence[np.ndarray], outs: Sequence[np.ndarray]) -> str:
        x, indices = ins[0], ins[1]
        out = outs[0]
        if x.ndim == 0:  # a 0-d input is gathered as [1] into a 0-d output
            x, out = x.reshape(1), out.reshape(1)
            indices = np.asarray(indices).reshape(-1)[:1]
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        size = x.shape[self.axis]
        if self.mode == "aicpu":
            return self._aicpu(x, idx, size, out)
        bad = (idx < 0) | (idx >= size)
        any_bad = bool(bad.any())
        taken_shape = (*x.shape[: self.axis], idx.size, *x.shape[self.axis + 1 :])
        direct = (
            not any_bad and size > 0 and out.shape == taken_shape and out.flags.c_contiguous and out.dtype == x.dtype
        )
        if direct and not np.may_share_memory(x, out):
            # straight into the output (mode "clip" does not buffer it; every index is in range)
            src, dst = (x.view(np.uint8), out.view(np.uint8)) if x.dtype == np.bool_ else (x, out)
            np.take(src, idx, axis=self.axis, out=dst, mode="clip")
            return "numpy"
        gathered = np.take(x, np.where(bad, 0, idx), axis=self.axis) if size else np.zeros(out.shape, x.dtype)
        _write(out, gathered.reshape(out.shape))
        if not any_bad:
            return "numpy"
        where: list[Any] = [slice(None)] * out.ndim
        where[self.axis] = np.flatnonzero(bad)
        if self.mode == "zero":
            out[tuple(where)] = np.zeros((), out.dtype)
            return "numpy"
        first = int(np.flatnonzero(bad)[0])
        raw = out.view(np.uint8) if out.dtype == np.bool_ else out
        slots = raw[tuple(where)]
        # a same-dtype assignment copies bytes: the 0xFF pattern arrives intact (NaN payload included)
        raw[tuple(where)] = np.frombuffer(b"\xff" * slots.nbytes, dtype=raw.dtype).reshape(slots.shape)
        try:
            sanitizer.finding(
                "undefined",
                f"{self.label}: index {int(idx[first])} (position {first}) is outside [0, {size}); this kernel does "
                "not check its indices, so the chip reads outside the input (garbage or a device fault); aclnn_py "
                "writes the poison pattern (0xFF bytes) into those slices",
                aclError.ACL_ERROR_RT_AICORE_EXCEPTION,
                in_task=True,
            )
        except sanitizer.TaskFinding as f:
            raise TaskFault(f.code, f"{self.label} failed: {f.text}") from None
        return "undefined"

    def _aicpu(self, x: np.ndarray, idx: np.ndarray, size: int, out: np.ndarray) -> str:
        wrapped = np.where(idx < 0, idx + size, idx)
        bad = (wrapped < 0) | (wrapped >= size)
        if not bad.any():
            _write(out, np.take(x, wrapped, axis=self.axis).reshape(out.shape))
            return "numpy"
        j = int(np.flatnonzero(bad)[0])
        # the kernel loops over the outer slices, then the indices: the first outer slice's
        # positions before j were copied when it stopped
        x0 = x.reshape(int(np.prod(x.shape[: self.axis], dtype=np.int64)), size, -1)
        o0 = out.reshape(x0.shape[0], idx.size, -1)
        if x0.shape[0] and j:
            _write(o0[0, :j], x0[0, wrapped[:j]])
        v = int(idx[j])
        why = (
            f"Indices[{j}] = {v} is not in [0, {size})"
            if wrapped[j] >= size
            else f"Indices[{j}] = {v} is below -{size}: after the kernel's one wrap it is still negative and the "
            "chip reads outside the input (undefined; aclnn_py stops the kernel)"
        )
        raise TaskFault(aclError.ACL_ERROR_RT_AICPU_EXCEPTION, f"{self.label} failed: the AI CPU kernel {self.op} "
                        f"returned KERNEL_STATUS_PARAM_INVALID: {why}")  # fmt: skip


def make(op: str, mode: str, axis: int) -> Gather:
    """The computation of a ``op`` launch gathering along ``axis`` (``mode``: see the module)."""
    return Gather(op, mode, axis)
