"""The rest of the kernel chapter of acl_rt.h: launches by argument array (and the SIMT ones),
function and binary queries, device symbols, aclrtRegisterCpuFunc, the exception-info getters of
the failed kernel, and aclsysGetCANNVersion. CANN's own argument checks (src/acl/aclrt_impl/
kernel.cpp, memory.cpp, callback.cpp, acl.cpp) in their order; then, as no kernel binary ever loads
here, the runtime's refusal of a handle, symbol or kernel it never issued or registered."""

from __future__ import annotations

import ctypes
from collections.abc import Callable

import pytest
from rt_texts import INDENT, TRACEBACK, bad_handle, null

from aclnn_py import Ref, aclFinalize, aclGetRecentErrMsg, aclInit
from aclnn_py.runtime import api_callback as C
from aclnn_py.runtime import api_info as I
from aclnn_py.runtime import api_kernel as K

FAKE = object()  # a handle or symbol CANN never issued or registered
BUF = bytearray(8)

Case = tuple[Callable[..., int], dict[str, object], tuple[str, ...], str, str]
HANDLE_CASES: list[Case] = [
    (K.aclrtGetFunctionAddr, {"funcHandle": FAKE, "aicAddr": Ref(), "aivAddr": Ref()},
     ("funcHandle", "aicAddr", "aivAddr"), "funcHandle", "rtsFuncGetAddr"),
    (K.aclrtGetFunctionName, {"funcHandle": FAKE, "maxLen": 32, "name": BUF}, ("name",), "funcHandle",
     "rtsFuncGetName"),
    (K.aclrtGetFunctionSize, {"funcHandle": FAKE, "aicSize": Ref(), "aivSize": Ref()}, (), "funcHandle",
     "rtFuncGetSize"),
    (K.aclrtGetFunctionAttribute, {"funcHandle": FAKE, "attrType": 0, "attrValue": Ref()},
     ("funcHandle", "attrValue"), "funcHandle", "rtFunctionGetAttribute"),
    (K.aclrtFunctionGetBinary, {"funcHandle": FAKE, "binHandle": Ref()}, (), "funcHandle", "rtFunctionGetBinary"),
    (K.aclrtFunctionGetParamCount, {"func": FAKE, "paramCount": Ref()}, ("func", "paramCount"), "funcHandle",
     "rtFunctionGetParamCount"),
    (K.aclrtFunctionGetParamInfo, {"func": FAKE, "paramIndex": 0, "paramOffset": Ref(), "paramSize": None},
     ("func",), "funcHandle", "rtFunctionGetParamInfo"),
    (K.aclrtFunctionGetAvailDynUbufPerBlock, {"func": FAKE, "flags": 0, "dynamicUbufSize": Ref()},
     ("func", "dynamicUbufSize"), "funcHandle", "rtFunctionGetAvailDynUbufPerBlock"),
    (K.aclrtBinaryGetDevAddress, {"binHandle": FAKE, "binAddr": Ref(), "binSize": Ref()}, ("binHandle",),
     "binHandle", "rtGetBinBuffer"),
    (K.aclrtBinaryGetGlobal, {"binHandle": FAKE, "name": "g", "dptr": Ref(), "size": None}, ("binHandle", "name"),
     "binHandle", "rtBinaryGetGlobal"),
    (K.aclrtBinarySetExceptionCallback, {"binHandle": FAKE, "callback": print, "userData": None},
     ("binHandle", "callback"), "binHandle", "rtBinarySetExceptionCallback"),
    (K.aclrtRegisterCpuFunc, {"handle": FAKE, "funcName": "f", "kernelName": "k", "funcHandle": Ref()},
     ("handle", "funcName", "kernelName", "funcHandle"), "binHandle", "rtsRegisterCpuFunc"),
]  # fmt: skip


@pytest.mark.parametrize("case", HANDLE_CASES, ids=[c[0].__name__ for c in HANDLE_CASES])
def test_handles_never_issued(dev0, case: Case) -> None:
    fn, args, nullable, kind, rt_fn = case
    args = {k: (Ref() if isinstance(v, Ref) else v) for k, v in args.items()}
    assert fn(**args) == 107017
    assert aclGetRecentErrMsg() == bad_handle(kind, rt_fn)
    assert all(v.value is None for v in args.values() if isinstance(v, Ref))
    for i, name in enumerate(nullable):
        assert fn(**(args | dict.fromkeys(nullable[i:]))) == 100000, name
        assert aclGetRecentErrMsg().startswith(null(fn.__name__, name))


