"""Kernel binaries and launches of ``acl_rt.h``: the calls a program makes to run its own AscendC
kernels. The emulator cannot run device code (that needs Huawei's kernel compiler and the NPU),
so every call that would load a kernel binary fails after CANN's own checks (a file that cannot
be accessed is CANN's 107000) with 207000 (ACL_ERROR_RT_FEATURE_NOT_SUPPORT, the runtime's "not
supported") and a message that says so; no handle for a binary or a function is ever issued,
so the calls that take one fail as CANN fails for a handle it never issued (107017). The
operators of the package (aclnn*) are the way to run computations.
"""

from __future__ import annotations

import os

from .._capi import ApiError, as_pointer, c_api, describe
from . import _rt_features
from ._checks import (
    INTERNAL,
    PARAM,
    RT_PARAM,
    E,
    Message,
    acl_null,
    acl_value,
    bad_object,
    emu,
    fb_inner,
    fb_invalid,
    int_arg,
    is_null_handle,
    memcpy_kind_desc,
    need_context,
    rt_api,
    rt_inner,
    rt_value,
    stream_handle,
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


def _rt_null(desc: str, param: str) -> Message:
    """``NULL_PTR_RETURN_MSG_OUTER_WITH_FUNC_DESC`` of the runtime's decorators: EE1004."""
    return ("EE1004", f"{desc} failed because {param} cannot be a NULL pointer.")


_PATH_MAX = 4096  # Linux's PATH_MAX: RealPath refuses a path of that length or more


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
    """Load a binary onto the device: rtBinaryLoadWithoutTilingKey's checks (every emulated chip has
    RT_FEATURE_KERNEL_BINARY_LOAD_DOT_WITHOUT_TILING), then refused (207000)."""
    api, rt_fn = "aclrtBinaryLoad", "rtBinaryLoadWithoutTilingKey"
    _require(api, binary=binary, binHandle=binHandle)
    if not isinstance(binary, aclrtBinary) or binary.destroyed:
        raise ApiError(PARAM, emu(f"{api}: binary is {describe(binary)}, not a live aclrtBinary."))
    desc = "Loading the operator binary data without the tiling key"  # ApiErrorDecorator's checks
    if binary.length == 0:
        raise ApiError(RT_PARAM, rt_value(desc, 0, "length", "not equal to 0"), fb_invalid(rt_fn))
    need_context(rt_fn)  # ApiImpl::BinaryLoadWithoutTilingKey
    raise _refuse(api, f"loading a kernel binary of {binary.length} bytes")


def _accessible(path: str) -> bool:
    """RealPath (core/src/common/utils.cc:70-90): a non-empty path shorter than PATH_MAX that
    realpath() resolves."""
    if not path or len(path.encode("utf-8", "surrogateescape")) >= _PATH_MAX:
        return False
    try:
        os.path.realpath(path, strict=True)
    except (OSError, ValueError):
        return False
    return True


@rt_api
def aclrtBinaryLoadFromFile(binPath: object, options: object, binHandle: object) -> int:
    """Load a kernel binary file onto the device: a path that cannot be accessed is CANN's 107000;
    an existing file is refused (207000)."""
    _require("aclrtBinaryLoadFromFile", binPath=binPath, binHandle=binHandle)
    path = os.fsdecode(binPath) if isinstance(binPath, (str, bytes, os.PathLike)) else None
    # BinaryLoader::Load parses the options first (their CPU-kernel mode changes the file read);
    # they are not read here, so only a load without options reaches ReadBinaryFile as CANN's does
    if path is not None and as_pointer(options) is None and not _accessible(path):
        # ReadBinaryFile (binary_loader.cc:221-229), then LoadNonCpu's NULL_PTR_RETURN_MSG(program)
        # and rtsBinaryLoadFromFile's ERROR_RETURN_WITH_EXT_ERRCODE (api_c_kernel.cc:391)
        raise ApiError(
            RT_PARAM,
            (
                "EE1012",
                f"Read binary file failed. Value {path} for binPath is invalid. Reason: Path {path} cannot be "
                "accessed.",
            ),
            rt_inner("Check param failed, program can not be null.", "LoadNonCpu", "binary_loader.cc", 480),
            fb_invalid("rtsBinaryLoadFromFile"),
        )
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
    """Asked for by the AscendC host runtime when it registers kernels: rtsGetHardwareSyncAddr's
    checks (api_c_kernel.cc:497-511), then refused (207000) where the chip has the address."""
    if is_null_handle(addr):
        raise ApiError(RT_PARAM, ("EE1004", "rtsGetHardwareSyncAddr failed because addr cannot be a NULL pointer."))
    if not _rt_features.has("RT_FEATURE_KERNEL_INTER_CORE_SYNC_ADDR"):
        raise ApiError(
            E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            ("EE1005", "The current system or device does not support rtsGetHardwareSyncAddr."),
        )
    raise _refuse("aclrtGetHardwareSyncAddr", "the hardware synchronisation address serves device code")


# ---------------------------------------------------------------------------------------------
# the rest of the kernel chapter: launches by argument array, function and binary queries, device
# symbols. Each checks its arguments as aclrt_impl/kernel.cpp (or memory.cpp) does, then fails as
# the rt function fails for a handle or symbol it never issued or registered.
# ---------------------------------------------------------------------------------------------

_COPY_DESC = "Checking the synchronous memory copy parameter"
# acl::GetMemcpyKindDesc (src/acl/utils/cann_info_utils.cpp:343-368), as api_memcpy_batch's table
_EXPECTED_KIND = {1: "ACL_MEMCPY_HOST_TO_DEVICE", 2: "ACL_MEMCPY_DEVICE_TO_HOST"}


def _func_not_found(rt_fn: str) -> ApiError:
    """ConvertFuncToKernel (api_c_standard_soc.cc:60-77): ``func`` is no registered kernel symbol,
    so the runtime takes it for a function handle, which ValidateKernelHandleForApi refuses (the
    guard's EE1017 naming funcHandle, then FuncErrorReason's). The lookup needs a current context
    first (107002, EE1018)."""
    need_context()
    return bad_object("funcHandle", rt_fn)


def _symbol_lookup(rt_fn: str = "rtSymbolLookup") -> ApiError:
    """rtSymbolLookup: no device variable is ever registered (no binary loads), so the symbol
    table does not know the symbol: EE1017, then the wrapper's inner report (107043)."""
    need_context("rtSymbolLookup")
    return ApiError(
        E.ACL_ERROR_RT_INVALID_SYMBOL,
        (
            "EE1017",
            "Looking up symbol table failed. Parameter symbol is invalid. Reason: The corresponding device variable "
            "cannot be found through the symbol.",
        ),
        fb_inner(rt_fn, "invalid device symbol"),
    )


@rt_api
def aclrtLaunchKernelWithArgsArray(func: object, numBlocks: int, stream: object, cfg: object, args: object) -> int:
    """Launch a kernel by its symbol (or handle) with an array of argument pointers: 107017
    after CANN's checks, no kernel being registered or loaded."""
    api = "aclrtLaunchKernelWithArgsArray"
    _require(api, func=func)
    _positive_u32(api, numBlocks, "numBlocks")
    stream_handle(stream, "rtLaunchKernelWithArgsArray")
    raise _func_not_found("rtLaunchKernelWithArgsArray")


def _positive_u32(api: str, value: object, name: str) -> None:
    if int_arg(value, name, 0, 2**32 - 1) == 0:
        raise ApiError(PARAM, acl_value(api, 0, name, "must be greater than 0"))


@rt_api
def aclrtLaunchSIMTKernelWithArgsArray(
    func: object, gridDim: object, blockDim: object, dynUbufSize: int, stream: object, cfg: object, args: object
) -> int:
    """A SIMT launch (grid and block dimensions) with an argument array: 107017 after CANN's check."""
    _require("aclrtLaunchSIMTKernelWithArgsArray", func=func)
    int_arg(dynUbufSize, "dynUbufSize", 0, 2**64 - 1)
    # unlike the other two launches by symbol, rtLaunchSIMTKernelWithArgsArray converts ``func``
    # before its stream guard (api_c_standard_soc.cc:2060, 2064), so the stream is never looked at
    raise _func_not_found("rtLaunchSIMTKernelWithArgsArray")


@rt_api
def aclrtLaunchSIMTKernelWithHostArgs(
    func: object,
    gridDim: object,
    blockDim: object,
    dynUbufSize: int,
    stream: object,
    cfg: object,
    hostArgs: object,
    argsSize: int,
    placeHolderArray: object,
    placeHolderNum: int,
) -> int:
    """A SIMT launch with its arguments in host memory: 107017 after CANN's checks."""
    api = "aclrtLaunchSIMTKernelWithHostArgs"
    _require(api, func=func, hostArgs=hostArgs)
    _positive(api, argsSize, "argsSize")
    int_arg(dynUbufSize, "dynUbufSize", 0, 2**64 - 1)
    int_arg(placeHolderNum, "placeHolderNum", 0, 2**64 - 1)
    stream_handle(stream, "rtLaunchSIMTKernelWithHostArgs")
    raise _func_not_found("rtLaunchSIMTKernelWithHostArgs")


@rt_api
def aclrtGetFuncBySymbol(symbol: object, funcHandle: object) -> int:
    """The function of a registered kernel symbol: none is ever registered (107044)."""
    _require("aclrtGetFuncBySymbol", symbol=symbol, funcHandle=funcHandle)
    need_context("rtGetFuncBySymbol")
    raise ApiError(
        E.ACL_ERROR_RT_INVALID_DEVICE_FUNCTION,
        (
            "EE1017",
            "rtGetFuncBySymbol failed. Parameter symbol is invalid. Reason: The corresponding kernel function cannot "
            "be found through the symbol.",
        ),
    )


@rt_api
def aclrtGetFunctionAddr(funcHandle: object, aicAddr: object, aivAddr: object) -> int:
    """No function handle is ever issued: 107017 after the not-null checks."""
    _require("aclrtGetFunctionAddr", funcHandle=funcHandle, aicAddr=aicAddr, aivAddr=aivAddr)
    raise bad_object("funcHandle", "rtsFuncGetAddr")


@rt_api
def aclrtGetFunctionName(funcHandle: object, maxLen: int, name: object) -> int:
    """No function handle is ever issued: 107017 (CANN checks only ``name`` first; the handle
    guard lets NULL through to ApiErrorDecorator::FuncGetName: 107000, EE1004)."""
    _require("aclrtGetFunctionName", name=name)
    int_arg(maxLen, "maxLen", 0, 2**32 - 1)
    if is_null_handle(funcHandle):
        raise ApiError(RT_PARAM, _rt_null("Obtaining the kernel function name", "kernel"), fb_invalid("rtsFuncGetName"))
    raise bad_object("funcHandle", "rtsFuncGetName")


@rt_api
def aclrtGetFunctionSize(funcHandle: object, aicSize: object, aivSize: object) -> int:
    """No function handle is ever issued: 107017 (no ACL-layer check; NULL: ApiErrorDecorator::
    FuncGetSize's EE1004, 107000)."""
    if not _rt_features.has("RT_FEATURE_MODEL_ACL_GRAPH"):
        # rtFuncGetSize (api_c_standard_soc.cc:1680-1683): COND_RETURN_WARN, no report, no last error
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    if is_null_handle(funcHandle):
        raise ApiError(
            RT_PARAM,
            _rt_null("Obtaining the size of the kernel function code segment", "funcHandle"),
            fb_invalid("rtFuncGetSize"),
        )
    raise bad_object("funcHandle", "rtFuncGetSize")


@rt_api
def aclrtGetFunctionAttribute(funcHandle: object, attrType: int, attrValue: object) -> int:
    """No function handle is ever issued: 107017 after the not-null checks."""
    _require("aclrtGetFunctionAttribute", funcHandle=funcHandle, attrValue=attrValue)
    int_arg(attrType, "attrType", -(2**31), 2**31 - 1)
    raise bad_object("funcHandle", "rtFunctionGetAttribute")


@rt_api
def aclrtFunctionGetBinary(funcHandle: object, binHandle: object) -> int:
    """No function handle is ever issued: 107017 (no ACL-layer check; NULL: ApiErrorDecorator::
    FunctionGetBinary's EE1004, 107000)."""
    if is_null_handle(funcHandle):
        raise ApiError(
            RT_PARAM,
            _rt_null("Obtaining the binary handle of an operator", "funcHandle"),
            fb_invalid("rtFunctionGetBinary"),
        )
    raise bad_object("funcHandle", "rtFunctionGetBinary")


@rt_api
def aclrtFunctionGetParamCount(func: object, paramCount: object) -> int:
    """No function handle is ever issued: 107017 after the not-null checks."""
    _require("aclrtFunctionGetParamCount", func=func, paramCount=paramCount)
    raise bad_object("funcHandle", "rtFunctionGetParamCount")


@rt_api
def aclrtFunctionGetParamInfo(func: object, paramIndex: int, paramOffset: object, paramSize: object) -> int:
    """No function handle is ever issued: 107017 after the checks (both outputs NULL: EH0014)."""
    api = "aclrtFunctionGetParamInfo"
    _require(api, func=func)
    int_arg(paramIndex, "paramIndex", 0, 2**64 - 1)
    if paramOffset is None and paramSize is None:
        raise ApiError(
            PARAM,
            ("EH0014", f"{api} failed because paramOffset and paramSize cannot be NULL pointers at the same time."),
        )
    raise bad_object("funcHandle", "rtFunctionGetParamInfo")


@rt_api
def aclrtFunctionGetAvailDynUbufPerBlock(func: object, flags: int, dynamicUbufSize: object) -> int:
    """No function handle is ever issued: 107017 after the checks (``flags`` must be 0)."""
    api = "aclrtFunctionGetAvailDynUbufPerBlock"
    _require(api, func=func, dynamicUbufSize=dynamicUbufSize)
    value = int_arg(flags, "flags", 0, 2**32 - 1)
    if value != 0:
        raise ApiError(PARAM, acl_value(api, value, "flags", "0U"))
    raise bad_object("funcHandle", "rtFunctionGetAvailDynUbufPerBlock")


@rt_api
def aclrtBinaryGetDevAddress(binHandle: object, binAddr: object, binSize: object) -> int:
    """No binary is ever loaded: 107017 after the not-null check."""
    _require("aclrtBinaryGetDevAddress", binHandle=binHandle)
    raise bad_object("binHandle", "rtGetBinBuffer")


@rt_api
def aclrtBinaryGetGlobal(binHandle: object, name: object, dptr: object, size: object) -> int:
    """No binary is ever loaded: 107017 after the checks (both outputs NULL: EH0014)."""
    api = "aclrtBinaryGetGlobal"
    _require(api, binHandle=binHandle, name=name)
    if dptr is None and size is None:
        raise ApiError(
            PARAM, ("EH0014", f"{api} failed because dptr and size cannot be NULL pointers at the same time.")
        )
    raise bad_object("binHandle", "rtBinaryGetGlobal")


@rt_api
def aclrtBinarySetExceptionCallback(binHandle: object, callback: object, userData: object) -> int:
    """No binary is ever loaded: 107017 after the not-null checks."""
    _require("aclrtBinarySetExceptionCallback", binHandle=binHandle, callback=callback)
    raise bad_object("binHandle", "rtBinarySetExceptionCallback")


@rt_api
def aclrtRegisterCpuFunc(handle: object, funcName: object, kernelName: object, funcHandle: object) -> int:
    """No binary is ever loaded: 107017 after the not-null checks."""
    _require("aclrtRegisterCpuFunc", handle=handle, funcName=funcName, kernelName=kernelName, funcHandle=funcHandle)
    raise bad_object("binHandle", "rtsRegisterCpuFunc")


@rt_api
def aclrtGetSymbolAddress(symbol: object, devPtr: object) -> int:
    """The device address of a device variable: none is ever registered (107043)."""
    _require("aclrtGetSymbolAddress", symbol=symbol, devPtr=devPtr)
    raise _symbol_lookup()


@rt_api
def aclrtGetSymbolSize(symbol: object, size: object) -> int:
    """The size of a device variable: none is ever registered (107043)."""
    _require("aclrtGetSymbolSize", symbol=symbol, size=size)
    raise _symbol_lookup()


def _copy_null(value: object, name: str) -> None:
    """ACL_REQUIRES_NOT_NULL_WITH_INPUT_REPORT_AND_FUNC_DESC: EH0008 naming the check, not the API."""
    if is_null_handle(value) or value is None:
        raise ApiError(PARAM, acl_null(_COPY_DESC, name))


def _kind_check(kind: object, allowed: int) -> None:
    k = int_arg(kind, "kind", -(2**31), 2**31 - 1)
    if k not in (allowed, 4):
        raise ApiError(
            PARAM,
            acl_value(_COPY_DESC, memcpy_kind_desc(k), "kind", f"{_EXPECTED_KIND[allowed]} or ACL_MEMCPY_DEFAULT"),
        )


def _to_symbol(symbol: object, src: object, count: object, offset: object, kind: object) -> bool:
    """CheckMemcpyToSymbol, after the count-0 shortcut (True: nothing to copy)."""
    n = int_arg(count, "count", 0, 2**64 - 1)
    int_arg(offset, "offset", 0, 2**64 - 1)
    if n == 0:
        return True
    _copy_null(symbol, "symbol")
    _copy_null(src, "src")
    _kind_check(kind, 1)
    return False


def _from_symbol(dst: object, dstMax: object, symbol: object, count: object, offset: object, kind: object) -> bool:
    """CheckMemcpyFromSymbol, after the count-0 shortcut (True: nothing to copy)."""
    n = int_arg(count, "count", 0, 2**64 - 1)
    limit = int_arg(dstMax, "dstMax", 0, 2**64 - 1)
    int_arg(offset, "offset", 0, 2**64 - 1)
    if n == 0:
        return True
    _copy_null(symbol, "symbol")
    _copy_null(dst, "dst")
    if n > limit:
        raise ApiError(PARAM, ("EH0001", f"Value {n} for count is invalid. Reason: must not be greater than dstMax."))
    _kind_check(kind, 2)
    return False


@rt_api
def aclrtMemcpyToSymbol(symbol: object, src: object, count: int, offset: int, kind: int) -> int:
    """Copy host data to a device variable: none is ever registered (107043); count 0 succeeds."""
    if _to_symbol(symbol, src, count, offset, kind):
        return E.ACL_SUCCESS
    raise _symbol_lookup()


@rt_api
def aclrtMemcpyToSymbolAsync(symbol: object, src: object, count: int, offset: int, kind: int, stream: object) -> int:
    """Asynchronous aclrtMemcpyToSymbol: the same checks, the same 107043."""
    if _to_symbol(symbol, src, count, offset, kind):
        return E.ACL_SUCCESS
    raise _symbol_lookup()


@rt_api
def aclrtMemcpyFromSymbol(dst: object, dstMax: int, symbol: object, count: int, offset: int, kind: int) -> int:
    """Copy a device variable to the host: none is ever registered (107043); count 0 succeeds."""
    if _from_symbol(dst, dstMax, symbol, count, offset, kind):
        return E.ACL_SUCCESS
    raise _symbol_lookup()


@rt_api
def aclrtMemcpyFromSymbolAsync(
    dst: object, dstMax: int, symbol: object, count: int, offset: int, kind: int, stream: object
) -> int:
    """Asynchronous aclrtMemcpyFromSymbol: the same checks, the same 107043."""
    if _from_symbol(dst, dstMax, symbol, count, offset, kind):
        return E.ACL_SUCCESS
    raise _symbol_lookup()


__all__ = [
    "aclrtBinary",
    "aclrtBinaryGetDevAddress",
    "aclrtBinaryGetFunction",
    "aclrtBinaryGetFunctionByEntry",
    "aclrtBinaryGetGlobal",
    "aclrtBinaryLoad",
    "aclrtBinaryLoadFromData",
    "aclrtBinaryLoadFromFile",
    "aclrtBinarySetExceptionCallback",
    "aclrtBinaryUnLoad",
    "aclrtCreateBinary",
    "aclrtDestroyBinary",
    "aclrtFunctionGetAvailDynUbufPerBlock",
    "aclrtFunctionGetBinary",
    "aclrtFunctionGetParamCount",
    "aclrtFunctionGetParamInfo",
    "aclrtGetFuncBySymbol",
    "aclrtGetFunctionAddr",
    "aclrtGetFunctionAttribute",
    "aclrtGetFunctionName",
    "aclrtGetFunctionSize",
    "aclrtGetHardwareSyncAddr",
    "aclrtGetSymbolAddress",
    "aclrtGetSymbolSize",
    "aclrtKernelArgsAppend",
    "aclrtKernelArgsAppendPlaceHolder",
    "aclrtKernelArgsFinalize",
    "aclrtKernelArgsGetHandleMemSize",
    "aclrtKernelArgsGetMemSize",
    "aclrtKernelArgsGetPlaceHolderBuffer",
    "aclrtKernelArgsInit",
    "aclrtKernelArgsInitByUserMem",
    "aclrtKernelArgsParaUpdate",
    "aclrtLaunchKernel",
    "aclrtLaunchKernelV2",
    "aclrtLaunchKernelWithArgsArray",
    "aclrtLaunchKernelWithConfig",
    "aclrtLaunchKernelWithHostArgs",
    "aclrtLaunchSIMTKernelWithArgsArray",
    "aclrtLaunchSIMTKernelWithHostArgs",
    "aclrtMemcpyFromSymbol",
    "aclrtMemcpyFromSymbolAsync",
    "aclrtMemcpyToSymbol",
    "aclrtMemcpyToSymbolAsync",
    "aclrtRegisterCpuFunc",
]
