"""Kernel binaries and launches of ``acl_rt.h``: the calls a program makes to run its own AscendC
kernels. The emulator cannot run device code (that needs Huawei's kernel compiler and the NPU),
so every call that would load a kernel binary fails after CANN's own argument checks with
207000 (ACL_ERROR_RT_FEATURE_NOT_SUPPORT, the runtime's "not supported") and a message that says
so; no handle for a binary or a function is ever issued, so the calls that take one fail as
CANN fails for a handle it never issued (107017). The operators of the package (aclnn*) are the
way to run computations.
"""

from __future__ import annotations

from .._capi import ApiError, as_pointer, c_api, describe
from ._checks import (
    INTERNAL,
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_value,
    bad_object,
    emu,
    fb_invalid,
    int_arg,
    is_null_handle,
    rt_api,
    rt_value,
)

_NO_DEVICE_CODE = (
    "aclnn_py cannot run device code: custom AscendC kernels need Huawei's kernel compiler and an NPU, which "
    "the emulator does not have. Compute with the aclnn operators instead"
)


def _refuse(api: str, what: str) -> ApiError:
    return ApiError(E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT, emu(f"{api}: {what}: {_NO_DEVICE_CODE}."))


def _require(api: str, **args: object) -> None:
    """ACL_REQUIRES_NOT_NULL_WITH_INPUT_REPORT for each argument, in order."""
    for name, value in args.items():
        if is_null_handle(value) or value is None:
            raise ApiError(PARAM, acl_null(api, name))


class aclrtBinary:
    """``aclrtBinary``: a kernel binary held in host memory (aclrtCreateBinary)."""

    __slots__ = ("data", "destroyed", "length")

    def __init__(self, data: object, length: int) -> None:
        self.data = data
        self.length = length
        self.destroyed = False

    def __repr__(self) -> str:
        return f"<aclrtBinary {self.length} bytes>"


@c_api(INTERNAL, handle=True)
def aclrtCreateBinary(data: object, dataLen: int) -> aclrtBinary | None:
    """Describe a kernel binary in host memory (nothing is loaded yet; aclrtBinaryLoad refuses)."""
    if data is None or as_pointer(data) is None:
        raise ApiError(PARAM, acl_null("aclrtCreateBinary", "data"))
    return aclrtBinary(data, int_arg(dataLen, "dataLen", 0, 2**64 - 1))


@rt_api
def aclrtDestroyBinary(binary: object) -> int:
    """Forget a binary description."""
    _require("aclrtDestroyBinary", binary=binary)
    if not isinstance(binary, aclrtBinary) or binary.destroyed:
        raise ApiError(PARAM, emu(f"aclrtDestroyBinary: binary is {describe(binary)}, not a live aclrtBinary."))
    binary.destroyed = True
    return E.ACL_SUCCESS


@rt_api
def aclrtBinaryLoad(binary: object, binHandle: object) -> int:
    """Load a binary onto the device: refused (207000)."""
    _require("aclrtBinaryLoad", binary=binary, binHandle=binHandle)
    raise _refuse("aclrtBinaryLoad", "loading a kernel binary")


@rt_api
def aclrtBinaryLoadFromFile(binPath: object, options: object, binHandle: object) -> int:
    """Load a kernel binary file onto the device: refused (207000)."""
    _require("aclrtBinaryLoadFromFile", binPath=binPath, binHandle=binHandle)
    raise _refuse("aclrtBinaryLoadFromFile", f"loading the kernel binary {binPath!s}")


@rt_api
def aclrtBinaryLoadFromData(data: object, length: int, options: object, binHandle: object) -> int:
    """Load a kernel binary from memory (what ``<<<>>>`` launches of AscendC programs do first):
    refused (207000) after the runtime's length check."""
    _require("aclrtBinaryLoadFromData", data=data, binHandle=binHandle)
    n = int_arg(length, "length", 0, 2**64 - 1)
    if n == 0:
        raise ApiError(
            RT_PARAM,
            rt_value("Loading and parsing the operator binary data from the memory", 0, "length", "not equal to 0"),
            fb_invalid("rtsBinaryLoadFromData"),
        )
    raise _refuse("aclrtBinaryLoadFromData", f"loading a kernel binary of {n} bytes")


@rt_api
def aclrtBinaryUnLoad(binHandle: object) -> int:
    """No binary is ever loaded: any handle is one CANN never issued (107017)."""
    _require("aclrtBinaryUnLoad", binHandle=binHandle)
    raise bad_object("binHandle", "rtBinaryUnLoad")


