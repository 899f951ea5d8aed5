"""A dtype relabelled by the operator (issue 15, item 4): aclnnScaledMaskedSoftmaxBackward
writes ``out`` with gradOutput's dtype; when that writes more bytes than the caller allocated
for ``out``, phase 1 says which tensor, how many bytes the kernel writes and how many the
allocation holds — under every stream policy, before anything runs."""

from __future__ import annotations

import numpy as np
import pytest

from aclnn_py import (
    ACL_BOOL,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_FORMAT_ND,
    ACLNN_ERR_PARAM_INVALID,
    Ref,
    aclCreateTensor,
    aclGetRecentErrMsg,
    aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize,
)
from aclnn_py.runtime import sanitizer

SHAPE = [1, 1, 16, 32]


def _tensor(dev, host: np.ndarray, dtype: int):
    ptr = dev.upload(host)
    return aclCreateTensor(SHAPE, 4, dtype, None, 0, ACL_FORMAT_ND, SHAPE, 4, ptr)


def _phase1(dev, out_host: np.ndarray, out_dtype: int):
    g = _tensor(dev, np.ones(SHAPE, np.float32), ACL_FLOAT)
    y = _tensor(dev, np.ones(SHAPE, np.float32), ACL_FLOAT)
    mask = _tensor(dev, np.zeros(SHAPE, np.bool_), ACL_BOOL)
    out = _tensor(dev, out_host, out_dtype)
    ws, ex = Ref(0), Ref()
    return aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, mask, 1.0, False, out, ws, ex)


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_a_relabelled_out_too_small_for_its_new_dtype_is_said_at_phase_1(policy, monkeypatch, findings):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    from helpers import Dev

    dev = Dev()
    try:
        assert _phase1(dev, np.zeros(SHAPE, np.float16), ACL_FLOAT16) == 0  # CANN's status stays
        text = findings.refresh().text()
        assert findings.checks() == ["memcheck"]
        assert text.startswith("aclnnScaledMaskedSoftmaxBackward at test_diagnostics_relabel.py:")
        assert "out was relabelled from DT_FLOAT16 to DT_FLOAT (the operator writes it with gradOutput's dtype)" in text
        assert "the kernel will write 2048 bytes at 0x" in text and "the allocation holds 1024 from there" in text
        assert "(1056 bytes, 1024 requested)" in text
        aclGetRecentErrMsg()
    finally:
        dev.close()


def test_an_out_allocated_for_the_new_dtype_is_fine(dev, findings):
    # out labelled float16 but its buffer holds float32s: the relabelled kernel fits
    assert _phase1(dev, np.zeros(SHAPE, np.float32), ACL_FLOAT16) == 0
    assert not findings.refresh()


def test_error_mode_fails_phase_1(dev, findings):
    sanitizer.set_mode("error")
    assert _phase1(dev, np.zeros(SHAPE, np.float16), ACL_FLOAT16) == ACLNN_ERR_PARAM_INVALID
    assert "out was relabelled" in (aclGetRecentErrMsg() or "")
