"""aclnnIndexSelect: error rows in CANN's order with whole messages, dtypes per chip, the graph's
branches (GatherV2 / GatherV3, AI Core / AI CPU), exact copies, out-of-range indices per kernel,
0-d and empty tensors, views, the op cache."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal

from aclnn_py import (
    ACL_BF16,
    ACL_DT_UNDEFINED,
    ACL_ERROR_RT_AICORE_EXCEPTION,
    ACL_ERROR_RT_AICPU_EXCEPTION,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_FORMAT_NC1HWC0,
    ACL_FORMAT_NHWC,
    ACL_INT32,
    ACLNN_ERR_INNER_NULLPTR,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnIndexSelect,
    aclnnIndexSelectGetWorkspaceSize,
    aclrtSynchronizeStream,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.ops.index import index_select as facts
from aclnn_py.runtime import sanitizer
from aclnn_py.soc import emulating

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
P1, P2 = aclnnIndexSelectGetWorkspaceSize, aclnnIndexSelect


def _p1(*args):
    ws, ex = Ref(0), Ref()
    return P1(*args, ws, ex), ws, ex


def _graph(ex) -> list[str]:
    return [f"{ln.op_type}{'@AiCpu' if ln.engine == 'AiCpu' else ''}" for ln in ex.launches]


def _fails(code, message, *args):
    got, _, ex = _p1(*args)
    assert got == code
    assert aclGetRecentErrMsg() == f"{PREFIX}{message}\n"
    assert ex.value is None


def _run(dev, *args):
    assert dev.run(P1, P2, *args) == (0, 0, 0), aclGetRecentErrMsg()


def _meta(shape, dtype=ACL_FLOAT, fmt=0):
    """A tensor without data (phase 1 only)."""
    shape = list(shape)
    return aclCreateTensor(shape, len(shape), dtype, None, 0, fmt, shape, len(shape), None)


# -- error rows --------------------------------------------------------------------------------------


@pytest.mark.parametrize("which,name", [(0, "self"), (2, "index"), (3, "out")])
def test_null_tensors_in_order(dev, which, name):
    args = [dev.tensor(np.ones((2, 3), np.float32)), 0, dev.tensor(np.array([1], np.int64)),
            dev.tensor(np.zeros((1, 3), np.float32))]  # fmt: skip
    args[which] = None
    if which == 0:
        args[2] = None  # self is named first even when index is null too
    _fails(ACLNN_ERR_PARAM_NULLPTR, f"Expected a proper Tensor but got null for argument {name}.", *args)


def test_null_out_pointers_come_first(dev):
    t = dev.tensor(np.ones(3, np.float32))
    assert P1(None, 0, None, t, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


def test_dtype_rows_in_order(dev):
    f = dev.tensor(np.ones((2, 3), np.float32))
    i = dev.tensor(np.array([0], np.int32))
    o = dev.tensor(np.zeros((1, 3), np.float32))
    undefined = dev.tensor(np.ones((2, 3), np.float32), acl_dtype=ACL_DT_UNDEFINED)
    _fails(ACLNN_ERR_PARAM_INVALID,
           "Tensor self not implemented for DT_UNDEFINED, should be in dtype support list [DT_FLOAT,DT_INT32,DT_INT64,"
           "DT_FLOAT16,DT_INT16,DT_INT8,DT_UINT8,DT_BOOL,DT_UINT64,DT_UINT32,DT_UINT16,DT_DOUBLE,DT_COMPLEX64,"
           "DT_COMPLEX128,DT_BFLOAT16,].", undefined, 0, i, o)  # fmt: skip
    # self's dtype must be out's (expected = out's, found = self's), before the index dtype
    h = dev.tensor(np.zeros((1, 3), np.float16))
    _fails(ACLNN_ERR_PARAM_INVALID, "Tensor self expected dtype is DT_FLOAT16 but found DT_FLOAT.",
           f, 0, dev.tensor(np.array([0.0], np.float32)), h)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID,
           "Tensor index not implemented for DT_FLOAT, should be in dtype support list [DT_INT32,DT_INT64,].",
           f, 0, dev.tensor(np.array([0.0], np.float32)), o)  # fmt: skip
    out_undefined = dev.tensor(np.zeros((1, 3), np.float32), acl_dtype=ACL_DT_UNDEFINED)
    _fails(ACLNN_ERR_PARAM_INVALID, "Tensor self expected dtype is DT_UNDEFINED but found DT_FLOAT.",
           f, 0, i, out_undefined)  # fmt: skip


@pytest.mark.parametrize("chip,arch", [("Ascend910", 1001), ("Ascend310P", 2002)])
def test_bf16_is_refused_by_npu_arch_number(soc, chip, arch):
    soc(chip)
    dev = Dev()
    try:
        b = dev.tensor(np.ones((2, 3), BF16))
        # the NpuArch test comes before the self/out dtype match
        _fails(ACLNN_ERR_PARAM_INVALID, f"NpuArch {arch} does not support BF16.",
               b, 0, dev.tensor(np.array([0], np.int32)), dev.tensor(np.zeros((1, 3), np.float32)))  # fmt: skip
    finally:
        dev.close()


def test_private_formats_are_refused_after_the_dtypes(dev):
    f = dev.tensor(np.ones((2, 3), np.float32))
    nz = dev.tensor(np.ones((1, 2, 3, 4, 16), np.float32), fmt=ACL_FORMAT_NC1HWC0)
    i = dev.tensor(np.array([0], np.int32))
    o = dev.tensor(np.zeros((1, 3), np.float32))
    message = "Format only support ND, NCHW, NHWC, HWCN, NDHWC, NCDHW."
    _fails(ACLNN_ERR_PARAM_INVALID, message, nz, 0, i, o)
    _fails(ACLNN_ERR_PARAM_INVALID, message, f, 0, i, dev.tensor(np.zeros((1, 3), np.float32), fmt=ACL_FORMAT_NC1HWC0))
    # NHWC is a public format: accepted
    code, _, ex = _p1(dev.tensor(np.ones((2, 3), np.float32), fmt=ACL_FORMAT_NHWC), 0, i, o)
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0


def test_shape_rows_in_order(dev):
    i = dev.tensor(np.array([0], np.int32))
    scalar = dev.tensor(np.float32(3.0))
    # a 0-d self wants a 0-d out; that comes before the dim check
    _fails(ACLNN_ERR_PARAM_INVALID, "self is scalar, and out should also be scalar",
           scalar, 5, i, dev.tensor(np.zeros(1, np.float32)))  # fmt: skip
    r9 = dev.tensor(np.ones([1] * 9, np.float32))
    _fails(ACLNN_ERR_PARAM_INVALID, "The self tensor cannot be larger than 8 dimensions.", r9, 9, i, r9)
    f = dev.tensor(np.ones((2, 3), np.float32))
    o = dev.tensor(np.zeros((1, 3), np.float32))
    _fails(ACLNN_ERR_PARAM_INVALID,
           "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)", f, 2, i, o)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID,
           "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got -3)", f, -3, i, o)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID,
           "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)", scalar, 1, i,
           dev.tensor(np.float32(0)))  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "index dimNum is 2, should not greater than 1",
           f, 0, dev.tensor(np.zeros((1, 2), np.int32)), o)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "Shape of out should be [2, 3], but current is [3, 3].",
           f, 0, dev.tensor(np.array([1, 0], np.int32)), dev.tensor(np.zeros((3, 3), np.float32)))  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "Shape of out should be [2, 1], but current is [2].",
           f, -1, dev.tensor(np.int64(2)), dev.tensor(np.zeros(2, np.float32)))  # fmt: skip


def test_empty_self_or_index_succeeds_without_a_kernel_and_leaves_out_alone(dev):
    o = dev.tensor(np.full((5, 5), 7.0, np.float32))
    for self_arr, index_arr in ((np.ones((0, 3), np.float32), np.array([0, 1], np.int32)),
                                (np.ones((2, 3), np.float32), np.zeros(0, np.int64))):  # fmt: skip
        code, ws, ex = _p1(dev.tensor(self_arr), 0, dev.tensor(index_arr), o)  # out's shape is not checked
        assert code == 0 and ws.value == 0 and not ex.value.launches
        assert P2(None, 0, ex.value, dev.stream) == 0
    assert (dev.read(o) == 7.0).all()


def test_an_empty_view_on_a_nonempty_storage_still_has_out_checked(dev):
    """``Size()`` counts the storage: a self whose view is empty but whose storage is not still
    gets out's shape compared (the empty shortcut, which looks at the view, comes after)."""
    empty_view = dev.strided(np.ones(12, np.float32), (0, 3), (3, 1))
    _fails(ACLNN_ERR_PARAM_INVALID, "Shape of out should be [2, 3], but current is [5, 5].",
           empty_view, 0, dev.tensor(np.array([0, 1], np.int32)), dev.tensor(np.zeros((5, 5), np.float32)))  # fmt: skip


