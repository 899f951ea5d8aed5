"""aclnnSoftmax: error rows in CANN's order (an empty self skips them), dtypes per chip, the graph
(SoftmaxV2 in self's dtype, then a Cast), every Ascend950 tiling template and the TBE and AI CPU
recipes bit for bit against independent goldens, the float64 formula within tolerance, special
values, views, 0-d."""

from __future__ import annotations

import goldens_softmax as GS
import ml_dtypes
import numpy as np
import pytest
from helpers import ACL_OF, Dev, assert_bits_equal

from aclnn_py import (
    ACL_BF16,
    ACL_FORMAT_NHWC,
    ACL_INT32,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclDestroyAclOpExecutor,
    aclGetRecentErrMsg,
    aclnnSoftmax,
    aclnnSoftmaxGetWorkspaceSize,
)
from aclnn_py import dtypes as D
from aclnn_py import functional as F
from aclnn_py.kernels import softmax as kernel
from aclnn_py.ops.activation import softmax as facts

BF16 = np.dtype(ml_dtypes.bfloat16)
PREFIX = "AclNN_Parameter_Error(EZ1001): "
CHIPS = ["Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"]
P1, P2 = aclnnSoftmaxGetWorkspaceSize, aclnnSoftmax


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


def _softmax(dev, x: np.ndarray, dim: int, out_dtype=None) -> np.ndarray:
    dt = np.dtype(out_dtype or x.dtype)
    o = dev.tensor(np.zeros(x.shape, dt), acl_dtype=_acl(dt))
    _run(dev, dev.tensor(x, acl_dtype=_acl(x.dtype)), dim, o)
    return dev.read(o)


# -- error rows --------------------------------------------------------------------------------------


@pytest.mark.parametrize("which,name", [(0, "self"), (2, "out")])
def test_null_tensors(dev, which, name):
    args = [dev.tensor(np.ones(3, np.float32)), 0, dev.tensor(np.zeros(3, np.float32))]
    args[which] = None
    _fails(ACLNN_ERR_PARAM_NULLPTR, f"Expected a proper Tensor but got null for argument {name}.", *args)


def test_null_out_pointers_come_first(dev):
    assert P1(None, 0, None, None, Ref()) == ACLNN_ERR_PARAM_NULLPTR
    assert aclGetRecentErrMsg() == f"{PREFIX}executor or workspaceSize is nullptr\n"


def test_an_empty_self_skips_every_other_check(dev):
    e = dev.tensor(np.ones((2, 0), np.int32))  # an unsupported dtype, dim out of range, out of another shape
    o = dev.tensor(np.zeros((2, 3), np.int64))
    code, ws, ex = _p1(e, 7, o)
    assert code == 0 and ws.value == 0 and not ex.value.launches
    assert P2(None, 0, ex.value, dev.stream) == 0


def test_rows_in_order(dev):
    f = dev.tensor(np.ones((3, 3), np.float32))
    i = dev.tensor(np.ones((3, 3), np.int32))
    listing = "[DT_FLOAT,DT_FLOAT16,DT_DOUBLE,DT_BFLOAT16,]"
    _fails(ACLNN_ERR_PARAM_INVALID, f"Tensor self not implemented for DT_INT32, should be in dtype support list "
           f"{listing}.", i, 5, f)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, f"Tensor out not implemented for DT_INT32, should be in dtype support list "
           f"{listing}.", f, 5, i)  # fmt: skip
    _fails(ACLNN_ERR_PARAM_INVALID, "provided dim 2 not in the range of input size 2.", f, 2, f)
    _fails(ACLNN_ERR_PARAM_INVALID, "provided dim -3 not in the range of input size 2.", f, -3, f)
    s = dev.tensor(np.float32(1))
    _fails(ACLNN_ERR_PARAM_INVALID, "provided dim 1 not in the range of input size 1.", s, 1, s)
    r9 = dev.tensor(np.ones([1] * 9, np.float32))
    _fails(ACLNN_ERR_PARAM_INVALID, "provided dim 9 not in the range of input size 9.", r9, 9, r9)  # dim first
    _fails(ACLNN_ERR_PARAM_INVALID, "The self tensor cannot be larger than 8 dimensions.", r9, 0, r9)
    _fails(ACLNN_ERR_PARAM_INVALID,
           "Expected tensor for self to have same size as tensor for out, but [3, 3] does not equal [2, 3].",
           f, 0, dev.tensor(np.zeros((2, 3), np.float32)))  # fmt: skip


