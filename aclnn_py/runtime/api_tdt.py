"""Tensor data transport, ``acl/acl_tdt.h``: data items, datasets and channels.

Data items and datasets are real: an item records its tensor type, dims, data type and data (a
host buffer object, or an address of simulated device or pinned host memory) as CANN's
``acltdtDataItem`` does; a dataset is an ordered list of items whose memory must be all host-side or
all device-side. The checks, order, codes and messages are CANN's (hicann/runtime
``src/acl/acl_tdt_channel/tensor_data_transfer.cpp``).

Channels: ``acltdtCreateChannelWithCapacity`` is CANN's queue channel (``rtMemQueueCreate``): here
an in-process queue of the given depth. ``acltdtSendTensor`` copies the dataset's bytes into the
queue (as CANN serialises them into queue buffers), ``acltdtReceiveTensor`` takes the oldest entry
and rebuilds its items in the receiving dataset (whose own items must not exist, as in CANN); a
full or empty queue waits up to ``timeout`` ms (0: not at all, -1: for ever) and then returns
207014 / 207013 without a report, as CANN's. ``acltdtCreateChannel`` opens a TDT channel to the
device's tensor-transfer daemon (model ops such as GetNext consume it); aclnn_py has no such
daemon and loads no models, so it returns NULL with an ``aclnn_py`` message.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import dtypes
from .._capi import ApiError, as_pointer, c_api, describe
from .._ref import Ref
from ._checks import (
    INTERNAL,
    PARAM,
    RT_PARAM,
    E,
    acl_inner,
    acl_null,
    acl_reason,
    acl_value,
    emu,
    fb_invalid,
    int_arg,
    rt_value,
)
from .device import RT
from .memory import SPACE, MemoryFault

# acltdtTensorType
ACL_TENSOR_DATA_UNDEFINED = -1
ACL_TENSOR_DATA_TENSOR = 0
ACL_TENSOR_DATA_END_OF_SEQUENCE = 1
ACL_TENSOR_DATA_ABNORMAL = 2
ACL_TENSOR_DATA_SLICE_TENSOR = 3
ACL_TENSOR_DATA_END_TENSOR = 4

_MAX_DIM_CNT = 128
_RT_MQ_MAX_NAME_LEN = 128
_MEM_NAMES = {0: "MEM_UNKNOWN(0)", 1: "MEM_HOST(1)", 2: "MEM_DEVICE(2)"}
RT_MQ_DEPTH_MIN = 2
# acl::GetTensorTypeDesc (src/acl/utils/data_type_utils.h)
_TENSOR_TYPE_DESC = {
    ACL_TENSOR_DATA_UNDEFINED: "TENSOR_DATA_UNDEFINED(-1)",
    ACL_TENSOR_DATA_TENSOR: "TENSOR_DATA_TENSOR(0)",
    ACL_TENSOR_DATA_END_OF_SEQUENCE: "TENSOR_DATA_END_OF_SEQUENCE(1)",
    ACL_TENSOR_DATA_ABNORMAL: "TENSOR_DATA_ABNORMAL(2)",
    ACL_TENSOR_DATA_SLICE_TENSOR: "TENSOR_DATA_SLICE_TENSOR(3)",
    ACL_TENSOR_DATA_END_TENSOR: "TENSOR_DATA_END_TENSOR(4)",
}
_SENDABLE = (ACL_TENSOR_DATA_END_OF_SEQUENCE, ACL_TENSOR_DATA_TENSOR, ACL_TENSOR_DATA_ABNORMAL)


class acltdtDataItem:
    """``acltdtDataItem``: one tensor (or a control item) of a dataset."""

    __slots__ = ("data", "data_type", "destroyed", "dims", "size", "slice_id", "slice_num", "tdt_type")

    def __init__(self, tdt_type: int, dims: list[int], data_type: int, data: object, size: int) -> None:
        self.tdt_type = tdt_type
        self.dims = dims
        self.data_type = data_type
        self.data = data
        self.size = size
        self.slice_num = 0
        self.slice_id = 0
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<acltdtDataItem type={self.tdt_type} dims={self.dims} {self.size} bytes>"


class acltdtDataset:
    """``acltdtDataset``: items in order, their memory side, and whether a receive made them."""

    __slots__ = ("destroyed", "free_self", "items", "mem_type", "name")

    def __init__(self) -> None:
        self.items: list[acltdtDataItem] = []
        self.mem_type = 0  # MEM_UNKNOWN, MEM_HOST, MEM_DEVICE
        self.free_self = False  # the items were made by acltdtReceiveTensor
        self.name = ""
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<acltdtDataset {len(self.items)} item(s)>"


@dataclass
class _Entry:
    """One dataset in a queue: each item's type, dims, data type and bytes."""

    items: list[tuple[int, list[int], int, bytes]]