# -- dtypes and the graph per chip -------------------------------------------------------------------

ALL = [np.float32, np.int32, np.int64, np.float16, np.int16, np.int8, np.uint8, np.bool_, np.uint64, np.uint32,
       np.uint16, np.float64, np.complex64, np.complex128, BF16]  # fmt: skip


def _engine(chip: str, dt: np.dtype) -> str:
    """The table of the facts notes (GatherV3 AI Core on 910B/910_93, GatherV2 elsewhere)."""
    aicpu_950 = {np.dtype(np.uint32), np.dtype(np.uint64), np.dtype(np.complex128)}
    aicpu_tbe = {np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128)}
    if chip == "Ascend950":
        return "GatherV2@AiCpu" if dt in aicpu_950 else "GatherV2"
    if dt in aicpu_tbe:
        return "GatherV2@AiCpu"
    return "GatherV3" if chip in ("Ascend910B", "Ascend910_93") else "GatherV2"


def _sample(dt: np.dtype, shape) -> np.ndarray:
    n = int(np.prod(shape))
    raw = np.arange(n) * 37 % 101
    if dt == np.bool_:
        return (raw % 3 == 0).reshape(shape)
    if dt.kind == "c":
        return (raw + 1j * (raw - 50)).astype(dt).reshape(shape)
    if dt.kind == "f" or dt == BF16:
        return ((raw - 50) / 8).astype(np.float32).astype(dt).reshape(shape)
    return raw.astype(dt).reshape(shape)


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip_is_copied_exactly(chip, soc):
    soc(chip)
    dev = Dev()
    try:
        accepted = facts.self_accepted()
        idx = np.array([2, 0, 2, 1], np.int64)
        for dt in map(np.dtype, ALL):
            acl = int(ACL_OF[dt]) if dt != BF16 else int(ACL_BF16)
            x = _sample(dt, (3, 5))
            t, o = dev.tensor(x, acl_dtype=acl), dev.tensor(np.zeros((4, 5), dt), acl_dtype=acl)
            code, ws, ex = _p1(t, 0, dev.tensor(idx), o)
            if acl not in accepted:
                assert code == ACLNN_ERR_PARAM_INVALID and dt == BF16
                continue
            assert code == 0, (dt, aclGetRecentErrMsg())
            assert _graph(ex.value) == [_engine(chip, dt)], dt
            assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            got = dev.read(o)
            want = x[idx]
            assert got.view(np.uint8).tobytes() == want.view(np.uint8).tobytes(), dt
    finally:
        dev.close()