def test_both_outputs_null_and_flags(dev0) -> None:
    assert K.aclrtFunctionGetParamInfo(FAKE, 0, None, None) == 100000
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_Null_Pointer(EH0014): aclrtFunctionGetParamInfo failed because paramOffset and paramSize "
        "cannot be NULL pointers at the same time.\n" + INDENT + "Solution: Try again with correct pointer arguments.\n"
    )
    assert K.aclrtBinaryGetGlobal(FAKE, "g", None, None) == 100000
    assert "dptr and size cannot be NULL pointers at the same time." in aclGetRecentErrMsg()
    assert K.aclrtFunctionGetAvailDynUbufPerBlock(FAKE, 1, Ref()) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): aclrtFunctionGetAvailDynUbufPerBlock failed because value 1 for parameter flags "
        "is invalid. Expected value: 0U."
    )


def test_launches_by_symbol(dev0) -> None:
    assert K.aclrtLaunchKernelWithArgsArray(FAKE, 8, None, None, [BUF]) == 107017
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtLaunchKernelWithArgsArray")
    assert K.aclrtLaunchKernelWithArgsArray(None, 8, None, None, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtLaunchKernelWithArgsArray", "func"))
    assert K.aclrtLaunchKernelWithArgsArray(FAKE, 0, None, None, None) == 100000
    assert "value 0 for parameter numBlocks is invalid" in aclGetRecentErrMsg()
    assert K.aclrtLaunchKernelWithArgsArray(FAKE, 1, FAKE, None, None) == 107017  # the stream is validated first
    assert "Parameter stream is invalid" in aclGetRecentErrMsg()
    assert K.aclrtLaunchSIMTKernelWithArgsArray(FAKE, (1, 1, 1), (32, 1, 1), 0, None, None, [BUF]) == 107017
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtLaunchSIMTKernelWithArgsArray")
    assert K.aclrtLaunchSIMTKernelWithHostArgs(FAKE, (1, 1, 1), (32, 1, 1), 0, None, None, BUF, 0, None, 0) == 100000
    assert "value 0 for parameter argsSize is invalid" in aclGetRecentErrMsg()
    assert K.aclrtLaunchSIMTKernelWithHostArgs(FAKE, (1, 1, 1), (32, 1, 1), 0, None, None, BUF, 8, None, 0) == 107017
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtLaunchSIMTKernelWithHostArgs")


def test_get_func_by_symbol(dev0) -> None:
    out = Ref()
    assert K.aclrtGetFuncBySymbol(FAKE, out) == 107044  # ACL_ERROR_RT_INVALID_DEVICE_FUNCTION
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument(EE1017): rtGetFuncBySymbol failed. Parameter symbol is invalid. Reason: The corresponding "
        "kernel function cannot be found through the symbol.\n"
    )
    assert out.value is None
    assert K.aclrtGetFuncBySymbol(FAKE, None) == 100000


SYMBOL = (
    "Invalid_Argument(EE1017): Looking up symbol table failed. Parameter symbol is invalid. Reason: The "
    "corresponding device variable cannot be found through the symbol.\n" + TRACEBACK + INDENT
    + "rtSymbolLookup execution failed, reason=invalid device symbol[FUNC:FuncErrorReason]"
    "[FILE:error_message_manage.cc][LINE:68]\n"
)  # fmt: skip