def test_formats_are_not_checked(dev):
    x = dev.tensor(np.ones((1, 2, 2, 3), np.float32), fmt=ACL_FORMAT_NHWC)
    code, _, ex = _p1(x, -1, dev.tensor(np.zeros((1, 2, 2, 3), np.float32)))
    assert code == 0 and aclDestroyAclOpExecutor(ex.value) == 0


# -- dtypes and graph ----------------------------------------------------------------------------------


@pytest.mark.parametrize("chip", CHIPS)
def test_every_dtype_per_chip(soc, chip):
    soc(chip)
    dev = Dev()
    try:
        supported = facts.dtype_support_list()
        for dt in map(np.dtype, [np.float32, np.float16, np.float64, BF16, np.int32, np.int8, np.complex64]):
            acl = _acl(dt)
            x = (np.arange(6).reshape(2, 3) - 2).astype(dt)
            code, _, ex = _p1(dev.tensor(x, acl_dtype=acl), 1, dev.tensor(np.zeros((2, 3), dt), acl_dtype=acl))
            if acl not in supported:
                assert code == ACLNN_ERR_PARAM_INVALID
                assert aclGetRecentErrMsg().startswith(f"{PREFIX}Tensor self not implemented for {D.dt_name(acl)},")
                continue
            assert code == 0, aclGetRecentErrMsg()
            assert _graph(ex.value) == (["SoftmaxV2@AiCpu"] if dt == np.float64 else ["SoftmaxV2"])
            aclDestroyAclOpExecutor(ex.value)
            got = _softmax(dev, x, 1).astype(np.float64)
            assert np.allclose(got, GS.reference(x.astype(np.float64), 1), rtol=1e-2), dt
    finally:
        dev.close()


def test_out_dtype_is_reached_by_a_separate_cast(dev):
    x = (np.arange(10, dtype=np.float32) / 3).reshape(2, 5)
    o = dev.tensor(np.zeros((2, 5), np.float32))
    h = dev.tensor(x.astype(np.float16))
    code, _, ex = _p1(h, -1, o)
    assert code == 0 and _graph(ex.value) == ["SoftmaxV2", "Cast"]
    assert ex.value.steps[1].outputs[0].dtype == D.DT_FLOAT16  # softmax in float16
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, h, -1, o)
    want16 = GS.softmax_tbe(x.astype(np.float16), 1)
    assert_bits_equal(dev.read(o), want16.astype(np.float32))  # exact widening of the float16 result
    # the other way: float32 softmax, then rounded to float16
    oh = dev.tensor(np.zeros((2, 5), np.float16))
    _run(dev, dev.tensor(x), 1, oh)
    assert_bits_equal(dev.read(oh), GS.softmax_tbe(x, 1).astype(np.float16))


# -- the numbers: Ascend950's templates ---------------------------------------------------------------