def test_dtype_facts_tables():
    assert facts.DTYPE_FACTS["index"]() == (D.DT_INT32, D.DT_INT64)
    with emulating("Ascend910"):
        assert D.DT_BF16 not in facts.self_accepted() and D.DT_BF16 in facts.self_support_list()
    with emulating("Ascend950"):
        assert facts.self_accepted() == facts.self_support_list()


def test_nan_payloads_and_bool_bytes_travel_unchanged(dev):
    x = np.array([0x7FC00001, 0xFFFFFFFF, 0x3F800000], np.uint32).view(np.float32)
    o = dev.tensor(np.zeros(3, np.float32))
    _run(dev, dev.tensor(x), 0, dev.tensor(np.array([2, 1, 0], np.int32)), o)
    assert_bits_equal(dev.read(o), x[[2, 1, 0]])


# -- shapes ------------------------------------------------------------------------------------------


def test_doc_example(dev):
    t = dev.tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    o = dev.tensor(np.zeros((2, 2), np.float32))
    _run(dev, t, 0, dev.tensor(np.array([1, 0], np.int32)), o)
    assert dev.read(o).ravel().tolist() == [2.0, 3.0, 0.0, 1.0]


def test_negative_and_inner_dims(dev):
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    idx = np.array([3, 3, 0], np.int64)
    for dim in (2, -1):
        o = dev.tensor(np.zeros((2, 3, 3), np.int32))
        _run(dev, dev.tensor(x), dim, dev.tensor(idx), o)
        assert (dev.read(o) == x[:, :, idx]).all()
    o = dev.tensor(np.zeros((2, 2, 4), np.int32))
    _run(dev, dev.tensor(x), -2, dev.tensor(np.array([2, 0], np.int32)), o)
    assert (dev.read(o) == x[:, [2, 0], :]).all()


