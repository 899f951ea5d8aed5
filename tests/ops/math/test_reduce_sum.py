"""aclnnReduceSum: error rows in CANN's order, dtypes per chip, every branch of the graph (empty,
0-d, BOOL dtype, BOOL self with INT64, Ascend950's strided read, AI CPU kernels), the summation
order of each chip bit for bit against independent goldens, and float64 within the bound."""

from __future__ import annotations

import goldens_reduce_sum as G
import ml_dtypes
import numpy as np
import pytest
from goldens import round_to
from helpers import ACL_OF, Dev, assert_bits_equal, own

from aclnn_py import (
    ACL_BF16,
    ACL_BOOL,
    ACL_COMPLEX64,
    ACL_DOUBLE,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_FORMAT_FRACTAL_NZ,
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
    aclCreateIntArray,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclDestroyIntArray,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnReduceSum,
    aclnnReduceSumGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.ops.math import reduce_sum as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
P1, P2 = aclnnReduceSumGetWorkspaceSize, aclnnReduceSum
LIST_910B = ("[DT_FLOAT16,DT_FLOAT,DT_INT8,DT_INT16,DT_INT32,DT_INT64,DT_UINT8,DT_BOOL,DT_DOUBLE,DT_COMPLEX64,"
             "DT_COMPLEX128,DT_BFLOAT16,]")  # fmt: skip


@pytest.fixture
def arrays():
    made = []

    def make(values):
        a = aclCreateIntArray(list(values), len(values))
        if not own(a, aclDestroyIntArray):  # the device open now destroys it before its aclFinalize
            made.append(a)
        return a

    yield make
    for a in made:
        aclDestroyIntArray(a)


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


def _acl(dt) -> int:
    dt = np.dtype(dt)
    return int(ACL_BF16) if dt == BF16 else int(ACL_OF[dt])


# -- error rows --------------------------------------------------------------------------------------


@pytest.mark.parametrize("which,kind,name", [(0, "aclTensor", "self"), (1, "aclIntArray", "dims"),
                                             (4, "aclTensor", "out")])  # fmt: skip
def test_null_arguments_in_order(dev, arrays, which, kind, name):
    args = [dev.tensor(np.ones((2, 3), np.float32)), arrays([0]), False, ACL_FLOAT, dev.tensor(np.zeros(3, np.float32))]
    args[which] = None
    _fails(ACLNN_ERR_PARAM_NULLPTR, f"Expected a value of type [{kind}] for argument [{name}] but instead found nullptr.",
           *args)  # fmt: skip


def test_dtype_rows_in_order(dev, arrays):
    f = dev.tensor(np.ones((2, 3), np.float32))
    o = dev.tensor(np.zeros(3, np.float32))
    dims = arrays([0])
    u16 = dev.tensor(np.ones((2, 3), np.uint16))
    _fails(ACLNN_ERR_PARAM_INVALID,
           f"Tensor self not implemented for DT_UINT16, should be in dtype support list {LIST_910B}.",
           u16, dims, False, ACL_UINT16, dev.tensor(np.zeros(3, np.uint16)))  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID,
           f"Tensor out not implemented for DT_UINT16, should be in dtype support list {LIST_910B}.",
           f, dims, False, ACL_FLOAT, dev.tensor(np.zeros(3, np.uint16)))  # fmt: skip
    # the dtype argument: CANN wraps the bracketed list in brackets again
    _fails(ACLNN_ERR_PARAM_INVALID, f"type DT_UINT32 should be in dtype support list [{LIST_910B}].",
           f, dims, False, ACL_UINT32, o)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "Tensor out expected dtype is DT_INT32 but found DT_FLOAT.",
           f, dims, False, ACL_INT32, o)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "type DT_UNDEFINED should be in dtype support list [" + LIST_910B + "].",
           f, dims, False, -1, o)  # fmt: skip


