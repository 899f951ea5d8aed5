"""Tensor data transport (acl/acl_tdt.h): data items, datasets and queue channels with CANN's checks,
codes and messages (hicann/runtime src/acl/acl_tdt_channel/tensor_data_transfer.cpp); the TDT
daemon channel (acltdtCreateChannel) is refused."""

from __future__ import annotations

import threading

import numpy as np
from rt_texts import null

from aclnn_py import ACL_FLOAT, ACL_INT32, Ref, aclGetRecentErrMsg, aclrtFree, aclrtMalloc, aclrtMemcpy
from aclnn_py.runtime import api_tdt as T


def _tensor(arr: np.ndarray, dt: int) -> T.acltdtDataItem:
    item = T.acltdtCreateDataItem(T.ACL_TENSOR_DATA_TENSOR, list(arr.shape), arr.ndim, dt, arr, arr.nbytes)
    assert isinstance(item, T.acltdtDataItem)
    return item


def test_data_items(dev0) -> None:
    arr = np.arange(6, dtype=np.float32).reshape(2, 3)
    item = _tensor(arr, ACL_FLOAT)
    assert T.acltdtGetTensorTypeFromItem(item) == T.ACL_TENSOR_DATA_TENSOR
    assert T.acltdtGetDataTypeFromItem(item) == ACL_FLOAT
    assert T.acltdtGetDataSizeFromItem(item) == 24 and T.acltdtGetDimNumFromItem(item) == 2
    assert T.acltdtGetDataAddrFromItem(item) is arr
    dims = [0, 0, 0]
    assert T.acltdtGetDimsFromItem(item, dims, 3) == 0 and dims == [2, 3, 0]
    assert T.acltdtGetDimsFromItem(item, [0], 1) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): acltdtGetDimsFromItem failed. Value 1 for parameter dimNum is invalid. Reason: "
        "dimNum 1 cannot be less than the size of dataItem's dims 2."
    )
    num, ident = Ref(), Ref()
    assert T.acltdtGetSliceInfoFromItem(item, num, ident) == 0 and (num.value, ident.value) == (0, 0)
    assert T.acltdtGetTensorTypeFromItem(None) == T.ACL_TENSOR_DATA_UNDEFINED
    assert aclGetRecentErrMsg().startswith(null("acltdtGetTensorTypeFromItem", "dataItem"))
    assert T.acltdtGetDataSizeFromItem(None) == 0 and T.acltdtGetDataAddrFromItem(None) is None
    aclGetRecentErrMsg()
    end = T.acltdtCreateDataItem(T.ACL_TENSOR_DATA_END_OF_SEQUENCE, None, 0, ACL_FLOAT, None, 0)
    assert end is not None and T.acltdtGetDataTypeFromItem(end) == -1
    assert T.acltdtDestroyDataItem(item) == 0 and T.acltdtDestroyDataItem(end) == 0


def test_create_data_item_checks(dev0) -> None:
    assert T.acltdtCreateDataItem(0, None, 2, ACL_FLOAT, None, 0) is None
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): acltdtCreateDataItem failed. Value nullptr/2 for parameter dims/dimNum is "
        "invalid. Reason: If dims is nullptr, dimNum should be 0."
    )
    assert T.acltdtCreateDataItem(0, [4], 0, ACL_FLOAT, None, 0) is None
    assert "Value 4/0 for parameter dims/dimNum is invalid. Reason: If dims is not nullptr, dimNum should be" in (
        aclGetRecentErrMsg()
    )
    assert T.acltdtCreateDataItem(0, [1] * 129, 129, ACL_FLOAT, None, 0) is None
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): acltdtCreateDataItem failed because value 129 for parameter dimNum is invalid. "
        "Expected value: less than or equal to 128."
    )
    assert T.acltdtCreateDataItem(T.ACL_TENSOR_DATA_END_OF_SEQUENCE, [1], 1, ACL_FLOAT, None, 0) is None
    assert "for parameter dims is invalid. Expected value: nullptr." in aclGetRecentErrMsg()


def test_datasets(dev0) -> None:
    ds = T.acltdtCreateDataset()
    host = _tensor(np.ones(4, np.int32), ACL_INT32)
    assert T.acltdtAddDataItem(ds, host) == 0 and T.acltdtGetDatasetSize(ds) == 1
    assert T.acltdtGetDataItem(ds, 0) is host
    assert T.acltdtGetDataItem(ds, 1) is None
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): acltdtGetDataItem failed. Value 1 for parameter index is invalid. Reason: index 1 "
        "is greater than or equal to dataset size 1."
    )
    dev = Ref()
    assert aclrtMalloc(dev, 16, 0) == 0
    on_device = T.acltdtCreateDataItem(0, [4], 1, ACL_INT32, dev.value, 16)
    assert T.acltdtAddDataItem(ds, on_device) == 100000  # host and device memory in one dataset
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): acltdtAddDataItem failed. Value MEM_HOST(1) for parameter dataset->memType is "
        "invalid. Reason: The memTypes in the dataset must be all host-side or device-side address."
    )
    assert T.acltdtAddDataItem(None, host) == 100000 and T.acltdtAddDataItem(ds, None) == 100000
    aclGetRecentErrMsg()
    assert T.acltdtGetDatasetName(ds) == "" and T.acltdtGetDatasetSize(None) == 0
    aclGetRecentErrMsg()
    assert T.acltdtDestroyDataset(ds) == 0 and T.acltdtDestroyDataset(None) == 100000
    aclGetRecentErrMsg()
    assert aclrtFree(dev.value) == 0


