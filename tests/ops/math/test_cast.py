"""aclnnCast: error rows in CANN's order, dtypes per chip, the engine l0 Cast picks per pair and
chip, every pair's numbers against independent per-element goldens (goldens_cast), views,
empty and 0-d tensors."""

from __future__ import annotations

import math

import goldens_cast as gc
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, bits

from aclnn_py import (
    ACL_BF16,
    ACL_BOOL,
    ACL_COMPLEX32,
    ACL_COMPLEX64,
    ACL_COMPLEX128,
    ACL_DOUBLE,
    ACL_DT_UNDEFINED,
    ACL_FLOAT,
    ACL_FLOAT4_E2M1,
    ACL_FLOAT8_E4M3FN,
    ACL_FLOAT8_E5M2,
    ACL_FLOAT16,
    ACL_FORMAT_ND,
    ACL_HIFLOAT8,
    ACL_INT4,
    ACL_INT8,
    ACL_INT16,
    ACL_INT32,
    ACL_INT64,
    ACL_UINT8,
    ACL_UINT16,
    ACL_UINT32,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnCast,
    aclnnCastGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py.l0 import cast as l0_cast
from aclnn_py.ops.math import cast as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
RECIPE = {"Ascend910B": "tbe-v220", "Ascend910_93": "tbe-v220", "Ascend950": "arch35", "Ascend910": "tbe-v100",
          "Ascend310P": "tbe-v200"}  # fmt: skip
NAME = {np.dtype(np.float16): "float16", np.dtype(np.float32): "float32", np.dtype(np.float64): "float64",
        BF16: "bfloat16", np.dtype(np.bool_): "bool", np.dtype(np.complex64): "complex64",
        np.dtype(np.complex128): "complex128"} | {np.dtype(n): n for n in gc.BITS}  # fmt: skip


def _p1(*args):
    ws, ex = Ref(0), Ref()
    return aclnnCastGetWorkspaceSize(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _raw(dev, shape, acl, nbytes=64):
    """A contiguous tensor of any dtype (storage-only types too) on fresh device memory."""
    ptr = dev.malloc(nbytes)
    t = aclCreateTensor(list(shape), len(shape), acl, None, 0, ACL_FORMAT_ND, list(shape), len(shape), ptr)
    dev.tensors.append(t)
    return t


# -- error rows ------------------------------------------------------------------------------------


def test_null_out_pointers_come_first(dev):
    t = dev.tensor(np.ones(4, np.float32))
    assert aclnnCastGetWorkspaceSize(None, ACL_INT32, t, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


@pytest.mark.parametrize("which,name", [(0, "self"), (2, "out")])
def test_null_tensors_in_order(dev, which, name):
    args = [dev.tensor(np.ones(4, np.float32)), ACL_INT32, dev.tensor(np.zeros(4, np.int32))]
    args[which] = None
    code, _ws, ex = _p1(*args)
    assert code == ACLNN_ERR_PARAM_NULLPTR and ex.value is None
    assert (
        aclGetRecentErrMsg()
        == f"{PREFIX}Expected a value of type [aclTensor] for argument [{name}] but instead found nullptr.\n"
    )
    code, _, _ = _p1(None, ACL_INT32, None)
    msg = aclGetRecentErrMsg()
    assert msg.count("[self]") == 1 and "[out]" not in msg


@pytest.mark.parametrize("chip", CHIPS)
def test_self_and_dtype_lists_per_chip(chip, soc):
    soc(chip)
    dev = Dev()
    try:
        self_list, dtype_list = facts.self_support_list(), facts.dtype_support_list()
        for acl in (ACL_BF16, ACL_HIFLOAT8, ACL_COMPLEX32, ACL_FLOAT4_E2M1, ACL_INT4, ACL_FLOAT8_E5M2):
            t = _raw(dev, [2], acl)
            code, _, ex = _p1(t, ACL_FLOAT, dev.tensor(np.zeros(2, np.float32)))
            if acl in self_list:  # the dtype passes; the pair may fail later (not emulated: HIFLOAT8, FP4 ...)
                assert code in (0, ACLNN_ERR_INNER_NULLPTR), (chip, acl, aclGetRecentErrMsg())
                if code == 0:
                    aclDestroyAclOpExecutor(ex.value)
                aclGetRecentErrMsg()
            else:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(self_list)}.\n"
                )
            out = _raw(dev, [2], acl)
            code, _, ex = _p1(dev.tensor(np.ones(2, np.float32)), acl, out)
            if acl in dtype_list:
                assert code in (0, ACLNN_ERR_INNER_NULLPTR)  # the dtype passes; the pair may not
                if code == 0:
                    aclDestroyAclOpExecutor(ex.value)
                aclGetRecentErrMsg()
            else:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg() == (
                    f"{PREFIX}The param dtype not implemented for {D.dt_name(acl)}, should be in dtype support list "
                    f"{D.dt_list_str(dtype_list)}.\n"
                )
    finally:
        dev.close()


def test_list_contents():
    assert facts.ASCEND910_DTYPE_SUPPORT_LIST[-1] == ACL_COMPLEX128 and len(facts.ASCEND910_DTYPE_SUPPORT_LIST) == 14
    assert facts.DTYPE_SUPPORT_LIST_DEFAULT[-1] == ACL_BF16
    assert (*facts.REGBASE_SELF_DTYPE_SUPPORT_LIST, ACL_INT4) == facts.REGBASE_DTYPE_SUPPORT_LIST
    assert len(facts.REGBASE_SELF_DTYPE_SUPPORT_LIST) == 21


def test_undefined_dtype_argument(dev):
    code, _, _ = _p1(dev.tensor(np.ones(2, np.float32)), ACL_DT_UNDEFINED, dev.tensor(np.zeros(2, np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}The param dtype not implemented for DT_UNDEFINED, should be")


def test_self_is_checked_before_dtype(dev):
    code, _, _ = _p1(_raw(dev, [2], ACL_HIFLOAT8), ACL_INT4, dev.tensor(np.zeros(2, np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for DT_HIFLOAT8")


def test_shape_rows(dev):
    r9 = dev.tensor(np.ones((1,) * 9, np.float32))
    code, _, _ = _p1(r9, ACL_FLOAT, dev.tensor(np.zeros(1, np.float32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == f"{PREFIX}The self tensor cannot be larger than 8 dimensions.\n"
    code, _, _ = _p1(dev.tensor(np.ones((2, 4), np.float32)), ACL_INT32, dev.tensor(np.zeros((2, 3), np.int32)))
    assert code == ACLNN_ERR_PARAM_INVALID
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Expected tensor for out to have same size as tensor for self, but [2, 3] does not equal [2, 4].\n"
    )
    # only self's rank is checked: a 9-D out fails on the shape comparison
    code, _, _ = _p1(dev.tensor(np.ones(1, np.float32)), ACL_FLOAT, r9)
    assert aclGetRecentErrMsg().startswith(f"{PREFIX}Expected tensor for out to have same size")


def test_int4_out_needs_a_contiguous_self(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        view = dev.strided(np.arange(8, dtype=np.int32), (2, 2), (1, 2))
        out = _raw(dev, [2, 2], ACL_INT4)
        code, _, _ = _p1(view, ACL_INT4, out)
        assert code == ACLNN_ERR_PARAM_INVALID
        assert aclGetRecentErrMsg() == f"{PREFIX}Input tensor must be contiguous if dst_type in INT4\n"
        # the test reads out's dtype, not the dtype argument
        code, _, _ex = _p1(view, ACL_INT4, dev.tensor(np.zeros((2, 2), np.float32)))
        assert code == ACLNN_ERR_INNER_NULLPTR  # passes the check, fails later (INT4 is not emulated)
        aclGetRecentErrMsg()
    finally:
        dev.close()


def test_empty_self_succeeds_before_any_dtype_consistency(dev):
    code, ws, ex = _p1(dev.tensor(np.ones((2, 0), np.float32)), ACL_INT8, dev.tensor(np.zeros((2, 0), np.int32)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert aclnnCast(None, 0, ex.value, dev.stream) == 0


def test_dtype_must_match_out_in_view_copy(dev):
    code, _, _ = _p1(dev.tensor(np.ones(4, np.float32)), ACL_INT8, dev.tensor(np.zeros(4, np.int32)))
    assert code == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Input tensor's dtype[DT_INT8] should be same with output's dtype[DT_INT32].\n"
        "TraceBack (most recent call last):\n        Params check failed.\n"
    )


def test_a_pair_neither_engine_converts_fails_silently(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        code, _, _ = _p1(_raw(dev, [2], ACL_FLOAT8_E5M2), ACL_INT32, dev.tensor(np.zeros(2, np.int32)))
        assert code == ACLNN_ERR_INNER_NULLPTR and aclGetRecentErrMsg() is None
        # a pair the chip converts but aclnn_py holds only as raw bytes: an honest note
        code, _, _ = _p1(dev.tensor(np.ones(2, np.float32)), ACL_HIFLOAT8, _raw(dev, [2], ACL_HIFLOAT8))
        assert code == ACLNN_ERR_INNER_NULLPTR
        assert "the Cast kernel from DT_FLOAT to DT_HIFLOAT8 is not emulated" in aclGetRecentErrMsg()
    finally:
        dev.close()


# -- the engine per pair and chip ------------------------------------------------------------------

ENGINES = [
    # chip, src, dst, engine (None: neither)
    ("Ascend910B", ACL_FLOAT, ACL_INT8, "AiCore"),
    ("Ascend910", ACL_FLOAT, ACL_INT8, "AiCpu"),
    ("Ascend310P", ACL_FLOAT, ACL_INT8, "AiCore"),  # one of the three pairs 310P adds to 910's list
    ("Ascend310P", ACL_INT16, ACL_FLOAT, "AiCore"),
    ("Ascend910", ACL_INT16, ACL_FLOAT, "AiCpu"),
    ("Ascend310P", ACL_FLOAT, ACL_BOOL, "AiCore"),
    ("Ascend910B", ACL_UINT32, ACL_BOOL, "AiCpu"),
    ("Ascend950", ACL_UINT32, ACL_BOOL, "AiCore"),
    ("Ascend910B", ACL_DOUBLE, ACL_FLOAT, "AiCpu"),
    ("Ascend950", ACL_DOUBLE, ACL_FLOAT, "AiCore"),
    ("Ascend950", ACL_FLOAT, ACL_DOUBLE, "AiCpu"),
    ("Ascend910B", ACL_INT64, ACL_INT8, "AiCore"),
    ("Ascend910", ACL_INT64, ACL_INT8, "AiCpu"),
    ("Ascend910B", ACL_BOOL, ACL_FLOAT, "AiCore"),
    ("Ascend910B", ACL_COMPLEX64, ACL_FLOAT, "AiCpu"),
    ("Ascend950", ACL_COMPLEX64, ACL_FLOAT, "AiCore"),
    ("Ascend910B", ACL_FLOAT, ACL_FLOAT8_E4M3FN, None),
    ("Ascend950", ACL_FLOAT, ACL_FLOAT8_E4M3FN, "AiCore"),
    ("Ascend950", ACL_FLOAT8_E4M3FN, ACL_FLOAT16, "AiCore"),
    ("Ascend950", ACL_FLOAT8_E4M3FN, ACL_INT32, None),
]


@pytest.mark.parametrize("chip,src,dst,engine", ENGINES)
def test_engine_per_pair_and_chip(soc, chip, src, dst, engine):
    soc(chip)
    assert l0_cast.engine(src, dst) == engine


def test_pair_lists_are_cast_cpp_s():
    assert len(l0_cast.ASCEND910_AICORE_DTYPE_SUPPORT_LIST) == 34  # BOOL->FLOAT twice
    assert len(set(l0_cast.ASCEND910_AICORE_DTYPE_SUPPORT_LIST)) == 33
    assert len(l0_cast.ASCEND910B_AICORE_DTYPE_SUPPORT_LIST) == 91
    assert len(l0_cast.REGBASE_AICORE_DTYPE_SUPPORT_LIST) == 159
    assert set(l0_cast.ASCEND910B_AICORE_DTYPE_SUPPORT_LIST) <= set(l0_cast.REGBASE_AICORE_DTYPE_SUPPORT_LIST)
    assert l0_cast.REGBASE_AICORE_DTYPE_SUPPORT_LIST[-1] == (ACL_DOUBLE, ACL_INT64)
    assert l0_cast.ASCEND910B_AICORE_DTYPE_SUPPORT_LIST[-1] == (ACL_BF16, ACL_INT64)


def test_complex_sources_go_to_tensorflows_kernel(dev):
    code, _, ex = _p1(dev.tensor(np.ones(2, np.complex64)), ACL_FLOAT, dev.tensor(np.zeros(2, np.float32)))
    assert code == 0
    ln = ex.value.launches[0]
    assert ln.engine == "AiCpu" and ln.attrs == {"SrcT": "DT_COMPLEX64", "DstT": "DT_FLOAT", "Truncate": False}
    aclDestroyAclOpExecutor(ex.value)
    code, _, ex = _p1(dev.tensor(np.ones(2, np.float64)), ACL_INT32, dev.tensor(np.zeros(2, np.int32)))
    assert ex.value.launches[0].attrs == {"dst_type": "DT_INT32"}
    aclDestroyAclOpExecutor(ex.value)


# -- every pair's numbers, per chip ----------------------------------------------------------------

FLOAT_VALUES = [0.0, -0.0, 1.5, -1.5, 2.5, 0.1, 127.5, 128.7, -128.5, -129.3, 255.5, 256.25, 300.7, -300.7, 1919.0,
                2049.5, 65504.0, 70000.9, -70000.0, 16777217.0, 2.0**31, -(2.0**31), 3e9, -3e9, 1e20, -1e20,
                float("nan"), float("inf"), float("-inf"), 1e-40]  # fmt: skip
INT_VALUES = [0, 1, -1, 127, 128, -128, -129, 255, 256, 300, -300, 1919, 1920, -2048, -2049, 2049, 5000, 32767,
              -32769, 65535, 65536, 70000, 16777217, 2**31 - 1, -(2**31), 2**31, 2**32 + 3, 2**40 + 2**17 + 1,
              -(2**40), 2**53 + 1, 2**63 - 1, -(2**63), 2**64 - 1]  # fmt: skip
COMPLEX_VALUES = [1.5 - 2j, -300.7 + 1j, complex(float("nan"), 0), 0j, 3e9 + 0j]


def _sample(npdt: np.dtype) -> tuple[np.ndarray, list]:
    """Values of a dtype and the exact Python value each element holds (bool: its byte)."""
    if npdt == np.bool_:
        raw = np.array([0, 1, 2, 255], np.uint8)
        return raw.view(np.bool_), raw.tolist()
    if npdt.kind in "iu":
        info = np.iinfo(npdt)
        vals = [v for v in INT_VALUES if info.min <= v <= info.max]
        return np.array(vals, dtype=npdt), vals
    with np.errstate(all="ignore"):
        if npdt.kind == "c":
            arr = np.array(COMPLEX_VALUES, dtype=npdt)
            return arr, [complex(v) for v in arr]
        arr = np.array(FLOAT_VALUES, np.float64).astype(npdt)
    return arr, [float(v) for v in arr.astype(np.float64)]


def _golden(x, src: str, dst: str, recipe: str):
    """The value the recipe stores for one element (floats as Python floats, NaN included)."""
    if src == "bool":
        v = gc.read_bool(x, recipe)
        if dst == "bool":
            return x != 0
        if dst == "uint8" and recipe in ("tbe-v100", "tbe-v200"):  # through float16 and its absolute value
            return abs(v)
        return _golden(v, "uint8" if recipe == "aicpu" else "int8", dst, recipe)
    if src.startswith("complex"):
        if dst.startswith("complex"):
            part = "float32" if dst == "complex64" else "float64"
            return complex(_golden(x.real, "float64", part, recipe), _golden(x.imag, "float64", part, recipe))
        x, src = x.real, ("float32" if src == "complex64" else "float64")
    if dst == "bool":
        return gc.to_bool(x, src, recipe)
    if dst.startswith("complex"):
        part = "float32" if dst == "complex64" else "float64"
        return complex(gc.round_to(x, part) if isinstance(x, int) else _golden(x, src, part, recipe), 0.0)
    if isinstance(x, float):
        if dst in gc.BITS:
            return gc.float_to_int(x, src, dst, recipe)
        if math.isnan(x) or x == 0:
            return x
        if src == "float64" and dst == "bfloat16":  # rounded to float32 first (aclnn_py's choice, see fidelity)
            return gc.round_to(gc.round_to(x, "float32"), "bfloat16")
        return gc.round_to(x, dst)
    if dst in gc.BITS:
        return gc.int_to_int(x, src, dst, recipe)
    return gc.int_to_float(x, src, dst, recipe)


def _check(got: np.ndarray, want: list, npdt: np.dtype, what) -> None:
    if npdt.kind == "c":
        for g, w in zip(got.tolist(), want):
            for a, b in ((g.real, w.real), (g.imag, w.imag)):
                assert (math.isnan(a) and math.isnan(b)) or a == b, (what, got, want)
        return
    if npdt.kind == "f" or npdt == BF16:
        g = got.astype(np.float64)
        w = np.array(want, np.float64)
        assert (np.isnan(g) == np.isnan(w)).all(), (what, got, want)
        keep = ~np.isnan(w)
        with np.errstate(all="ignore"):
            assert (bits(got[keep]) == bits(w[keep].astype(npdt))).all(), (what, got, want)
        return
    assert got.tolist() == [npdt.type(w).item() for w in want], (what, got.tolist(), want)


def _numpy_dtypes(lst):
    return [np.dtype(D.numpy_dtype(d)) for d in lst if D.numpy_dtype(d) is not None
            and d not in (D.DT_FLOAT8_E5M2, D.DT_FLOAT8_E4M3FN, D.DT_FLOAT8_E8M0)]  # fmt: skip


@pytest.mark.parametrize("chip", CHIPS)
def test_every_pair_against_goldens(chip, soc):
    """Every (self, dtype) pair of the chip's lists: the engine l0 Cast picks (none: 561103,
    nothing reported), then every element against the engine's recipe."""
    soc(chip)
    dev = Dev()
    try:
        for sdt in _numpy_dtypes(facts.self_support_list()):
            x, values = _sample(sdt)
            t = dev.tensor(x, acl_dtype=int(ACL_OF[sdt]))
            for ddt in _numpy_dtypes(facts.dtype_support_list()):
                if ddt == sdt:
                    continue
                acl_s, acl_d = ACL_OF[sdt], ACL_OF[ddt]
                out = dev.tensor(np.zeros(x.shape, ddt))
                engine = l0_cast.engine(int(acl_s), int(acl_d))
                code, ws, ex = _p1(t, acl_d, out)
                if engine is None:
                    assert code == ACLNN_ERR_INNER_NULLPTR and aclGetRecentErrMsg() is None
                    continue
                assert code == 0, (chip, sdt, ddt, aclGetRecentErrMsg())
                assert _graph(ex.value) == ["Cast" + ("@AiCpu" if engine == "AiCpu" else "")]
                assert aclnnCast(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
                recipe = "aicpu" if engine == "AiCpu" else RECIPE[chip]
                want = [_golden(v, NAME[sdt], NAME[ddt], recipe) for v in values]
                _check(dev.read(out), want, ddt, (chip, recipe, sdt, ddt))
    finally:
        dev.close()


# -- named facts of the recipes ----------------------------------------------------------------------


def _cast(dev, x, acl_dst, npdt, acl_src=None):
    out = dev.tensor(np.zeros(x.shape, npdt), acl_dtype=acl_dst)
    src = dev.tensor(x, acl_dtype=acl_src)
    assert dev.run(aclnnCastGetWorkspaceSize, aclnnCast, src, acl_dst, out) == (0, 0, 0), aclGetRecentErrMsg()
    return dev.read(out, npdt)


FACTS = [
    # chip, source values, destination, expected — the doc's and the kernels' statements
    ("Ascend910B", np.array([np.nan, 300.7, -1.5], np.float32), ACL_INT32, [0, 300, -1]),  # NaN -> 0, not INT_MIN
    ("Ascend910B", np.array([3e9, -3e9], np.float32), ACL_INT32, [2**31 - 1, -(2**31)]),  # saturated
    ("Ascend950", np.array([300.7, -1.5, 1e10], np.float32), ACL_INT8, [44, -1, -1]),  # int32 sat, low byte
    ("Ascend950", np.array([-1.0, 300.5], np.float32), ACL_UINT8, [255, 44]),
    ("Ascend910B", np.array([300.7, -1.5], np.float32), ACL_INT8, [127, -1]),  # TBE: saturates
    ("Ascend910B", np.array([300.7, -1.5], np.float16), ACL_INT8, [44, -1]),  # TBE: vand 255
    ("Ascend910B", np.array([-1.0, 300.7], np.float16), ACL_UINT8, [255, 44]),  # TBE: mod 256
    ("Ascend910B", np.array([-1.0, 300.7], np.float32), ACL_UINT8, [255, 44]),  # TBE: the int64's low byte
    ("Ascend910", np.array([-1.0, 300.7], np.float32), ACL_UINT8, [0, 44]),  # AI CPU: fcvtzu, low byte
    (
        "Ascend910B",
        np.array([1919, 1920, -2048, -2049, 2049], np.int32),
        ACL_INT8,
        [127, -128, 0, 0, 0],
    ),  # f16: inexact beyond
    ("Ascend910B", np.array([70000, -5], np.int32), ACL_UINT16, [65535, 0]),  # direct: saturated (chosen)
    ("Ascend910B", np.array([-91, 300], np.int32), ACL_UINT8, [165, 44]),  # to a byte: the low bits (CANN's ST)
    ("Ascend910B", np.array([-5, 127], np.int8), ACL_UINT8, [251, 127]),
    ("Ascend910B", np.array([200, -200], np.int16), ACL_INT8, [-56, 56]),
    ("Ascend950", np.array([70000, -5], np.int32), ACL_UINT16, [4464, 65531]),  # the low bits
    ("Ascend910B", np.array([2**31], np.int64), ACL_INT32, [2**31 - 1]),
    ("Ascend950", np.array([2**31], np.int64), ACL_INT32, [-(2**31)]),
    ("Ascend910B", np.array([2**24 + 2**16 + 1], np.int32), ACL_BF16, [2**24]),  # twice: 2^24+2^16 then even
    ("Ascend910B", np.array([2049], np.int32), ACL_FLOAT16, [2048]),
    ("Ascend950", np.array([2**24 + 2**16 + 1], np.uint32), ACL_BF16, [2**24]),
    ("Ascend950", np.array([2**24 + 2**16 + 1], np.int32), ACL_FLOAT, [2**24 + 2**16]),
    ("Ascend910B", np.array([np.nan, -0.0, 1e-30], np.float32), ACL_BOOL, [True, False, True]),
    ("Ascend910", np.array([np.nan, -0.0, 1e-30], np.float32), ACL_BOOL, [False, False, True]),
]


@pytest.mark.parametrize("chip,x,dst,want", FACTS)
def test_named_facts(soc, chip, x, dst, want):
    soc(chip)
    dev = Dev()
    try:
        npdt = D.numpy_dtype(int(dst))
        got = _cast(dev, x, dst, npdt)
        assert got.astype(np.float64).tolist() == [float(w) for w in want]
    finally:
        dev.close()


def test_bool_bytes_are_read_raw(soc):
    """A bool holding the byte 2 (TBE Add's True + True) converts as 2; the AI Core reads 255 as -1."""
    raw = np.array([0, 1, 2, 255], np.uint8).view(np.bool_)
    for chip, acl, want in (("Ascend910B", ACL_FLOAT, [0, 1, 2, -1]), ("Ascend910B", ACL_INT16, [0, 1, 2, 255]),
                            ("Ascend950", ACL_UINT8, [0, 1, 2, 255]), ("Ascend910", ACL_UINT8, [0, 1, 2, 1])):  # fmt: skip
        soc(chip)
        dev = Dev()
        try:
            got = _cast(dev, raw, acl, D.numpy_dtype(int(acl)))
            assert got.astype(np.float64).tolist() == want, (chip, acl)
        finally:
            dev.close()


def test_float8_on_ascend950(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        x = np.array([1.0, 2.125, 3.5, 0.1, -448.0, 300.0], np.float32)
        got = _cast(dev, x, ACL_FLOAT8_E4M3FN, ml_dtypes.float8_e4m3fn)
        assert got.astype(np.float32).tolist() == [1.0, 2.0, 3.5, 0.1015625, -448.0, 288.0]  # half to even
        back = _cast(dev, got, ACL_BF16, BF16, acl_src=ACL_FLOAT8_E4M3FN)
        assert back.astype(np.float32).tolist() == got.astype(np.float32).tolist()
    finally:
        dev.close()


def test_float_to_half_rounds_half_to_even(dev):
    x = np.array([1 + 2**-11, 1 + 3 * 2**-11, 65519.99, 65520.0, 2**-25, 2**-25 * 1.5], np.float32)
    got = _cast(dev, x, ACL_FLOAT16, np.float16)
    assert got.astype(np.float64).tolist() == [1.0, 1 + 2**-9, 65504.0, np.inf, 0.0, 2**-24]


# -- graph, views, 0-d -----------------------------------------------------------------------------


def test_same_dtype_is_a_copy(dev):
    x = np.arange(6, dtype=np.float32)
    t, o = dev.tensor(x), dev.tensor(np.zeros(6, np.float32))
    code, _, ex = _p1(t, ACL_FLOAT, o)
    assert code == 0 and _graph(ex.value) == ["TensorMove"]
    assert ex.value.steps[1].note == "no kernel: already DT_FLOAT"
    aclDestroyAclOpExecutor(ex.value)
    assert (_cast(dev, x, ACL_FLOAT, np.float32) == x).all()


def test_non_contiguous_self_and_out(dev):
    xs = np.arange(12, dtype=np.float32).reshape(3, 4) + 0.5
    view = dev.strided(xs, (4, 3), (1, 4))
    out = dev.strided(np.zeros((3, 4), np.int32), (4, 3), (1, 4))
    code, ws, ex = _p1(view, ACL_INT32, out)
    assert code == 0 and _graph(ex.value) == ["Transpose", "Cast", "Transpose"]
    assert aclnnCast(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert (dev.read(out) == np.trunc(xs.T).astype(np.int32)).all()


def test_zero_dim(dev):
    got = _cast(dev, np.array(-2.75, np.float32), ACL_INT16, np.int16)
    assert got.shape == () and int(got) == -2


def test_the_example(dev):
    """ops-math's example: float self 0.1 .. 7.1 to DOUBLE, printed with %f."""
    x = np.arange(8, dtype=np.float32).reshape(4, 2) + np.float32(0.1)
    got = _cast(dev, x, ACL_DOUBLE, np.float64)
    assert [f"{v:f}" for v in got.reshape(-1)] == ["%f" % (i + 0.1) for i in range(8)]


def test_unsigned_sources(dev):
    x = np.array([0, 65535, 4000000000], np.uint32)
    got = _cast(dev, x, ACL_FLOAT, np.float32)  # AI CPU on Ascend910B
    assert got.tolist() == [0.0, 65535.0, 4000000000.0]
    assert _cast(dev, np.array([65535], np.uint16), ACL_INT8, np.int8).tolist() == [-1]  # TBE to a byte: low bits
    assert _cast(dev, np.array([70000], np.int64), ACL_UINT16, np.uint16).tolist() == [65535]
    assert _cast(dev, np.array([1, 2], np.uint64), ACL_INT8, np.int8).tolist() == [1, 2]  # AI CPU
