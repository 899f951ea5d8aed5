"""Every failure of an ``aclnn_py.functional`` call is an AclnnError with the code and the message
the C-style call gives, and shapes are kept exactly (0-d in, 0-d out), for every function of
every functional module (issue 15, "The Pythonic layer").

The C-style side is called here directly (aclCreateTensor, <api>GetWorkspaceSize) with the
arguments a C program would pass, and its code and message are compared with the exception's;
only the sequence number in an EZ1007 line (``aclnnAdd_12``) differs between two calls."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from helpers import Dev

import aclnn_py
from aclnn_py import (
    ACL_FLOAT,
    ACL_INT64,
    ACLNN_ERR_PARAM_INVALID,
    ACLNN_ERR_PARAM_NULLPTR,
    Ref,
    aclCreateScalar,
    aclDestroyScalar,
    aclFinalize,
    aclGetRecentErrMsg,
    aclrtResetDevice,
)
from aclnn_py import functional as F

PREFIX = "AclNN_Parameter_Error(EZ1001): "


@pytest.fixture(autouse=True)
def _release_runtime():
    yield
    aclrtResetDevice(0)
    aclFinalize()


def normalise(msg: str | None) -> str | None:
    """The message without the per-call sequence number L2_DFX_PHASE_1 gives (``aclnnAdd_12``)."""
    return None if msg is None else re.sub(r"\b(aclnn\w+?)_\d+\b", r"\1_<n>", msg)


def failure(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> F.AclnnError:
    """The AclnnError ``fn`` raises (any other outcome fails the test)."""
    with pytest.raises(F.AclnnError) as err:
        fn(*args, **kwargs)
    return err.value


# -- a valid call of every function, with 0-d inputs ---------------------------------------------------

X = np.array(2.0, np.float32)
CALLS: dict[str, Callable[[np.ndarray], tuple[Any, ...]]] = {
    "add": lambda x: (x, x), "adds": lambda x: (x, 2.0), "sub": lambda x: (x, x), "subs": lambda x: (x, 2.0),
    "mul": lambda x: (x, x), "muls": lambda x: (x, 2.0), "div": lambda x: (x, x), "divs": lambda x: (x, 2.0),
    "all": lambda x: (x,), "any": lambda x: (x,), "cast": lambda x: (x, np.float16),
    "clamp": lambda x: (x, 0.0, 1.0), "clamp_max": lambda x: (x, 1.0), "clamp_min": lambda x: (x, 0.0),
    "eq_tensor": lambda x: (x, x), "ne_tensor": lambda x: (x, x), "gt_tensor": lambda x: (x, x),
    "ge_tensor": lambda x: (x, x), "lt_tensor": lambda x: (x, x), "le_tensor": lambda x: (x, x),
    "eq_scalar": lambda x: (x, 2.0), "ne_scalar": lambda x: (x, 2.0), "gt_scalar": lambda x: (x, 2.0),
    "ge_scalar": lambda x: (x, 2.0), "lt_scalar": lambda x: (x, 2.0), "le_scalar": lambda x: (x, 2.0),
    "maximum": lambda x: (x, x), "minimum": lambda x: (x, x), "hardswish": lambda x: (x,),
    "hardswish_backward": lambda x: (x, x), "index_select": lambda x: (x, 0, np.array(0, np.int64)),
    "reduce_sum": lambda x: (x,), "sign": lambda x: (x,), "softmax": lambda x: (x,),
    "smooth_l1_loss": lambda x: (x, x), "smooth_l1_loss_backward": lambda x: (x, x, x),
    "scaled_masked_softmax": lambda x: (x, np.zeros(x.shape, np.bool_)),
    "scaled_masked_softmax_backward": lambda x: (x, x, np.zeros(x.shape, np.bool_)),
    "inplace_add": lambda x: (x.copy(), x), "inplace_adds": lambda x: (x.copy(), 2.0),
    "inplace_sub": lambda x: (x.copy(), x), "inplace_subs": lambda x: (x.copy(), 2.0),
    "inplace_mul": lambda x: (x.copy(), x), "inplace_muls": lambda x: (x.copy(), 2.0),
    "inplace_div": lambda x: (x.copy(), x), "inplace_divs": lambda x: (x.copy(), 2.0),
    "inplace_copy": lambda x: (x.copy(), x), "inplace_fill_scalar": lambda x: (x.copy(), 1.0),
    "inplace_one": lambda x: (x.copy(),), "inplace_zero": lambda x: (x.copy(),),
    "inplace_hardswish": lambda x: (x.copy(),),
    **{f"inplace_{c}_tensor": (lambda x: (x.copy(), x)) for c in ("eq", "ne", "gt", "ge", "lt", "le")},
    **{f"inplace_{c}_scalar": (lambda x: (x.copy(), 2.0)) for c in ("eq", "ne", "gt", "ge", "lt", "le")},
}  # fmt: skip
FOUR_D_ONLY = {"scaled_masked_softmax", "scaled_masked_softmax_backward"}  # their operators refuse 0-d x
FUNCTIONS = sorted(n for n in F.__all__ if n != "AclnnError")


def test_every_function_is_listed_here():
    assert sorted(CALLS) == FUNCTIONS


@pytest.mark.parametrize("name", sorted(set(FUNCTIONS) - FOUR_D_ONLY))
def test_0d_inputs_give_0d_results(name):
    args = CALLS[name](X)
    result = getattr(F, name)(*args)
    assert isinstance(result, np.ndarray) and result.shape == (), (name, getattr(result, "shape", None))
    if name.startswith("inplace_"):
        assert result is args[0]


@pytest.mark.parametrize("name", sorted(set(FUNCTIONS) - FOUR_D_ONLY))
def test_shapes_are_kept(name):
    x = np.arange(6, dtype=np.float32).reshape(2, 1, 3) / 4
    args = CALLS[name](x)
    if name == "index_select":
        args = (x, 0, np.array([1, 0], np.int64))
    result = getattr(F, name)(*args)
    reduced = {"all", "any", "reduce_sum", "smooth_l1_loss"}
    want = {"index_select": (2, 1, 3)}.get(name, () if name in reduced else (2, 1, 3))
    assert result.shape == want, name


FOUR_D_MESSAGES = {
    "scaled_masked_softmax": "Expected 4 dimension input, but got x with sizes [].",
    "scaled_masked_softmax_backward": "gradOutput only support 4 dims, but current is 0",
}


@pytest.mark.parametrize("name", sorted(FOUR_D_ONLY))
def test_4d_only_functions_refuse_0d_as_their_operator_does(name):
    err = failure(getattr(F, name), *CALLS[name](X))
    assert err.code == ACLNN_ERR_PARAM_INVALID
    assert err.message == f"{PREFIX}{FOUR_D_MESSAGES[name]}\n"


# -- elements no aclDataType holds: the operator's own dtype check -------------------------------------


@pytest.mark.parametrize("name", FUNCTIONS)
def test_string_arrays_fail_as_an_aclnn_error(name):
    """Every array argument a string array: never a TypeError or ValueError of numpy's, always the
    operator's refusal of DT_UNDEFINED (what a C caller with no aclDataType would get)."""
    args = [np.array(["a", "b"]) if isinstance(a, np.ndarray) else a for a in CALLS[name](X)]
    if name == "index_select":
        args[2] = np.array([0], np.int64)  # only self is a string array: the index must stay an index
    err = failure(getattr(F, name), *args)
    assert err.code in (ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR), (name, err)
    assert err.message is not None and err.message.startswith(PREFIX), (name, err.message)