class acltdtChannelHandle:
    """``acltdtChannelHandle``: a queue channel of a device."""

    __slots__ = ("capacity", "cv", "destroyed", "device", "name", "queue")

    def __init__(self, device: int, name: str, capacity: int) -> None:
        self.device = device
        self.name = name
        self.capacity = capacity
        self.queue: deque[_Entry] = deque()
        self.cv = threading.Condition()
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<acltdtChannelHandle {self.name!r} device {self.device} {len(self.queue)}/{self.capacity}>"


def _live(obj: object, cls: type, api: str, name: str) -> None:
    if not isinstance(obj, cls) or getattr(obj, "destroyed", False):
        # CANN dereferences whatever it is given; the emulator refuses what it never made
        raise ApiError(PARAM, emu(f"{api}: {name} is {describe(obj)}, not a live {cls.__name__}."))


# ---------------------------------------------------------------------------------------------
# data items
# ---------------------------------------------------------------------------------------------


def _dims(dims: object, n: int, api: str) -> list[int]:
    if isinstance(dims, (list, tuple)):
        values = [int_arg(d, "dims", -(2**63), 2**63 - 1) for d in dims[:n]]
    elif isinstance(dims, np.ndarray):
        values = [int(d) for d in dims.reshape(-1)[:n]]
    else:
        raise ApiError(PARAM, emu(f"{api}: dims is {describe(dims)}, not a list of int64."))
    if len(values) < n:
        raise ApiError(PARAM, emu(f"{api}: dims holds {len(values)} entries, dimNum is {n}."))
    return values


def _first(dims: object) -> str:
    try:
        return str(int(dims[0]))  # type: ignore[index]
    except (TypeError, IndexError, ValueError):
        return "0"


@c_api(INTERNAL, handle=True)
def acltdtCreateDataItem(
    tdtType: int, dims: object, dimNum: int, dataType: int, data: object, size: int
) -> acltdtDataItem | None:
    """A data item: a tensor (dims, data type, data of ``size`` bytes) or a control item (no dims)."""
    api = "acltdtCreateDataItem"
    kind = int_arg(tdtType, "tdtType", -(2**31), 2**31 - 1)
    n = int_arg(dimNum, "dimNum", 0, 2**64 - 1)
    if dims is None and n != 0:
        raise ApiError(PARAM, acl_reason(api, f"nullptr/{n}", "dims/dimNum", "If dims is nullptr, dimNum should be 0"))
    if dims is not None and n == 0:
        raise ApiError(
            PARAM,
            acl_reason(
                api, f"{_first(dims)}/0", "dims/dimNum", "If dims is not nullptr, dimNum should be greater than 0"
            ),
        )
    if n > _MAX_DIM_CNT:
        raise ApiError(PARAM, acl_value(api, n, "dimNum", f"less than or equal to {_MAX_DIM_CNT}"))
    nbytes = int_arg(size, "size", 0, 2**64 - 1)
    dt = int_arg(dataType, "dataType", -(2**31), 2**31 - 1)
    if kind != ACL_TENSOR_DATA_TENSOR:
        if dims is not None:
            where = as_pointer(dims) if isinstance(dims, int) else id(dims)
            raise ApiError(PARAM, acl_value(api, where, "dims", "nullptr"))
        return acltdtDataItem(kind, [], -1, None, 0)
    return acltdtDataItem(kind, _dims(dims, n, api) if n else [], dt, data, nbytes)