@pytest.mark.parametrize("chip", ["Ascend910", "Ascend310P"])
def test_bf16_is_not_in_the_910_list(soc, arrays, chip):
    soc(chip)
    dev = Dev()
    try:
        b = dev.tensor(np.ones(4, BF16))
        listing = LIST_910B.replace("DT_BFLOAT16,", "")
        _fails(ACLNN_ERR_PARAM_INVALID, f"Tensor self not implemented for DT_BFLOAT16, should be in dtype support "
               f"list {listing}.", b, arrays([0]), False, ACL_BF16, dev.tensor(np.zeros((), BF16)))  # fmt: skip
    finally:
        dev.close()


def test_rank_and_dim_rows(dev, arrays):
    r9 = dev.tensor(np.ones([1] * 9, np.float32))
    _fails(ACLNN_ERR_PARAM_INVALID, "The self tensor cannot be larger than 8 dimensions.",
           r9, arrays([9]), False, ACL_FLOAT, r9)  # fmt: skip
    f = dev.tensor(np.ones((2, 3), np.float32))
    o = dev.tensor(np.zeros(3, np.float32))
    _fails(ACLNN_ERR_PARAM_INVALID, "Provided dim 2 must be in the range of [-2, 1].", f, arrays([0, 2]), False,
           ACL_FLOAT, o)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "Provided dim -3 must be in the range of [-2, 1].", f, arrays([-3]), False,
           ACL_FLOAT, o)  # fmt: skip
    # duplicates are named after normalisation, in list order
    _fails(ACLNN_ERR_PARAM_INVALID, "Dim 1 appears multiple times in the list of dims.", f, arrays([1, -1]), False,
           ACL_FLOAT, o)  # fmt: skip
    s = dev.tensor(np.float32(2))
    _fails(ACLNN_ERR_PARAM_INVALID, "Dim 0 appears multiple times in the list of dims.", s, arrays([-1, 0]), False,
           ACL_FLOAT, s)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "Provided dim 1 must be in the range of [-1, 0].", s, arrays([1]), False,
           ACL_FLOAT, s)  # fmt: skip


def test_out_shape_is_checked_after_the_kernel_is_built(dev, arrays):
    f = dev.tensor(np.ones((2, 3), np.float32))
    _fails(ACLNN_ERR_PARAM_INVALID, "The tensor's shape[[3]] is not equal with shape[[2]].",
           f, arrays([0]), False, ACL_FLOAT, dev.tensor(np.zeros(2, np.float32)))  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "The tensor's shape[[1, 3]] is not equal with shape[[3]].",
           f, arrays([0]), True, ACL_FLOAT, dev.tensor(np.zeros(3, np.float32)))  # fmt: skip
    # one element each is enough: a full reduction may go into [1] or [1, 1]
    for shape in ((1,), (1, 1)):
        o = dev.tensor(np.zeros(shape, np.float32))
        _run(dev, f, arrays([]), False, ACL_FLOAT, o)
        assert dev.read(o).ravel().tolist() == [6.0]


def test_fractal_nz_self_is_accepted(dev, arrays):
    x = dev.tensor(np.ones((2, 16), np.float32), fmt=ACL_FORMAT_FRACTAL_NZ)  # only a warning in CANN's log
    code, _, ex = _p1(x, arrays([1]), False, ACL_FLOAT, dev.tensor(np.zeros(2, np.float32)))
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0


# -- empty and 0-d self ------------------------------------------------------------------------------


def test_empty_self_fills_out_with_zeros_whatever_its_shape(dev, arrays):
    e = dev.tensor(np.ones((2, 0, 4), np.float32))
    o = dev.tensor(np.full((2, 4), 5.0, np.float32))
    code, _, ex = _p1(e, arrays([1]), False, ACL_FLOAT, o)
    assert code == 0 and _graph(ex.value) == ["Fill"]
    assert [s.name for s in ex.value.steps] == ["Fill", "ViewCopy"]
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, e, arrays([1]), False, ACL_FLOAT, o)
    assert (dev.read(o) == 0).all()
    odd = dev.tensor(np.full(7, 5, np.int16))  # not the reduced shape: unchecked, filled (AI CPU Fill)
    code, _, ex = _p1(e, arrays([0]), True, ACL_INT16, odd)
    assert code == 0 and _graph(ex.value) == ["Fill@AiCpu"]
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, e, arrays([0]), True, ACL_INT16, odd)
    assert (dev.read(odd) == 0).all()
    # an empty out: no kernel at all
    code, ws, ex = _p1(e, arrays([0]), False, ACL_FLOAT, dev.tensor(np.zeros((1, 0), np.float32)))
    assert code == 0 and ws.value == 0 and not ex.value.launches
    aclDestroyAclOpExecutor(ex.value)