def test_a_string_array_gets_the_c_style_dtype_message():
    dev = Dev()
    try:
        t = dev.tensor(np.zeros(2, np.float32), acl_dtype=-1)  # ACL_DT_UNDEFINED
        f = dev.tensor(np.ones(2, np.float32))
        alpha = aclCreateScalar(1, ACL_INT64)
        code = aclnn_py.aclnnAddGetWorkspaceSize(t, f, alpha, dev.tensor(np.zeros(2, np.float32)), Ref(0), Ref())
        want = aclGetRecentErrMsg()
        aclDestroyScalar(alpha)
    finally:
        dev.close()
    err = failure(F.add, np.array(["a", "b"]), np.ones(2, np.float32))
    assert (err.code, err.message) == (code, want)
    assert "Tensor self not implemented for DT_UNDEFINED" in err.message


# -- shapes that do not broadcast: the C-style call's EZ1007 ------------------------------------------


def _c_style(build: Callable[[Dev, Any, Any], tuple[str, tuple[Any, ...]]]) -> tuple[int, str | None]:
    """Run one C-style phase 1 with a FLOAT [3] and a FLOAT [4] tensor: its code and message."""
    aclrtResetDevice(0)  # the functional layer's runtime, so that the program starts afresh
    aclFinalize()
    dev = Dev()
    try:
        a, b = dev.tensor(np.ones(3, np.float32)), dev.tensor(np.ones(4, np.float32))
        api, args = build(dev, a, b)
        code = getattr(aclnn_py, f"{api}GetWorkspaceSize")(*args, Ref(0), Ref())
        return int(code), normalise(aclGetRecentErrMsg())
    finally:
        while SCALARS:  # destroyed before dev.close()'s aclFinalize, as a C program does
            aclDestroyScalar(SCALARS.pop())
        dev.close()