@c_api(INTERNAL)
def acltdtDestroyDataItem(dataItem: object) -> int:
    """Release a data item (its data is the caller's)."""
    if dataItem is None:
        raise ApiError(PARAM, acl_null("acltdtDestroyDataItem", "dataItem"))
    _live(dataItem, acltdtDataItem, "acltdtDestroyDataItem", "dataItem")
    dataItem.destroyed = True  # type: ignore[attr-defined]
    return E.ACL_SUCCESS


def _item_field(item: object, api: str) -> acltdtDataItem:
    """ACL_REQUIRES_NOT_NULL_RET_INPUT_REPORT: a NULL item is EH0008."""
    if item is None:
        raise ApiError(PARAM, acl_null(api, "dataItem"))
    _live(item, acltdtDataItem, api, "dataItem")
    return item  # type: ignore[return-value]


def _item_value(item: object, api: str, read: Callable[[acltdtDataItem], int], fallback: int) -> int:
    """A getter without a status: a bad item is reported and answers ``fallback``."""
    try:
        return read(_item_field(item, api))
    except ApiError as e:
        e.report()
        return fallback


@c_api(INTERNAL)
def acltdtGetTensorTypeFromItem(dataItem: object) -> int:
    """The item's tensor type (ACL_TENSOR_DATA_UNDEFINED for NULL)."""
    return _item_value(dataItem, "acltdtGetTensorTypeFromItem", lambda i: i.tdt_type, ACL_TENSOR_DATA_UNDEFINED)


@c_api(INTERNAL)
def acltdtGetDataTypeFromItem(dataItem: object) -> int:
    """The item's aclDataType (ACL_DT_UNDEFINED for NULL)."""
    return _item_value(dataItem, "acltdtGetDataTypeFromItem", lambda i: i.data_type, -1)


@c_api(INTERNAL, handle=True)
def acltdtGetDataAddrFromItem(dataItem: object) -> object:
    """The item's data (the object or address it was made with; a received item's bytes)."""
    return _item_field(dataItem, "acltdtGetDataAddrFromItem").data


@c_api(INTERNAL)
def acltdtGetDataSizeFromItem(dataItem: object) -> int:
    """The item's data size in bytes (0 for NULL)."""
    return _item_value(dataItem, "acltdtGetDataSizeFromItem", lambda i: i.size, 0)


@c_api(INTERNAL)
def acltdtGetDimNumFromItem(dataItem: object) -> int:
    """The item's number of dims (0 for NULL)."""
    return _item_value(dataItem, "acltdtGetDimNumFromItem", lambda i: len(i.dims), 0)


def _store(out: object, value: int, api: str, name: str) -> None:
    if isinstance(out, (Ref, ctypes.c_uint64)):  # a C caller's size_t
        out.value = value
        return
    raise ApiError(PARAM, emu(f"{api}: {name} must be an out-parameter (Ref()), got {describe(out)}."))


@c_api(INTERNAL)
def acltdtGetSliceInfoFromItem(dataItem: object, sliceNum: object, sliceId: object) -> int:
    """The item's slice count and index (0 and 0 for items made here)."""
    api = "acltdtGetSliceInfoFromItem"
    for value, name in ((dataItem, "dataItem"), (sliceNum, "sliceNum"), (sliceId, "sliceId")):
        if value is None:
            raise ApiError(PARAM, acl_null(api, name))
    _live(dataItem, acltdtDataItem, api, "dataItem")
    _store(sliceNum, dataItem.slice_num, api, "sliceNum")  # type: ignore[attr-defined]
    _store(sliceId, dataItem.slice_id, api, "sliceId")  # type: ignore[attr-defined]
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acltdtGetDimsFromItem(dataItem: object, dims: object, dimNum: int) -> int:
    """Write the item's dims into ``dims`` (a list, or a numpy int64 array) of ``dimNum`` entries."""
    api = "acltdtGetDimsFromItem"
    if dataItem is None:
        raise ApiError(PARAM, acl_null(api, "dataItem"))
    _live(dataItem, acltdtDataItem, api, "dataItem")
    n = int_arg(dimNum, "dimNum", 0, 2**64 - 1)
    if dims is None and n != 0:
        raise ApiError(PARAM, acl_reason(api, f"nullptr/{n}", "dims/dimNum", "If dims is nullptr, dimNum should be 0"))
    if dims is not None and n == 0:
        raise ApiError(
            PARAM,
            acl_reason(
                api, f"{_first(dims)}/0", "dims/dimNum", "If dims is not nullptr, dimNum should be greater than 0"
            ),
        )
    have = dataItem.dims  # type: ignore[attr-defined]
    if n < len(have):
        raise ApiError(
            PARAM,
            acl_reason(api, n, "dimNum", f"dimNum {n} cannot be less than the size of dataItem's dims {len(have)}"),
        )
    if have:
        if isinstance(dims, list) and len(dims) >= len(have):
            dims[: len(have)] = have
        elif isinstance(dims, np.ndarray) and dims.size >= len(have) and dims.flags.writeable:
            dims.reshape(-1)[: len(have)] = have
        else:
            raise ApiError(PARAM, emu(f"{api}: dims is {describe(dims)}, not a writable list or array."))
    return E.ACL_SUCCESS


