#!/usr/bin/env python3
# Line-by-line port of aclnn_py's own C++ sample capi/samples/index_reduce_softmax.cpp:
#   aclnnIndexSelect  rows picked by an INT64 index along dim 0 (a row may repeat), then columns
#                     picked by an INT32 index along dim -1
#   aclnnReduceSum    over dims [-1] with keepDims on FLOAT; then on INT8 with dtype INT32, which
#                     casts before summing, so a row adding up to 300 does not wrap around
#   aclnnSoftmax      along dim -1
# and, at the end, one deliberate error: aclnnIndexSelect along a dim the tensor does not have.
# Each C++ line has its twin here, in the same order; `fmt: off` keeps CHECK_RET's one-line shape.
# fmt: off
import sys

import numpy as np

from aclnn_py import *  # "acl/acl.h", "aclnnop/aclnn_index_select.h", "aclnn_reduce_sum.h", "aclnn_softmax.h"


# #define CHECK_RET(cond, return_expr): in Python, `if not (cond): return_expr` on one line.
def LOG_PRINT(message, *args):  # #define LOG_PRINT(message, ...) printf(message, ##__VA_ARGS__)
    sys.stdout.write(message % args)


def GetShapeSize(shape):
    shapeSize = 1
    for i in shape:
        shapeSize *= i
    return shapeSize


def Init(deviceId, stream):
    # Boilerplate: initialise AscendCL, take the device, make a stream.
    ret = aclInit(None)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret
    ret = aclrtSetDevice(deviceId)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret
    ret = aclrtCreateStream(stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret
    return 0


def CreateAclTensor(hostData, shape, deviceAddr, dataType, tensor):
    size = GetShapeSize(shape) * hostData.itemsize  # sizeof(T)
    # Device memory for the data, filled from the host.
    ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret
    ret = aclrtMemcpy(deviceAddr.value, size, hostData, size, ACL_MEMCPY_HOST_TO_DEVICE)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret

    # Row-major (contiguous) strides.
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]

    tensor.value = aclCreateTensor(shape, len(shape), dataType, strides, 0, aclFormat.ACL_FORMAT_ND,
                                   shape, len(shape), deviceAddr.value)
    return 0


# The second phase of every aclnn API has this signature: (workspace, workspaceSize, executor, stream).
# (typedef aclnnStatus (*Phase2Func)(...): any of the aclnnXxx phase-2 functions)