def _out(dev: Dev, dtype: Any = np.float32) -> Any:
    return dev.tensor(np.zeros(3, dtype))  # the functional layer sizes out like the first input then


SCALARS: list[Any] = []  # the C-style calls' scalars, destroyed after each call


def _one(dt: int = ACL_INT64) -> Any:
    SCALARS.append(aclCreateScalar(1, dt))  # the functional layer's alpha=1: an INT64 scalar
    return SCALARS[-1]


def _compare(c: str, inplace: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The functional call and the C-style call of one comparison with a tensor ``other``."""
    fn = getattr(F, f"inplace_{c}_tensor" if inplace else f"{c}_tensor")
    api = f"aclnnInplace{c.capitalize()}Tensor" if inplace else f"aclnn{c.capitalize()}Tensor"
    if inplace:
        return (lambda a, b: fn(a, b)), (lambda d, a, b: (api, (a, b)))
    return (lambda a, b: fn(a, b)), (lambda d, a, b: (api, (a, b, _out(d, np.bool_))))


# name: the functional call with a [3] and a [4] array, and the same call in C
BROADCAST = {
    "add": (lambda a, b: F.add(a, b), lambda d, a, b: ("aclnnAdd", (a, b, _one(), _out(d)))),
    "sub": (lambda a, b: F.sub(a, b), lambda d, a, b: ("aclnnSub", (a, b, _one(), _out(d)))),
    "mul": (lambda a, b: F.mul(a, b), lambda d, a, b: ("aclnnMul", (a, b, _out(d)))),
    "div": (lambda a, b: F.div(a, b), lambda d, a, b: ("aclnnDiv", (a, b, _out(d)))),
    "maximum": (lambda a, b: F.maximum(a, b), lambda d, a, b: ("aclnnMaximum", (a, b, _out(d)))),
    "minimum": (lambda a, b: F.minimum(a, b), lambda d, a, b: ("aclnnMinimum", (a, b, _out(d)))),
    **{f"{c}_tensor": _compare(c, False) for c in ("eq", "ne", "gt", "ge", "lt", "le")},
    "hardswish_backward": (
        lambda a, b: F.hardswish_backward(a, b),
        lambda d, a, b: ("aclnnHardswishBackward", (a, b, _out(d))),
    ),
    "smooth_l1_loss": (
        lambda a, b: F.smooth_l1_loss(a, b, reduction="none"),
        lambda d, a, b: ("aclnnSmoothL1Loss", (a, b, 0, 1.0, _out(d))),
    ),
    "smooth_l1_loss_backward": (
        lambda a, b: F.smooth_l1_loss_backward(a, a, b, reduction="sum"),
        lambda d, a, b: ("aclnnSmoothL1LossBackward", (a, a, b, 2, 1.0, _out(d))),
    ),
    "inplace_add": (lambda a, b: F.inplace_add(a, b), lambda d, a, b: ("aclnnInplaceAdd", (a, b, _one()))),
    "inplace_sub": (lambda a, b: F.inplace_sub(a, b), lambda d, a, b: ("aclnnInplaceSub", (a, b, _one()))),
    "inplace_mul": (lambda a, b: F.inplace_mul(a, b), lambda d, a, b: ("aclnnInplaceMul", (a, b))),
    "inplace_div": (lambda a, b: F.inplace_div(a, b), lambda d, a, b: ("aclnnInplaceDiv", (a, b))),
    "inplace_copy": (lambda a, b: F.inplace_copy(a, b), lambda d, a, b: ("aclnnInplaceCopy", (a, b))),
    **{f"inplace_{c}_tensor": _compare(c, True) for c in ("eq", "ne", "gt", "ge", "lt", "le")},
}


@pytest.mark.parametrize("name", sorted(BROADCAST))
def test_shapes_that_do_not_broadcast_fail_as_the_c_style_call(name):
    call, build = BROADCAST[name]
    a = np.ones(3, np.float32)
    err = failure(call, a, np.ones(4, np.float32))
    assert (err.code, normalise(err.message)) == _c_style(build)
    assert a.tolist() == [1.0, 1.0, 1.0]  # an in-place call that failed left self alone
    if name not in ("hardswish_backward",):  # its same-shape check comes first
        assert "do not meet the broadcast condition" in err.message


# -- arguments the C side would never see --------------------------------------------------------------


@pytest.mark.parametrize("fn", [F.smooth_l1_loss, F.smooth_l1_loss_backward])
def test_an_unknown_reduction_name(fn):
    args = (np.ones(2, np.float32),) * (3 if fn is F.smooth_l1_loss_backward else 2)
    err = failure(fn, *args, reduction="avg")
    assert err.code == ACLNN_ERR_PARAM_INVALID
    assert err.message == f"{PREFIX}Reduction should be 'none' (0), 'mean' (1) or 'sum' (2), but current is 'avg'.\n"
    # an int goes to the operator's own check, a float to the C prototype's int64_t conversion
    err = failure(fn, *args, reduction=5)
    assert err.code == ACLNN_ERR_PARAM_INVALID and "Reduction should be between 0 and 2" in err.message
    err = failure(fn, *args, reduction=1.5)
    assert err.code == ACLNN_ERR_PARAM_INVALID and "Value 1.5 for reduction is invalid" in err.message


def test_the_reduction_names_are_none_mean_sum():
    s, t = np.array([0.0, 3.0], np.float32), np.zeros(2, np.float32)
    assert F.smooth_l1_loss(s, t, reduction="none").tolist() == F.smooth_l1_loss(s, t, reduction=0).tolist()
    assert F.smooth_l1_loss(s, t, reduction="mean") == F.smooth_l1_loss(s, t, reduction=1) == np.float32(1.25)
    assert F.smooth_l1_loss(s, t, reduction="sum") == F.smooth_l1_loss(s, t, reduction=2) == np.float32(2.5)


def test_a_none_scalar_is_a_null_acl_scalar():
    err = failure(F.muls, np.ones(2, np.float32), None)
    assert err.code == ACLNN_ERR_PARAM_NULLPTR
    assert (
        err.message == f"{PREFIX}Expected a value of type [aclScalar] for argument [other] but instead found nullptr.\n"
    )


def test_a_scalar_no_acl_scalar_holds_fails_as_acl_create_scalar_reports():
    err = failure(F.adds, np.ones(2, np.float32), "x")
    assert err.api == "aclCreateScalar" and err.code == ACLNN_ERR_PARAM_INVALID
    assert err.message.startswith(f"{PREFIX}aclCreateScalar failed: could not convert string to float")


def test_dims_that_are_not_integers():
    err = failure(F.reduce_sum, np.ones((2, 2), np.float32), [0.5])
    assert err.api == "aclCreateIntArray" and err.code == ACLNN_ERR_PARAM_INVALID
    assert err.message.startswith(f"{PREFIX}aclCreateIntArray failed: 0.5 is not an int64")
    err = failure(F.all, np.ones((2, 2), np.float32), ["a"])
    assert (
        err.api == "aclnnAll" and err.code == ACLNN_ERR_PARAM_INVALID and err.message.startswith(f"{PREFIX}aclnnAll: ")
    )


def test_an_in_place_call_needs_a_numpy_array():
    err = failure(F.inplace_add, [1.0, 2.0], np.ones(2, np.float32))
    assert err.api == "aclnnInplaceAdd" and err.code == ACLNN_ERR_PARAM_INVALID
    assert err.message.startswith(f"{PREFIX}aclnnInplaceAdd: ")


def test_a_dtype_numpy_does_not_know():
    err = failure(F.cast, np.ones(2, np.float32), "nonsense")
    assert err.api == "aclnnCast" and err.code == ACLNN_ERR_PARAM_INVALID
    assert "data type 'nonsense' not understood" in err.message


def test_a_call_that_does_not_fit_the_signature_is_still_a_type_error():
    with pytest.raises(TypeError):
        F.add(np.ones(2, np.float32))  # nothing ran: Python's own error
    with pytest.raises(TypeError):
        F.add(np.ones(2, np.float32), np.ones(2, np.float32), out=None)


def test_an_earlier_message_does_not_become_this_calls_message():
    """A C-style failure nobody read, then a failing functional call: only the call's own message."""
    dev = Dev()
    try:
        s = aclCreateScalar(1.0, ACL_FLOAT)
        assert aclnn_py.aclnnMulsGetWorkspaceSize(None, s, None, Ref(0), Ref()) == ACLNN_ERR_PARAM_NULLPTR
        aclDestroyScalar(s)
        err = failure(F.softmax, np.ones(3, np.float32), 5)
    finally:
        dev.close()
    assert err.message == f"{PREFIX}provided dim 5 not in the range of input size 1.\n"


def test_the_module_functions_are_the_guarded_exports():
    from aclnn_py.functional import math_add, math_compare

    assert math_add.add is F.add and math_compare.inplace_eq_tensor is F.inplace_eq_tensor
    assert F.add.__doc__.startswith("``aclnnAdd``")