def test_zero_d_index_keeps_the_rank(dev):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    o = dev.tensor(np.zeros((3, 1), np.float32))
    code, _, ex = _p1(dev.tensor(x), 1, dev.tensor(np.int32(2)), o)
    assert code == 0
    assert [s.name for s in ex.value.steps] == ["Contiguous", "Contiguous", "UnsqueezeNd", "GatherV3", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, dev.tensor(x), 1, dev.tensor(np.int32(2)), o)
    assert (dev.read(o) == x[:, [2]]).all()


@pytest.mark.parametrize("index", [np.int64(0), np.array([0], np.int64)], ids=["0-d", "[1]"])
def test_zero_d_self(dev, index):
    s = dev.tensor(np.float32(4.5))
    o = dev.tensor(np.float32(0))
    for dim in (0, -1):
        _run(dev, s, dim, dev.tensor(index), o)
        assert dev.read(o).shape == () and float(dev.read(o)) == 4.5


def test_zero_d_self_with_two_indices_fails_in_view_copy(dev):
    """The doc wants index [1] for a 0-d self; the code gathers [2] and ViewCopy refuses it."""
    code, _, _ = _p1(dev.tensor(np.float32(1)), 0, dev.tensor(np.array([0, 0], np.int32)), dev.tensor(np.float32(0)))
    assert code == ACLNN_ERR_INNER_NULLPTR
    assert aclGetRecentErrMsg() == (
        f"{PREFIX}Input tensor's shape[[2]] should be same with output's shape[[]].\n"
        "TraceBack (most recent call last):\n        Params check failed.\n"
    )


def test_views_in_and_out(dev):
    base = np.arange(30, dtype=np.float32).reshape(5, 6)
    x = dev.strided(base, (6, 5), (1, 6))  # the transpose
    idx = dev.strided(np.array([4, 9, 1, 9, 0, 9], np.int32), (3,), (2,))  # [4, 1, 0]
    o = dev.strided(np.zeros((5, 3), np.float32), (3, 5), (1, 3))
    code, _, ex = _p1(x, 0, idx, o)
    assert code == 0 and _graph(ex.value) == [
        "Transpose",
        "Slice",
        "GatherV3",
        "Transpose",
    ]  # [3] stride 2: [3, 1] of [3, 2]
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, x, 0, idx, o)
    assert (dev.read(o) == base.T[[4, 1, 0]]).all()


# -- index values out of range -----------------------------------------------------------------------


def test_ascend950_ai_core_writes_zeros_for_out_of_range_indices(soc):
    soc("Ascend950")
    dev = Dev()
    try:
        x = np.arange(1, 13, dtype=np.float32).reshape(4, 3)
        o = dev.tensor(np.full((4, 3), 9.0, np.float32))
        _run(dev, dev.tensor(x), 0, dev.tensor(np.array([-1, 3, 4, 100], np.int64)), o)
        assert dev.read(o).tolist() == [[0, 0, 0], x[3].tolist(), [0, 0, 0], [0, 0, 0]]
    finally:
        dev.close()


@pytest.mark.parametrize(
    "chip,dtype", [("Ascend910B", np.float64), ("Ascend950", np.uint32), ("Ascend910", np.complex64)]
)
def test_ai_cpu_wraps_negative_indices_once(soc, chip, dtype):
    soc(chip)
    dev = Dev()
    try:
        x = np.arange(12).astype(dtype).reshape(4, 3)
        o = dev.tensor(np.zeros((3, 3), dtype))
        code, _, ex = _p1(dev.tensor(x), 0, dev.tensor(np.array([-1, -4, 2], np.int32)), o)
        assert code == 0 and _graph(ex.value) == ["GatherV2@AiCpu"]
        aclDestroyAclOpExecutor(ex.value)
        _run(dev, dev.tensor(x), 0, dev.tensor(np.array([-1, -4, 2], np.int32)), o)
        assert (dev.read(o) == x[[3, 0, 2]]).all()
    finally:
        dev.close()


