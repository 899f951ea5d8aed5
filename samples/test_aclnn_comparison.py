#!/usr/bin/env python3
# Line-by-line port of capi/samples/comparison.cpp, aclnn_py's sample of the comparisons and of
# maximum / minimum: aclnnEqTensor, aclnnNeTensor, aclnnGtTensor, aclnnGeTensor, aclnnLtTensor,
# aclnnLeTensor, their scalar forms (aclnnEqScalar ...), aclnnMaximum and aclnnMinimum.
# A comparison computes a BOOL result and casts it to out's dtype. Each C++ line has its twin here.
# Every API runs in two phases: XxxGetWorkspaceSize checks the arguments and builds an executor,
# then Xxx runs that executor on a stream with a workspace of the size phase 1 reported.
# (FLOAT16 host data, GCC's _Float16 in C++, is numpy's float16.)
import sys

import numpy as np

from aclnn_py import *  # "acl/acl.h" and the fourteen "aclnnop/aclnn_<op>.h" headers
from aclnn_py.porting import LOG_PRINT  # printf, with glibc's output (nan, inf, %ld)

# #define CHECK_RET(cond, return_expr): in Python, `if not (cond): return_expr` on one line.


def GetShapeSize(shape):
    shapeSize = 1
    for dim in shape:
        shapeSize *= dim
    return shapeSize


def Init(deviceId, stream):
    ret = aclInit(None)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret
    ret = aclrtSetDevice(deviceId)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret
    ret = aclrtCreateStream(stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret
    return 0


# Device memory holding hostData, and a contiguous ND tensor over it.
def CreateAclTensor(hostData, shape, deviceAddr, dataType, tensor):
    size = GetShapeSize(shape) * hostData.itemsize  # sizeof(T)
    ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret
    ret = aclrtMemcpy(deviceAddr.value, size, hostData, size, ACL_MEMCPY_HOST_TO_DEVICE)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret
    strides = [1] * len(shape)  # row-major: the last dim varies fastest
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]
    tensor.value = aclCreateTensor(shape, len(shape), dataType, strides, 0, aclFormat.ACL_FORMAT_ND,
                                   shape, len(shape), deviceAddr.value)
    return 0


# The second phase of every aclnn API has this signature: phase2(workspace, workspaceSize, executor, stream).


# Phase 2: allocate the workspace phase 1 asked for, launch, wait for the stream, free the workspace.
def RunPhase2(name, phase2, workspaceSize, executor, stream):
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


# Copy `size` elements of type T back to the host and print them on one line.
def PrintResult(T, label, deviceAddr, size):  # template <typename T>
    resultData = np.zeros(size, dtype=T)
    ret = aclrtMemcpy(resultData, size * resultData.itemsize, deviceAddr, size * resultData.itemsize,
                      ACL_MEMCPY_DEVICE_TO_HOST)
    if not (ret == ACL_SUCCESS): LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret
    LOG_PRINT("%-36s", label)
    for i in range(size):
        if np.issubdtype(T, np.integer):  # std::is_integral<T>
            LOG_PRINT(" %ld", int(resultData[i]))
        else:
            LOG_PRINT(" %f", float(resultData[i]))
    LOG_PRINT("\n")
    return 0