def test_empty_self_refuses_a_complex_out(dev, arrays):
    e = dev.tensor(np.ones((0, 3), np.complex64))
    _fails(ACLNN_ERR_PARAM_INVALID,
           "Tensor out not implemented for DT_COMPLEX64, should be in dtype support list [DT_FLOAT16,DT_FLOAT,DT_INT8,"
           "DT_INT16,DT_INT32,DT_INT64,DT_UINT8,DT_BOOL,DT_DOUBLE,DT_BFLOAT16,].",
           e, arrays([0]), False, ACL_COMPLEX64, dev.tensor(np.zeros(3, np.complex64)))  # fmt: skip


def test_zero_d_self_is_cast_and_copied_ignoring_dims(dev, arrays):
    s = dev.tensor(np.float32(2.75))
    o = dev.tensor(np.zeros(1, np.int32))  # one element is enough for ViewCopy
    code, _, ex = _p1(s, arrays([-1]), True, ACL_INT32, o)
    assert code == 0 and _graph(ex.value) == ["Cast"]
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, s, arrays([-1]), True, ACL_INT32, o)
    assert dev.read(o).tolist() == [2]
    b = dev.tensor(np.float32(0.5))
    ob = dev.tensor(np.bool_(False))
    _run(dev, b, arrays([]), False, ACL_BOOL, ob)  # BOOL dtype: just the Cast, no ReduceAny
    assert bool(dev.read(ob)) is True
    code, _, _ = _p1(s, arrays([0]), False, ACL_FLOAT, dev.tensor(np.zeros(2, np.float32)))
    assert code == ACLNN_ERR_INNER_NULLPTR
    assert "Input tensor's shape[[]] should be same with output's shape[[2]]." in aclGetRecentErrMsg()


# -- the graph -----------------------------------------------------------------------------------------

ENGINES = [
    # chip, self dtype, dtype, expected launches
    ("Ascend910B", np.float32, ACL_FLOAT, ["ReduceSum"]),
    ("Ascend910B", np.int64, ACL_INT64, ["ReduceSum"]),
    ("Ascend910B", BF16, ACL_BF16, ["ReduceSum"]),
    ("Ascend910B", np.int8, ACL_INT8, ["Sum@AiCpu"]),
    ("Ascend910B", np.int16, ACL_INT16, ["Sum@AiCpu"]),
    ("Ascend910B", np.uint8, ACL_UINT8, ["Sum@AiCpu"]),
    ("Ascend910B", np.float64, ACL_DOUBLE, ["Sum@AiCpu"]),
    ("Ascend910B", np.complex64, ACL_COMPLEX64, ["Sum@AiCpu"]),
    ("Ascend910", np.int64, ACL_INT64, ["ReduceSum@AiCpu"]),
    ("Ascend910", np.int32, ACL_INT32, ["ReduceSum"]),
    ("Ascend310P", np.int32, ACL_INT32, ["Sum@AiCpu"]),
    ("Ascend310P", np.int64, ACL_INT64, ["ReduceSum"]),
    ("Ascend950", np.int64, ACL_INT64, ["ReduceSum"]),
    ("Ascend950", np.float16, ACL_FLOAT16, ["ReduceSum"]),
    ("Ascend910B", np.float32, ACL_FLOAT16, ["Cast", "ReduceSum"]),  # cast before the sum
    ("Ascend910B", np.float32, ACL_INT32, ["Cast", "ReduceSum"]),
    ("Ascend910B", np.float32, ACL_BOOL, ["Cast", "ReduceAny"]),
    ("Ascend910B", np.bool_, ACL_BOOL, ["ReduceAny"]),
    ("Ascend910B", np.bool_, ACL_INT64, ["Cast", "ReduceSum", "Cast"]),  # counted in FLOAT, then INT64
    ("Ascend910B", np.bool_, ACL_INT32, ["Cast", "ReduceSum"]),
]


