"""The Pythonic layer: numpy arrays in, numpy arrays out, exceptions instead of status codes.

Each function runs exactly the C-style path — device memory, ``aclCreateTensor``, phase 1,
workspace, phase 2 on a stream, synchronize, copy back, release — so the numbers, the checks and
the messages are the emulator's, not a second implementation:

    >>> import numpy as np
    >>> from aclnn_py import functional as F
    >>> F.hardswish_backward(np.ones(3, np.float32), np.array([-3, 0, 3], np.float32)).tolist()
    [-0.5, 0.5, 1.5]

A failing call raises :class:`AclnnError` carrying the status code, its name and the message
``aclGetRecentErrMsg()`` returned. The runtime is initialised on first use (``aclInit``), a
thread without a current context gets device 0, and the work runs on its default stream.
One module per operator module of :mod:`aclnn_py.ops`.
"""

from __future__ import annotations

from ._core import AclnnError
from .activation import hardswish_backward
from .loss import smooth_l1_loss_backward
from .math_add import add, adds, inplace_add, inplace_adds
from .vfusion import scaled_masked_softmax_backward

__all__ = [
    "AclnnError",
    "add",
    "adds",
    "hardswish_backward",
    "inplace_add",
    "inplace_adds",
    "scaled_masked_softmax_backward",
    "smooth_l1_loss_backward",
]
