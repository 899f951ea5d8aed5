#!/usr/bin/env python3
# Line-by-line port of the C++ sample of aclnnSmoothL1LossBackward
# (test_aclnn_smooth_l1_loss_backward.cpp). Each C++ line has its twin here, in the same order.
import sys

import numpy as np

from aclnn_py import *  # #include "acl/acl.h" + "aclnnop/aclnn_smooth_l1_loss_backward.h"


# #define CHECK_RET(cond, return_expr): in Python, `if not (cond): return_expr` on one line.
def LOG_PRINT(message, *args):  # #define LOG_PRINT(message, ...) printf(message, ##__VA_ARGS__)
    sys.stdout.write(message % args)


def GetShapeSize(shape):
    shapeSize = 1
    for i in shape:
        shapeSize *= i
    return shapeSize


def Init(deviceId, stream):
    # 固定写法，资源初始化
    ret = aclInit(None)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret
    ret = aclrtSetDevice(deviceId)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret
    ret = aclrtCreateStream(stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret
    return 0


def CreateAclTensor(hostData, shape, deviceAddr, dataType, tensor):
    size = GetShapeSize(shape) * hostData.itemsize  # sizeof(T)
    # 调用aclrtMalloc申请device侧内存
    ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret
    # 调用aclrtMemcpy将host侧数据拷贝到device侧内存上
    ret = aclrtMemcpy(deviceAddr.value, size, hostData, size, ACL_MEMCPY_HOST_TO_DEVICE)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret

    # 计算连续tensor的strides
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]

    # 调用aclCreateTensor接口创建aclTensor
    tensor.value = aclCreateTensor(shape, len(shape), dataType, strides, 0, aclFormat.ACL_FORMAT_ND,
                                   shape, len(shape), deviceAddr.value)
    return 0


def main():
    # 1. （固定写法）device/stream初始化，参考acl API手册
    # 根据自己的实际device填写deviceId
    deviceId = 0
    stream = Ref()
    ret = Init(deviceId, stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret

    # 2. 构造输入与输出，需要根据API的接口自定义构造
    gradOutShape = [4, 2]
    selfShape = [4, 2]
    targetShape = [4, 2]
    gradInputShape = [4, 2]
    reduction = 0
    beta = 1.0
    gradOutDeviceAddr = Ref(None)
    selfDeviceAddr = Ref(None)
    targetDeviceAddr = Ref(None)
    gradInputDeviceAddr = Ref(None)
    gradOut = Ref(None)
    self = Ref(None)
    target = Ref(None)
    gradInput = Ref(None)
    gradOutHostData = np.array([1, 1, 1, 1, 1, 1, 1, 1], dtype=np.float32)
    selfHostData = np.array([0, 1, 2, 3, 4, 5, 6, 7], dtype=np.float32)
    targetHostData = np.array([1, 1, 1, 1, 1, 1, 1, 1], dtype=np.float32)
    gradInputHostData = np.zeros(8, dtype=np.float32)
    # 创建gradOut aclTensor
    ret = CreateAclTensor(gradOutHostData, gradOutShape, gradOutDeviceAddr, aclDataType.ACL_FLOAT, gradOut)
    if not (ret == ACL_SUCCESS): return ret
    # 创建self aclTensor
    ret = CreateAclTensor(selfHostData, selfShape, selfDeviceAddr, aclDataType.ACL_FLOAT, self)
    if not (ret == ACL_SUCCESS): return ret
    # 创建target aclTensor
    ret = CreateAclTensor(targetHostData, targetShape, targetDeviceAddr, aclDataType.ACL_FLOAT, target)
    if not (ret == ACL_SUCCESS): return ret
    # 创建gradInput aclTensor
    ret = CreateAclTensor(gradInputHostData, gradInputShape, gradInputDeviceAddr, aclDataType.ACL_FLOAT, gradInput)
    if not (ret == ACL_SUCCESS): return ret

    # 3. 调用CANN算子库API，需要修改为具体的Api名称
    workspaceSize = Ref(0)
    executor = Ref()
    # 调用aclnnSmoothL1LossBackward第一段接口
    ret = aclnnSmoothL1LossBackwardGetWorkspaceSize(gradOut.value, self.value, target.value, reduction, beta, gradInput.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSmoothL1LossBackwardGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    # 根据第一段接口计算出的workspaceSize申请device内存
    workspaceAddr = Ref(None)
    if workspaceSize.value > 0:
        ret = aclrtMalloc(workspaceAddr, workspaceSize.value, ACL_MEM_MALLOC_HUGE_FIRST)
        if not (ret == ACL_SUCCESS): LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret
    # 调用aclnnSmoothL1LossBackward第二段接口
    ret = aclnnSmoothL1LossBackward(workspaceAddr.value, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnSmoothL1LossBackward failed. ERROR: %d\n", ret); return ret

    # 4. （固定写法）同步等待任务执行结束
    ret = aclrtSynchronizeStream(stream.value)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret

    # 5. 获取输出的值，将device侧内存上的结果拷贝至host侧，需要根据具体API的接口定义修改
    size = GetShapeSize(gradInputShape)
    resultData = np.zeros(size, dtype=np.float32)
    ret = aclrtMemcpy(resultData, resultData.size * resultData.itemsize, gradInputDeviceAddr.value,
                      size * resultData.itemsize, ACL_MEMCPY_DEVICE_TO_HOST)
    if not (ret == ACL_SUCCESS): LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret
    for i in range(size):
        LOG_PRINT("result[%ld] is: %f\n", i, resultData[i])

    # 6. 释放aclTensor和aclScalar，需要根据具体API的接口定义修改
    aclDestroyTensor(gradOut.value)
    aclDestroyTensor(self.value)
    aclDestroyTensor(target.value)
    aclDestroyTensor(gradInput.value)
    # 7. 释放device资源，需要根据具体API的接口定义参数
    aclrtFree(gradOutDeviceAddr.value)
    aclrtFree(selfDeviceAddr.value)
    aclrtFree(targetDeviceAddr.value)
    aclrtFree(gradInputDeviceAddr.value)
    if workspaceSize.value > 0:
        aclrtFree(workspaceAddr.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