# Allocates the workspace phase 1 asked for, runs phase 2, waits for the stream, frees the workspace.
def RunPhase2(name, phase2, workspaceSize, executor, stream):
    ret = ACL_SUCCESS
    workspaceAddr = Ref(None)
    if workspaceSize > 0:
        ret = aclrtMalloc(workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST)
        if not (ret == ACL_SUCCESS): LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret
    ret = phase2(workspaceAddr.value, workspaceSize, executor, stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("%s failed. ERROR: %d\n", name, ret); return ret
    ret = aclrtSynchronizeStream(stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret
    if workspaceSize > 0:
        aclrtFree(workspaceAddr.value)
    return 0


# Copies `size` elements of type T back to the host and prints them on one line.
def PrintResult(T, title, deviceAddr, size, fmt):  # template <typename T>: T is the numpy type
    resultData = np.zeros(size, dtype=T)
    ret = aclrtMemcpy(resultData, size * resultData.itemsize, deviceAddr, size * resultData.itemsize,
                      ACL_MEMCPY_DEVICE_TO_HOST)
    if not (ret == ACL_SUCCESS): LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret
    LOG_PRINT("%s:", title)
    for i in range(size):
        LOG_PRINT(fmt, resultData[i])
    LOG_PRINT("\n")
    return 0


def main():
    # 1. Device and stream.
    deviceId = 0
    stream = Ref()
    ret = Init(deviceId, stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret

    # 2. Inputs and outputs. table[i][j] = 10 * i + j, so each value names its row and column.
    tableShape = [3, 4]
    rowIndexShape = [3]
    colIndexShape = [2]
    rowsShape = [3, 4]  # table along dim 0 with 3 indices
    colsShape = [3, 2]  # table along dim -1 with 2 indices
    rowSumShape = [3, 1]  # table summed over dim -1, keepDims = true
    countsShape = [2, 3]
    countsSumShape = [2]  # counts summed over dim -1, keepDims = false
    logitsShape = [2, 3]
    tableHostData = np.array([0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23], dtype=np.float32)
    rowIndexHostData = np.array([2, 0, 2], dtype=np.int64)
    colIndexHostData = np.array([3, 1], dtype=np.int32)
    countsHostData = np.array([100, 100, 100, -128, -1, 5], dtype=np.int8)
    logitsHostData = np.array([0, 1, 2, 5, 5, 5], dtype=np.float32)
    rowsHostData = np.zeros(12, dtype=np.float32)
    colsHostData = np.zeros(6, dtype=np.float32)
    rowSumHostData = np.zeros(3, dtype=np.float32)
    countsSumHostData = np.zeros(2, dtype=np.int32)
    probsHostData = np.zeros(6, dtype=np.float32)
    tableDeviceAddr = Ref(None)
    rowIndexDeviceAddr = Ref(None)
    colIndexDeviceAddr = Ref(None)
    countsDeviceAddr = Ref(None)
    logitsDeviceAddr = Ref(None)
    rowsDeviceAddr = Ref(None)
    colsDeviceAddr = Ref(None)
    rowSumDeviceAddr = Ref(None)
    countsSumDeviceAddr = Ref(None)
    probsDeviceAddr = Ref(None)
    table = Ref(None)
    rowIndex = Ref(None)
    colIndex = Ref(None)
    counts = Ref(None)
    logits = Ref(None)
    rows = Ref(None)
    cols = Ref(None)
    rowSum = Ref(None)
    countsSum = Ref(None)
    probs = Ref(None)
    ret = CreateAclTensor(tableHostData, tableShape, tableDeviceAddr, aclDataType.ACL_FLOAT, table)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(rowIndexHostData, rowIndexShape, rowIndexDeviceAddr, aclDataType.ACL_INT64, rowIndex)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(colIndexHostData, colIndexShape, colIndexDeviceAddr, aclDataType.ACL_INT32, colIndex)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(countsHostData, countsShape, countsDeviceAddr, aclDataType.ACL_INT8, counts)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(logitsHostData, logitsShape, logitsDeviceAddr, aclDataType.ACL_FLOAT, logits)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(rowsHostData, rowsShape, rowsDeviceAddr, aclDataType.ACL_FLOAT, rows)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(colsHostData, colsShape, colsDeviceAddr, aclDataType.ACL_FLOAT, cols)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(rowSumHostData, rowSumShape, rowSumDeviceAddr, aclDataType.ACL_FLOAT, rowSum)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(countsSumHostData, countsSumShape, countsSumDeviceAddr, aclDataType.ACL_INT32, countsSum)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(probsHostData, logitsShape, probsDeviceAddr, aclDataType.ACL_FLOAT, probs)
    if not (ret == ACL_SUCCESS): return ret

    # The reduced dims of ReduceSum: -1 is the last dim.
    dimsData = [-1]
    dims = aclCreateIntArray(dimsData, len(dimsData))
    if not (dims is not None): return ret

    # 3. Each API: phase 1 sizes the workspace and builds the executor, phase 2 runs it.
    workspaceSize = Ref(0)
    executor = Ref(None)

    # 3.1 aclnnIndexSelect along dim 0 with an INT64 index: rows 2, 0, 2.
    ret = aclnnIndexSelectGetWorkspaceSize(table.value, 0, rowIndex.value, rows.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnIndexSelectGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnIndexSelect", aclnnIndexSelect, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnIndexSelect(table, 0, [2, 0, 2])", rowsDeviceAddr.value, GetShapeSize(rowsShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.2 aclnnIndexSelect along dim -1 with an INT32 index: columns 3, 1 of every row.
    ret = aclnnIndexSelectGetWorkspaceSize(table.value, -1, colIndex.value, cols.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnIndexSelectGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnIndexSelect", aclnnIndexSelect, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnIndexSelect(table, -1, [3, 1])", colsDeviceAddr.value, GetShapeSize(colsShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.3 aclnnReduceSum over dims [-1], keepDims = true, dtype FLOAT: one sum per row, out is [3, 1].
    ret = aclnnReduceSumGetWorkspaceSize(table.value, dims, True, aclDataType.ACL_FLOAT, rowSum.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnReduceSumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnReduceSum", aclnnReduceSum, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnReduceSum(table, [-1], keepDims=true)", rowSumDeviceAddr.value, GetShapeSize(rowSumShape),
                      " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.4 aclnnReduceSum of INT8 with dtype INT32 (out must be INT32 too), keepDims = false: out is [2].
    ret = aclnnReduceSumGetWorkspaceSize(counts.value, dims, False, aclDataType.ACL_INT32, countsSum.value, workspaceSize,
                                         executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnReduceSumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnReduceSum", aclnnReduceSum, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.int32, "aclnnReduceSum(counts, [-1], dtype=INT32)", countsSumDeviceAddr.value,
                      GetShapeSize(countsSumShape), " %d")
    if not (ret == ACL_SUCCESS): return ret

    # 3.5 aclnnSoftmax along dim -1: every row of probs adds up to 1; a constant row is uniform.
    ret = aclnnSoftmaxGetWorkspaceSize(logits.value, -1, probs.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSoftmaxGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnSoftmax", aclnnSoftmax, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnSoftmax(logits, -1)", probsDeviceAddr.value, GetShapeSize(logitsShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 4. DELIBERATE ERROR: table has 2 dims, so dim 2 is out of range [-2, 1]. Phase 1 refuses it,
    #    makes no executor, and aclGetRecentErrMsg() tells why.
    ret = aclnnIndexSelectGetWorkspaceSize(table.value, 2, rowIndex.value, rows.value, workspaceSize, executor)
    LOG_PRINT("deliberate error: aclnnIndexSelectGetWorkspaceSize(dim=2) returned %d\n", ret)
    LOG_PRINT("[ERROR msg]%s\n", aclGetRecentErrMsg())

    # 5. Release the tensors and the array, then the device memory and the runtime.
    aclDestroyTensor(table.value)
    aclDestroyTensor(rowIndex.value)
    aclDestroyTensor(colIndex.value)
    aclDestroyTensor(counts.value)
    aclDestroyTensor(logits.value)
    aclDestroyTensor(rows.value)
    aclDestroyTensor(cols.value)
    aclDestroyTensor(rowSum.value)
    aclDestroyTensor(countsSum.value)
    aclDestroyTensor(probs.value)
    aclDestroyIntArray(dims)
    aclrtFree(tableDeviceAddr.value)
    aclrtFree(rowIndexDeviceAddr.value)
    aclrtFree(colIndexDeviceAddr.value)
    aclrtFree(countsDeviceAddr.value)
    aclrtFree(logitsDeviceAddr.value)
    aclrtFree(rowsDeviceAddr.value)
    aclrtFree(colsDeviceAddr.value)
    aclrtFree(rowSumDeviceAddr.value)
    aclrtFree(countsSumDeviceAddr.value)
    aclrtFree(probsDeviceAddr.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