@pytest.mark.parametrize("chip,dtype,acl,graph", ENGINES)
def test_graph_branch_by_chip_and_dtype(soc, arrays, chip, dtype, acl, graph):
    soc(chip)
    dev = Dev()
    try:
        x = dev.tensor(np.ones((3, 4), dtype))
        o = dev.tensor(np.zeros(3, D.numpy_dtype(D.to_op_dtype(acl))), acl_dtype=acl)
        code, _, ex = _p1(x, arrays([1]), False, acl, o)
        assert code == 0, aclGetRecentErrMsg()
        assert _graph(ex.value) == graph
        aclDestroyAclOpExecutor(ex.value)
        _run(dev, x, arrays([1]), False, acl, o)
        want = {ACL_BOOL: True}.get(acl, 4)
        assert (dev.read(o) == want).all()
    finally:
        dev.close()


def test_bool_self_with_int64_dtype_counts_in_float_below_2_to_24(arrays):
    """Phase 1 only (no data): the product of the reduced dims picks FLOAT or INT64. The code
    indexes the shape with the caller's dim; dim -1 reads the rank (gert::Shape's layout)."""

    def graph(shape, dims):
        made = [aclCreateTensor(list(shape), len(shape), ACL_BOOL, None, 0, 2, list(shape), len(shape), None),
                aclCreateTensor([shape[0]], 1, ACL_INT64, None, 0, 2, [shape[0]], 1, None)]  # fmt: skip
        code, _, ex = _p1(made[0], arrays(dims), False, ACL_INT64, made[1])
        assert code == 0, aclGetRecentErrMsg()
        casts = [s.attrs["dst_type"] for s in ex.value.steps if s.name == "Cast"]
        aclDestroyAclOpExecutor(ex.value)
        for t in made:
            aclDestroyTensor(t)
        return casts

    big = (2, 1 << 24)
    assert graph(big, [1]) == ["DT_INT64", "DT_INT64"]  # 2^24 elements: summed as INT64
    assert graph(big, [-1]) == ["DT_FLOAT", "DT_INT64"]  # reads the rank (2): FLOAT
    assert graph((2, (1 << 24) - 1), [1]) == ["DT_FLOAT", "DT_INT64"]


def test_ascend950_reads_a_float_slice_in_place(soc, arrays):
    soc("Ascend950")
    dev = Dev()
    try:
        base = np.arange(40, dtype=np.float32).reshape(5, 8)
        view = dev.strided(base, (3, 5), (8, 1), offset=9)  # rows 1-3, columns 1-5
        o = dev.tensor(np.zeros(3, np.float32))
        code, _, ex = _p1(view, arrays([1]), False, ACL_FLOAT, o)
        assert code == 0 and _graph(ex.value) == ["ReduceSum"]
        assert "Contiguous" not in [s.name for s in ex.value.steps]
        aclDestroyAclOpExecutor(ex.value)
        _run(dev, view, arrays([1]), False, ACL_FLOAT, o)
        assert dev.read(o).tolist() == base[1:4, 1:6].sum(axis=1).tolist()
        # a transposed view is not a row-major slice: Contiguous runs (Transpose)
        t = dev.strided(base, (8, 5), (1, 8))
        code, _, ex = _p1(t, arrays([0]), False, ACL_FLOAT, dev.tensor(np.zeros(5, np.float32)))
        assert code == 0 and _graph(ex.value) == ["Transpose", "ReduceSum"]
        aclDestroyAclOpExecutor(ex.value)
        # reducing only size-1 dims is a pure copy: not taken either
        one = dev.strided(base, (1, 5), (8, 1), offset=9)
        code, _, ex = _p1(one, arrays([0]), False, ACL_FLOAT, dev.tensor(np.zeros(5, np.float32)))
        assert code == 0 and ex.value.steps[0].name == "Contiguous"
        aclDestroyAclOpExecutor(ex.value)
    finally:
        dev.close()