# ---------------------------------------------------------------------------------------------
# datasets
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL, handle=True)
def acltdtCreateDataset() -> acltdtDataset:
    """An empty dataset."""
    return acltdtDataset()


@c_api(INTERNAL)
def acltdtDestroyDataset(dataset: object) -> int:
    """Release a dataset (the items the caller added are the caller's)."""
    if dataset is None:
        raise ApiError(PARAM, acl_null("acltdtDestroyDataset", "dataset"))
    _live(dataset, acltdtDataset, "acltdtDestroyDataset", "dataset")
    dataset.destroyed = True  # type: ignore[attr-defined]
    return E.ACL_SUCCESS


def _mem_type(data: object) -> int:
    """rtsPointerGetAttributes' location: device memory is MEM_DEVICE, anything else host."""
    if data is None:
        return 0
    if isinstance(data, int) and not isinstance(data, bool):
        alloc = SPACE.find(data)
        if alloc is not None and alloc.kind == "device":
            return 2
    return 1


@c_api(INTERNAL)
def acltdtAddDataItem(dataset: object, dataItem: object) -> int:
    """Append an item (all items of a dataset on the host, or all on a device)."""
    api = "acltdtAddDataItem"
    if dataset is None:
        raise ApiError(PARAM, acl_null(api, "dataset"))
    if dataItem is None:
        raise ApiError(PARAM, acl_null(api, "dataItem"))
    _live(dataset, acltdtDataset, api, "dataset")
    _live(dataItem, acltdtDataItem, api, "dataItem")
    assert isinstance(dataset, acltdtDataset) and isinstance(dataItem, acltdtDataItem)
    if dataset.free_self:
        raise ApiError(
            E.ACL_ERROR_FEATURE_UNSUPPORTED,
            ("EH0006", f"{api} is not supported. Reason: item cannot be added because internal item already exists."),
        )
    current = _mem_type(dataItem.data)
    if dataset.mem_type == 0:
        dataset.mem_type = current
    if dataset.mem_type != 0 and current != 0 and dataset.mem_type != current:
        raise ApiError(
            PARAM,
            acl_reason(
                api,
                _MEM_NAMES[dataset.mem_type],
                "dataset->memType",
                "The memTypes in the dataset must be all host-side or device-side address",
            ),
        )
    dataset.items.append(dataItem)
    return E.ACL_SUCCESS


@c_api(INTERNAL, handle=True)
def acltdtGetDataItem(dataset: object, index: int) -> acltdtDataItem | None:
    """The item at ``index`` (NULL with EH0009 past the end)."""
    api = "acltdtGetDataItem"
    if dataset is None:
        raise ApiError(PARAM, acl_null(api, "dataset"))
    _live(dataset, acltdtDataset, api, "dataset")
    i = int_arg(index, "index", 0, 2**64 - 1)
    items = dataset.items  # type: ignore[attr-defined]
    if i >= len(items):
        raise ApiError(
            PARAM, acl_reason(api, i, "index", f"index {i} is greater than or equal to dataset size {len(items)}")
        )
    item: acltdtDataItem = items[i]
    return item