def main():
    # 1. Device and stream
    deviceId = 0
    stream = Ref()
    ret = Init(deviceId, stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret

    # 2. Host data, then device tensors and scalars (a BOOL element is one byte, 0 or 1)
    matShape = [2, 3]
    rowShape = [3]
    vecShape = [4]
    aHostData = np.array([1, 2, 3, 4, 5, 6], dtype=np.float32)
    bHostData = np.array([3, 2, 6], dtype=np.int32)
    outBoolHostData = np.zeros(6, dtype=np.uint8)
    outHostData = np.zeros(6, dtype=np.float32)
    hHostData = np.array([0.1, 0.2, 0.3, 1], dtype=np.float16)
    smallHostData = np.array([44, 1, -1, 0], dtype=np.int8)
    flagsHostData = np.array([1, 0, 1, 0], dtype=np.uint8)
    outBool4HostData = np.zeros(4, dtype=np.uint8)
    aDeviceAddr = Ref(None)
    bDeviceAddr = Ref(None)
    outBoolDeviceAddr = Ref(None)
    outDeviceAddr = Ref(None)
    hDeviceAddr = Ref(None)
    smallDeviceAddr = Ref(None)
    flagsDeviceAddr = Ref(None)
    outBool4DeviceAddr = Ref(None)
    a = Ref(None)         # FLOAT [2, 3]
    b = Ref(None)         # INT32 [3], broadcast over the rows of a
    outBool = Ref(None)   # BOOL [2, 3]
    out = Ref(None)       # FLOAT [2, 3]
    h = Ref(None)         # FLOAT16 [4]
    small = Ref(None)     # INT8 [4]
    flags = Ref(None)     # BOOL [4]
    outBool4 = Ref(None)  # BOOL [4]
    ret = CreateAclTensor(aHostData, matShape, aDeviceAddr, aclDataType.ACL_FLOAT, a)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(bHostData, rowShape, bDeviceAddr, aclDataType.ACL_INT32, b)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(outBoolHostData, matShape, outBoolDeviceAddr, aclDataType.ACL_BOOL, outBool)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(outHostData, matShape, outDeviceAddr, aclDataType.ACL_FLOAT, out)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(hHostData, vecShape, hDeviceAddr, aclDataType.ACL_FLOAT16, h)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(smallHostData, vecShape, smallDeviceAddr, aclDataType.ACL_INT8, small)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(flagsHostData, vecShape, flagsDeviceAddr, aclDataType.ACL_BOOL, flags)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(outBool4HostData, vecShape, outBool4DeviceAddr, aclDataType.ACL_BOOL, outBool4)
    if not (ret == ACL_SUCCESS): return ret
    pointOneValue = 0.1
    threeHalvesValue = 3.5
    bigValue = 300
    threeValue = 3
    zeroValue = 0
    pointOne = aclCreateScalar(pointOneValue, aclDataType.ACL_DOUBLE)
    threeHalves = aclCreateScalar(threeHalvesValue, aclDataType.ACL_DOUBLE)
    big = aclCreateScalar(bigValue, aclDataType.ACL_INT64)
    three = aclCreateScalar(threeValue, aclDataType.ACL_INT64)
    zero = aclCreateScalar(zeroValue, aclDataType.ACL_INT64)
    if not (pointOne is not None and threeHalves is not None and big is not None and three is not None and zero is not None):
        LOG_PRINT("aclCreateScalar failed.\n"); return 1
    workspaceSize = Ref(0)
    executor = Ref(None)

    # 3. Tensor against tensor: a (FLOAT [2, 3]) against b (INT32 [3]) broadcast over its rows.
    #    The pair is promoted to FLOAT and compared; out is BOOL, one byte per element.
    ret = aclnnEqTensorGetWorkspaceSize(a.value, b.value, outBool.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnEqTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnEqTensor", aclnnEqTensor, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnEqTensor  a == b", outBoolDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnNeTensorGetWorkspaceSize(a.value, b.value, outBool.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnNeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnNeTensor", aclnnNeTensor, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnNeTensor  a != b", outBoolDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnGtTensorGetWorkspaceSize(a.value, b.value, outBool.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnGtTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnGtTensor", aclnnGtTensor, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnGtTensor  a > b", outBoolDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnGeTensorGetWorkspaceSize(a.value, b.value, outBool.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnGeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnGeTensor", aclnnGeTensor, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnGeTensor  a >= b", outBoolDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnLtTensorGetWorkspaceSize(a.value, b.value, outBool.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnLtTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnLtTensor", aclnnLtTensor, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnLtTensor  a < b", outBoolDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnLeTensorGetWorkspaceSize(a.value, b.value, outBool.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnLeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnLeTensor", aclnnLeTensor, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnLeTensor  a <= b", outBoolDeviceAddr.value, 6) == ACL_SUCCESS): return 1

    # 4. Elementwise maximum and minimum of the same pair, into a FLOAT out
    ret = aclnnMaximumGetWorkspaceSize(a.value, b.value, out.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnMaximumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnMaximum", aclnnMaximum, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnMaximum   max(a, b)", outDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnMinimumGetWorkspaceSize(a.value, b.value, out.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnMinimumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnMinimum", aclnnMinimum, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnMinimum   min(a, b)", outDeviceAddr.value, 6) == ACL_SUCCESS): return 1

    # 5. Tensor against scalar: the scalar is converted to the dtype the comparison runs in.
    # EqScalar compares a FLOAT16 tensor in FLOAT16: 0.1 is rounded like h[0], so they are equal ...
    ret = aclnnEqScalarGetWorkspaceSize(h.value, pointOne, outBool4.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnEqScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnEqScalar", aclnnEqScalar, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnEqScalar  h == 0.1 (FLOAT16)", outBool4DeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # ... GeScalar (on Ascend910B) keeps the DOUBLE 0.1, which FLOAT16 cannot hold: float16(0.1) < 0.1 in DOUBLE
    ret = aclnnGeScalarGetWorkspaceSize(h.value, pointOne, outBool4.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnGeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnGeScalar", aclnnGeScalar, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnGeScalar  h >= 0.1 (DOUBLE)", outBool4DeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # an INT8 tensor keeps its dtype: the INT64 scalar 300 becomes int8 44, so 44 != 300 is false
    ret = aclnnNeScalarGetWorkspaceSize(small.value, big, outBool4.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnNeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnNeScalar", aclnnNeScalar, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnNeScalar  small != 300 (INT8)", outBool4DeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # the BOOL result cast to a FLOAT out: 0.0 or 1.0
    ret = aclnnGtScalarGetWorkspaceSize(a.value, threeHalves, out.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnGtScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnGtScalar", aclnnGtScalar, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnGtScalar  a > 3.5 (FLOAT out)", outDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnLtScalarGetWorkspaceSize(a.value, three, outBool.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnLtScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnLtScalar", aclnnLtScalar, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnLtScalar  a < 3", outBoolDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    # a BOOL input compares as numbers: true is 1, false is 0
    ret = aclnnLeScalarGetWorkspaceSize(flags.value, zero, outBool4.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnLeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnLeScalar", aclnnLeScalar, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.uint8, "aclnnLeScalar  flags <= 0 (BOOL)", outBool4DeviceAddr.value, 4) == ACL_SUCCESS): return 1

    # 6. DELIBERATE ERROR: a [2, 3] and b [3] broadcast to [2, 3], but this out is [4].
    #    Phase 1 refuses the call (no executor is made); the status and the message say why.
    ret = aclnnEqTensorGetWorkspaceSize(a.value, b.value, outBool4.value, workspaceSize, executor)
    LOG_PRINT("\ndeliberate error: aclnnEqTensorGetWorkspaceSize into a [4] out returned %d\n%s", ret,
              aclGetRecentErrMsg())

    # 7. Release tensors, scalars, device memory, stream and device
    aclDestroyTensor(a.value)
    aclDestroyTensor(b.value)
    aclDestroyTensor(outBool.value)
    aclDestroyTensor(out.value)
    aclDestroyTensor(h.value)
    aclDestroyTensor(small.value)
    aclDestroyTensor(flags.value)
    aclDestroyTensor(outBool4.value)
    aclDestroyScalar(pointOne)
    aclDestroyScalar(threeHalves)
    aclDestroyScalar(big)
    aclDestroyScalar(three)
    aclDestroyScalar(zero)
    aclrtFree(aDeviceAddr.value)
    aclrtFree(bDeviceAddr.value)
    aclrtFree(outBoolDeviceAddr.value)
    aclrtFree(outDeviceAddr.value)
    aclrtFree(hDeviceAddr.value)
    aclrtFree(smallDeviceAddr.value)
    aclrtFree(flagsDeviceAddr.value)
    aclrtFree(outBool4DeviceAddr.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