@rt_api
def aclrtBinaryGetFunction(binHandle: object, kernelName: object, funcHandle: object) -> int:
    """No binary is ever loaded: any handle is one CANN never issued (107017)."""
    _require("aclrtBinaryGetFunction", binHandle=binHandle, kernelName=kernelName, funcHandle=funcHandle)
    raise bad_object("binHandle", "rtsFuncGetByName")


@rt_api
def aclrtBinaryGetFunctionByEntry(binHandle: object, funcEntry: int, funcHandle: object) -> int:
    """No binary is ever loaded: any handle is one CANN never issued (107017)."""
    _require("aclrtBinaryGetFunctionByEntry", binHandle=binHandle, funcHandle=funcHandle)
    raise bad_object("binHandle", "rtsFuncGetByEntry")


@rt_api
def aclrtLaunchKernel(funcHandle: object, numBlocks: int, argsData: object, argsSize: int, stream: object) -> int:
    """No function handle is ever issued: 107017 with the handle guard's EE1017, as
    rtLaunchKernelByFuncHandleV3's RT_VALIDATE_AND_UNWRAP_OBJECT_WITH_VALIDATOR reports it
    (ACL's aclrtLaunchKernelImpl then adds a WARN log only)."""
    _require("aclrtLaunchKernel", funcHandle=funcHandle, argsData=argsData)
    raise bad_object("funcHandle", "rtLaunchKernelByFuncHandleV3")


@rt_api
def aclrtLaunchKernelWithConfig(
    funcHandle: object, numBlocks: int, stream: object, cfg: object, argsHandle: object, reserve: object
) -> int:
    """No function handle is ever issued: 107017 after CANN's argument checks."""
    api = "aclrtLaunchKernelWithConfig"
    _require(api, funcHandle=funcHandle)
    blocks = int_arg(numBlocks, "numBlocks", 0, 2**32 - 1)
    if blocks == 0:
        raise ApiError(PARAM, acl_value(api, 0, "numBlocks", "must be greater than 0"))
    _require(api, argsHandle=argsHandle)
    if reserve is not None and as_pointer(reserve) is not None:
        raise ApiError(
            PARAM,
            (
                "EH0012",
                f"{api} failed. Parameter reserve is invalid. Reason: reserve is a reserved parameter and must be "
                "nullptr.",
            ),
        )
    raise bad_object("funcHandle", "rtsLaunchKernelWithConfig")


@rt_api
def aclrtLaunchKernelV2(
    funcHandle: object, numBlocks: int, argsData: object, argsSize: int, cfg: object, stream: object
) -> int:
    """No function handle is ever issued: 107017 after the not-null checks, as
    rtsLaunchKernelWithDevArgs's handle guard reports it (numBlocks and argsSize are not checked
    before it)."""
    _require("aclrtLaunchKernelV2", funcHandle=funcHandle, argsData=argsData)
    int_arg(numBlocks, "numBlocks", 0, 2**32 - 1)
    int_arg(argsSize, "argsSize", 0, 2**64 - 1)
    raise bad_object("funcHandle", "rtsLaunchKernelWithDevArgs")


@rt_api
def aclrtLaunchKernelWithHostArgs(
    funcHandle: object,
    numBlocks: int,
    stream: object,
    cfg: object,
    hostArgs: object,
    argsSize: int,
    placeHolderArray: object,
    placeHolderNum: int,
) -> int:
    """No function handle is ever issued: 107017 after the not-null checks, as
    rtsLaunchKernelWithHostArgs's handle guard reports it (before the stream is looked at)."""
    _require("aclrtLaunchKernelWithHostArgs", funcHandle=funcHandle, hostArgs=hostArgs)
    int_arg(numBlocks, "numBlocks", 0, 2**32 - 1)
    int_arg(argsSize, "argsSize", 0, 2**64 - 1)
    int_arg(placeHolderNum, "placeHolderNum", 0, 2**64 - 1)
    raise bad_object("funcHandle", "rtsLaunchKernelWithHostArgs")


def _positive(api: str, value: object, name: str) -> None:
    """ACL_REQUIRES_POSITIVE_REPORT on a ``size_t``: only 0 is refused (EH0007)."""
    if int_arg(value, name, 0, 2**64 - 1) == 0:
        raise ApiError(PARAM, acl_value(api, 0, name, "must be greater than 0"))


# The kernel-argument family (aclrtKernelArgs*): CANN's aclrt_impl/kernel.cpp checks its own
# arguments (not-null, then positive sizes, in the prototype's order) and hands the rest to
# rtsKernelArgs* (runtime/api/api_c_kernel.cc), whose first act is the handle guard on the
# function or argument handle. Neither kind of handle is ever issued here (no binary loads, so no
# function, so aclrtKernelArgsInit never succeeds), hence 107017 with the guard's EE1017.


