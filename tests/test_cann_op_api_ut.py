"""CANN's own unit tests of phase 1, replayed. The op_api UTs of hicann/ops-math and hicann/ops-nn
(``<op>/tests/ut/op_api/test_aclnn_*.cpp``, the files CANN's CMake builds) call
``aclnnXxxGetWorkspaceSize`` with descriptors of tensors, scalars and arrays, on the UT's stub
platform (ASCEND910B unless a case switches it), and assert the status it returns — sometimes the
workspace size too. Every case ``tests/cann_ut/`` can read that calls an API aclnn_py implements
runs here with the same arguments on the same SoC, and must return what the UT asserts.

The UTs are not part of the repository (CANN's code may not be copied into it): they are read at
test time from the folder ACLNN_PY_CANN_DOCS names (the checkouts tests/test_cann_examples.py
uses). Unset, the module skips at once::

    ACLNN_PY_CANN_DOCS=/tmp/cann-docs .venv/bin/python -m pytest tests/test_cann_op_api_ut.py

A UT's expectation is not always CANN's behaviour: the UT binary links stubs (the platform, the
executor, device memory), and a status that comes from a stub goes in STUB_EXPECTATIONS with the
status CANN's source gives, which is asserted instead. Where the emulator is wrong, the case goes
in EMULATOR_BUGS (xfail, strict) with the op_api line it contradicts. Both are empty at ops-math
c41933244c and ops-nn e5c3fa9327: the emulator returns what all 771 readable cases assert.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("ACLNN_PY_CANN_DOCS"):
    pytest.skip(
        "needs CANN's operator sources, which the repository does not ship: set ACLNN_PY_CANN_DOCS to a folder "
        "holding a checkout (or git archive) of hicann/ops-math and hicann/ops-nn to replay their op_api unit "
        "tests (see tests/test_cann_examples.py)",
        allow_module_level=True,
    )

import cann_ut
from cann_ut import Array, Case, Scalar, Tensor, Value
from helpers import Dev

import aclnn_py
from aclnn_py import Ref, aclGetRecentErrMsg
from aclnn_py.ops import registry
from aclnn_py.soc import KNOWN_FAMILIES

DOCS = Path(os.environ["ACLNN_PY_CANN_DOCS"])
APIS = {a.name: a for a in registry.APIS}
CASES, SKIPPED = cann_ut.read_tree(DOCS, {a.name: len(a.params) for a in registry.APIS}) if DOCS.is_dir() else ([], [])

# The least share of an API's cases the reader must read: the phase-1 calls it replays, against
# those and the OP_API_UTs of the tests it cannot read. (At the commits above it reads every test
# but one: test_aclnn_add.cpp::case_fp32_complex64 passes aclCreateScalar(&aFloat, ACL_COMPLEX64),
# which reads 8 bytes from a 4-byte float.)
READ_SHARE = 0.9

# ---------------------------------------------------------------------------------------------
# the exceptions
# ---------------------------------------------------------------------------------------------

# Cases whose UT expectation comes from the UT's stubs, not from CANN's op_api: case id -> (the
# status CANN's source gives, asserted instead; why, with the source lines).
STUB_EXPECTATIONS: dict[str, tuple[int, str]] = {}

# Cases the emulator gets wrong (the UT is right per CANN's op_api source): case id -> why.
EMULATOR_BUGS: dict[str, str] = {}

# Implemented APIs no built UT calls, and why.
_UNBUILT = "which CANN's CMake does not build (it globs test_aclnn_*.cpp)"
_NO_UT_AT_ALL = ("aclnnClampMin", "aclnnGtTensor", "aclnnGtScalar", "aclnnInplaceGtTensor", "aclnnGeTensor",
                 "aclnnGeScalar", "aclnnInplaceGeScalar", "aclnnInplaceMul", "aclnnInplaceMuls", "aclnnInplaceSub",
                 "aclnnInplaceSubs")  # fmt: skip
NO_UT: dict[str, str] = {
    "aclnnMaximum": f"only math/maximum/tests/ut/op_api/test_Maximum.cpp, {_UNBUILT}",
    "aclnnMinimum": f"only math/minimum/tests/ut/op_api/test_Minimum.cpp, {_UNBUILT}",
    "aclnnLtTensor": f"only math/less/tests/ut/op_api/test_lt_tensor.cpp, {_UNBUILT}",
    "aclnnLtScalar": f"only math/less/tests/ut/op_api/test_lt_scalar.cpp, {_UNBUILT}",
    "aclnnInplaceLtTensor": f"only math/less/tests/ut/op_api/test_inplace_lt_tensor.cpp, {_UNBUILT}",
    "aclnnInplaceLtScalar": f"only math/less/tests/ut/op_api/test_inplace_lt_scalar.cpp, {_UNBUILT}",
    "aclnnInplaceCopy": f"only conversion/view_copy/tests/ut/op_api/test_copy.cpp, {_UNBUILT}",
    "aclnnHardswish": f"only activation/hard_swish/tests/ut/op_host/op_api/test_hardswish*.cpp, {_UNBUILT}",
    "aclnnInplaceHardswish": f"only activation/hard_swish/tests/ut/op_host/op_api/test_hardswish.cpp, {_UNBUILT}",
    "aclnnHardswishBackward": f"only activation/hard_swish_grad/tests/ut/op_host/op_api/test_hardswish_backward.cpp, {_UNBUILT}",
    **dict.fromkeys(_NO_UT_AT_ALL, "no op_api UT calls it"),
}

# ---------------------------------------------------------------------------------------------
# replaying a case
# ---------------------------------------------------------------------------------------------


def _argument(arg: cann_ut.Arg, param: registry.Param, made: list[tuple[Any, Any]]) -> object:
    """One UT argument as phase 1 gets it (the C++ compiler has already matched it to the parameter)."""
    kind = param.kind
    if isinstance(arg, Value) and arg.is_null:
        assert kind in ("tensor", "scalar", "int_array", "bool_array", "float_array", "tensor_list", "scalar_list")
        return None
    if isinstance(arg, Tensor):  # TensorDesc: strides nullptr unless given, storage = view unless given, data nullptr
        assert kind == "tensor", (param, arg)
        storage = list(arg.storage_shape if arg.storage_shape is not None else arg.shape)
        strides = None if arg.strides is None else list(arg.strides)
        handle = aclnn_py.aclCreateTensor(
            list(arg.shape), len(arg.shape), arg.dtype, strides, arg.offset, arg.format, storage, len(storage), None
        )
        made.append((handle, aclnn_py.aclDestroyTensor))
        return handle
    if isinstance(arg, Scalar):
        assert kind == "scalar", (param, arg)
        scalar = aclnn_py.aclCreateScalar(arg.value, arg.dtype)
        made.append((scalar, aclnn_py.aclDestroyScalar))
        return scalar
    if isinstance(arg, Array):
        assert kind == f"{arg.kind}_array", (param, arg)
        create, destroy = {
            "int": (aclnn_py.aclCreateIntArray, aclnn_py.aclDestroyIntArray),
            "bool": (aclnn_py.aclCreateBoolArray, aclnn_py.aclDestroyBoolArray),
            "float": (aclnn_py.aclCreateFloatArray, aclnn_py.aclDestroyFloatArray),
        }[arg.kind]
        array = create(list(arg.values), len(arg.values))
        made.append((array, destroy))
        return array
    assert isinstance(arg, Value) and kind in ("int", "dtype", "float", "double", "bool"), (param, arg)
    return {"int": int, "dtype": int, "float": float, "double": float, "bool": bool}[kind](arg.value)


def replay(case: Case) -> tuple[int, int, str]:
    """Phase 1 of the case on the SoC in effect: (status, workspace size, the recent error message)."""
    dev = Dev()
    made: list[tuple[Any, Any]] = []
    try:
        api = APIS[case.api]
        args = [_argument(a, p, made) for a, p in zip(case.args, api.params, strict=True)]
        ws: Ref[int] = Ref(case.workspace_init)
        ex: Ref[Any] = Ref()
        code = int(getattr(aclnn_py, api.phase1)(*args, ws, ex))
        msg = (aclGetRecentErrMsg() or "").strip()
        if ex.value is not None:  # the UT deletes it
            aclnn_py.aclDestroyAclOpExecutor(ex.value)
        return code, int(ws.value), msg
    finally:
        for handle, destroy in reversed(made):
            destroy(handle)
        dev.close()


def _param(case: Case) -> object:
    marks = [pytest.mark.xfail(reason=EMULATOR_BUGS[case.id], strict=True)] if case.id in EMULATOR_BUGS else []
    return pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_phase1_returns_what_the_cann_ut_asserts(case: Case, soc: Callable[[str], None]) -> None:
    if case.soc not in KNOWN_FAMILIES:
        pytest.skip(f"the UT runs it on {case.soc}, which aclnn_py does not emulate")
    soc(case.soc)
    code, ws, msg = replay(case)
    op, want = ("==", STUB_EXPECTATIONS[case.id][0]) if case.id in STUB_EXPECTATIONS else case.status
    assert (code == want) == (op == "=="), (
        f"{case.describe()}\nphase 1 returned {cann_ut.status_name(code)} ({code}): {msg}"
    )
    if case.workspace is not None and case.id not in STUB_EXPECTATIONS:
        assert ws == case.workspace, f"{case.describe()}\nworkspace size {ws}"


# ---------------------------------------------------------------------------------------------
# the reader and the lists
# ---------------------------------------------------------------------------------------------


def test_the_folder_holds_unit_tests_of_implemented_apis() -> None:
    assert DOCS.is_dir(), f"ACLNN_PY_CANN_DOCS={DOCS} is not a folder"
    assert CASES, f"no op_api unit test of an implemented API under {DOCS}"
    repeated = [i for i, n in Counter(c.id for c in CASES).items() if n > 1]
    assert not repeated, f"case ids must be unique: {repeated}"


@pytest.mark.parametrize("api", sorted({c.api for c in CASES} | {a for s in SKIPPED for a in s.apis}))
def test_the_reader_reads_most_cases_of_each_api(api: str) -> None:
    ((_, read, unreadable),) = [row for row in cann_ut.count_calls(CASES, SKIPPED) if row[0] == api]
    reasons = sorted({s.reason for s in SKIPPED if api in s.apis and s.kind == "unreadable"})
    assert read >= READ_SHARE * (read + unreadable), f"{api}: {read} cases read, {unreadable} not: {reasons}"


def test_every_implemented_api_has_cases_or_a_reason_why_not() -> None:
    assert set(APIS) - {c.api for c in CASES} == set(NO_UT)


def test_the_exception_lists_name_cases_read() -> None:
    ids = {c.id for c in CASES}
    for table in (STUB_EXPECTATIONS, EMULATOR_BUGS):
        assert set(table) <= ids, f"not a case read: {sorted(set(table) - ids)}"
    assert not set(STUB_EXPECTATIONS) & set(EMULATOR_BUGS)