TEMPLATE_CASES = [
    # shape, dim, dtype, template
    ((4, 5), -1, np.float32, "ar_small_r"),
    ((3, 16), 1, np.float16, "ar_small_r"),
    ((320, 5), 1, np.float32, "ar_full_load"),  # the small-R template leaves a1 in [5, 160] * 64 cores to others
    ((3, 40), 1, np.float32, "ar_full_load"),
    ((2, 100), 1, BF16, "ar_full_load"),
    ((2, 200), 1, np.float32, "ar_full_load"),  # 4 chunks, the last partial
    ((2, 256), 1, np.float32, "ar_full_load"),
    ((1, 1000), 1, np.float32, "ar_full_load"),
    ((1, 8257), 1, np.float32, "ar_full_load"),  # 128 partials: the lane-pair post step
    ((1, 20000), 1, np.float32, "ar_recompute"),
    ((1, 50000), 1, np.float32, "ar_recompute"),  # four tiles and the binary cache
    ((1, 17000), 1, np.float16, "ar_recompute"),  # one tile
    ((6,), 0, np.float32, "ar_small_r"),
    ((), 0, np.float32, "ar_small_r"),
    ((3, 1, 5), 1, np.float32, "ara_full_load"),  # r = 1: everything moves to a0
    ((3, 2, 5), 1, np.float32, "ara_full_load"),
    ((3, 3, 5), 1, np.float32, "ara_full_load"),
    ((2, 4, 70), 1, np.float16, "ara_full_load"),
    ((2, 7, 5), 1, np.float32, "ara_full_load"),
    ((2, 8, 5), 1, np.float32, "ara_full_load"),
    ((2, 9, 3), 1, np.float32, "ara_full_load"),
    ((1, 40, 3), 1, BF16, "ara_full_load"),
    ((1, 100, 2), 1, np.float32, "ara_full_load"),
    ((1, 300, 2), 1, np.float32, "ara_recompute"),
    ((5, 4, 3, 2), -3, np.float32, "ara_full_load"),
]


def _inputs(shape, dtype, seed=0):
    rng = np.random.default_rng(seed + int(np.prod(shape)))
    return (rng.standard_normal(shape) * 3).astype(np.float32).astype(dtype)


@pytest.mark.parametrize("shape,dim,dtype,template", TEMPLATE_CASES, ids=[f"{c[0]}-{c[3]}" for c in TEMPLATE_CASES])
def test_ascend950_templates_bit_exact(soc, shape, dim, dtype, template):
    soc("Ascend950")
    dev = Dev()
    try:
        x = _inputs(shape, dtype)
        axis = dim % max(len(shape), 1)
        assert kernel.template_3510(x.shape, axis, x.dtype.itemsize) == template
        want, name = GS.softmax_950(x, axis)
        assert name == template
        got = _softmax(dev, x, dim)
        assert_bits_equal(got, want)
        tol = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 2e-3, BF16: 1.6e-2}[np.dtype(dtype)]
        atol = 2.0**-24 if dtype == np.float16 else 1e-30  # float16's subnormal spacing
        assert np.allclose(got.astype(np.float64), GS.reference(x, axis), rtol=tol, atol=atol)
    finally:
        dev.close()


# -- the numbers: TBE and AI CPU ---------------------------------------------------------------------

TBE_CASES = [((4, 5), -1), ((3, 130), 1), ((2, 700), 1), ((5, 9, 3), 1), ((7, 4), 0), ((), 0)]


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend910", "Ascend310P"])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=["f32", "f16", "bf16"])
@pytest.mark.parametrize("shape,dim", TBE_CASES, ids=[str(c) for c in TBE_CASES])
def test_tbe_recipe_bit_exact(soc, chip, dtype, shape, dim):
    soc(chip)
    dev = Dev()
    try:
        x = _inputs(shape, dtype, 7)
        if dtype == BF16 and chip != "Ascend910B":
            code, _, _ = _p1(dev.tensor(x, acl_dtype=ACL_BF16), dim, dev.tensor(x, acl_dtype=ACL_BF16))
            assert code == ACLNN_ERR_PARAM_INVALID
            return
        axis = dim % max(len(shape), 1)
        got = _softmax(dev, x, dim)
        assert_bits_equal(got, GS.softmax_tbe(x, axis, reciprocal=chip == "Ascend310P"))
        # float16's rounded subtraction costs up to half an ulp of |x - max| in the exponent
        tol = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 1e-2, BF16: 1.6e-2}[np.dtype(dtype)]
        atol = 2.0**-24 if dtype == np.float16 else 1e-30
        assert np.allclose(got.astype(np.float64), GS.reference(x, axis), rtol=tol, atol=atol)
    finally:
        dev.close()


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950", "Ascend310P"])
@pytest.mark.parametrize("shape,dim", [((3, 7), 1), ((50, 50), 0), ((4, 3, 200), -1), ((), 0)])
def test_double_runs_on_the_ai_cpu(soc, chip, shape, dim):
    soc(chip)
    dev = Dev()
    try:
        x = _inputs(shape, np.float64, 3).astype(np.float64) * 1.5
        got = _softmax(dev, x, dim)
        assert_bits_equal(got, GS.softmax_aicpu(x, dim % max(len(shape), 1)))
        assert np.allclose(got, GS.reference(x, dim % max(len(shape), 1)), rtol=1e-14, atol=0)
    finally:
        dev.close()


