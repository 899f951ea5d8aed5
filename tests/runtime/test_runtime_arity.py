"""A runtime call with the wrong number of arguments is a Python error (in C it would not
compile), as for the aclnn functions and aclCreateTensor: not a code, nothing recorded."""

from __future__ import annotations

import pytest

from aclnn_py import (
    ACL_RT_THREAD_LEVEL,
    ACL_SUCCESS,
    aclGetRecentErrMsg,
    aclnnAddGetWorkspaceSize,
    aclrtGetLastError,
    aclrtMalloc,
    aclrtSetDevice,
)


@pytest.mark.parametrize(
    "call",
    [
        lambda: aclrtSetDevice(),
        lambda: aclrtSetDevice(0, 1),
        lambda: aclrtMalloc(None),
        lambda: aclnnAddGetWorkspaceSize(None),
    ],
    ids=["rt-missing", "rt-extra", "rt-out-missing", "aclnn-missing"],
)
def test_wrong_arity_raises_type_error(dev: object, call: object) -> None:
    aclGetRecentErrMsg()  # empty the message buffer
    with pytest.raises(TypeError, match="argument"):
        call()  # type: ignore[operator]
    assert aclGetRecentErrMsg() in (None, "")  # not reported as an internal error
    assert aclrtGetLastError(ACL_RT_THREAD_LEVEL) == ACL_SUCCESS


def test_type_error_inside_the_body_is_still_a_code(dev: object) -> None:
    """Only the binding is exempt: a bad argument value inside the body returns a code."""
    assert aclrtSetDevice("zero") != ACL_SUCCESS  # type: ignore[arg-type]
