"""The data dump's files and its kernel hook: the dump state (the setting in force, the callback,
the files written), :func:`kernel_ran` (called by the executor after each kernel while
:data:`ACTIVE`), CANN's dump-file format (an 8-byte length, a ``toolkit.dumpdata.DumpData``
protobuf message, then the inputs' and outputs' bytes; or the stats ``.csv``), the
``acldumpChunk`` pieces a registered callback receives, and :func:`read_dump_file` to read a dump
file back. The API functions that change the state are in :mod:`.api_dump`.
"""

from __future__ import annotations

import os
import struct
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dtypes

if TYPE_CHECKING:  # the dump configuration's checks load with the dump chapter, not with the package
    from .dump_config import DumpSetting

_DUMP_VERSION = "2.0"

# ---------------------------------------------------------------------------------------------
# state
# ---------------------------------------------------------------------------------------------


# sizeof(acldumpChunk) on LP64 (fileName[4096], bufLen, isLastChunk, offset, flag; dataBuf[] adds
# nothing): the callback's length is this plus bufLen, as adx_dump_record.cpp passes it
CHUNK_HEAD_SIZE = 4120


@dataclass
class acldumpChunk:
    """``acldumpChunk``: one piece of a dump file handed to the registered callback."""

    fileName: str
    bufLen: int
    isLastChunk: int
    offset: int
    flag: int
    dataBuf: bytes


class _State:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.init_dump = False  # aclmdlInitDumpFlag
        self.setting: DumpSetting | None = None
        self.callback: Callable[[acldumpChunk, int], object] | None = None
        self.task_ids: dict[int, int] = {}
        self.failed = False
        self.files: list[str] = []


_S = _State()
ACTIVE = False  # read by the executor's kernel hook: one global check when nothing is dumped


def _apply(setting: DumpSetting | None) -> None:
    global ACTIVE
    _S.setting = setting
    ACTIVE = setting is not None and setting.op_switch == "on" and not setting.scene


def dumped_files() -> list[str]:
    """The dump files written so far by this process (oldest first)."""
    with _S.lock:
        return list(_S.files)


# ---------------------------------------------------------------------------------------------
# the dump file
# ---------------------------------------------------------------------------------------------

_PROTO_TYPES = (  # toolkit.dumpdata.OutputDataType, in value order
    "UNDEFINED",
    "FLOAT",
    "FLOAT16",
    "INT8",
    "UINT8",
    "INT16",
    "UINT16",
    "INT32",
    "INT64",
    "UINT32",
    "UINT64",
    "BOOL",
    "DOUBLE",
    "STRING",
    "DUAL_SUB_INT8",
    "DUAL_SUB_UINT8",
    "COMPLEX64",
    "COMPLEX128",
    "QINT8",
    "QINT16",
    "QINT32",
    "QUINT8",
    "QUINT16",
    "RESOURCE",
    "STRING_REF",
    "DUAL",
    "VARIANT",
    "BF16",
    "INT4",
    "UINT1",
    "INT2",
    "UINT2",
    "COMPLEX32",
    "HIFLOAT8",
    "FLOAT8_E5M2",
    "FLOAT8_E4M3FN",
    "FLOAT8_E8M0",
    "FLOAT6_E3M2",
    "FLOAT6_E2M3",
    "FLOAT4_E2M1",
    "FLOAT4_E1M2",
)
_PROTO_TYPE = {name: i for i, name in enumerate(_PROTO_TYPES)}


def proto_data_type(acl_dtype: int) -> int:
    """toolkit.dumpdata.OutputDataType of an aclDataType (by name: the two enums number differently)."""
    try:
        name = dtypes.aclDataType(acl_dtype).name.removeprefix("ACL_")
    except ValueError:
        return 0
    return _PROTO_TYPE.get(name, 0)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _uint(number: int, value: int) -> bytes:
    return _field(number, 0) + _varint(value & 0xFFFFFFFFFFFFFFFF) if value else b""


def _bytes(number: int, value: bytes) -> bytes:
    return _field(number, 2) + _varint(len(value)) + value