@c_api(INTERNAL)
def acltdtGetDatasetSize(dataset: object) -> int:
    """The number of items (0 for NULL)."""
    if dataset is None:
        ApiError(PARAM, acl_null("acltdtGetDatasetSize", "dataset")).report()
        return 0
    _live(dataset, acltdtDataset, "acltdtGetDatasetSize", "dataset")
    return len(dataset.items)  # type: ignore[attr-defined]


@c_api(INTERNAL, handle=True)
def acltdtGetDatasetName(dataset: object) -> str | None:
    """The dataset's name (empty: only the TDT channel names datasets)."""
    if dataset is None:
        raise ApiError(PARAM, acl_null("acltdtGetDatasetName", "dataset"))
    _live(dataset, acltdtDataset, "acltdtGetDatasetName", "dataset")
    name: str = dataset.name  # type: ignore[attr-defined]
    return name


# ---------------------------------------------------------------------------------------------
# channels
# ---------------------------------------------------------------------------------------------


def _name(name: object, api: str) -> str:
    if name is None:
        raise ApiError(PARAM, acl_null(api, "name"))
    if isinstance(name, bytes):
        return name.split(b"\0", 1)[0].decode("utf-8", "replace")
    if not isinstance(name, str):
        raise ApiError(PARAM, emu(f"{api}: name is {describe(name)}, not a string."))
    return name


@c_api(INTERNAL, handle=True)
def acltdtCreateChannel(deviceId: int, name: object) -> acltdtChannelHandle | None:
    """A TDT channel to the device's tensor-transfer daemon: refused (NULL), aclnn_py has none."""
    api = "acltdtCreateChannel"
    text = _name(name, api)
    int_arg(deviceId, "deviceId", 0, 2**32 - 1)
    raise ApiError(
        PARAM,
        emu(
            f"{api}: channel {text!r} would connect to the device's tensor-transfer daemon, which feeds model "
            "operators (GetNext, outfeed); aclnn_py runs no daemon and loads no models. "
            "acltdtCreateChannelWithCapacity makes a queue channel that works within the process."
        ),
    )


@c_api(INTERNAL, handle=True)
def acltdtCreateChannelWithCapacity(deviceId: int, name: object, capacity: int) -> acltdtChannelHandle | None:
    """A queue channel of ``capacity`` datasets on device ``deviceId``."""
    api = "acltdtCreateChannelWithCapacity"
    text = _name(name, api)
    length = len(text.encode("utf-8"))
    if length + 1 > _RT_MQ_MAX_NAME_LEN:
        raise ApiError(
            PARAM,
            acl_reason(
                api, text, "name", f"name [{text}] length {length + 1} cannot be larger than {_RT_MQ_MAX_NAME_LEN}"
            ),
        )
    device = int_arg(deviceId, "deviceId", 0, 2**32 - 1)
    depth = int_arg(capacity, "capacity", 0, 2**64 - 1)
    if device >= RT.device_count:
        raise ApiError(
            E.ACL_ERROR_RT_INVALID_DEVICEID,
            emu(f"{api}: device {device} does not exist ({RT.device_count} device(s)); no queue was made."),
        )
    # CANN passes static_cast<uint32_t>(capacity) as the queue depth (tensor_data_transfer.cpp:1072);
    # NpuDriver::MemQueueCreate refuses a depth under RT_MQ_DEPTH_MIN (npu_driver_queue.cc:368-371)
    depth &= 0xFFFFFFFF
    if depth < RT_MQ_DEPTH_MIN:
        raise ApiError(
            RT_PARAM,
            rt_value("Memory queue creation", depth, "queAttr->depth", str(RT_MQ_DEPTH_MIN)),
            fb_invalid("rtMemQueueCreate"),
        )
    return acltdtChannelHandle(device, text, depth)


def _channel(handle: object, api: str) -> acltdtChannelHandle:
    if handle is None:
        raise ApiError(PARAM, acl_null(api, "handle"))
    _live(handle, acltdtChannelHandle, api, "handle")
    assert isinstance(handle, acltdtChannelHandle)
    return handle


