"""The aclrtKernelArgs* family through the C ABI (issue 17): the calls hicann/runtime's kernel launch
example (example/2_advanced_features/kernel/0_launch_kernel) makes after a load. No load succeeds, so
a program can only hold handles it made up: each call checks its arguments as CANN does, then
refuses the handle with 107017, writing no out-parameter; so do aclrtLaunchKernelV2 and
aclrtLaunchKernelWithHostArgs (arguments as bytes, placeholders as aclrtPlaceHolderInfo)."""

from __future__ import annotations

import subprocess

import pytest
from capi_support import compile_cpp, missing_toolchain
from capi_support import env as _env

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

KERNEL_ARGS_PROGRAM = r"""
#include <cstdint>
#include <cstdio>
#include "acl/acl.h"
#define SHOW(call)                                                                      \
    do {                                                                                \
        aclError ret = (call);                                                          \
        const char* msg = aclGetRecentErrMsg();                                         \
        printf("%d %s\n", static_cast<int>(ret), msg == nullptr ? "<null>" : msg);      \
    } while (0)

int main()
{
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    uint64_t made[8] = {0};
    aclrtFuncHandle func = &made[0];
    aclrtArgsHandle args = &made[2];
    aclrtParamHandle para = &made[4];
    aclrtArgsHandle argsOut = nullptr;
    aclrtParamHandle paraOut = nullptr;
    void* buffer = nullptr;
    size_t size = 7;
    uint8_t* dev = nullptr;
    SHOW(aclrtKernelArgsInit(func, &argsOut));
    SHOW(aclrtKernelArgsGetHandleMemSize(func, &size));
    SHOW(aclrtKernelArgsGetMemSize(func, 24, &size));
    SHOW(aclrtKernelArgsInitByUserMem(func, args, made, sizeof(made)));
    SHOW(aclrtKernelArgsAppend(args, &dev, sizeof(uintptr_t), &paraOut));
    SHOW(aclrtKernelArgsAppendPlaceHolder(args, &paraOut));
    SHOW(aclrtKernelArgsGetPlaceHolderBuffer(args, para, sizeof(int32_t), &buffer));
    SHOW(aclrtKernelArgsParaUpdate(args, para, &dev, sizeof(uintptr_t)));
    SHOW(aclrtKernelArgsFinalize(args));
    aclrtPlaceHolderInfo holders[1] = {{0, 8}};
    SHOW(aclrtLaunchKernelV2(func, 8, &dev, sizeof(uintptr_t), nullptr, nullptr));
    SHOW(aclrtLaunchKernelWithHostArgs(func, 8, nullptr, nullptr, made, sizeof(made), holders, 1));
    SHOW(aclrtKernelArgsAppend(args, &dev, 0, &paraOut));
    SHOW(aclrtKernelArgsGetPlaceHolderBuffer(args, para, sizeof(int32_t), nullptr));
    SHOW(aclrtKernelArgsFinalize(nullptr));
    printf("untouched %d\n", argsOut == nullptr && paraOut == nullptr && buffer == nullptr && size == 7);
    aclrtResetDevice(0);
    return aclFinalize();
}
"""


def test_the_kernel_args_family_through_the_c_abi(tmp_path, capi_flags) -> None:
    exe = compile_cpp(KERNEL_ARGS_PROGRAM, tmp_path / "kernel_args", capi_flags)
    done = subprocess.run([str(exe)], capture_output=True, text=True, env=_env(), timeout=120)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    # each message's first line (the TraceBack and Solution lines follow)
    firsts = [line for line in done.stdout.splitlines() if line[:1].isdigit() or line.startswith("untouched")]
    guard = "107017 Invalid_Argument(EE1017): Object validation failed. Parameter {0} is invalid. Reason: 1. The {0} "
    guard += "handle has been destroyed. 2. The handle type must be {0}."
    assert firsts == [
        *[guard.format("funcHandle")] * 4,
        *[guard.format("argsHandle")] * 5,
        *[guard.format("funcHandle")] * 2,
        "100000 Invalid_Argument(EH0007): aclrtKernelArgsAppend failed because value 0 for parameter paramSize is "
        "invalid. Expected value: must be greater than 0.",
        "100000 Invalid_Argument_Null_Pointer(EH0008): aclrtKernelArgsGetPlaceHolderBuffer failed because bufferAddr "
        "cannot be a NULL pointer.",
        "100000 Invalid_Argument_Null_Pointer(EH0008): aclrtKernelArgsFinalize failed because argsHandle cannot be a "
        "NULL pointer.",
        "untouched 1",
    ]
    rt_fns = [line.strip().split(" ", 1)[0] for line in done.stdout.splitlines() if "failed. Parameter handle" in line]
    assert rt_fns == [
        "rtsKernelArgsInit", "rtsKernelArgsGetHandleMemSize", "rtsKernelArgsGetMemSize", "rtsKernelArgsInitByUserMem",
        "rtsKernelArgsAppend", "rtsKernelArgsAppendPlaceHolder", "rtsKernelArgsGetPlaceHolderBuffer",
        "rtsKernelArgsParaUpdate", "rtsKernelArgsFinalize", "rtsLaunchKernelWithDevArgs", "rtsLaunchKernelWithHostArgs",
    ]  # fmt: skip
