"""Exception dump, ``acl/acl_dump.h``: acldumpGetExceptionInfoPath and acldumpSaveExceptionInfo.

With an exception scene in the dump configuration (``"dump_scene"``: ``aic_err_brief_dump`` or
``lite_exception``, ``aic_err_norm_dump``, ``aic_err_detail_dump``) CANN's adump keeps an
exception root, ``<dump_path>/extra-info/data-dump/<device>`` (made on demand, real path), where
exception dumps go; a program can ask for it (acldumpGetExceptionInfoPath) and save tensors of its
own there (acldumpSaveExceptionInfo): a dump file ``<root>/<fileName>.custom.<YYYYMMDDhhmmssmmm>``
in the dump-file format (an 8-byte length, a ``toolkit.dumpdata.DumpData`` header naming the file,
the user tag as op attribute ``user_tag``, the inputs, outputs and workspaces, then their bytes read
from device memory). The checks, their order, codes and EP0006/EP0007/EP0008 texts are adump's
(hicann/runtime ``src/dfx/adump/adump/manage/adump_api_platform.cpp``,
``exception/exception_dumper.cpp``, ``exception/dump_file.cpp``).

The device data is read through the simulated memory's bounds checks, so a tensor address that is
freed or runs past its allocation is refused (ACL_ERROR_FAILURE, the memory's own message) instead
of dumping garbage. And, as CANN's adump does for a faulting AI Core task, a kernel that faults
while an exception scene is configured (an out-of-bounds or freed address, a sanitizer finding in
error mode) leaves an exception dump ``<root>/<op type>.<stream id>.<task id>.<time>`` whose
header names the kernel and whose ``dfx_message`` holds the fault.
"""

from __future__ import annotations

import ctypes
import struct
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._capi import ApiError, c_api, describe
from .._ref import store
from ._checks import INTERNAL, E, emu, int_arg
from .dump_file import _S, _bytes, _shape, _uint, proto_data_type
from .memory import SPACE, MemoryFault
from .stream import FAULT_HOOKS, Stream, Task, TaskFault

ACL_DUMP_MAX_SHAPE_NUM = 25
ACL_DUMP_TENSOR_INPUT, ACL_DUMP_TENSOR_OUTPUT, ACL_DUMP_TENSOR_WORKSPACE = 0, 1, 2
ACL_DUMP_ADDR_PTR, ACL_DUMP_ADDR_PTR_PTR, ACL_DUMP_ADDR_RAW = 0, 1, 2
ACL_DUMP_PLACEMENT_DEVICE, ACL_DUMP_PLACEMENT_HOST, ACL_DUMP_PLACEMENT_END = 0, 1, 2

_EXCEPTION_SCENES = ("aic_err_brief_dump", "lite_exception", "aic_err_norm_dump", "aic_err_detail_dump")
EXTRA_DUMP_DIR = "extra-info/data-dump"  # ExceptionDumper's EXTRA_DUMP_PATH
_SAVE = "acldumpSaveExceptionInfo"
_PATH = "acldumpGetExceptionInfoPath"
_INPUT_TENSOR = 2  # DfxTensorType::INPUT_TENSOR, OpInput.input_type


@dataclass
class acldumpTensorInfo:
    """``acldumpTensorInfo``: one tensor for acldumpSaveExceptionInfo."""

    type: int = ACL_DUMP_TENSOR_INPUT
    tensorSize: int = 0
    format: int = 2  # ACL_FORMAT_ND
    dataType: int = 0
    tensorAddr: int | None = None
    addrType: int = ACL_DUMP_ADDR_RAW
    placement: int = ACL_DUMP_PLACEMENT_DEVICE
    argsOffset: int = 0
    shapeNum: int = 0
    originShapeNum: int = 0
    shape: list[int] = field(default_factory=list)
    originShape: list[int] = field(default_factory=list)