def test_zero_d_double_is_one_whatever_the_value(dev):
    for v in (np.nan, np.inf, -3.0):
        assert float(_softmax(dev, np.array(v), 0)) == 1.0
    # the AI Core computes x - x: NaN for a non-finite float
    assert np.isnan(_softmax(dev, np.float32(np.inf), 0))
    assert float(_softmax(dev, np.float32(-7.5), -1)) == 1.0


@pytest.mark.parametrize("chip", ["Ascend910B", "Ascend950"])
def test_special_values(soc, chip):
    soc(chip)
    dev = Dev()
    try:
        x = np.array([[1.0, np.nan, 2.0], [np.inf, 1.0, 2.0], [-np.inf] * 3, [-np.inf, 0.0, 0.0]], np.float32)
        got = _softmax(dev, x, 1)
        assert np.isnan(got[:3]).all()
        assert got[3].tolist() == [0.0, 0.5, 0.5]
        assert (got[0].view(np.uint32) == 0x7FC00000).all()
    finally:
        dev.close()


def test_ascend950_flushes_subnormal_exponentials(soc):
    x = np.array([[0.0, -100.0]], np.float32)  # exp(-100) ~ 3.7e-44 is subnormal in float32
    soc("Ascend950")
    dev = Dev()
    try:
        assert _softmax(dev, x, 1).tolist() == [[1.0, 0.0]]
    finally:
        dev.close()
    soc("Ascend910B")
    dev = Dev()
    try:
        got = _softmax(dev, x, 1)
        assert got[0, 0] == 1.0 and 0 < got[0, 1] < 2.0**-126  # kept (IEEE) on the TBE chips
    finally:
        dev.close()


def test_views_in_and_out(dev):
    base = _inputs((6, 4), np.float32, 5)
    x = dev.strided(base, (4, 6), (1, 4))
    o = dev.strided(np.zeros((6, 4), np.float32), (4, 6), (1, 4))
    code, _, ex = _p1(x, 1, o)
    assert code == 0 and _graph(ex.value) == ["Transpose", "SoftmaxV2", "Transpose"]
    aclDestroyAclOpExecutor(ex.value)
    _run(dev, x, 1, o)
    assert_bits_equal(dev.read(o), GS.softmax_tbe(np.ascontiguousarray(base.T), 1))


def test_doc_example(dev):
    got = _softmax(dev, np.arange(8, dtype=np.float32).reshape(4, 2), 0)
    assert [f"{v:.6f}" for v in got.ravel()] == ["0.002144", "0.002144", "0.015842", "0.015842", "0.117059",
                                                 "0.117059", "0.864955", "0.864955"]  # fmt: skip


def test_functional_wrapper():
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    assert np.allclose(F.softmax(x), GS.reference(x, 1))
    assert F.softmax(x.astype(np.float16), out_dtype=np.float32).dtype == np.float32
    with pytest.raises(F.AclnnError) as e:
        F.softmax(np.ones(3, np.int32))
    assert e.value.code == ACLNN_ERR_PARAM_INVALID and "DT_INT32" in e.value.message
    assert _acl(np.int32) == ACL_INT32