@c_api(INTERNAL)
def acltdtStopChannel(handle: object) -> int:
    """Stop a channel (a queue channel has nothing to stop)."""
    _channel(handle, "acltdtStopChannel")
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acltdtDestroyChannel(handle: object) -> int:
    """Destroy a channel and the datasets still queued in it."""
    ch = _channel(handle, "acltdtDestroyChannel")
    with ch.cv:
        ch.queue.clear()
        ch.destroyed = True
        ch.cv.notify_all()
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acltdtCleanChannel(handle: object) -> int:
    """Drop every queued dataset (rtMemQueueReset)."""
    ch = _channel(handle, "acltdtCleanChannel")
    with ch.cv:
        ch.queue.clear()
        ch.cv.notify_all()
    return E.ACL_SUCCESS


def _item_bytes(item: acltdtDataItem, api: str) -> bytes:
    """The bytes CANN copies into the queue buffer: ``size`` bytes of the item's data."""
    if item.size == 0 or item.data is None:
        return b""
    data = item.data
    if isinstance(data, int) and not isinstance(data, bool):
        try:
            return bytes(SPACE.read(data, item.size, f"{api} item data"))
        except MemoryFault as fault:
            raise ApiError(PARAM, emu(f"{api}: {fault.message}")) from None
    try:
        raw = memoryview(data).cast("B")  # type: ignore[arg-type]
    except TypeError:
        raise ApiError(PARAM, emu(f"{api}: an item's data is {describe(data)}, not a buffer or an address.")) from None
    if raw.nbytes < item.size:
        raise ApiError(PARAM, emu(f"{api}: an item's data holds {raw.nbytes} bytes, its size says {item.size}."))
    return bytes(raw[: item.size])


def _wait(ch: acltdtChannelHandle, ready: object, timeout: int) -> bool:
    """Wait (holding ``ch.cv``) until ``ready()`` or the timeout (ms; -1: for ever; another
    negative value is taken as 0, not to wait: CANN's queue layer is not in hicann/runtime)."""
    deadline = None if timeout == -1 else time.monotonic() + max(timeout, 0) / 1000
    while not ready():  # type: ignore[operator]
        if ch.destroyed:
            return False
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            return False
        ch.cv.wait(remaining if remaining is not None else 0.5)
    return True