def test_a_queue_channel_carries_datasets(dev0) -> None:
    ch = T.acltdtCreateChannelWithCapacity(0, "feed", 2)
    assert isinstance(ch, T.acltdtChannelHandle)
    dev = Ref()
    assert aclrtMalloc(dev, 16, 0) == 0
    src = np.array([1, 2, 3, 4], dtype=np.int32)
    assert aclrtMemcpy(dev.value, 16, src, 16, 1) == 0
    sent = T.acltdtCreateDataset()
    assert T.acltdtAddDataItem(sent, T.acltdtCreateDataItem(0, [2, 2], 2, ACL_INT32, dev.value, 16)) == 0
    assert T.acltdtSendTensor(ch, sent, 0) == 0
    assert aclrtMemcpy(dev.value, 16, np.zeros(4, np.int32), 16, 1) == 0  # the queue holds a copy
    assert T.acltdtSendTensor(ch, sent, 0) == 0
    assert T.acltdtSendTensor(ch, sent, 0) == 207014 and aclGetRecentErrMsg() is None  # full: no report
    size = Ref()
    assert T.acltdtQueryChannelSize(ch, size) == 0 and size.value == 2
    got = T.acltdtCreateDataset()
    assert T.acltdtReceiveTensor(ch, got, 0) == 0
    item = T.acltdtGetDataItem(got, 0)
    assert T.acltdtGetDataTypeFromItem(item) == ACL_INT32
    assert T.item_array(item).tolist() == [[1, 2], [3, 4]]
    assert T.acltdtAddDataItem(got, item) == 200006  # a received dataset takes no more items
    assert aclGetRecentErrMsg().startswith(
        "Not_Supported(EH0006): acltdtAddDataItem is not supported. Reason: item cannot be added because "
        "internal item already exists."
    )
    assert T.acltdtReceiveTensor(ch, got, 0) == 0  # a received dataset is refilled
    assert T.item_array(T.acltdtGetDataItem(got, 0)).tolist() == [[0, 0], [0, 0]]
    assert T.acltdtReceiveTensor(ch, got, 10) == 207013 and aclGetRecentErrMsg() is None  # empty after 10 ms
    assert T.acltdtReceiveTensor(ch, sent, 0) == 207013
    assert T.acltdtSendTensor(ch, sent, 0) == 0
    assert T.acltdtReceiveTensor(ch, sent, 0) == 100000  # the caller's own items: refused after the dequeue
    assert "dataset must be empty or freeSelf must be true before deserialization" in aclGetRecentErrMsg()
    assert T.acltdtSendTensor(ch, sent, 0) == 0 and T.acltdtCleanChannel(ch) == 0
    assert T.acltdtQueryChannelSize(ch, size) == 0 and size.value == 0
    assert T.acltdtStopChannel(ch) == 0 and T.acltdtDestroyChannel(ch) == 0
    assert aclrtFree(dev.value) == 0


def test_a_blocked_receive_is_woken_by_a_send(dev0) -> None:
    ch = T.acltdtCreateChannelWithCapacity(0, "wake", 2)
    got = T.acltdtCreateDataset()
    results: list[int] = []
    waiter = threading.Thread(target=lambda: results.append(int(T.acltdtReceiveTensor(ch, got, -1))))
    waiter.start()
    ds = T.acltdtCreateDataset()
    assert T.acltdtAddDataItem(ds, _tensor(np.array([7.0], np.float32), ACL_FLOAT)) == 0
    assert T.acltdtSendTensor(ch, ds, -1) == 0
    waiter.join(timeout=10)
    assert results == [0] and T.item_array(T.acltdtGetDataItem(got, 0)).tolist() == [7.0]
    assert T.acltdtDestroyChannel(ch) == 0


def test_channel_checks(dev0) -> None:
    assert T.acltdtCreateChannelWithCapacity(0, None, 2) is None
    assert aclGetRecentErrMsg().startswith(null("acltdtCreateChannelWithCapacity", "name"))
    long = "q" * 128
    assert T.acltdtCreateChannelWithCapacity(0, long[:127], 2) is not None  # 127 characters and the NUL fit
    assert T.acltdtCreateChannelWithCapacity(0, long, 2) is None
    assert (
        f"Value {long} for parameter name is invalid. Reason: name [{long}] length 129 cannot be larger than 128."
        in aclGetRecentErrMsg()
    )
    assert T.acltdtCreateChannel(0, "GetNext") is None
    assert "aclnn_py runs no daemon and loads no models" in aclGetRecentErrMsg()
    assert T.acltdtSendTensor(None, None, 0) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtSendTensor", "handle"))
    ch = T.acltdtCreateChannelWithCapacity(0, "x", 2)
    assert T.acltdtReceiveTensor(ch, None, 0) == 100000
    assert aclGetRecentErrMsg().startswith(null("acltdtReceiveTensor", "dataset"))
    assert T.acltdtQueryChannelSize(ch, None) == 100000
    aclGetRecentErrMsg()
    assert T.acltdtDestroyChannel(ch) == 0