def _shape(dims: Sequence[int]) -> bytes:
    packed = b"".join(_varint(int(d)) for d in dims)
    return _bytes(1, packed) if dims else b""  # proto3 packs repeated numbers


def _tensor_message(is_input: bool, tensor: Any, address: int | None, nbytes: int) -> bytes:
    shape = _shape(tensor.view_shape)
    origin = _shape(tensor.origin_shape)
    body = _uint(1, proto_data_type(tensor.dtype)) + _uint(2, int(tensor.storage_format))
    body += _bytes(3, shape)
    if is_input:  # OpInput: size 5, original_shape 6, address 8
        body += _uint(5, nbytes) + _bytes(6, origin) + _uint(8, address or 0)
    else:  # OpOutput: size 6, original_shape 7, address 9
        body += _uint(6, nbytes) + _bytes(7, origin) + _uint(9, address or 0)
    return body


Arg = tuple[Any, "int | None", np.ndarray]


def dump_bytes(op_name: str, now_us: int, inputs: Sequence[Arg], outputs: Sequence[Arg]) -> list[bytes]:
    """A dump file's pieces: the length and the DumpData message, then each tensor's bytes."""
    datas_in = [np.ascontiguousarray(a).tobytes() for _, _, a in inputs]
    datas_out = [np.ascontiguousarray(a).tobytes() for _, _, a in outputs]
    message = _bytes(1, _DUMP_VERSION.encode()) + _uint(2, now_us)
    for (t, ptr, _), data in zip(outputs, datas_out, strict=True):
        message += _bytes(3, _tensor_message(False, t, ptr, len(data)))
    for (t, ptr, _), data in zip(inputs, datas_in, strict=True):
        message += _bytes(4, _tensor_message(True, t, ptr, len(data)))
    message += _bytes(6, op_name.encode())
    return [struct.pack("<Q", len(message)) + message, *datas_in, *datas_out]


def _stats_csv(inputs: Sequence[Arg], outputs: Sequence[Arg], stats: Sequence[str]) -> str:
    lines = [
        "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,Nan Count,"
        "Negative Inf Count,Positive Inf Count"
    ]
    for kind, args in (("Input", inputs), ("Output", outputs)):
        for i, (t, _, a) in enumerate(args):
            values = np.asarray(a, dtype=np.float64) if a.dtype.kind in "fiub" else np.zeros(0)
            finite = values[np.isfinite(values)]
            shape = "x".join(str(d) for d in t.view_shape) or "-"
            row = [
                kind, str(i), str(a.nbytes), "DT_" + _PROTO_TYPES[proto_data_type(t.dtype)], dtypes_format(t),
                shape,
                repr(float(finite.max())) if finite.size else "", repr(float(finite.min())) if finite.size else "",
                repr(float(finite.mean())) if finite.size else "", str(values.size),
                str(int(np.isnan(values).sum())), str(int(np.isneginf(values).sum())),
                str(int(np.isposinf(values).sum())),
            ]  # fmt: skip
            lines.append(",".join(row))
    return "\n".join(lines) + "\n"


def dtypes_format(tensor: Any) -> str:
    """The format's name as the dump's CSV writes it (NCHW, ND ...)."""
    name = (
        dtypes.aclFormat(int(tensor.storage_format)).name if int(tensor.storage_format) in set(dtypes.aclFormat) else ""
    )
    return name.removeprefix("ACL_FORMAT_").removeprefix("ACL_") or str(int(tensor.storage_format))


def _safe(name: str) -> str:
    """ReplaceStringElem: path separators, spaces and dots in names become underscores."""
    return "".join("_" if c in "/\\. " else c for c in name)