@rt_api
def aclrtKernelArgsInit(funcHandle: object, argsHandle: object) -> int:
    """No function handle is ever issued: 107017."""
    _require("aclrtKernelArgsInit", funcHandle=funcHandle, argsHandle=argsHandle)
    raise bad_object("funcHandle", "rtsKernelArgsInit")


@rt_api
def aclrtKernelArgsGetHandleMemSize(funcHandle: object, memSize: object) -> int:
    """No function handle is ever issued: 107017 after the not-null checks."""
    _require("aclrtKernelArgsGetHandleMemSize", funcHandle=funcHandle, memSize=memSize)
    raise bad_object("funcHandle", "rtsKernelArgsGetHandleMemSize")


@rt_api
def aclrtKernelArgsGetMemSize(funcHandle: object, userArgsSize: int, actualArgsSize: object) -> int:
    """No function handle is ever issued: 107017 after the not-null checks (CANN does not check
    ``userArgsSize`` before the handle)."""
    _require("aclrtKernelArgsGetMemSize", funcHandle=funcHandle, actualArgsSize=actualArgsSize)
    int_arg(userArgsSize, "userArgsSize", 0, 2**64 - 1)
    raise bad_object("funcHandle", "rtsKernelArgsGetMemSize")


@rt_api
def aclrtKernelArgsInitByUserMem(
    funcHandle: object, argsHandle: object, userHostMem: object, actualArgsSize: int
) -> int:
    """No function handle is ever issued: 107017 after the not-null and size checks."""
    api = "aclrtKernelArgsInitByUserMem"
    _require(api, funcHandle=funcHandle, argsHandle=argsHandle, userHostMem=userHostMem)
    _positive(api, actualArgsSize, "actualArgsSize")
    raise bad_object("funcHandle", "rtsKernelArgsInitByUserMem")


@rt_api
def aclrtKernelArgsAppend(argsHandle: object, param: object, paramSize: int, paramHandle: object) -> int:
    """No argument handle is ever issued: 107017 after the not-null and size checks."""
    api = "aclrtKernelArgsAppend"
    _require(api, argsHandle=argsHandle, param=param)
    _positive(api, paramSize, "paramSize")
    _require(api, paramHandle=paramHandle)
    raise bad_object("argsHandle", "rtsKernelArgsAppend")


@rt_api
def aclrtKernelArgsAppendPlaceHolder(argsHandle: object, paramHandle: object) -> int:
    """No argument handle is ever issued: 107017 after the not-null checks."""
    _require("aclrtKernelArgsAppendPlaceHolder", argsHandle=argsHandle, paramHandle=paramHandle)
    raise bad_object("argsHandle", "rtsKernelArgsAppendPlaceHolder")


@rt_api
def aclrtKernelArgsGetPlaceHolderBuffer(
    argsHandle: object, paramHandle: object, dataSize: int, bufferAddr: object
) -> int:
    """No argument handle is ever issued: 107017 after the not-null and size checks (the
    argument handle is validated before the parameter handle)."""
    api = "aclrtKernelArgsGetPlaceHolderBuffer"
    _require(api, argsHandle=argsHandle, paramHandle=paramHandle)
    _positive(api, dataSize, "dataSize")
    _require(api, bufferAddr=bufferAddr)
    raise bad_object("argsHandle", "rtsKernelArgsGetPlaceHolderBuffer")


@rt_api
def aclrtKernelArgsParaUpdate(argsHandle: object, paramHandle: object, param: object, paramSize: int) -> int:
    """No argument handle is ever issued: 107017 after the not-null and size checks."""
    api = "aclrtKernelArgsParaUpdate"
    _require(api, argsHandle=argsHandle, paramHandle=paramHandle, param=param)
    _positive(api, paramSize, "paramSize")
    raise bad_object("argsHandle", "rtsKernelArgsParaUpdate")


@rt_api
def aclrtKernelArgsFinalize(argsHandle: object) -> int:
    """No argument handle is ever issued: 107017."""
    _require("aclrtKernelArgsFinalize", argsHandle=argsHandle)
    raise bad_object("argsHandle", "rtsKernelArgsFinalize")


@rt_api
def aclrtGetHardwareSyncAddr(addr: object) -> int:
    """Asked for by the AscendC host runtime when it registers kernels: refused (207000)."""
    raise _refuse("aclrtGetHardwareSyncAddr", "the hardware synchronisation address serves device code")