def test_a_channel_capacity_under_two_is_refused_by_the_queue_driver(dev0) -> None:
    # attr.depth = static_cast<uint32_t>(capacity) (tensor_data_transfer.cpp:1072), and
    # NpuDriver::MemQueueCreate refuses a depth under 2 (npu_driver_queue.cc:368-371)
    for capacity, depth in ((0, 0), (1, 1), (2**32 + 1, 1)):
        assert T.acltdtCreateChannelWithCapacity(0, "small", capacity) is None
        msg = aclGetRecentErrMsg()
        assert msg.startswith(
            f"Invalid_Argument(EE1003): Memory queue creation failed because value {depth} for parameter queAttr->depth is invalid. "
            "Expected value: 2."
        ), msg
        assert "The argument is invalid. Reason: rtMemQueueCreate execution failed." in msg
    ch = T.acltdtCreateChannelWithCapacity(0, "wrapped", 2**32 + 2)  # depth 2 after the cast
    assert isinstance(ch, T.acltdtChannelHandle) and ch.capacity == 2
    assert T.acltdtDestroyChannel(ch) == 0


def test_send_refuses_an_item_type_the_queue_cannot_carry(dev0) -> None:
    # TensorDatasetSerializesV2 -> GetTdtDataTypeByAclDataTypeV2 accepts END_OF_SEQUENCE, TENSOR
    # and ABNORMAL only (tensor_data_transfer.cpp:179-201, :296-309, :621-626)
    ch = T.acltdtCreateChannelWithCapacity(0, "q1", 2)
    ds = T.acltdtCreateDataset()
    assert T.acltdtAddDataItem(ds, _tensor(np.array([1.0], np.float32), ACL_FLOAT)) == 0
    slice_item = T.acltdtCreateDataItem(T.ACL_TENSOR_DATA_SLICE_TENSOR, None, 0, ACL_FLOAT, None, 0)
    assert T.acltdtAddDataItem(ds, slice_item) == 0
    assert T.acltdtSendTensor(ch, ds, 0) == 100000
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EH0007): Obtaining the tdt data type failed because value TENSOR_DATA_SLICE_TENSOR(3) for parameter "
        "aclType is invalid. Expected value: ACL_TENSOR_DATA_END_OF_SEQUENCE or ACL_TENSOR_DATA_TENSOR or "
        "ACL_TENSOR_DATA_ABNORMAL."
    ), msg
    assert "[Check][Dataset]TensorDatasetSerializes failed, invalid tdt type 3" in msg
    assert "[Serialize][Dataset]Failed to TensorDatasetSerializesV2, device is 0, name is q1." in msg
    size = Ref()
    assert T.acltdtQueryChannelSize(ch, size) == 0 and size.value == 0  # nothing was enqueued
    odd = T.acltdtCreateDataset()
    assert T.acltdtAddDataItem(odd, T.acltdtCreateDataItem(7, None, 0, ACL_FLOAT, None, 0)) == 0
    assert T.acltdtSendTensor(ch, odd, 0) == 100000
    assert "value UNKNOWN(7) for parameter aclType" in aclGetRecentErrMsg()
    end = T.acltdtCreateDataset()
    assert T.acltdtAddDataItem(end, T.acltdtCreateDataItem(T.ACL_TENSOR_DATA_END_OF_SEQUENCE, None, 0, 0, None, 0)) == 0
    assert T.acltdtSendTensor(ch, end, 0) == 0
    assert T.acltdtDestroyChannel(ch) == 0


def test_receive_into_a_callers_dataset_adds_the_deserialize_report(dev0) -> None:
    # acltdtReceiveTensorV2 logs its own inner error after TensorDatasetDeserializesV2's EH0009 (:755-758)
    ch = T.acltdtCreateChannelWithCapacity(0, "q2", 2)
    ds = T.acltdtCreateDataset()
    assert T.acltdtAddDataItem(ds, _tensor(np.array([1.0], np.float32), ACL_FLOAT)) == 0
    assert T.acltdtSendTensor(ch, ds, 0) == 0
    assert T.acltdtReceiveTensor(ch, ds, 0) == 100000
    msg = aclGetRecentErrMsg()
    assert msg.startswith(
        "Invalid_Argument(EH0009): tdt data deserialization failed. Value 1 for parameter dataset->blobs.size is invalid. Reason: "
        "dataset must be empty or freeSelf must be true before deserialization."
    ), msg
    assert "[Deserialize][Dataset]Failed to deserialize tensor dataset, device is 0, name is q2." in msg
    assert T.acltdtDestroyChannel(ch) == 0