class DumpTensorInfoC(ctypes.Structure):
    """acl_dump.h's ``acldumpTensorInfo`` as C lays it out (the C ABI reads the program's array)."""

    _fields_ = [
        ("type", ctypes.c_int32),
        ("tensorSize", ctypes.c_size_t),
        ("format", ctypes.c_int32),
        ("dataType", ctypes.c_int32),
        ("tensorAddr", ctypes.c_void_p),
        ("addrType", ctypes.c_int32),
        ("placement", ctypes.c_int32),
        ("argsOffset", ctypes.c_uint32),
        ("shapeNum", ctypes.c_uint32),
        ("originShapeNum", ctypes.c_uint32),
        ("shape", ctypes.c_uint64 * ACL_DUMP_MAX_SHAPE_NUM),
        ("originShape", ctypes.c_uint64 * ACL_DUMP_MAX_SHAPE_NUM),
    ]

    def to_info(self) -> acldumpTensorInfo:
        """The Python record (shapes cut at their counts, as adump reads them)."""
        return acldumpTensorInfo(
            self.type, self.tensorSize, self.format, self.dataType, self.tensorAddr, self.addrType, self.placement,
            self.argsOffset, self.shapeNum, self.originShapeNum,
            list(self.shape[: min(self.shapeNum, ACL_DUMP_MAX_SHAPE_NUM)]),
            list(self.originShape[: min(self.originShapeNum, ACL_DUMP_MAX_SHAPE_NUM)]),
        )  # fmt: skip


def _ep6(func: str, value: object, param: str, reason: str) -> tuple[str, str]:
    return ("EP0006", f"{func} failed. Value {value} for parameter {param} is invalid. Reason: {reason}")


def _ep7(func: str, param: str) -> tuple[str, str]:
    return ("EP0007", f"{func} failed because {param} cannot be a NULL pointer.")


def _not_enabled(func: str) -> ApiError:
    reason = f"Exception Dump must be enabled before {func} is called"
    return ApiError(E.ACL_ERROR_FAILURE, ("EP0008", f"{func} failed. Reason: {reason}."))


def enabled() -> bool:
    """ExceptionDumper::IsEnabledExceptionDump: an exception scene is configured."""
    setting = _S.setting
    return setting is not None and setting.scene in _EXCEPTION_SCENES


def _current_device(func: str) -> int:
    from .device import RT

    ctx = RT.current_context()
    if ctx is None:  # rtGetDevice fails: adump logs it and returns ACL_ERROR_FAILURE
        raise ApiError(E.ACL_ERROR_FAILURE, emu(f"{func}: rtGetDevice failed: no device is set on this thread."))
    return int(ctx.device.ident)


def _root(func: str, device: int) -> str:
    """CreateDeviceDumpPath: ``<dump_path>/extra-info/data-dump/<device>``, made, as a real path."""
    setting = _S.setting
    assert setting is not None
    folder = Path(setting.base) / EXTRA_DUMP_DIR / str(device)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ApiError(E.ACL_ERROR_FAILURE, emu(f"{func}: Create path[{folder}] failed: {e.strerror or e}.")) from None
    return str(folder.resolve())


@c_api(INTERNAL)
def acldumpGetExceptionInfoPath(path: object, maxLen: int) -> int:
    """The exception dump root of the current device into ``path`` (a Ref, or a buffer of
    ``maxLen`` bytes: bytearray / ctypes array), made if need be."""
    if path is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep7(_PATH, "path"))
    n = int_arg(maxLen, "maxLen", 0, 2**64 - 1)
    if n <= 1:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep6(_PATH, n, "maxLen", "The parameter must be greater than 1"))
    with _S.lock:
        if not enabled():
            raise _not_enabled(_PATH)
        root = _root(_PATH, _current_device(_PATH))
    raw = root.encode()
    if len(raw) + 1 > n:
        reason = f"The buffer size {n} is not enough for the result size {len(raw) + 1}"
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep6(_PATH, n, "maxLen", reason))
    if isinstance(path, (bytearray, ctypes.Array)):
        buf = memoryview(path).cast("B")
        if len(buf) < len(raw) + 1:
            raise ApiError(E.ACL_ERROR_INVALID_PARAM, emu(f"{_PATH}: path holds {len(buf)} bytes, maxLen is {n}."))
        buf[: len(raw) + 1] = raw + b"\0"
    else:
        store(path, root)
    return E.ACL_SUCCESS