def test_ascend950_view_outside_its_storage_logs_validate_then_the_reduce_check(soc, arrays):
    """IsReduceNonContiguousSupport starts with op::Validate: a view reaching past its storage
    logs ``ViewShape overlap.``, then ``INvalid input tensor: ...``, and the strided read is not
    taken (the view itself is row-major, so Contiguous passes it on: phase 1 succeeds)."""
    soc("Ascend950")
    dev = Dev()
    try:
        view = dev.strided(np.arange(8, dtype=np.float32), (4, 4), (4, 1))  # 16 elements on 8
        code, _, ex = _p1(view, arrays([1]), False, ACL_FLOAT, dev.tensor(np.zeros(4, np.float32)))
        assert code == 0
        lines = aclGetRecentErrMsg().splitlines()
        assert lines[0] == "AclNN_Parameter_Error(EZ1001): ViewShape overlap."
        assert lines[1] == "TraceBack (most recent call last):"
        assert lines[2] == f"        INvalid input tensor: {view!r}"
        aclDestroyAclOpExecutor(ex.value)
    finally:
        dev.close()


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(soc, arrays, chip):
    soc(chip)
    dev = Dev()
    try:
        supported = facts.dtype_support_list()
        for dt in map(np.dtype, [np.float16, np.float32, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
                                 np.float64, np.complex64, np.complex128, BF16, np.uint16, np.uint32]):  # fmt: skip
            acl = _acl(dt)
            x = (
                (np.arange(12) % 5).astype(dt).reshape(3, 4)
                if dt != np.bool_
                else (np.arange(12) % 3 == 0).reshape(3, 4)
            )
            t = dev.tensor(x, acl_dtype=acl)
            o = dev.tensor(np.zeros(4, dt), acl_dtype=acl)
            code, ws, ex = _p1(t, arrays([0]), False, acl, o)
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)},")
                continue
            assert code == 0, (dt, aclGetRecentErrMsg())
            assert P2(dev.workspace(ws.value), ws.value, ex.value, dev.stream) == 0
            want = x.any(axis=0) if dt == np.bool_ else x.sum(axis=0).astype(dt)
            assert (dev.read(o) == want).all(), dt
    finally:
        dev.close()


# -- the numbers ------------------------------------------------------------------------------------


def _values(n, seed, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * np.exp(rng.uniform(-6, 6, n))).astype(np.float32).astype(dtype)


