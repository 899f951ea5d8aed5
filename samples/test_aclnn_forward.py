#!/usr/bin/env python3
# Line-by-line port of aclnn_py's own C++ sample capi/samples/forward.cpp, the forward twins of the
# backward samples:
#   aclnnSmoothL1Loss         with beta 0.5, reduction none (one loss per element) and mean (one value)
#   aclnnHardswish            out of place: self is left as it was
#   aclnnInplaceHardswish     the same function written over self itself
#   aclnnScaledMaskedSoftmax  softmax(scale * x) over the last dim, masked positions (mask true)
#                             taking no share; the mask [1, 1, S, D] broadcasts over B and N
# and, at the end, one deliberate error: reduction none with a result of the wrong shape.
# Each C++ line has its twin here, in the same order; `fmt: off` keeps CHECK_RET's one-line shape.
# fmt: off
import sys

import numpy as np

from aclnn_py import *  # "acl/acl.h", "aclnnop/aclnn_smooth_l1_loss.h", "aclnn_hardswish.h", "aclnn_scaled_masked_softmax.h"


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

    # 2. Inputs and outputs.
    lossShape = [2, 3]  # pred, target and the loss of reduction none
    meanShape = []  # the loss of reduction mean: a 0-d tensor
    actShape = [2, 4]  # Hardswish
    xShape = [1, 2, 2, 4]  # ScaledMaskedSoftmax: [B, N, S, D]
    maskShape = [1, 1, 2, 4]
    predHostData = np.array([0.1, 0.9, -1.0, 2.0, 3.0, 0.0], dtype=np.float32)
    targetHostData = np.array([0, 0, 0, 1, 1, 1], dtype=np.float32)
    actHostData = np.array([-4, -1.5, 0, 0.5, 1.5, 2, 3, 5], dtype=np.float32)
    xHostData = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], dtype=np.float32)
    maskHostData = np.array([0, 0, 0, 1, 0, 1, 1, 0], dtype=np.uint8)  # BOOL: 1 masks the position out
    lossNoneHostData = np.zeros(6, dtype=np.float32)
    lossMeanHostData = np.zeros(1, dtype=np.float32)
    actOutHostData = np.zeros(8, dtype=np.float32)
    yHostData = np.zeros(16, dtype=np.float32)
    predDeviceAddr = Ref(None)
    targetDeviceAddr = Ref(None)
    actDeviceAddr = Ref(None)
    xDeviceAddr = Ref(None)
    maskDeviceAddr = Ref(None)
    lossNoneDeviceAddr = Ref(None)
    lossMeanDeviceAddr = Ref(None)
    actOutDeviceAddr = Ref(None)
    yDeviceAddr = Ref(None)
    pred = Ref(None)
    target = Ref(None)
    act = Ref(None)
    x = Ref(None)
    mask = Ref(None)
    lossNone = Ref(None)
    lossMean = Ref(None)
    actOut = Ref(None)
    y = Ref(None)
    ret = CreateAclTensor(predHostData, lossShape, predDeviceAddr, aclDataType.ACL_FLOAT, pred)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(targetHostData, lossShape, targetDeviceAddr, aclDataType.ACL_FLOAT, target)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(actHostData, actShape, actDeviceAddr, aclDataType.ACL_FLOAT, act)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(xHostData, xShape, xDeviceAddr, aclDataType.ACL_FLOAT, x)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(maskHostData, maskShape, maskDeviceAddr, aclDataType.ACL_BOOL, mask)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(lossNoneHostData, lossShape, lossNoneDeviceAddr, aclDataType.ACL_FLOAT, lossNone)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(lossMeanHostData, meanShape, lossMeanDeviceAddr, aclDataType.ACL_FLOAT, lossMean)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(actOutHostData, actShape, actOutDeviceAddr, aclDataType.ACL_FLOAT, actOut)
    if not (ret == ACL_SUCCESS): return ret
    ret = CreateAclTensor(yHostData, xShape, yDeviceAddr, aclDataType.ACL_FLOAT, y)
    if not (ret == ACL_SUCCESS): return ret

    # The plain arguments: reduction 0 = none, 1 = mean, 2 = sum; beta is where the loss turns linear.
    reductionNone = 0
    reductionMean = 1
    beta = 0.5
    scale = 0.5
    fixedTriuMask = False  # must be false: the mask comes from the tensor

    # 3. Each API: phase 1 sizes the workspace and builds the executor, phase 2 runs it.
    workspaceSize = Ref(0)
    executor = Ref(None)

    # 3.1 aclnnSmoothL1Loss, reduction none: d = pred - target; d * d / (2 * beta) if |d| < beta, else |d| - beta / 2.
    ret = aclnnSmoothL1LossGetWorkspaceSize(pred.value, target.value, reductionNone, beta, lossNone.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSmoothL1LossGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnSmoothL1Loss", aclnnSmoothL1Loss, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnSmoothL1Loss(none, beta=0.5)", lossNoneDeviceAddr.value, GetShapeSize(lossShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.2 aclnnSmoothL1Loss, reduction mean: the average of the six losses above, into the 0-d result.
    ret = aclnnSmoothL1LossGetWorkspaceSize(pred.value, target.value, reductionMean, beta, lossMean.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSmoothL1LossGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnSmoothL1Loss", aclnnSmoothL1Loss, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnSmoothL1Loss(mean, beta=0.5)", lossMeanDeviceAddr.value, GetShapeSize(meanShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.3 aclnnHardswish out of place: actOut = act * clamp(act + 3, 0, 6) / 6, act untouched.
    ret = aclnnHardswishGetWorkspaceSize(act.value, actOut.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnHardswishGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnHardswish", aclnnHardswish, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "actOut after aclnnHardswish", actOutDeviceAddr.value, GetShapeSize(actShape), " %f")
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "act after aclnnHardswish", actDeviceAddr.value, GetShapeSize(actShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.4 aclnnInplaceHardswish: no out tensor, the result replaces act's data on the device.
    ret = aclnnInplaceHardswishGetWorkspaceSize(act.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnInplaceHardswishGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnInplaceHardswish", aclnnInplaceHardswish, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "act after aclnnInplaceHardswish", actDeviceAddr.value, GetShapeSize(actShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 3.5 aclnnScaledMaskedSoftmax with scale 0.5: each row of 4 is softmax(0.5 * x) over its unmasked positions.
    ret = aclnnScaledMaskedSoftmaxGetWorkspaceSize(x.value, mask.value, scale, fixedTriuMask, y.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnScaledMaskedSoftmaxGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = RunPhase2("aclnnScaledMaskedSoftmax", aclnnScaledMaskedSoftmax, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): return ret
    ret = PrintResult(np.float32, "aclnnScaledMaskedSoftmax(scale=0.5)", yDeviceAddr.value, GetShapeSize(xShape), " %f")
    if not (ret == ACL_SUCCESS): return ret

    # 4. DELIBERATE ERROR: reduction none needs a result of pred's shape [2, 3], not the 0-d lossMean.
    #    Phase 1 refuses it, makes no executor, and aclGetRecentErrMsg() tells why.
    ret = aclnnSmoothL1LossGetWorkspaceSize(pred.value, target.value, reductionNone, beta, lossMean.value, workspaceSize, executor)
    LOG_PRINT("deliberate error: aclnnSmoothL1LossGetWorkspaceSize(none, 0-d result) returned %d\n", ret)
    LOG_PRINT("[ERROR msg]%s\n", aclGetRecentErrMsg())

    # 5. Release the tensors, then the device memory and the runtime.
    aclDestroyTensor(pred.value)
    aclDestroyTensor(target.value)
    aclDestroyTensor(act.value)
    aclDestroyTensor(x.value)
    aclDestroyTensor(mask.value)
    aclDestroyTensor(lossNone.value)
    aclDestroyTensor(lossMean.value)
    aclDestroyTensor(actOut.value)
    aclDestroyTensor(y.value)
    aclrtFree(predDeviceAddr.value)
    aclrtFree(targetDeviceAddr.value)
    aclrtFree(actDeviceAddr.value)
    aclrtFree(xDeviceAddr.value)
    aclrtFree(maskDeviceAddr.value)
    aclrtFree(lossNoneDeviceAddr.value)
    aclrtFree(lossMeanDeviceAddr.value)
    aclrtFree(actOutDeviceAddr.value)
    aclrtFree(yDeviceAddr.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
