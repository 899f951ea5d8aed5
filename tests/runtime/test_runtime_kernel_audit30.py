"""The kernel chapter against hicann/runtime's source (audit of stop 30): the loads' paths before
the emulator's 207000 (a file that cannot be accessed, rtBinaryLoadWithoutTilingKey's feature
gate), the NULL function handle the handle guard lets through to the decorators' EE1004, the
function guard's name (funcHandle) in the launches by symbol, rtFuncGetSize's and
rtsGetHardwareSyncAddr's chip gates, the memcpy-kind descriptions of the symbol copies, and the
SIMT argument-array launch converting ``func`` before its stream guard."""

from __future__ import annotations

import pytest
from rt_texts import INDENT, POINTER_SOLUTION, TRACEBACK, bad_handle, emulator

from aclnn_py import (
    ACL_RT_THREAD_LEVEL,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtGetLastError,
    aclrtResetDevice,
    aclrtSetDevice,
)
from aclnn_py.runtime import api_kernel as K

FAKE = object()  # a handle CANN never issued


def _unreadable(path: str) -> str:
    return (
        f"Invalid_Argument(EE1012): Read binary file failed. Value {path} for binPath is invalid. Reason: Path {path} "
        "cannot be accessed.\n" + TRACEBACK + INDENT
        + "Check param failed, program can not be null.[FUNC:LoadNonCpu][FILE:binary_loader.cc][LINE:480]\n"
        + INDENT + "The argument is invalid. Reason: rtsBinaryLoadFromFile execution failed.\n"
    )  # fmt: skip


def _rt_null(text: str, rt_fn: str) -> str:
    return (
        f"Invalid_Argument_Null_Pointer(EE1004): {text}\n" + POINTER_SOLUTION + TRACEBACK + INDENT
        + f"The argument is invalid. Reason: {rt_fn} execution failed.\n"
    )  # fmt: skip


def test_a_binary_file_that_cannot_be_accessed_is_canns_107000(dev0, tmp_path) -> None:
    missing = str(tmp_path / "add_custom.o")
    handle = Ref()
    assert K.aclrtBinaryLoadFromFile(missing, None, handle) == 107000  # ACL_ERROR_RT_PARAM_INVALID
    assert aclGetRecentErrMsg() == _unreadable(missing)
    assert handle.value is None
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 107000
    assert K.aclrtBinaryLoadFromFile("", None, handle) == 107000  # RealPath("") is ""
    assert aclGetRecentErrMsg() == _unreadable("")
    long = "/" + "a" * 4095  # RealPath refuses PATH_MAX or more
    assert K.aclrtBinaryLoadFromFile(long, None, handle) == 107000
    aclGetRecentErrMsg()


def test_an_existing_binary_file_or_one_loaded_with_options_is_refused_with_207000(dev0, tmp_path) -> None:
    path = tmp_path / "add_custom.o"
    path.write_bytes(b"\x7fELF")
    assert K.aclrtBinaryLoadFromFile(str(path), None, Ref()) == 207000
    assert aclGetRecentErrMsg().startswith(emulator(f"aclrtBinaryLoadFromFile: loading the kernel binary {path}")[:-1])
    # options are parsed before the file is read (and may name another file): not read here
    assert K.aclrtBinaryLoadFromFile(str(tmp_path / "missing.o"), 0x1000, Ref()) == 207000
    assert aclGetRecentErrMsg().startswith("aclnn_py: aclrtBinaryLoadFromFile:")


def test_a_binary_file_is_read_without_a_context() -> None:
    assert aclInit(None) == 0
    try:
        assert K.aclrtBinaryLoadFromFile("/nonexistent/kernel.o", None, Ref()) == 107000
        assert aclGetRecentErrMsg().startswith(_unreadable("/nonexistent/kernel.o"))
    finally:
        aclFinalize()


def test_binary_load_checks_the_length_then_the_context_then_is_refused() -> None:
    """rtBinaryLoadWithoutTilingKey: every emulated chip has its feature; ApiErrorDecorator refuses a
    length of 0 (EE1003, 107000), ApiImpl a thread without a context (107002); then aclnn_py's 207000."""
    assert aclInit(None) == 0
    try:
        empty, binary = K.aclrtCreateBinary(b"\x7fELF", 0), K.aclrtCreateBinary(b"\x7fELF", 4)
        assert K.aclrtBinaryLoad(empty, Ref()) == 107000
        assert aclGetRecentErrMsg().startswith(
            "Invalid_Argument(EE1003): Loading the operator binary data without the tiling key failed because "
            "value 0 for parameter length is invalid. Expected value: not equal to 0."
        )
        assert K.aclrtBinaryLoad(binary, Ref()) == 107002  # no context yet
        aclGetRecentErrMsg()
        assert aclrtSetDevice(0) == 0
        assert K.aclrtBinaryLoad(binary, Ref()) == 207000
        assert "aclnn_py cannot run device code" in aclGetRecentErrMsg()
        assert K.aclrtBinaryLoad(binary, None) == 100000  # the ACL layer's checks come first
        for b in (empty, binary):
            assert K.aclrtDestroyBinary(b) == 0
        aclrtResetDevice(0)
    finally:
        aclFinalize()


