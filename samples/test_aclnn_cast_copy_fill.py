#!/usr/bin/env python3
# Line-by-line port of capi/samples/cast_copy_fill.cpp, aclnn_py's sample of conversion and
# filling: aclnnCast, aclnnInplaceCopy, aclnnInplaceZero, aclnnInplaceOne and aclnnInplaceFillScalar.
# Each C++ line has its twin here, in the same order.
# Every API runs in two phases: XxxGetWorkspaceSize checks the arguments and builds an executor,
# then Xxx runs that executor on a stream with a workspace of the size phase 1 reported.
# (FLOAT16 host data, GCC's _Float16 in C++, is numpy's float16.)
import sys

import numpy as np

from aclnn_py import *  # "acl/acl.h", "aclnnop/aclnn_cast.h", "aclnn_copy.h", "aclnn_fill_scalar.h", "aclnn_ones.h", "aclnn_zero.h"
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
    LOG_PRINT("%-40s", label)
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

    # 2. Host data, then device tensors and a scalar
    matShape = [2, 3]
    rowShape = [3]
    vecShape = [4]
    srcHostData = np.array([1.7, -1.7, -0.5, 3e9, -3e9, np.nan], dtype=np.float32)
    asIntHostData = np.zeros(6, dtype=np.int32)
    dblHostData = np.array([0.1, 65504, 70000, 1.0 / 3], dtype=np.float64)
    asHalfHostData = np.zeros(4, dtype=np.float16)
    rowHostData = np.array([7, 8, 9], dtype=np.int32)
    dstHostData = np.array([-1, -1, -1, -1, -1, -1], dtype=np.float32)
    srcDeviceAddr = Ref(None)
    asIntDeviceAddr = Ref(None)
    dblDeviceAddr = Ref(None)
    asHalfDeviceAddr = Ref(None)
    rowDeviceAddr = Ref(None)
    dstDeviceAddr = Ref(None)
    src = Ref(None)     # FLOAT [2, 3]
    asInt = Ref(None)   # INT32 [2, 3]
    dbl = Ref(None)     # DOUBLE [4]
    asHalf = Ref(None)  # FLOAT16 [4]
    row = Ref(None)     # INT32 [3]
    dst = Ref(None)     # FLOAT [2, 3]
    ret = CreateAclTensor(srcHostData, matShape, srcDeviceAddr, aclDataType.ACL_FLOAT, src)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(asIntHostData, matShape, asIntDeviceAddr, aclDataType.ACL_INT32, asInt)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(dblHostData, vecShape, dblDeviceAddr, aclDataType.ACL_DOUBLE, dbl)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(asHalfHostData, vecShape, asHalfDeviceAddr, aclDataType.ACL_FLOAT16, asHalf)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(rowHostData, rowShape, rowDeviceAddr, aclDataType.ACL_INT32, row)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(dstHostData, matShape, dstDeviceAddr, aclDataType.ACL_FLOAT, dst)
    if not (ret == ACL_SUCCESS): return ret
    fillValue = -2.7
    fill = aclCreateScalar(fillValue, aclDataType.ACL_DOUBLE)
    if not (fill is not None): LOG_PRINT("aclCreateScalar failed.\n"); return 1
    workspaceSize = Ref(0)
    executor = Ref(None)

    # 3. aclnnCast: the dtype argument must be out's dtype
    # FLOAT to INT32 truncates toward zero, saturates out-of-range values and turns NaN into 0
    ret = aclnnCastGetWorkspaceSize(src.value, aclDataType.ACL_INT32, asInt.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnCastGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnCast", aclnnCast, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.int32, "aclnnCast  FLOAT -> INT32", asIntDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    # DOUBLE to FLOAT16 has no AI Core kernel on Ascend910B: it runs on the AI CPU.
    # Rounded to nearest even; 70000 is beyond FLOAT16's largest value 65504 and becomes inf
    ret = aclnnCastGetWorkspaceSize(dbl.value, aclDataType.ACL_FLOAT16, asHalf.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnCastGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnCast", aclnnCast, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float16, "aclnnCast  DOUBLE -> FLOAT16 (AI CPU)", asHalfDeviceAddr.value, 4) ==
            ACL_SUCCESS): return 1

    # 4. aclnnInplaceCopy: src is converted to selfRef's dtype and broadcast to its shape
    ret = aclnnInplaceCopyGetWorkspaceSize(dst.value, row.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceCopyGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceCopy", aclnnInplaceCopy, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceCopy  dst = row (INT32 [3])", dstDeviceAddr.value, 6) == ACL_SUCCESS): return 1

    # 5. aclnnInplaceZero, aclnnInplaceOne, aclnnInplaceFillScalar overwrite every element of selfRef
    ret = aclnnInplaceZeroGetWorkspaceSize(dst.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceZeroGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceZero", aclnnInplaceZero, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceZero  dst = 0", dstDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnInplaceOneGetWorkspaceSize(dst.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceOneGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceOne", aclnnInplaceOne, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceOne   dst = 1", dstDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    # the DOUBLE value is converted to selfRef's dtype on the host: -2.7 becomes the INT32 -2
    ret = aclnnInplaceFillScalarGetWorkspaceSize(asInt.value, fill, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceFillScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceFillScalar", aclnnInplaceFillScalar, workspaceSize.value, executor.value, stream.value) ==
            ACL_SUCCESS): return 1
    if not (PrintResult(np.int32, "aclnnInplaceFillScalar  asInt = -2.7", asIntDeviceAddr.value, 6) == ACL_SUCCESS): return 1

    # 6. DELIBERATE ERROR: dtype says INT8 but out is an INT32 tensor.
    #    Phase 1 refuses the call (no executor is made); the status and the message say why.
    ret = aclnnCastGetWorkspaceSize(src.value, aclDataType.ACL_INT8, asInt.value, workspaceSize, executor)
    LOG_PRINT("\ndeliberate error: aclnnCastGetWorkspaceSize(dtype INT8, out INT32) returned %d\n%s", ret,
              aclGetRecentErrMsg())

    # 7. Release tensors, the scalar, device memory, stream and device
    aclDestroyTensor(src.value)
    aclDestroyTensor(asInt.value)
    aclDestroyTensor(dbl.value)
    aclDestroyTensor(asHalf.value)
    aclDestroyTensor(row.value)
    aclDestroyTensor(dst.value)
    aclDestroyScalar(fill)
    aclrtFree(srcDeviceAddr.value)
    aclrtFree(asIntDeviceAddr.value)
    aclrtFree(dblDeviceAddr.value)
    aclrtFree(asHalfDeviceAddr.value)
    aclrtFree(rowDeviceAddr.value)
    aclrtFree(dstDeviceAddr.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