def _check_tensor(t: acldumpTensorInfo, i: int) -> None:
    """ConvertAclDumpTensor: the shape counts, the enums, then the address and size."""

    def bad(field_name: str, reason: str) -> ApiError:
        return ApiError(E.ACL_ERROR_INVALID_PARAM, _ep6(_SAVE, f"tensors[{i}].{field_name}", "tensors", reason))

    for name in ("shapeNum", "originShapeNum"):
        count = int(getattr(t, name))
        if count > ACL_DUMP_MAX_SHAPE_NUM:
            raise bad(name, f"The value {count} exceeds the maximum limit of {ACL_DUMP_MAX_SHAPE_NUM}")
    enums = (
        ("type", (0, 1, 2), "ACL_DUMP_TENSOR_INPUT/ACL_DUMP_TENSOR_OUTPUT/ACL_DUMP_TENSOR_WORKSPACE"),
        ("addrType", (ACL_DUMP_ADDR_RAW,), "ACL_DUMP_ADDR_RAW"),
        ("placement", (ACL_DUMP_PLACEMENT_DEVICE,), "ACL_DUMP_PLACEMENT_DEVICE"),
    )
    for name, allowed, expected in enums:
        value = int(getattr(t, name))
        if value not in allowed:
            raise bad(name, f"The value {value} is not supported, it must be {expected}")
    if not t.tensorAddr:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep7(_SAVE, f"tensors[{i}].tensorAddr"))
    if int(t.tensorSize) == 0:
        raise bad("tensorSize", "The parameter must be greater than 0")


def _tensors(tensors: object, count: int) -> list[acldumpTensorInfo]:
    if isinstance(tensors, acldumpTensorInfo):
        tensors = [tensors]
    if not isinstance(tensors, Sequence) or not all(isinstance(t, acldumpTensorInfo) for t in tensors):
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"{_SAVE}: tensors is {describe(tensors)}, not a list of acldumpTensorInfo.")
        )
    if len(tensors) < count:
        raise ApiError(
            E.ACL_ERROR_INVALID_PARAM, emu(f"{_SAVE}: tensors holds {len(tensors)} entries, tensorCount is {count}.")
        )
    return list(tensors[:count])


def _timestamp_ms() -> str:
    """SysUtils::GetCurrentTimeWithMillisecond: YYYYMMDDhhmmss and the milliseconds."""
    now = time.time()
    return time.strftime("%Y%m%d%H%M%S", time.localtime(now)) + f"{int(now * 1000) % 1000:03d}"


def _has_parent_segment(name: str) -> bool:
    return ".." in name.replace("\\", "/").split("/")


