"""The Pythonic layer runs the same two-phase path and raises AclnnError with CANN's code."""

from __future__ import annotations

import threading

import goldens
import ml_dtypes
import numpy as np
import pytest
from helpers import assert_bits_equal

from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclrtResetDevice
from aclnn_py import functional as F
from aclnn_py.runtime import sanitizer

BF16 = np.dtype(ml_dtypes.bfloat16)


@pytest.fixture(autouse=True)
def _release_runtime():
    yield
    aclrtResetDevice(0)
    aclFinalize()


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16], ids=str)
def test_hardswish_matches_the_recipe(dtype):
    rng = np.random.default_rng(0)
    x = rng.uniform(-5, 5, (3, 7)).astype(dtype)
    g = rng.standard_normal((3, 7)).astype(dtype)
    out = F.hardswish_backward(g, x)
    assert out.dtype == np.dtype(dtype)
    assert_bits_equal(out, goldens.hardswish_tbe(g, x, dtype))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum", 1])
def test_smooth_l1_matches_the_recipe_with_broadcast(reduction):
    rng = np.random.default_rng(1)
    g = np.float32(0.5)
    s = rng.standard_normal((4, 3)).astype(np.float32) * 2
    t = rng.standard_normal(3).astype(np.float32)
    out = F.smooth_l1_loss_backward(g, s, t, reduction=reduction, beta=0.5)
    name = reduction if isinstance(reduction, str) else "mean"
    assert_bits_equal(out, goldens.smooth_l1_tbe(s, t, np.asarray(g), 0.5, name, np.float32))


def test_smooth_l1_promotes_and_casts_to_out_dtype():
    s = np.linspace(-2, 2, 8).astype(np.float16)
    t = np.zeros(8, BF16)
    g = np.ones(8, np.float16)
    out = F.smooth_l1_loss_backward(g, s, t, reduction="none")
    assert out.dtype == np.float32  # FLOAT16 + BFLOAT16 promote to FLOAT
    out16 = F.smooth_l1_loss_backward(g, s, t, reduction="none", out_dtype=np.float16)
    assert out16.dtype == np.float16 and np.array_equal(out16, out.astype(np.float16))


def test_softmax_grad_matches_the_recipe():
    rng = np.random.default_rng(2)
    g = rng.standard_normal((2, 2, 3, 70)).astype(np.float16)
    y = rng.uniform(0, 1, (2, 2, 3, 70)).astype(np.float16)
    m = rng.uniform(0, 1, (1, 2, 3, 70)) < 0.5
    out = F.scaled_masked_softmax_backward(g, y, m, scale=0.5)
    assert_bits_equal(out, goldens.scaled_masked_softmax_grad(g, y, m, 0.5, np.float16))


def test_python_numbers_are_float32():
    assert F.hardswish_backward([1.0, 1.0], [-3.0, 3.0]).tolist() == [-0.5, 1.5]


def test_errors_raise_with_code_name_and_message():
    with pytest.raises(F.AclnnError) as err:
        F.hardswish_backward(np.ones(3, np.float32), np.ones(4, np.float32))
    e = err.value
    assert e.code == 161002 and e.name == "ACLNN_ERR_PARAM_INVALID"
    assert e.api == "aclnnHardswishBackwardGetWorkspaceSize"
    assert "Expected tensor for gradOutput to have same size as tensor for self" in e.message
    assert aclGetRecentErrMsg() is None  # the message moved into the exception
    with pytest.raises(F.AclnnError) as err:
        F.smooth_l1_loss_backward(np.ones(2, np.float32), np.ones(2, np.float32), np.ones(2, np.float32), beta=-1)
    assert "beta should be greater than or equal to 0" in str(err.value)
    with pytest.raises(F.AclnnError) as err:
        F.scaled_masked_softmax_backward(np.ones((1, 1, 2, 2), np.float32), np.ones((1, 1, 2, 2), np.float32),
                                         np.zeros((1, 1, 2, 2), np.bool_), fix_triu_mask=True)  # fmt: skip
    assert err.value.message.endswith("fixTriuMask only support false\n")
    with pytest.raises(F.AclnnError) as err:  # no aclDataType holds strings: the operator's dtype check
        F.hardswish_backward(np.array(["a"]), np.array(["b"]))
    assert err.value.code == 161002 and "not implemented for DT_UNDEFINED" in err.value.message


def test_the_layer_leaves_nothing_behind():
    F.hardswish_backward(np.ones(4, np.float32), np.ones(4, np.float32))
    assert aclrtResetDevice(0) == 0
    assert aclFinalize() == 0
    assert not sanitizer.FINDINGS


def test_threads_each_get_a_device():
    results = {}

    def work(i):
        results[i] = F.hardswish_backward(np.full(4, float(i), np.float32), np.zeros(4, np.float32)).tolist()
        aclrtResetDevice(0)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: [0.5 * i] * 4 for i in range(4)}


def test_every_function_is_in_the_pages_table():
    """docs/functional.md names every function the layer exports (in backquotes)."""
    import pathlib
    import re

    page = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "functional.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(\w+)[(`]", page))
    missing = [n for n in F.__all__ if callable(getattr(F, n)) and n != "AclnnError" and n not in named]
    assert missing == []