def test_device_symbols(dev0) -> None:
    host = bytearray(16)
    assert K.aclrtGetSymbolAddress(FAKE, Ref()) == 107043  # ACL_ERROR_RT_INVALID_SYMBOL
    assert aclGetRecentErrMsg() == SYMBOL
    assert K.aclrtGetSymbolSize(FAKE, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtGetSymbolSize", "size"))
    assert K.aclrtMemcpyToSymbol(FAKE, host, 0, 0, 1) == 0  # count 0: nothing to do, nothing checked
    assert K.aclrtMemcpyToSymbol(FAKE, host, 16, 0, 1) == 107043
    assert aclGetRecentErrMsg() == SYMBOL
    assert K.aclrtMemcpyToSymbol(None, host, 16, 0, 1) == 100000
    assert aclGetRecentErrMsg().startswith(null("Checking the synchronous memory copy parameter", "symbol"))
    assert K.aclrtMemcpyToSymbolAsync(FAKE, host, 16, 0, 2, None) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): Checking the synchronous memory copy parameter failed because value "
        "MEMCPY_DEVICE_TO_HOST(2) for parameter kind is invalid. Expected value: ACL_MEMCPY_HOST_TO_DEVICE or "
        "ACL_MEMCPY_DEFAULT."
    )
    assert K.aclrtMemcpyFromSymbol(host, 8, FAKE, 16, 0, 2) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0001): Value 16 for count is invalid. Reason: must not be greater than dstMax."
    )
    assert K.aclrtMemcpyFromSymbolAsync(host, 16, FAKE, 16, 0, 4, None) == 107043
    assert aclGetRecentErrMsg() == SYMBOL


def test_symbols_need_a_context() -> None:
    assert aclInit(None) == 0
    try:
        assert K.aclrtGetSymbolAddress(FAKE, Ref()) == 107002
        assert "rtSymbolLookup execution failed, the context is a null pointer." in aclGetRecentErrMsg()
        assert K.aclrtGetFuncBySymbol(FAKE, Ref()) == 107002
        assert "rtGetFuncBySymbol execution failed, the context is a null pointer." in aclGetRecentErrMsg()
    finally:
        aclFinalize()


def test_exception_info_of_a_failed_kernel(dev0) -> None:
    info = C.aclrtExceptionInfo(1, 2, 3, 0, 507015)
    assert C.aclrtGetArgsFromExceptionInfo(None, Ref(), Ref()) == -1  # ACL_ERROR_INVALID_EXCEPTION_INFO
    assert aclGetRecentErrMsg().startswith(null("aclrtGetArgsFromExceptionInfo", "info"))
    assert C.aclrtGetArgsFromExceptionInfo(info, None, Ref()) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclrtGetArgsFromExceptionInfo", "devArgsPtr"))
    assert C.aclrtGetArgsFromExceptionInfo(info, Ref(), Ref()) == -1
    assert "no argument block to return" in aclGetRecentErrMsg()
    assert C.aclrtGetFuncHandleFromExceptionInfo(info, None) == 100000
    assert C.aclrtGetFuncHandleFromExceptionInfo(info, Ref()) == 207000
    assert "has no aclrtFuncHandle" in aclGetRecentErrMsg()


def test_cann_version(dev0, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    out = Ref()
    assert I.aclsysGetCANNVersion(0, None) == 100000
    assert aclGetRecentErrMsg().startswith(null("aclsysGetCANNVersion", "version"))
    assert I.aclsysGetCANNVersion(1, out) == 0  # the emulated runtime package (9.1.0)
    assert (out.value.version, out.value.majorVersion, out.value.patchVersion) == (b"9.1.0", b"9", b"0")
    assert I.aclsysGetCANNVersion(3, Ref()) == 100003  # hccl: not installed, logged only
    assert I.aclsysGetCANNVersion(99, Ref()) == 100000 and aclGetRecentErrMsg() is None
    info = tmp_path / "share" / "info" / "hccl"
    info.mkdir(parents=True)
    (info / "version.info").write_text("Version=8.5.0-beta.1\n")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    version = I.aclCANNPackageVersion()
    assert I.aclsysGetCANNVersion(3, ctypes.addressof(version)) == 100000  # a bare address: refused
    assert "version must be an aclCANNPackageVersion or a Ref()" in aclGetRecentErrMsg()
    assert I.aclsysGetCANNVersion(3, version) == 0  # the struct itself (as the C ABI's adaptor passes it)
    assert (version.version, version.releaseVersion, version.patchVersion) == (b"8.5.0.beta1", b"0", b"beta1")
    # ParseVersionInfo takes the value as it is (no trimming); a file without Version= is 100003, logged only
    (info / "version.info").write_text("Version=8.5.0 \n")
    assert I.aclsysGetCANNVersion(3, version) == 0 and version.releaseVersion == b"0 "
    (info / "version.info").write_text("Name=hccl\n")
    assert I.aclsysGetCANNVersion(3, version) == 100003 and aclGetRecentErrMsg() is None