def test_a_null_function_handle_passes_the_guard_to_the_decorators_ee1004(dev0) -> None:
    assert K.aclrtGetFunctionName(None, 32, bytearray(32)) == 107000
    assert aclGetRecentErrMsg() == _rt_null(
        "Obtaining the kernel function name failed because kernel cannot be a NULL pointer.", "rtsFuncGetName"
    )
    assert K.aclrtGetFunctionName(None, 32, None) == 100000  # ACL checks name first
    aclGetRecentErrMsg()
    assert K.aclrtGetFunctionSize(0, None, None) == 107000  # funcHandle before aicSize
    assert aclGetRecentErrMsg() == _rt_null(
        "Obtaining the size of the kernel function code segment failed because funcHandle cannot be a NULL pointer.",
        "rtFuncGetSize",
    )
    assert K.aclrtFunctionGetBinary(None, None) == 107000
    assert aclGetRecentErrMsg() == _rt_null(
        "Obtaining the binary handle of an operator failed because funcHandle cannot be a NULL pointer.",
        "rtFunctionGetBinary",
    )
    assert K.aclrtFunctionGetBinary(FAKE, None) == 107017  # a handle: the guard first
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtFunctionGetBinary")


@pytest.mark.parametrize(
    "call",
    [
        lambda: K.aclrtFunctionGetParamCount(FAKE, Ref()),
        lambda: K.aclrtFunctionGetParamInfo(FAKE, 0, Ref(), None),
        lambda: K.aclrtFunctionGetAvailDynUbufPerBlock(FAKE, 0, Ref()),
    ],
    ids=["ParamCount", "ParamInfo", "AvailDynUbuf"],
)
def test_the_function_guard_names_the_kernel_magic_funchandle(dev0, call) -> None:
    assert call() == 107017
    assert "Object validation failed. Parameter funcHandle is invalid." in aclGetRecentErrMsg()


def test_function_size_on_ascend910_is_207000_without_report_or_last_error(soc) -> None:
    soc("Ascend910")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        aclrtGetLastError(ACL_RT_THREAD_LEVEL)
        assert K.aclrtGetFunctionSize(None, None, None) == 207000  # before the NULL check
        assert K.aclrtGetFunctionSize(FAKE, Ref(), Ref()) == 207000  # and before the guard
        assert aclGetRecentErrMsg() is None
        assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == 0  # COND_RETURN_WARN sets no last error
    finally:
        aclrtResetDevice(0)
        aclFinalize()


@pytest.mark.parametrize("family", ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"])
def test_hardware_sync_addr_checks_addr_then_the_chip(soc, family: str) -> None:
    soc(family)
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        assert K.aclrtGetHardwareSyncAddr(None) == 107000
        assert aclGetRecentErrMsg() == (
            "Invalid_Argument_Null_Pointer(EE1004): rtsGetHardwareSyncAddr failed because addr cannot be a NULL "
            "pointer.\n" + POINTER_SOLUTION
        )
        assert K.aclrtGetHardwareSyncAddr(Ref()) == 207000
        msg = aclGetRecentErrMsg()
        if family in ("Ascend910B", "Ascend910_93"):  # the chip has the address: the emulator refuses
            assert msg.startswith("aclnn_py: aclrtGetHardwareSyncAddr:")
        else:
            assert (
                msg == "Not_Supported(EE1005): The current system or device does not support rtsGetHardwareSyncAddr.\n"
            )
    finally:
        aclrtResetDevice(0)
        aclFinalize()


def test_symbol_copies_describe_the_kind_as_get_memcpy_kind_desc(dev0) -> None:
    host = bytearray(16)
    expected = "Expected value: ACL_MEMCPY_{} or ACL_MEMCPY_DEFAULT."
    assert K.aclrtMemcpyToSymbol(FAKE, host, 16, 0, 3) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): Checking the synchronous memory copy parameter failed because value "
        "MEMCPY_DEVICE_TO_DEVICE(3) for parameter kind is invalid. " + expected.format("HOST_TO_DEVICE")
    )
    assert K.aclrtMemcpyFromSymbolAsync(host, 16, FAKE, 16, 0, 9, None) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0007): Checking the synchronous memory copy parameter failed because value UNKNOWN(9) "
        "for parameter kind is invalid. " + expected.format("DEVICE_TO_HOST")
    )
    assert K.aclrtMemcpyFromSymbol(host, 16, FAKE, 16, 0, -1) == 100000
    assert "value UNKNOWN(-1) for parameter kind" in aclGetRecentErrMsg()


def test_simt_args_array_converts_func_before_its_stream_guard(dev0) -> None:
    # rtLaunchSIMTKernelWithArgsArray: ConvertFuncToKernel, then the stream guard
    assert K.aclrtLaunchSIMTKernelWithArgsArray(FAKE, (1, 1, 1), (32, 1, 1), 0, FAKE, None, [b""]) == 107017
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtLaunchSIMTKernelWithArgsArray")
    # the other two launches by symbol look at the stream first
    assert K.aclrtLaunchKernelWithArgsArray(FAKE, 1, FAKE, None, [b""]) == 107017
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtLaunchKernelWithArgsArray")
    host = bytearray(8)
    assert K.aclrtLaunchSIMTKernelWithHostArgs(FAKE, (1, 1, 1), (32, 1, 1), 0, FAKE, None, host, 8, None, 0) == 107017
    assert aclGetRecentErrMsg() == bad_handle("stream", "rtLaunchSIMTKernelWithHostArgs")
