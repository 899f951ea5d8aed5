#!/usr/bin/env python3
# A teaching program: the error path of the two-phase API, on purpose.
# Written like the C++ samples (Init, CreateAclTensor, CHECK_RET-style one-liners), it makes
# four mistakes and prints, for each, the status code and aclGetRecentErrMsg() — the
# "\n[ERROR msg]%s" the CANN docs suggest appending to a failure print.
import sys

import numpy as np

from aclnn_py import *


def LOG_PRINT(message, *args):  # printf
    sys.stdout.write(message % args)


def Init(deviceId, stream):
    ret = aclInit(None)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret
    ret = aclrtSetDevice(deviceId)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret
    ret = aclrtCreateStream(stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret
    return 0


def CreateAclTensor(hostData, shape, deviceAddr, dataType, tensor):
    size = hostData.nbytes
    ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret
    ret = aclrtMemcpy(deviceAddr.value, size, hostData, size, ACL_MEMCPY_HOST_TO_DEVICE)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]
    tensor.value = aclCreateTensor(shape, len(shape), dataType, strides, 0, aclFormat.ACL_FORMAT_ND,
                                   shape, len(shape), deviceAddr.value)
    return 0


def Report(api, ret):
    LOG_PRINT("%s failed. ERROR: %d\n[ERROR msg]%s\n\n", api, ret, aclGetRecentErrMsg())


def main():
    deviceId = 0
    stream = Ref()
    ret = Init(deviceId, stream)
    if not (ret == ACL_SUCCESS): LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret

    addrs = [Ref() for _ in range(5)]
    gradOut, selfF32, selfI32, out, outWrongShape = (Ref() for _ in range(5))
    CreateAclTensor(np.ones(8, dtype=np.float32), [4, 2], addrs[0], aclDataType.ACL_FLOAT, gradOut)
    CreateAclTensor(np.arange(8, dtype=np.float32), [4, 2], addrs[1], aclDataType.ACL_FLOAT, selfF32)
    CreateAclTensor(np.arange(8, dtype=np.int32), [4, 2], addrs[2], aclDataType.ACL_INT32, selfI32)
    CreateAclTensor(np.zeros(8, dtype=np.float32), [4, 2], addrs[3], aclDataType.ACL_FLOAT, out)
    CreateAclTensor(np.zeros(8, dtype=np.float32), [2, 4], addrs[4], aclDataType.ACL_FLOAT, outWrongShape)
    workspaceSize = Ref(0)
    executor = Ref()

    # 1. A dtype outside the support list: HardswishBackward takes FLOAT16/FLOAT/BFLOAT16.
    ret = aclnnHardswishBackwardGetWorkspaceSize(gradOut.value, selfI32.value, out.value, workspaceSize, executor)
    Report("aclnnHardswishBackwardGetWorkspaceSize", ret)

    # 2. A shape mismatch: the broadcast result [4, 2] is not gradInput's shape [2, 4].
    ret = aclnnSmoothL1LossBackwardGetWorkspaceSize(gradOut.value, selfF32.value, gradOut.value, 0, 1.0,
                                                    outWrongShape.value, workspaceSize, executor)
    Report("aclnnSmoothL1LossBackwardGetWorkspaceSize", ret)

    # 3. A null out-pointer: C's nullptr for uint64_t* workspaceSize is None.
    ret = aclnnHardswishBackwardGetWorkspaceSize(gradOut.value, selfF32.value, out.value, None, executor)
    Report("aclnnHardswishBackwardGetWorkspaceSize", ret)

    # 4. Running an executor twice: phase 2 releases a (non-repeatable) executor.
    ret = aclnnHardswishBackwardGetWorkspaceSize(gradOut.value, selfF32.value, out.value, workspaceSize, executor)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnHardswishBackwardGetWorkspaceSize failed. ERROR: %d\n", ret); return ret
    ret = aclnnHardswishBackward(None, workspaceSize.value, executor.value, stream.value)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclnnHardswishBackward failed. ERROR: %d\n", ret); return ret
    ret = aclnnHardswishBackward(None, workspaceSize.value, executor.value, stream.value)
    Report("aclnnHardswishBackward (second run)", ret)

    ret = aclrtSynchronizeStream(stream.value)
    if not (ret == ACL_SUCCESS): LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret
    for t in (gradOut, selfF32, selfI32, out, outWrongShape):
        aclDestroyTensor(t.value)
    for a in addrs:
        aclrtFree(a.value)
    aclrtDestroyStream(stream.value)
    aclrtResetDevice(deviceId)
    aclFinalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