def _dump_file(op_name: str, user_tag: str, tensors: Sequence[acldumpTensorInfo], message: str = "") -> bytes:
    """DumpFile: the header (version, time, op name, attr, inputs/outputs/workspaces), then the data."""
    inputs = [t for t in tensors if t.type == ACL_DUMP_TENSOR_INPUT]
    outputs = [t for t in tensors if t.type == ACL_DUMP_TENSOR_OUTPUT]
    spaces = [t for t in tensors if t.type == ACL_DUMP_TENSOR_WORKSPACE]
    head = _bytes(1, b"2.0") + _uint(2, time.time_ns() // 1000)
    datas: list[bytes] = []
    for t in outputs:  # OpOutput: data_type 1, format 2, shape 3, size 6, arg_index 12
        body = _uint(1, proto_data_type(t.dataType)) + _uint(2, t.format) + _bytes(3, _shape(t.shape))
        head += _bytes(3, body + _uint(6, t.tensorSize) + _uint(12, t.argsOffset))
    for t in inputs:  # OpInput: size 5, arg_index 10, input_type 11
        body = _uint(1, proto_data_type(t.dataType)) + _uint(2, t.format) + _bytes(3, _shape(t.shape))
        head += _bytes(4, body + _uint(5, t.tensorSize) + _uint(10, t.argsOffset) + _uint(11, _INPUT_TENSOR))
    head += _bytes(6, op_name.encode())
    if user_tag:
        head += _bytes(7, _bytes(1, b"user_tag") + _bytes(2, user_tag.encode()))
    for t in spaces:  # Workspace: type LOG (0), size 3, arg_index 4
        head += _bytes(8, _uint(3, t.tensorSize) + _uint(4, t.argsOffset))
    if message:
        head += _bytes(9, message.encode())
    for t in (*inputs, *outputs, *spaces):  # WriteInputTensors, WriteOutputTensors, WriteWorkspace
        assert t.tensorAddr is not None
        datas.append(SPACE.read(int(t.tensorAddr), int(t.tensorSize), f"{_SAVE} tensor").tobytes())
    return struct.pack("<Q", len(head)) + head + b"".join(datas)


@c_api(INTERNAL)
def acldumpSaveExceptionInfo(fileName: object, userTag: object, tensors: object, tensorCount: int) -> int:
    """Save ``tensors`` (device data) under the exception dump root as
    ``<root>/<fileName>.custom.<time>``, with ``userTag`` as the header's ``user_tag`` attribute."""
    if fileName is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep7(_SAVE, "fileName"))
    name = fileName.decode("utf-8", "replace") if isinstance(fileName, bytes) else str(fileName)
    name = name.split("\0", 1)[0]
    if not name:
        reason = "The parameter is a path and cannot be empty"
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep6(_SAVE, "", "fileName", reason))
    if _has_parent_segment(name):
        reason = "The parameter is a relative path and cannot contain '..' segment"
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep6(_SAVE, name, "fileName", reason))
    if tensors is None:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep7(_SAVE, "tensors"))
    count = int_arg(tensorCount, "tensorCount", 0, 2**64 - 1)
    if count == 0:
        raise ApiError(E.ACL_ERROR_INVALID_PARAM, _ep6(_SAVE, 0, "tensorCount", "The parameter must be greater than 0"))
    with _S.lock:
        if not enabled():
            raise _not_enabled(_SAVE)
    infos = _tensors(tensors, count)
    for i, t in enumerate(infos):
        _check_tensor(t, i)
    tag = "" if userTag is None else (userTag.decode() if isinstance(userTag, bytes) else str(userTag))
    with _S.lock:
        root = _root(_SAVE, _current_device(_SAVE))
    target = (Path(root) / name.lstrip("/")).resolve()
    if Path(root) not in target.parents:  # BuildFullPathUnderRoot: the file stays under the root
        raise ApiError(E.ACL_ERROR_FAILURE, emu(f"{_SAVE}: {name} is not a path under {root}."))
    target = target.with_name(target.name + ".custom." + _timestamp_ms())
    try:
        data = _dump_file(target.name, tag, infos)
    except MemoryFault as fault:
        raise ApiError(E.ACL_ERROR_FAILURE, emu(f"{_SAVE}: reading the tensors failed: {fault.message}")) from None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        target.chmod(0o400)  # mmChmod(M_IRUSR)
    except OSError as e:
        text = f"{_SAVE}: dump exception info to file failed, file: {target}: {e}."
        raise ApiError(E.ACL_ERROR_FAILURE, emu(text)) from None
    with _S.lock:
        _S.files.append(str(target))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# a faulting kernel: CANN's adump dumps the failed task when an exception scene is configured
# ---------------------------------------------------------------------------------------------


def _on_fault(stream: Stream, task: Task, fault: TaskFault) -> None:
    """A task faulted: with an exception scene, write its exception dump (never raises)."""
    if not enabled() or ": kernel #" not in task.label:
        return
    try:
        op_type = task.label.rsplit(" ", 1)[-1]
        with _S.lock:
            root = Path(_root("exception dump", int(stream.context.device.ident)))
        name = f"{op_type}.{stream.ident}.{task.seq}.{_timestamp_ms()}"
        message = f"[Dump][Exception] {task.label} failed with error code {int(fault.code)}: {_fault_text(stream)}"
        (root / name).write_bytes(_dump_file(task.label, "", [], message))
        with _S.lock:
            _S.files.append(str(root / name))
    except (ApiError, OSError) as e:
        sys.stderr.write(f"aclnn_py exception dump: cannot write the dump of {task.label}: {e}\n")


def _fault_text(stream: Any) -> str:
    # the hooks run inside the stream's ``except TaskFault``: the fault is the exception in hand
    fault = sys.exc_info()[1]
    return str(getattr(fault, "message", "")) if fault is not None else ""


FAULT_HOOKS.append(_on_fault)


__all__ = [
    "ACL_DUMP_ADDR_PTR",
    "ACL_DUMP_ADDR_PTR_PTR",
    "ACL_DUMP_ADDR_RAW",
    "ACL_DUMP_MAX_SHAPE_NUM",
    "ACL_DUMP_PLACEMENT_DEVICE",
    "ACL_DUMP_PLACEMENT_END",
    "ACL_DUMP_PLACEMENT_HOST",
    "ACL_DUMP_TENSOR_INPUT",
    "ACL_DUMP_TENSOR_OUTPUT",
    "ACL_DUMP_TENSOR_WORKSPACE",
    "acldumpGetExceptionInfoPath",
    "acldumpSaveExceptionInfo",
    "acldumpTensorInfo",
]
