"""The C side of the runtime functions, generated from the C ABI's own headers.

Every function declared under ``capi/include/acl`` (``acl/acl_rt.h``, ``acl/acl_base_rt.h``,
``acl/ops/acl_dvpp.h`` ...) that ``capi/src/aclnn_py_capi.cpp`` does not define by hand gets a
generated C++ definition: it passes its arguments as numbers (pointers and handles as addresses) to
``aclnn_py._cabi.rt_call`` together with a *signature string* that says, parameter by parameter, how
each one reaches the Python function of the same name (a handle to resolve, an out-parameter to
write, a C string to read ...). So a runtime function that follows the conventions needs only its
CANN prototype in the header (and in ``aclnn_py/port/prototypes.py``); an adaptor adapts the few that
do not (C strings as out-buffers, arrays, structs, function pointers): it lives in the
``aclnn_py/_cabi_<group>.py`` module of its chapter, whose ``ADAPTORS`` table ``_cabi`` merges.

Signature string: ``<return>:<param>,<param>...`` with

* return ``e`` status code, ``H`` handle (token), ``p`` pointer (address), ``u`` unsigned number,
  ``f`` float, ``t`` text (written by hand);
* param ``i`` signed number, ``u`` unsigned number, ``f`` float, ``h`` handle in, ``p`` pointer in
  (simulated memory, pinned host addresses translated), ``r`` raw address (kept as C gave it),
  ``s`` C string in, ``H`` handle out (``aclrtStream*`` ...), ``P`` pointer out (``void**``),
  ``o:<t>`` number out (``t`` = ``i32``, ``u32``, ``i64``, ``u64``, ``f32``), ``x`` passed as an
  address to the function's own adaptor (found through ``_cabi``'s merged table).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
INCLUDE = HERE / "include"
SOURCE = HERE / "src" / "aclnn_py_capi.cpp"
# The headers whose functions are generated: the runtime's and acl_meta's (aclnnop/ is gen_ops').
HEADERS = ("acl", "aclnn")

# Handle types: a token in, an object on the Python side.
HANDLES = frozenset(
    (
        "aclrtStream", "aclrtEvent", "aclrtContext", "aclrtNotify", "aclrtCntNotify", "aclrtBinary",
        "aclrtBinHandle", "aclrtFuncHandle", "aclrtArgsHandle", "aclrtParamHandle", "aclDataBuffer*",
        "aclrtStreamConfigHandle*", "aclrtLabel", "aclrtLabelList", "aclrtExceptionInfo*", "aclTensor*",
        "aclScalar*", "aclIntArray*", "aclFloatArray*", "aclBoolArray*", "aclTensorList*", "aclScalarList*",
        "aclOpExecutor*", "aclrtGroupInfo*", "aclmdlRI", "aclmdlRITask", "aclmdlRICondHandle", "aclrtTaskGrp",
        "aclprofConfig*", "aclprofStepInfo*", "aclprofSubscribeConfig*", "acltdtDataItem*", "acltdtDataset*",
        "acltdtChannelHandle*", "aclrtAllocatorDesc", "aclrtMbuf", "acltdtQueueAttr*", "acltdtQueueRoute*",
        "acltdtQueueRouteList*", "acltdtQueueRouteQueryInfo*",
    )
)  # fmt: skip
FUNCTION_POINTERS = frozenset(
    (
        "aclrtHostFunc", "aclrtCallback", "aclrtExceptionInfoCallback", "aclrtDeviceStateCallback",
        "aclrtDeviceTaskAbortCallback", "aclInitCallbackFunc", "aclFinalizeCallbackFunc", "aclrtStreamStateCallback",
        "aclrtOpExceptionCallback", "aclrtAllocatorAllocFunc", "aclrtAllocatorFreeFunc",
        "aclrtAllocatorAllocAdviseFunc", "aclrtAllocatorGetAddrFromBlockFunc", "aclrtSnapShotCallBack",
        "(*)",  # a function pointer written out in the prototype (acldumpRegCallback's messageCallback)
    )
)  # fmt: skip
# ``typedef void* X`` values that belong to the caller (an allocator object, a block): passed as the
# number C gave, never translated (the function stores it and hands it back); function pointers too
RAW_TYPES = frozenset(("aclrtAllocator", "aclrtAllocatorBlock", "aclrtAllocatorAddr"))
# ``typedef void* X`` types that are not handles of the engine: passed as the address they hold
POINTER_TYPEDEFS = frozenset(("aclrtDrvMemHandle", "acltdtBuf"))  # acltdtBuf: acl_tdt_queue.h's mbufs
SIGNED = frozenset(("int", "int8_t", "int16_t", "int32_t", "int64_t"))
UNSIGNED = frozenset(("uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t", "aclFloat16", "bool"))
FLOATS = frozenset(("float", "double"))
OUT_NUMBERS = {
    "int32_t": "i32",
    "int": "i32",
    "uint32_t": "u32",
    "int64_t": "i64",
    "uint64_t": "u64",
    "size_t": "u64",
    "float": "f32",
}
# Parameters whose address is kept as given (descriptors that only store it), and parameters each
# function's own adaptor reads (strings as out-buffers, arrays, structs, function pointers).
RAW = frozenset(
    (
        ("aclCreateDataBuffer", "data"), ("aclUpdateDataBuffer", "data"),
        # msproftx stamps: addresses of the profiler's own pool, not memory the program reads
        ("aclprofDestroyStamp", "stamp"), ("aclprofPush", "stamp"), ("aclprofRangeStart", "stamp"),
        ("aclprofSetStampTraceMessage", "stamp"), ("aclprofMark", "stamp"),
        # structs and host bytes read in place at the program's own address (pinned host memory too),
        # and the argument a snapshot callback gets back
        ("aclrtRandomNumAsync", "taskInfo"), ("aclrtTaskUpdateAsync", "info"), ("aclrtCacheLastTaskOpInfo", "infoPtr"),
        ("aclrtCacheLastTaskExtendInfo", "extendInfoPtr"), ("aclrtProfTrace", "userdata"),
        ("aclrtSnapShotCallbackRegister", "args"),
    )
)  # fmt: skip
# CANN's export macros: acl_prof.h and acl_dump.h use their own (same visibility)
EXPORT = r"(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API|ACL_DUMP_API)\s+(?:ACL_DUMP_WEAK\s+)?"
ADAPTED = frozenset(
    (
        "aclsysGetVersionStr", "aclsysGetVersionNum", "aclrtGetErrorVerbose", "aclGetCannAttributeList",
        "aclrtSetStreamConfigOpt", "aclrtNotifyBatchReset", "aclrtLaunchHostFunc", "aclrtMemcpy2d",
        "aclrtMemcpy2dAsync", "aclrtLaunchCallback", "aclrtPointerGetAttributes", "aclrtSetExceptionInfoCallback",
        "aclrtExceptionInfoCallbackRegister", "aclrtExceptionInfoCallbackUnregister",
        "aclrtGetDeviceUtilizationRate", "aclrtDeviceGetUuid", "aclrtMallocWithCfg", "aclrtMallocHostWithCfg",
        "aclrtNotifyGetExportKey", "aclrtNotifySetImportPid", "aclrtNotifySetImportPidInterServer",
        "aclrtIpcGetEventHandle", "aclrtCntNotifyRecord", "aclrtCntNotifyWaitWithTimeout", "aclrtDeviceGetPCIBusId",
        "aclInitCallbackRegister", "aclInitCallbackUnRegister", "aclFinalizeCallbackRegister",
        "aclFinalizeCallbackUnRegister", "aclrtRegDeviceStateCallback", "aclrtSetDeviceTaskAbortCallback",
        "aclrtRegStreamStateCallback", "aclrtSetStreamAttribute", "aclrtGetStreamAttribute",
        "aclmdlRIGetStreams", "aclmdlRIGetTasksByStream", "aclmdlRIGetName", "aclmdlRICondHandleGetCondPtr",
        "aclmdlRIDestroyRegisterCallback", "aclmdlRIDestroyUnregisterCallback", "aclmdlRITaskGetParams",
        "aclmdlRITaskSetParams", "aclmdlRIKernelTaskGetAttribute", "aclrtCreateLabelList",
        "aclrtDeviceGetHostAtomicCapabilities", "aclrtDeviceGetP2PAtomicCapabilities", "aclrtRepairError",
        "acltdtCreateDataItem", "acltdtGetDataAddrFromItem", "acltdtGetDimsFromItem", "acldumpRegCallback",
        "aclrtAllocatorGetByStream", "aclprofCreateConfig", "aclAppLog", "aclrtLaunchSIMTKernelWithArgsArray",
        "aclrtLaunchSIMTKernelWithHostArgs", "aclrtMemManagedAdvise", "aclrtMemManagedPrefetchAsync", "aclrtGetBufData",
        "aclrtGetBufUserData", "aclrtSetBufUserData",
    )
)  # fmt: skip
# Declared in acl_rt.h as CANN declares them, but not defined: CANN's libacl_rt.so does not export
# them (only the lite C library for IPV350 implements them; docs/zh/api_ref/24_other_APIs.md: not
# supported on Ascend 950, A3, A2, 310P, 910), so a program that links them fails to link as on
# CANN, and one that looks them up with dlsym (example 3_stream_config_query) finds none and skips.
NOT_EXPORTED = frozenset(
    (
        "aclrtCreateStreamConfigHandle",
        "aclrtDestroyStreamConfigHandle",
        "aclrtSetStreamConfigOpt",
        "aclrtCreateStreamV2",
    )
)
BANNER = "// Generated at build time from capi/include/acl by capi/gen_rt.py: do not edit."


@dataclass(frozen=True)
class Param:
    ctype: str  # normalised: no const, no spaces before '*'
    name: str
    decl: str  # as the header writes it (a C++ definition must repeat the pointee's const)


@dataclass(frozen=True)
class Function:
    ret: str
    name: str
    params: tuple[Param, ...]
    header: str

    def signature(self) -> str:
        """The signature string ``rt_call`` reads (see the module docstring)."""
        kinds = [param_kind(self.name, p) for p in self.params]
        return return_kind(self.ret) + ":" + ",".join(kinds)


def _normalise(ctype: str) -> str:
    ctype = re.sub(r"\bconst\b", "", ctype)
    ctype = re.sub(r"\s*\*\s*", "*", ctype)
    return " ".join(ctype.split())


def _split_param(text: str) -> Param:
    if text.strip() == "...":
        return Param("...", "...", "...")  # variadic (aclAppLog): never generated
    fp = re.fullmatch(r"[^()]*\(\s*\*\s*(?:const\s+)?(\w+)\s*\)\s*\([^()]*\)", text.strip())
    if fp is not None:  # a function pointer written out: int32_t (*const name)(args)
        return Param("(*)", fp.group(1), " ".join(text.split()))
    m = re.fullmatch(r"(.*?[\s\*])(\w+)", text.strip())
    if m is None:
        raise ValueError(f"cannot read parameter {text!r}")
    return Param(_normalise(m.group(1)), m.group(2), " ".join(text.split()))


def _top_level_split(params: str) -> list[str]:
    """The parameters, split at the commas outside parentheses (a function pointer's own)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(params):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(params[start:i])
            start = i + 1
    return [*parts, params[start:]]


def declarations(text: str, header: str = "") -> list[Function]:
    """Every exported function declared in a header's text (``ACL_FUNC_VISIBILITY`` and CANN's
    other export macros)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    text = re.sub(r"ACL_DEPRECATED_MESSAGE\(\"[^\"]*\"\)", "", text)
    out = []
    pattern = EXPORT + r"([^;{}()]*?)\b(acl\w+)\s*\(((?:[^;{}()]|\([^;{}()]*\))*)\)\s*;"
    for m in re.finditer(pattern, text):
        ret, name, params = _normalise(m.group(1)), m.group(2), m.group(3).strip()
        plist = () if params in ("", "void") else tuple(_split_param(p) for p in _top_level_split(params))
        out.append(Function(ret, name, plist, header))
    return out


def header_functions() -> list[Function]:
    """The functions declared in the runtime headers, in header order."""
    found: list[Function] = []
    for sub in HEADERS:
        for path in sorted((INCLUDE / sub).rglob("*.h")):
            found += declarations(path.read_text(encoding="utf-8"), str(path.relative_to(INCLUDE)))
    return found


def hand_written(source: str | None = None) -> set[str]:
    """The functions capi/src/aclnn_py_capi.cpp defines itself."""
    text = SOURCE.read_text(encoding="utf-8") if source is None else source
    return set(re.findall(r"^[A-Za-z_][\w \*]*?\b(acl\w+)\s*\([^;{]*\)\s*\{", text, re.M))


def return_kind(ret: str) -> str:
    if ret in ("aclError", "aclnnStatus"):
        return "e"
    if ret == "void":
        return "v"  # the Python function returns 0 (or a refusal's code, recorded): discarded
    if ret in HANDLES:
        return "H"
    if ret == "void*":
        return "p"
    if ret in FLOATS:
        return "f"
    if ret in UNSIGNED or ret in SIGNED:
        return "u"
    if ret == "char*":
        return "t"  # text, kept for the process (aclrtGetSocName, aclGetRecentErrMsg are written by hand)
    if re.fullmatch(r"acl\w+", ret) and ret in enum_names():
        return "u"  # an enum (acltdtTensorType, aclDataType): the number, as C converts it
    raise ValueError(f"no C wrapper for a function returning {ret}")


@functools.cache
def enum_names() -> frozenset[str]:
    """The enum types the headers declare (``typedef enum ... {...} aclXxx;``): a pointer to one
    is an out-parameter; a pointer to any other acl type is a struct the function reads."""
    text = "".join(path.read_text(encoding="utf-8") for path in sorted(INCLUDE.rglob("*.h")))
    named = re.findall(r"typedef\s+enum\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", text)
    return frozenset(named + re.findall(r"\benum\s+(\w+)\s*\{", text))  # C++ style: enum X {...}


def param_kind(func: str, p: Param) -> str:
    t = p.ctype
    if func in ADAPTED:
        return "x"
    if (func, p.name) in RAW or t in RAW_TYPES or t in FUNCTION_POINTERS:
        return "r"
    if t in HANDLES:
        return "h"
    if t in FLOATS:
        return "f"
    if t in SIGNED:
        return "i"
    if t in UNSIGNED:
        return "u"
    if t == "char*":
        return "s"
    if t == "void*" or t in POINTER_TYPEDEFS:
        return "p"
    if t == "void**":
        return "P"
    if t.endswith("*") and t[:-1] in HANDLES:
        return "H"
    if t.endswith("*") and t[:-1] in OUT_NUMBERS:
        return "o:" + OUT_NUMBERS[t[:-1]]
    if t.endswith("*") and t[:-1] in enum_names():
        return "o:i32"  # an enum out-parameter
    if t.endswith("*"):
        return "p"  # a struct the function reads (aclrtLaunchKernelCfg* ...): its address
    if re.fullmatch(r"acl\w+", t):
        return "i"  # an enum
    raise ValueError(f"{func}: no C conversion for parameter {t} {p.name}")


def _py_value(kind: str, p: Param) -> tuple[str, str]:
    """(Py_BuildValue code, C++ expression) passing parameter ``p`` to Python."""
    t = p.ctype
    if kind == "x":  # an adapted function: by the C type alone
        if t in FUNCTION_POINTERS:
            return "K", f"static_cast<unsigned long long>(reinterpret_cast<uintptr_t>({p.name}))"
        if t in FLOATS:
            kind = "f"
        elif t in UNSIGNED:
            kind = "u"
        elif t in SIGNED or (re.fullmatch(r"acl\w+", t) and t not in HANDLES):
            kind = "i"
    if kind == "f":
        return "d", f"static_cast<double>({p.name})"
    if kind == "i":
        return "L", f"static_cast<long long>({p.name})"
    if kind == "u":
        return "K", f"static_cast<unsigned long long>({p.name})"
    if t in FUNCTION_POINTERS:  # a function's address (not convertible to const void*)
        return "K", f"static_cast<unsigned long long>(reinterpret_cast<uintptr_t>({p.name}))"
    return "K", f"P({p.name})"  # handles, pointers, strings: their address


def _failure(func: Function) -> str:
    if func.ret == "aclnnStatus":
        return "ACLNN_ERR_INNER"
    return "ACL_ERROR_RT_INTERNAL_ERROR" if func.name.startswith("aclrt") else "ACL_ERROR_INTERNAL_ERROR"


def _definition(func: Function) -> list[str]:
    params = ", ".join(f"{_c_param(p)}" for p in func.params) or "void"
    kinds = func.signature()
    codes, values = "(ss", [f'"{func.name}"', f'"{kinds}"']
    for p, kind in zip(func.params, kinds.split(":", 1)[1].split(",") if func.params else [], strict=True):
        code, expr = _py_value(kind, p)
        codes += code
        values.append(expr)
    call = f'"rt_call", "{codes})", {", ".join(values)}'
    rk = kinds[0]
    if rk == "t":
        body = f"return TextOf({call});"
    elif rk == "v":
        body = f"(void)Status(0, {call});"
    elif rk == "e":
        body = f"return Status({_failure(func)}, {call});"
    elif rk in ("H", "p"):
        body = f"return static_cast<{func.ret}>(Handle({call}));"
    else:
        body = f"return Value<{func.ret}>(static_cast<{func.ret}>(0), {call});"
    ret = "const char*" if rk == "t" else func.ret  # _normalise dropped the const
    return [f"{ret} {func.name}({params}) {{", f"    {body}", "}"]


def _c_param(p: Param) -> str:
    return p.decl


def wrappers(functions: list[Function] | None = None, skip: set[str] | None = None) -> str:
    """The C++ definitions of the runtime functions not written by hand (included by
    capi/src/aclnn_py_capi.cpp inside its ``extern "C"`` block)."""
    funcs = header_functions() if functions is None else functions
    done = hand_written() if skip is None else skip
    lines = [BANNER, ""]
    for func in funcs:
        if func.name not in done and func.name not in NOT_EXPORTED:
            lines += _definition(func)
            lines.append("")
    return "\n".join(lines)