@c_api(INTERNAL)
def acltdtSendTensor(handle: object, dataset: object, timeout: int) -> int:
    """Queue a copy of the dataset's items (207014 without a report when the queue stays full)."""
    api = "acltdtSendTensor"
    ch = _channel(handle, api)
    if dataset is None:
        raise ApiError(PARAM, acl_null(api, "dataset"))
    _live(dataset, acltdtDataset, api, "dataset")
    assert isinstance(dataset, acltdtDataset)
    wait = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    for it in dataset.items:
        if it.tdt_type not in _SENDABLE:
            # TensorDatasetSerializesV2 -> GetTdtDataTypeByAclDataTypeV2 (tensor_data_transfer.cpp:179-201,
            # :296-309), then acltdtSendTensorV2's own log (:624-625); nothing is enqueued
            desc = _TENSOR_TYPE_DESC.get(it.tdt_type, f"UNKNOWN({it.tdt_type})")
            raise ApiError(
                PARAM,
                acl_value(
                    "Obtaining the tdt data type",
                    desc,
                    "aclType",
                    "ACL_TENSOR_DATA_END_OF_SEQUENCE or ACL_TENSOR_DATA_TENSOR or ACL_TENSOR_DATA_ABNORMAL",
                ),
                acl_inner(f"[Check][Dataset]TensorDatasetSerializes failed, invalid tdt type {it.tdt_type}"),
                acl_inner(
                    f"[Serialize][Dataset]Failed to TensorDatasetSerializesV2, device is {ch.device}, "
                    f"name is {ch.name}."
                ),
            )
    entry = _Entry([(it.tdt_type, list(it.dims), it.data_type, _item_bytes(it, api)) for it in dataset.items])
    with ch.cv:
        if not _wait(ch, lambda: len(ch.queue) < ch.capacity, wait):
            return E.ACL_ERROR_RT_QUEUE_FULL
        ch.queue.append(entry)
        ch.cv.notify_all()
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acltdtReceiveTensor(handle: object, dataset: object, timeout: int) -> int:
    """Take the oldest queued dataset into ``dataset`` (207013 without a report when it stays
    empty). The received items' data are host buffers (numpy uint8 arrays)."""
    api = "acltdtReceiveTensor"
    ch = _channel(handle, api)
    if dataset is None:
        raise ApiError(PARAM, acl_null(api, "dataset"))
    _live(dataset, acltdtDataset, api, "dataset")
    assert isinstance(dataset, acltdtDataset)
    wait = int_arg(timeout, "timeout", -(2**31), 2**31 - 1)
    with ch.cv:
        if not _wait(ch, lambda: bool(ch.queue), wait):
            return E.ACL_ERROR_RT_QUEUE_EMPTY
        entry = ch.queue.popleft()
        ch.cv.notify_all()
    if dataset.items and not dataset.free_self:  # checked after the dequeue, as CANN's
        raise ApiError(
            PARAM,
            acl_reason(
                "tdt data deserialization",
                len(dataset.items),
                "dataset->blobs.size",
                "dataset must be empty or freeSelf must be true before deserialization",
            ),
            # acltdtReceiveTensorV2's log after TensorDatasetDeserializesV2 fails (:755-758)
            acl_inner(
                f"[Deserialize][Dataset]Failed to deserialize tensor dataset, device is {ch.device}, name is {ch.name}."
            ),
        )
    dataset.items = [
        acltdtDataItem(kind, dims, dt, np.frombuffer(raw, dtype=np.uint8).copy(), len(raw))
        for kind, dims, dt, raw in entry.items
    ]
    dataset.free_self = True
    dataset.mem_type = 1
    return E.ACL_SUCCESS


@c_api(INTERNAL)
def acltdtQueryChannelSize(handle: object, size: object) -> int:
    """The number of datasets queued."""
    api = "acltdtQueryChannelSize"
    ch = _channel(handle, api)
    if size is None:
        raise ApiError(PARAM, acl_null(api, "size"))
    with ch.cv:
        _store(size, len(ch.queue), api, "size")
    return E.ACL_SUCCESS


def item_array(item: acltdtDataItem) -> np.ndarray:
    """A received tensor item's data as a numpy array of its dims and data type (a Python helper)."""
    npdt = dtypes.numpy_dtype(item.data_type)
    raw = np.asarray(item.data, dtype=np.uint8)
    if npdt is None:
        return raw
    return raw.view(npdt).reshape(item.dims)


__all__ = [
    "ACL_TENSOR_DATA_ABNORMAL",
    "ACL_TENSOR_DATA_END_OF_SEQUENCE",
    "ACL_TENSOR_DATA_END_TENSOR",
    "ACL_TENSOR_DATA_SLICE_TENSOR",
    "ACL_TENSOR_DATA_TENSOR",
    "ACL_TENSOR_DATA_UNDEFINED",
    "acltdtAddDataItem",
    "acltdtChannelHandle",
    "acltdtCleanChannel",
    "acltdtCreateChannel",
    "acltdtCreateChannelWithCapacity",
    "acltdtCreateDataItem",
    "acltdtCreateDataset",
    "acltdtDataItem",
    "acltdtDataset",
    "acltdtDestroyChannel",
    "acltdtDestroyDataItem",
    "acltdtDestroyDataset",
    "acltdtGetDataAddrFromItem",
    "acltdtGetDataItem",
    "acltdtGetDataSizeFromItem",
    "acltdtGetDataTypeFromItem",
    "acltdtGetDatasetName",
    "acltdtGetDatasetSize",
    "acltdtGetDimNumFromItem",
    "acltdtGetDimsFromItem",
    "acltdtGetSliceInfoFromItem",
    "acltdtGetTensorTypeFromItem",
    "acltdtQueryChannelSize",
    "acltdtReceiveTensor",
    "acltdtSendTensor",
    "acltdtStopChannel",
]