def kernel_ran(stream: Any, op_type: str, label: str, inputs: Sequence[Arg], outputs: Sequence[Arg]) -> None:
    """A kernel finished on ``stream``: dump it if the configuration asks (called by the
    executor's kernel hook; never raises: a failure is reported once on stderr)."""
    with _S.lock:
        setting, callback = _S.setting, _S.callback
        if setting is None or setting.op_switch != "on" or setting.scene:
            return
        task = _S.task_ids.get(stream.ident, 0)
        _S.task_ids[stream.ident] = task + 1
    try:
        api, _, rest = label.partition(": kernel #")
        index = rest.split(" ", 1)[0] if rest else "0"
        op_name = _safe(f"{api}_{op_type}_{index}")
        device = stream.context.device.ident
        now_us = time.time_ns() // 1000
        from pathlib import Path  # the first dumped kernel loads it, not import aclnn_py

        folder = Path(setting.path) / str(device)
        name = f"{_safe(op_type)}.{op_name}.{task}.{stream.ident}.{now_us}"
        target = folder / name
        chosen_in = inputs if setting.mode in ("input", "all") else []
        chosen_out = outputs if setting.mode in ("output", "all") else []
        if setting.data == "stats":
            pieces = [_stats_csv(chosen_in, chosen_out, setting.stats).encode()]
            target = folder / (name + ".csv")
        else:
            pieces = dump_bytes(op_name, now_us, chosen_in, chosen_out)
        if callback is not None:
            for i, piece in enumerate(pieces):
                chunk = acldumpChunk(str(target.resolve()), len(piece), int(i == len(pieces) - 1), -1, 0, piece)
                callback(chunk, CHUNK_HEAD_SIZE + len(piece))  # CANN: sizeof(DumpChunk) + bufLen
        else:
            folder.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as f:
                for piece in pieces:
                    f.write(piece)
        with _S.lock:
            _S.files.append(str(target))
    except Exception as e:  # the dump must never break the program it watches
        if not _S.failed:
            _S.failed = True
            sys.stderr.write(f"aclnn_py dump: cannot dump {label}: {e}\n")


# ---------------------------------------------------------------------------------------------
# reading a dump file back (tests, and users without CANN's msaccucmp)
# ---------------------------------------------------------------------------------------------


def _read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _fields(buf: bytes) -> list[tuple[int, int | bytes]]:
    out: list[tuple[int, int | bytes]] = []
    pos = 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(buf, pos)
            out.append((number, value))
        elif wire == 2:
            n, pos = _read_varint(buf, pos)
            out.append((number, buf[pos : pos + n]))
            pos += n
        else:
            raise ValueError(f"unexpected wire type {wire}")
    return out


def _dims(packed: bytes) -> list[int]:
    dims: list[int] = []
    for number, value in _fields(packed):
        if number == 1 and isinstance(value, bytes):
            pos = 0
            while pos < len(value):
                d, pos = _read_varint(value, pos)
                dims.append(d)
        elif number == 1 and isinstance(value, int):
            dims.append(value)
    return dims


def read_dump_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Decode a dump file: ``{"version", "dump_time", "op_name", "input": [...], "output": [...]}``,
    each tensor ``{"data_type", "format", "shape", "size", "address", "data"}`` (its bytes)."""
    from pathlib import Path

    raw = Path(path).read_bytes()
    (n,) = struct.unpack_from("<Q", raw)
    message = raw[8 : 8 + n]
    data = raw[8 + n :]
    doc: dict[str, Any] = {"input": [], "output": []}
    for number, value in _fields(message):
        if number == 1 and isinstance(value, bytes):
            doc["version"] = value.decode()
        elif number == 2:
            doc["dump_time"] = value
        elif number == 6 and isinstance(value, bytes):
            doc["op_name"] = value.decode()
        elif number in (3, 4) and isinstance(value, bytes):
            is_input = number == 4
            t: dict[str, Any] = {"data_type": 0, "format": 0, "shape": [], "size": 0, "address": 0}
            for k, v in _fields(value):
                if k == 1:
                    t["data_type"] = v
                elif k == 2:
                    t["format"] = v
                elif k == 3 and isinstance(v, bytes):
                    t["shape"] = _dims(v)
                elif k == (5 if is_input else 6):
                    t["size"] = v
                elif k == (8 if is_input else 9):
                    t["address"] = v
            doc["input" if is_input else "output"].append(t)
    pos = 0
    for t in doc["input"] + doc["output"]:
        t["data"] = data[pos : pos + t["size"]]
        pos += t["size"]
    return doc


__all__ = ["acldumpChunk"]
