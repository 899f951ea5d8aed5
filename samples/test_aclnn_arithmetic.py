#!/usr/bin/env python3
# Line-by-line port of capi/samples/arithmetic.cpp, aclnn_py's sample of the arithmetic family:
# aclnnAdd, aclnnSub, aclnnMul, aclnnDiv, their scalar forms (aclnnAdds ...) and their in-place
# forms (aclnnInplaceAdd, aclnnInplaceAdds ...). Each C++ line has its twin here, in the same order.
# Every API runs in two phases: XxxGetWorkspaceSize checks the arguments and builds an executor,
# then Xxx runs that executor on a stream with a workspace of the size phase 1 reported.
# (FLOAT16 host data, GCC's _Float16 in C++, is numpy's float16.)
import sys

import numpy as np

from aclnn_py import *  # "acl/acl.h", "aclnnop/aclnn_add.h", "aclnnop/aclnn_div.h", "aclnnop/aclnn_mul.h", "aclnnop/aclnn_sub.h"
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
    LOG_PRINT("%-34s", label)
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

    # 2. Host data, then device tensors and scalars
    matShape = [2, 3]
    rowShape = [3]
    vecShape = [4]
    oneShape = [1]
    xHostData = np.array([0, 1, 2, 3, 4, 5], dtype=np.float32)
    rowHostData = np.array([10, 20, 30], dtype=np.float32)
    accHostData = np.array([1, 2, 3, 4, 5, 6], dtype=np.float32)
    outHostData = np.zeros(6, dtype=np.float32)
    numHostData = np.array([7, -7, 1, 0], dtype=np.int32)
    denHostData = np.array([2, 2, 0, 0], dtype=np.int32)
    outI32HostData = np.zeros(4, dtype=np.int32)
    smallHostData = np.array([1, 2, 3, 100], dtype=np.int8)
    outI8HostData = np.zeros(4, dtype=np.int8)
    halfHostData = np.array([935, 1, -2.5, 100], dtype=np.float16)
    outHalfHostData = np.zeros(4, dtype=np.float16)
    factorHostData = np.array([1.1], dtype=np.float32)
    out4HostData = np.zeros(4, dtype=np.float32)
    xDeviceAddr = Ref(None)
    rowDeviceAddr = Ref(None)
    accDeviceAddr = Ref(None)
    outDeviceAddr = Ref(None)
    numDeviceAddr = Ref(None)
    denDeviceAddr = Ref(None)
    outI32DeviceAddr = Ref(None)
    smallDeviceAddr = Ref(None)
    outI8DeviceAddr = Ref(None)
    halfDeviceAddr = Ref(None)
    outHalfDeviceAddr = Ref(None)
    factorDeviceAddr = Ref(None)
    out4DeviceAddr = Ref(None)
    x = Ref(None)        # FLOAT [2, 3]
    row = Ref(None)      # FLOAT [3], broadcast over the rows of x
    acc = Ref(None)      # FLOAT [2, 3], updated in place
    out = Ref(None)      # FLOAT [2, 3]
    num = Ref(None)      # INT32 [4]
    den = Ref(None)      # INT32 [4]
    outI32 = Ref(None)   # INT32 [4]
    small = Ref(None)    # INT8 [4]
    outI8 = Ref(None)    # INT8 [4]
    half = Ref(None)     # FLOAT16 [4]
    outHalf = Ref(None)  # FLOAT16 [4]
    factor = Ref(None)   # FLOAT [1], broadcast over [4]
    out4 = Ref(None)     # FLOAT [4]
    ret = CreateAclTensor(xHostData, matShape, xDeviceAddr, aclDataType.ACL_FLOAT, x)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(rowHostData, rowShape, rowDeviceAddr, aclDataType.ACL_FLOAT, row)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(accHostData, matShape, accDeviceAddr, aclDataType.ACL_FLOAT, acc)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(outHostData, matShape, outDeviceAddr, aclDataType.ACL_FLOAT, out)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(numHostData, vecShape, numDeviceAddr, aclDataType.ACL_INT32, num)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(denHostData, vecShape, denDeviceAddr, aclDataType.ACL_INT32, den)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(outI32HostData, vecShape, outI32DeviceAddr, aclDataType.ACL_INT32, outI32)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(smallHostData, vecShape, smallDeviceAddr, aclDataType.ACL_INT8, small)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(outI8HostData, vecShape, outI8DeviceAddr, aclDataType.ACL_INT8, outI8)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(halfHostData, vecShape, halfDeviceAddr, aclDataType.ACL_FLOAT16, half)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(outHalfHostData, vecShape, outHalfDeviceAddr, aclDataType.ACL_FLOAT16, outHalf)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(factorHostData, oneShape, factorDeviceAddr, aclDataType.ACL_FLOAT, factor)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(out4HostData, vecShape, out4DeviceAddr, aclDataType.ACL_FLOAT, out4)
    if not (ret == ACL_SUCCESS): return ret
    # aclCreateScalar copies the value its pointer points to, in the given dtype
    alphaValue = np.float32(2.5)
    halfValue = np.float32(0.5)
    elevenValue = np.float32(1.1)
    divisorValue = 3.0
    oneValue = 1
    threeValue = 3
    bigValue = 300
    alpha = aclCreateScalar(alphaValue, aclDataType.ACL_FLOAT)
    halfScalar = aclCreateScalar(halfValue, aclDataType.ACL_FLOAT)
    eleven = aclCreateScalar(elevenValue, aclDataType.ACL_FLOAT)
    divisor = aclCreateScalar(divisorValue, aclDataType.ACL_DOUBLE)
    one = aclCreateScalar(oneValue, aclDataType.ACL_INT64)
    three = aclCreateScalar(threeValue, aclDataType.ACL_INT64)
    big = aclCreateScalar(bigValue, aclDataType.ACL_INT64)
    if not (alpha is not None and halfScalar is not None and eleven is not None and divisor is not None and one is not None
            and three is not None and big is not None): LOG_PRINT("aclCreateScalar failed.\n"); return 1
    workspaceSize = Ref(0)
    executor = Ref(None)

    # 3. Out of place: out = f(inputs), the inputs unchanged
    # broadcasting and a non-default alpha: x [2, 3] + 2.5 * row [3]
    ret = aclnnAddGetWorkspaceSize(x.value, row.value, alpha, out.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnAddGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnAdd", aclnnAdd, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnAdd     x + 2.5 * row", outDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    # an INT8 tensor keeps its dtype: the INT64 scalar 300 becomes int8 44, and 100 + 44 wraps
    ret = aclnnAddsGetWorkspaceSize(small.value, big, one, outI8.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnAddsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnAdds", aclnnAdds, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.int8, "aclnnAdds    small + 300 (INT8)", outI8DeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # integers stay exact: num - 3 * den in INT32
    ret = aclnnSubGetWorkspaceSize(num.value, den.value, three, outI32.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSubGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnSub", aclnnSub, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.int32, "aclnnSub     num - 3 * den", outI32DeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # a scalar other and an alpha: x - 3 * 0.5
    ret = aclnnSubsGetWorkspaceSize(x.value, halfScalar, three, out.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSubsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnSubs", aclnnSubs, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnSubs    x - 3 * 0.5", outDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    # mixed dtypes: FLOAT16 times FLOAT is computed in FLOAT (factor [1] broadcast over [4])
    ret = aclnnMulGetWorkspaceSize(half.value, factor.value, out4.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnMulGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnMul", aclnnMul, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnMul     half * factor (FLOAT)", out4DeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # the same 1.1 as a scalar: on Ascend910B a FLOAT16 tensor keeps its dtype, 1.1 becomes float16 1.099609375
    ret = aclnnMulsGetWorkspaceSize(half.value, eleven, outHalf.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnMulsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnMuls", aclnnMuls, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float16, "aclnnMuls    half * 1.1 (FLOAT16)", outHalfDeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # true division: INT32 / INT32 gives FLOAT, and x / 0 gives inf or nan
    ret = aclnnDivGetWorkspaceSize(num.value, den.value, out4.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnDivGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnDiv", aclnnDiv, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnDiv     num / den", out4DeviceAddr.value, 4) == ACL_SUCCESS): return 1
    # a DOUBLE scalar divides a FLOAT tensor in FLOAT
    ret = aclnnDivsGetWorkspaceSize(x.value, divisor, out.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnDivsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnDivs", aclnnDivs, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnDivs    x / 3.0", outDeviceAddr.value, 6) == ACL_SUCCESS): return 1

    # 4. In place: each call updates acc (FLOAT [2, 3], initially 1..6) and the next one reads it
    # selfRef and other may be the same tensor: acc += 1 * acc
    ret = aclnnInplaceAddGetWorkspaceSize(acc.value, acc.value, one, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceAddGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceAdd", aclnnInplaceAdd, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceAdd   acc += acc", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnInplaceAddsGetWorkspaceSize(acc.value, three, halfScalar, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceAddsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceAdds", aclnnInplaceAdds, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceAdds  acc += 0.5 * 3", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnInplaceSubGetWorkspaceSize(acc.value, x.value, alpha, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceSubGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceSub", aclnnInplaceSub, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceSub   acc -= 2.5 * x", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnInplaceSubsGetWorkspaceSize(acc.value, halfScalar, one, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceSubsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceSubs", aclnnInplaceSubs, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceSubs  acc -= 0.5", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    # other broadcasts to selfRef's shape [2, 3]
    ret = aclnnInplaceMulGetWorkspaceSize(acc.value, row.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceMulGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceMul", aclnnInplaceMul, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceMul   acc *= row", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnInplaceMulsGetWorkspaceSize(acc.value, halfScalar, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceMulsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceMuls", aclnnInplaceMuls, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceMuls  acc *= 0.5", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnInplaceDivGetWorkspaceSize(acc.value, row.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceDivGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceDiv", aclnnInplaceDiv, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceDiv   acc /= row", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1
    ret = aclnnInplaceDivsGetWorkspaceSize(acc.value, divisor, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceDivsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    if not (RunPhase2("aclnnInplaceDivs", aclnnInplaceDivs, workspaceSize.value, executor.value, stream.value) == ACL_SUCCESS): return 1
    if not (PrintResult(np.float32, "aclnnInplaceDivs  acc /= 3.0", accDeviceAddr.value, 6) == ACL_SUCCESS): return 1

    # 5. DELIBERATE ERROR: FLOAT16 + FLOAT promotes to FLOAT, which an INT32 out cannot hold.
    #    Phase 1 refuses the call (no executor is made); the status and the message say why.
    ret = aclnnAddGetWorkspaceSize(half.value, factor.value, one, outI32.value, workspaceSize, executor)
    LOG_PRINT("\ndeliberate error: aclnnAddGetWorkspaceSize into an INT32 out returned %d\n%s", ret,
              aclGetRecentErrMsg())

    # 6. Release tensors, scalars, device memory, stream and device
    aclDestroyTensor(x.value)
    aclDestroyTensor(row.value)
    aclDestroyTensor(acc.value)
    aclDestroyTensor(out.value)
    aclDestroyTensor(num.value)
    aclDestroyTensor(den.value)
    aclDestroyTensor(outI32.value)
    aclDestroyTensor(small.value)
    aclDestroyTensor(outI8.value)
    aclDestroyTensor(half.value)
    aclDestroyTensor(outHalf.value)
    aclDestroyTensor(factor.value)
    aclDestroyTensor(out4.value)
    aclDestroyScalar(alpha)
    aclDestroyScalar(halfScalar)
    aclDestroyScalar(eleven)
    aclDestroyScalar(divisor)
    aclDestroyScalar(one)
    aclDestroyScalar(three)
    aclDestroyScalar(big)
    aclrtFree(xDeviceAddr.value)
    aclrtFree(rowDeviceAddr.value)
    aclrtFree(accDeviceAddr.value)
    aclrtFree(outDeviceAddr.value)
    aclrtFree(numDeviceAddr.value)
    aclrtFree(denDeviceAddr.value)
    aclrtFree(outI32DeviceAddr.value)
    aclrtFree(smallDeviceAddr.value)
    aclrtFree(outI8DeviceAddr.value)
    aclrtFree(halfDeviceAddr.value)
    aclrtFree(outHalfDeviceAddr.value)
    aclrtFree(factorDeviceAddr.value)
    aclrtFree(out4DeviceAddr.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