def _golden(x32: np.ndarray, dims, out_dtype, chip) -> np.ndarray:
    """Sum over ``dims`` of a float32 array, by the chip's order, one add at a time."""
    rank = x32.ndim
    red = sorted({d % rank for d in dims})
    kept = [i for i in range(rank) if i not in red]
    shape = [x32.shape[i] for i in kept]
    moved = np.transpose(x32, kept + red).reshape(int(np.prod(shape)), -1)
    squeezed = [x32.shape[i] for i in range(rank) if x32.shape[i] != 1]
    if chip != "Ascend950":
        sums = [G.lanes64([float(v) for v in row]) for row in moved]
        return round_to(sums, out_dtype).reshape(shape)
    # Ascend950: the merged pattern decides (size-1 dims dropped, runs merged)
    kinds = "".join("R" if i in red else "A" for i in range(rank) if x32.shape[i] != 1)
    pattern = "".join(k for j, k in enumerate(kinds) if j == 0 or kinds[j - 1] != k)
    assert len(squeezed) == len(kinds)
    if pattern in ("RA", "ARA"):
        a = 1
        for i in reversed(range(rank)):
            if x32.shape[i] == 1:
                continue
            if i in red:
                break
            a *= x32.shape[i]
        r = int(np.prod([x32.shape[i] for i in red]))
        blocks = x32.reshape(-1, r, a)
        sums = []
        for blk in blocks:
            rows = [[float(v) for v in row] for row in blk]
            sums += G.ascendc_ra(rows, -(-a // 8) * 8)
        return round_to(sums, out_dtype).reshape(shape)
    sums = [G.ascendc_ar([float(v) for v in row]) for row in moved]
    return round_to(sums, out_dtype).reshape(shape)


CASES = [
    # shape, dims
    ((3, 5), [1]),  # AR, R padded to 8 (one block)
    ((2, 16), [1]),  # two blocks in sequence
    ((2, 24), [-1]),
    ((3, 40), [1]),  # one 64-lane reduce
    ((2, 100), [1]),  # tail fold onto 64
    ((1, 1000), [1]),  # 15 chunks after the fold: halving only
    ((2, 1100), [1]),  # 16 chunks: one main fold of 16
    ((1, 70000), [0, 1]),  # a run of main folds
    ((200,), [0]),  # R alone
    ((7, 3), [0]),  # RA, narrow A (halving)
    ((37, 40), [0]),  # RA, 32 < A <= 64: runs of 16 rows
    ((20, 70), [0]),  # RA, A > 64
    ((3, 9, 5), [1]),  # ARA
    ((4, 1, 6, 1), [0, 2]),  # size-1 dims dropped: R R merge into one R
    ((3, 4, 5), [0, 2]),  # RAR: the chosen fallback (kept axes first, one AR row)
    ((2, 3, 4), []),  # every axis
]


@pytest.mark.parametrize("chip", ["Ascend950", "Ascend910B"])
@pytest.mark.parametrize("shape,dims", CASES, ids=[f"{s}-{d}" for s, d in CASES])
def test_float_sums_bit_exact_by_chip(soc, arrays, chip, shape, dims):
    soc(chip)
    dev = Dev()
    try:
        n = int(np.prod(shape))
        x = _values(n, n).reshape(shape)
        red = dims or list(range(len(shape)))
        out_shape = [s for i, s in enumerate(shape) if i not in {d % len(shape) for d in red}]
        o = dev.tensor(np.zeros(out_shape, np.float32))
        _run(dev, dev.tensor(x), arrays(dims), False, ACL_FLOAT, o)
        got = dev.read(o)
        assert_bits_equal(got, _golden(x, red, np.float32, chip))
        # and the float64 sum within the bound every order keeps
        exact = x.astype(np.float64).sum(axis=tuple(d % len(shape) for d in red))
        rows = np.moveaxis(x.astype(np.float64), [d % len(shape) for d in red], list(range(-len(red), 0)))
        bound = np.abs(rows.reshape(*exact.shape, -1)).sum(axis=-1) * (np.ceil(n / 64) + 8) * 2.0**-24
        assert (np.abs(got - exact) <= bound).all()
    finally:
        dev.close()


HALF_CASES = [("Ascend950", np.float16), ("Ascend950", BF16), ("Ascend910_93", np.float16), ("Ascend910_93", BF16),
              ("Ascend310P", np.float16)]  # fmt: skip


@pytest.mark.parametrize("chip,dtype", HALF_CASES)
def test_half_types_accumulate_in_float32_and_round_once(soc, arrays, chip, dtype):
    soc(chip)
    dev = Dev()
    try:
        x = (np.ones((2, 3000)) * np.float32(1 + 2**-9)).astype(dtype)  # a float16 sum would stall at 2048
        o = dev.tensor(np.zeros(2, dtype), acl_dtype=_acl(dtype))
        _run(dev, dev.tensor(x, acl_dtype=_acl(dtype)), arrays([1]), False, _acl(dtype), o)
        assert_bits_equal(dev.read(o), _golden(x.astype(np.float32), [1], dtype, chip))
        assert float(dev.read(o)[0]) == pytest.approx(3000 * float(x[0, 0]), rel=2**-8)
    finally:
        dev.close()


def test_keep_dims_and_non_contiguous_out(dev, arrays):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    o = dev.strided(np.zeros((4, 2), np.float32), (2, 1, 4), (1, 8, 2))
    _run(dev, dev.tensor(x), arrays([1]), True, ACL_FLOAT, o)
    assert (dev.read(o) == x.sum(axis=1, keepdims=True)).all()


def test_dtype_is_applied_before_the_sum(dev, arrays):
    x = dev.tensor(np.array([[0.9, 0.9, -0.9]], np.float32))
    o = dev.tensor(np.zeros(1, np.int32))
    _run(dev, x, arrays([1]), False, ACL_INT32, o)  # each element truncated to 0 first
    assert dev.read(o).tolist() == [0]
    h = dev.tensor(np.full((1, 4096), 1.0001, np.float32))
    oh = dev.tensor(np.zeros(1, np.float16))
    _run(dev, h, arrays([1]), False, ACL_FLOAT16, oh)  # 1.0001 -> 1.0 in float16, then summed
    assert float(dev.read(oh)[0]) == 4096.0


def test_integers_wrap_and_bool_dtype_is_any(dev, arrays):
    x = np.array([[100, 100, 100], [-128, -1, 0]], np.int8)
    o = dev.tensor(np.zeros(2, np.int8))
    _run(dev, dev.tensor(x), arrays([1]), False, ACL_INT8, o)
    assert dev.read(o).tolist() == [44, 127]
    i32 = np.array([2**31 - 1, 1], np.int32)
    o32 = dev.tensor(np.zeros((), np.int32))
    _run(dev, dev.tensor(i32), arrays([0]), False, ACL_INT32, o32)
    assert int(dev.read(o32)) == -(2**31)
    b = np.array([[0.0, 0.0], [0.0, -1e-30]], np.float32)
    ob = dev.tensor(np.zeros(2, np.bool_))
    _run(dev, dev.tensor(b), arrays([1]), False, ACL_BOOL, ob)
    assert dev.read(ob).tolist() == [False, True]


def test_bool_counts_into_int64(dev, arrays):
    x = np.arange(60).reshape(3, 20) % 7 == 0
    o = dev.tensor(np.zeros(3, np.int64))
    _run(dev, dev.tensor(x), arrays([-1]), False, ACL_INT64, o)
    assert dev.read(o).tolist() == x.sum(axis=1).tolist()


def test_double_and_complex_sum_in_sequence(dev, arrays):
    x = np.array([[1e16, 1.0, -1e16, 1.0]])
    o = dev.tensor(np.zeros(1))
    _run(dev, dev.tensor(x), arrays([1]), False, ACL_DOUBLE, o)
    assert dev.read(o).tolist() == [G.sequential([float(v) for v in x[0]])] == [1.0]
    c = np.array([1 + 2j, 3 - 1j, 0.5j], np.complex64)
    oc = dev.tensor(np.zeros((), np.complex64))
    _run(dev, dev.tensor(c), arrays([0]), False, ACL_COMPLEX64, oc)
    assert complex(dev.read(oc)) == 4 + 1.5j


def test_nan_and_inf(dev, arrays):
    x = np.array([[1.0, np.nan, 2.0], [np.inf, 1.0, -np.inf], [np.inf, 1.0, 1.0]], np.float32)
    o = dev.tensor(np.zeros(3, np.float32))
    _run(dev, dev.tensor(x), arrays([1]), False, ACL_FLOAT, o)
    got = dev.read(o)
    assert np.isnan(got[0]) and np.isnan(got[1]) and got[2] == np.inf
    assert got[0].view(np.uint32) == 0x7FC00000  # the canonical NaN


def test_doc_example(dev, arrays):
    x = dev.tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    o = dev.tensor(np.zeros(2, np.float32))
    _run(dev, x, arrays([0]), False, ACL_FLOAT, o)
    assert dev.read(o).tolist() == [12.0, 16.0]


def test_cache_key_uses_the_dims_values(dev, arrays):
    x = dev.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    o = dev.tensor(np.zeros(3, np.float32))
    _run(dev, x, arrays([0]), False, ACL_FLOAT, o)
    code, _, ex = _p1(x, arrays([0]), False, ACL_FLOAT, o)  # another aclIntArray, same values: a hit
    assert code == 0 and ex.value.cached_from is not None
    aclDestroyAclOpExecutor(ex.value)
    code, _, ex = _p1(x, arrays([-2]), False, ACL_FLOAT, o)  # other values: built again
    assert code == 0 and ex.value.cached_from is None
    aclDestroyAclOpExecutor(ex.value)


def test_functional_wrapper():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert F.reduce_sum(x, [1]).tolist() == [6.0, 22.0, 38.0]
    assert F.reduce_sum(x, [], keep_dims=True).shape == (1, 1)
    assert F.reduce_sum(x > 5, [0], dtype=np.int64).tolist() == [1, 1, 2, 2]
    assert F.reduce_sum(x, [0], dtype=np.bool_).tolist() == [True] * 4
