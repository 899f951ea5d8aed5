"""The kernel-argument family of acl_rt.h (aclrtKernelArgs*, and the launches that take their
arguments as bytes, aclrtLaunchKernelV2 / WithHostArgs): CANN's own argument checks of
src/acl/aclrt_impl/kernel.cpp in their order (not-null, then positive sizes, as the prototype
lists them), then the runtime's handle guard (src/runtime/api/api_c_kernel.cc): no function or
argument handle is ever issued here (no kernel binary loads), so every call that gets that far is
107017 with the guard's EE1017, and no out-parameter is written."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rt_texts import bad_handle, null

import aclnn_py
from aclnn_py import (
    ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_RT_INVALID_HANDLE,
    Ref,
    aclGetRecentErrMsg,
    aclrtKernelArgsAppend,
    aclrtKernelArgsAppendPlaceHolder,
    aclrtKernelArgsFinalize,
    aclrtKernelArgsGetHandleMemSize,
    aclrtKernelArgsGetMemSize,
    aclrtKernelArgsGetPlaceHolderBuffer,
    aclrtKernelArgsInit,
    aclrtKernelArgsInitByUserMem,
    aclrtKernelArgsParaUpdate,
    aclrtLaunchKernelV2,
    aclrtLaunchKernelWithHostArgs,
)

FAKE = object()  # a handle CANN never issued
PARAM = b"\x00" * 8  # host bytes of one pointer argument


# (function, valid arguments, the parameters CANN checks for nullptr in order, the size parameter
# ACL_REQUIRES_POSITIVE_REPORT checks or None, the handle the guard names, the rts function)
Case = tuple[Callable[..., int], dict[str, object], tuple[str, ...], str | None, str, str]
CASES: list[Case] = [
    (aclrtKernelArgsInit, {"funcHandle": FAKE, "argsHandle": Ref()}, ("funcHandle", "argsHandle"), None,
     "funcHandle", "rtsKernelArgsInit"),
    (aclrtKernelArgsGetHandleMemSize, {"funcHandle": FAKE, "memSize": Ref()}, ("funcHandle", "memSize"), None,
     "funcHandle", "rtsKernelArgsGetHandleMemSize"),
    (aclrtKernelArgsGetMemSize, {"funcHandle": FAKE, "userArgsSize": 24, "actualArgsSize": Ref()},
     ("funcHandle", "actualArgsSize"), None, "funcHandle", "rtsKernelArgsGetMemSize"),
    (aclrtKernelArgsInitByUserMem,
     {"funcHandle": FAKE, "argsHandle": FAKE, "userHostMem": bytearray(64), "actualArgsSize": 64},
     ("funcHandle", "argsHandle", "userHostMem"), "actualArgsSize", "funcHandle", "rtsKernelArgsInitByUserMem"),
    (aclrtKernelArgsAppend, {"argsHandle": FAKE, "param": PARAM, "paramSize": 8, "paramHandle": Ref()},
     ("argsHandle", "param", "paramHandle"), "paramSize", "argsHandle", "rtsKernelArgsAppend"),
    (aclrtKernelArgsAppendPlaceHolder, {"argsHandle": FAKE, "paramHandle": Ref()}, ("argsHandle", "paramHandle"),
     None, "argsHandle", "rtsKernelArgsAppendPlaceHolder"),
    (aclrtKernelArgsGetPlaceHolderBuffer,
     {"argsHandle": FAKE, "paramHandle": FAKE, "dataSize": 4, "bufferAddr": Ref()},
     ("argsHandle", "paramHandle", "bufferAddr"), "dataSize", "argsHandle", "rtsKernelArgsGetPlaceHolderBuffer"),
    (aclrtKernelArgsParaUpdate, {"argsHandle": FAKE, "paramHandle": FAKE, "param": PARAM, "paramSize": 8},
     ("argsHandle", "paramHandle", "param"), "paramSize", "argsHandle", "rtsKernelArgsParaUpdate"),
    (aclrtKernelArgsFinalize, {"argsHandle": FAKE}, ("argsHandle",), None, "argsHandle", "rtsKernelArgsFinalize"),
    # the launches that take their arguments as bytes: only the two pointers are checked before the handle
    (aclrtLaunchKernelV2,
     {"funcHandle": FAKE, "numBlocks": 8, "argsData": PARAM, "argsSize": 8, "cfg": None, "stream": None},
     ("funcHandle", "argsData"), None, "funcHandle", "rtsLaunchKernelWithDevArgs"),
    (aclrtLaunchKernelWithHostArgs,
     {"funcHandle": FAKE, "numBlocks": 8, "stream": None, "cfg": None, "hostArgs": PARAM, "argsSize": 8,
      "placeHolderArray": None, "placeHolderNum": 0},
     ("funcHandle", "hostArgs"), None, "funcHandle", "rtsLaunchKernelWithHostArgs"),
]  # fmt: skip
IDS = [c[0].__name__ for c in CASES]


def _outs(args: dict[str, object]) -> list[Ref[object]]:
    return [v for v in args.values() if isinstance(v, Ref)]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_handle_never_issued_is_107017_and_nothing_is_written(dev0, case: Case) -> None:
    fn, args, _, _, kind, rt_fn = case
    args = {k: (Ref() if isinstance(v, Ref) else v) for k, v in args.items()}
    assert fn(**args) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle(kind, rt_fn)
    assert all(ref.value is None for ref in _outs(args))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_each_nullptr_is_refused_in_canns_order(dev0, case: Case) -> None:
    fn, args, nullable, _, _, _ = case
    for i, name in enumerate(nullable):
        # every later parameter is nullptr too: the first one in CANN's order is the one reported
        bad = dict(args) | dict.fromkeys(nullable[i:])
        assert fn(**bad) == ACL_ERROR_INVALID_PARAM, name
        assert aclGetRecentErrMsg().startswith(null(fn.__name__, name))


@pytest.mark.parametrize("case", [c for c in CASES if c[3]], ids=[c[0].__name__ for c in CASES if c[3]])
def test_a_zero_size_is_refused_before_the_handle(dev0, case: Case) -> None:
    fn, args, nullable, size, _, _ = case
    assert size is not None
    assert fn(**(args | {size: 0})) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(
        f"Invalid_Argument(EH0007): {fn.__name__} failed because value 0 for parameter {size} is invalid. "
        "Expected value: must be greater than 0."
    )
    # the size is checked after the pointers before it in the prototype and before those after it
    names = list(args)
    after = [n for n in nullable if names.index(n) > names.index(size)]
    before = [n for n in nullable if names.index(n) < names.index(size)]
    if after:
        assert fn(**(args | {size: 0, after[0]: None})) == ACL_ERROR_INVALID_PARAM
        assert "parameter " + size in aclGetRecentErrMsg()
    assert fn(**(args | {size: 0, before[-1]: None})) == ACL_ERROR_INVALID_PARAM
    assert aclGetRecentErrMsg().startswith(null(fn.__name__, before[-1]))


def test_the_byte_argument_launches_do_not_check_blocks_or_sizes_before_the_handle(dev0) -> None:
    # CANN's aclrtLaunchKernelV2Impl / WithHostArgsImpl check only funcHandle and the argument bytes
    assert aclrtLaunchKernelV2(FAKE, 0, PARAM, 0, None, None) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtsLaunchKernelWithDevArgs")
    assert aclrtLaunchKernelWithHostArgs(FAKE, 0, None, None, PARAM, 0, None, 0) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtsLaunchKernelWithHostArgs")


def test_get_mem_size_does_not_check_user_args_size_before_the_handle(dev0) -> None:
    # CANN's aclrtKernelArgsGetMemSizeImpl checks only the two pointers; 0 reaches the handle guard
    assert aclrtKernelArgsGetMemSize(FAKE, 0, Ref()) == ACL_ERROR_RT_INVALID_HANDLE
    assert aclGetRecentErrMsg() == bad_handle("funcHandle", "rtsKernelArgsGetMemSize")


@pytest.mark.parametrize("bad", [-1, 2**64, "8", 1.5])
def test_a_size_that_is_not_a_size_t_is_refused(dev0, bad: object) -> None:
    assert aclrtKernelArgsAppend(FAKE, PARAM, bad, Ref()) == ACL_ERROR_INVALID_PARAM
    msg = aclGetRecentErrMsg()  # reading it clears it
    assert msg.startswith("aclnn_py:") and "paramSize" in msg


def test_the_family_is_exported_at_the_top_level() -> None:
    for name in IDS:
        assert name in aclnn_py.__all__ and getattr(aclnn_py, name) is not None
