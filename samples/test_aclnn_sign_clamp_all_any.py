#!/usr/bin/env python3
# Line-by-line port of aclnn_py's own C++ sample capi/samples/sign_clamp_all_any.cpp:
#   aclnnSign      on a FLOAT and on an INT32 tensor (the result keeps the input's dtype)
#   aclnnClamp     with both bounds, then with the upper bound left out (nullptr)
#   aclnnClampMin  and aclnnClampMax on INT32 with INT32 scalar bounds
#   aclnnAll       and aclnnAny on INT32 (non-zero counts as true), dim -1, with and without keepdim
# and, at the end, one deliberate error: aclnnAll asked for a dim the tensor does not have.
# Each C++ line has its twin here, in the same order; `fmt: off` keeps CHECK_RET's one-line shape.
# fmt: off
import sys

import numpy as np

from aclnn_py import *  # "acl/acl.h", "aclnnop/aclnn_sign.h", "aclnn_clamp.h", "aclnn_all.h", "aclnn_any.h"


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

    # 2. Inputs and outputs: x is FLOAT [2, 3] (no zero, no NaN), n is INT32 [3, 2].
    xShape = [2, 3]
    nShape = [3, 2]
    allShape = [3, 1]  # n reduced over dim -1, keepdim = true
    anyShape = [3]  # n reduced over dim -1, keepdim = false
    xHostData = np.array([-2.5, -0.5, 0.25, 1.0, 3.0, -7.0], dtype=np.float32)
    nHostData = np.array([-5, 9, 0, 3, 0, 0], dtype=np.int32)
    xOutHostData = np.zeros(6, dtype=np.float32)
    nOutHostData = np.zeros(6, dtype=np.int32)
    allHostData = np.zeros(3, dtype=np.uint8)  # BOOL results: one byte each
    anyHostData = np.zeros(3, dtype=np.uint8)
    xDeviceAddr = Ref(None)
    nDeviceAddr = Ref(None)
    xOutDeviceAddr = Ref(None)
    nOutDeviceAddr = Ref(None)
    allDeviceAddr = Ref(None)
    anyDeviceAddr = Ref(None)
    x = Ref(None)
    n = Ref(None)
    xOut = Ref(None)
    nOut = Ref(None)
    allOut = Ref(None)
    anyOut = Ref(None)
    ret = CreateAclTensor(xHostData, xShape, xDeviceAddr, aclDataType.ACL_FLOAT, x)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(nHostData, nShape, nDeviceAddr, aclDataType.ACL_INT32, n)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(xOutHostData, xShape, xOutDeviceAddr, aclDataType.ACL_FLOAT, xOut)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(nOutHostData, nShape, nOutDeviceAddr, aclDataType.ACL_INT32, nOut)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(allHostData, allShape, allDeviceAddr, aclDataType.ACL_BOOL, allOut)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(anyHostData, anyShape, anyDeviceAddr, aclDataType.ACL_BOOL, anyOut)
    if not (ret == ACL_SUCCESS): return ret

    # Scalar bounds: the scalar copies the value its pointer points to.
    lowValue = np.float32(-1.0)
    highValue = np.float32(2.0)
    intLowValue = np.int32(0)
    intHighValue = np.int32(5)
    low = aclCreateScalar(lowValue, aclDataType.ACL_FLOAT)
    if not (low is not None): return ret
    high = aclCreateScalar(highValue, aclDataType.ACL_FLOAT)
    if not (high is not None): return ret
    intLow = aclCreateScalar(intLowValue, aclDataType.ACL_INT32)
    if not (intLow is not None): return ret
    intHigh = aclCreateScalar(intHighValue, aclDataType.ACL_INT32)
    if not (intHigh is not None): return ret

    # The reduced dims of All and Any: -1 is the last dim.
    dimData = [-1]
    dim = aclCreateIntArray(dimData, len(dimData))
    if not (dim is not None): return ret

    # 3. Each API: phase 1 sizes the workspace and builds the executor, phase 2 runs it.
    workspaceSize = Ref(0)
    executor = Ref(None)

    # 3.1 aclnnSign, FLOAT: -1 or 1, as floats.
    ret = aclnnSignGetWorkspaceSize(x.value, xOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSignGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnSign", aclnnSign, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnSign(x)", xOutDeviceAddr.value, GetShapeSize(xShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.2 aclnnSign, INT32: 0 stays 0.
    ret = aclnnSignGetWorkspaceSize(n.value, nOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSignGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnSign", aclnnSign, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.int32, "aclnnSign(n)", nOutDeviceAddr.value, GetShapeSize(nShape), " %d")
    if not (ret == ACL_SUCCESS): return ret

    # 3.3 aclnnClamp with both bounds: min(max(x, -1), 2).
    ret = aclnnClampGetWorkspaceSize(x.value, low, high, xOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnClampGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnClamp", aclnnClamp, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnClamp(x, -1, 2)", xOutDeviceAddr.value, GetShapeSize(xShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.4 aclnnClamp with one bound: a null clipValueMax means no upper bound (3 stays 3).
    ret = aclnnClampGetWorkspaceSize(x.value, low, None, xOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnClampGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnClamp", aclnnClamp, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnClamp(x, -1, nullptr)", xOutDeviceAddr.value, GetShapeSize(xShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.5 aclnnClampMin on INT32: max(n, 0).
    ret = aclnnClampMinGetWorkspaceSize(n.value, intLow, nOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnClampMinGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnClampMin", aclnnClampMin, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.int32, "aclnnClampMin(n, 0)", nOutDeviceAddr.value, GetShapeSize(nShape), " %d")
    if not (ret == ACL_SUCCESS): return ret

    # 3.6 aclnnClampMax on INT32: min(n, 5).
    ret = aclnnClampMaxGetWorkspaceSize(n.value, intHigh, nOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnClampMaxGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnClampMax", aclnnClampMax, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.int32, "aclnnClampMax(n, 5)", nOutDeviceAddr.value, GetShapeSize(nShape), " %d")
    if not (ret == ACL_SUCCESS): return ret

    # 3.7 aclnnAll over dim -1 with keepdim: is every element of the row non-zero? out is [3, 1].
    ret = aclnnAllGetWorkspaceSize(n.value, dim, True, allOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnAllGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnAll", aclnnAll, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.uint8, "aclnnAll(n, [-1], keepdim=true)", allDeviceAddr.value, GetShapeSize(allShape), " %d")
    if not (ret == ACL_SUCCESS): return ret

    # 3.8 aclnnAny over dim -1 without keepdim: is some element of the row non-zero? out is [3].
    ret = aclnnAnyGetWorkspaceSize(n.value, dim, False, anyOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnAnyGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnAny", aclnnAny, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.uint8, "aclnnAny(n, [-1], keepdim=false)", anyDeviceAddr.value, GetShapeSize(anyShape), " %d")
    if not (ret == ACL_SUCCESS): return ret

    # 4. DELIBERATE ERROR: n has 2 dims, so dim 2 is out of range [-2, 1]. Phase 1 refuses it,
    #    makes no executor, and aclGetRecentErrMsg() tells why.
    badDimData = [2]
    badDim = aclCreateIntArray(badDimData, len(badDimData))
    if not (badDim is not None): return ret
    ret = aclnnAllGetWorkspaceSize(n.value, badDim, True, allOut.value, workspaceSize, executor)
    LOG_PRINT("deliberate error: aclnnAllGetWorkspaceSize(dim=[2]) returned %d\n", ret)
    LOG_PRINT("[ERROR msg]%s\n", aclGetRecentErrMsg())

    # 5. Release the tensors, scalars and arrays, then the device memory and the runtime.
    aclDestroyTensor(x.value)
    aclDestroyTensor(n.value)
    aclDestroyTensor(xOut.value)
    aclDestroyTensor(nOut.value)
    aclDestroyTensor(allOut.value)
    aclDestroyTensor(anyOut.value)
    aclDestroyScalar(low)
    aclDestroyScalar(high)
    aclDestroyScalar(intLow)
    aclDestroyScalar(intHigh)
    aclDestroyIntArray(dim)
    aclDestroyIntArray(badDim)
    aclrtFree(xDeviceAddr.value)
    aclrtFree(nDeviceAddr.value)
    aclrtFree(xOutDeviceAddr.value)
    aclrtFree(nOutDeviceAddr.value)
    aclrtFree(allDeviceAddr.value)
    aclrtFree(anyDeviceAddr.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