def test_ai_cpu_fails_the_stream_on_an_index_past_the_end(dev):
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    o = dev.tensor(np.full((3, 2), -1.0))
    ws, ex = Ref(0), Ref()
    assert P1(dev.tensor(x), 1, dev.tensor(np.array([1, 4], np.int64)), o, ws, ex) == 0
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0  # the launch itself succeeds
    assert aclrtSynchronizeStream(dev.stream) == ACL_ERROR_RT_AICPU_EXCEPTION
    msg = aclGetRecentErrMsg()
    assert "aclnnIndexSelect: kernel #0 GatherV2 failed: the AI CPU kernel GatherV2 returned " in msg
    assert "KERNEL_STATUS_PARAM_INVALID: Indices[1] = 4 is not in [0, 4)" in msg
    got = dev.read_now(o)
    assert got[0, 0] == 1.0  # the first outer slice's first index was copied before the kernel stopped
    assert got[0, 1] == -1.0 and (got[1:] == -1.0).all()


def test_ai_cpu_index_below_minus_size_is_undefined_and_fails(dev):
    x = np.arange(6, dtype=np.float64)
    o = dev.tensor(np.zeros(2))
    r = dev.run(P1, P2, dev.tensor(x), 0, dev.tensor(np.array([0, -7], np.int32)), o)
    assert r[:2] == (0, 0) and r[2] == ACL_ERROR_RT_AICPU_EXCEPTION
    assert "Indices[1] = -7 is below -6" in aclGetRecentErrMsg()


@pytest.mark.parametrize("chip,op", [("Ascend910B", "GatherV3"), ("Ascend910", "GatherV2"), ("Ascend310P", "GatherV2")])
def test_unchecked_ai_core_kernels_are_undefined(soc, findings, chip, op):
    soc(chip)
    dev = Dev()
    try:
        x = np.arange(6, dtype=np.float32).reshape(3, 2)
        o = dev.tensor(np.zeros((2, 2), np.float32))
        _run(dev, dev.tensor(x), 0, dev.tensor(np.array([1, 3], np.int32)), o)
        got = dev.read(o)
        assert (got[0] == x[1]).all()
        assert (got[1].view(np.uint32) == 0xFFFFFFFF).all()  # the poison pattern
        assert findings.refresh().checks() == ["undefined"]
        assert f"aclnnIndexSelect: kernel #0 {op}: index 3 (position 1) is outside [0, 3)" in findings.text()
        # in error mode the task fails
        sanitizer.set_mode("error")
        r = dev.run(
            P1, P2, dev.tensor(x), 0, dev.tensor(np.array([-1], np.int32)), dev.tensor(np.zeros((1, 2), np.float32))
        )
        assert r[2] == ACL_ERROR_RT_AICORE_EXCEPTION
        assert "aclnn_py sanitizer [undefined]" in aclGetRecentErrMsg()
    finally:
        sanitizer.set_mode("warn")
        dev.close()


# -- op cache and functional ----------------------------------------------------------------------------


def test_cached_executor_reads_the_new_indices(dev):
    x = dev.tensor(np.arange(4, dtype=np.float32) * 10)
    i1, i2 = dev.tensor(np.array([3, 0], np.int32)), dev.tensor(np.array([1, 2], np.int32))
    o = dev.tensor(np.zeros(2, np.float32))
    _run(dev, x, 0, i1, o)
    assert dev.read(o).tolist() == [30, 0]
    ws, ex = Ref(0), Ref()
    assert P1(x, 0, i2, o, ws, ex) == 0 and ex.value.cached_from is not None  # same shapes: a cache hit
    assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
    assert dev.read(o).tolist() == [10, 20]


def test_functional_wrapper():
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    assert (F.index_select(x, 1, [3, 1]) == x[:, [3, 1]]).all()
    assert F.index_select(np.float32(2.5), 0, np.int32(0)) == np.float32(2.5)
    with pytest.raises(F.AclnnError) as e:
        F.index_select(x, 2, [0])
    assert e.value.code == ACLNN_ERR_PARAM_INVALID


def test_phase1_only_tensors_make_the_same_graph():
    made = [_meta([4, 2], ACL_FLOAT16), _meta([3], ACL_INT32), _meta([4, 3], ACL_FLOAT16)]
    ws, ex = Ref(0), Ref()
    assert P1(made[0], 1, made[1], made[2], ws, ex) == 0
    assert _graph(ex.value) == ["GatherV3"]
    assert aclDestroyAclOpExecutor(ex.value) == 0
    for t in made:
        aclDestroyTensor(t)
