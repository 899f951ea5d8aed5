"""aclnnCast."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes
from ._core import Call, array

__all__ = ["cast"]


def cast(self: Any, dtype: Any) -> np.ndarray:
    """``aclnnCast``: ``self`` converted to ``dtype`` (a numpy dtype, or an ``aclDataType`` whose
    elements numpy can hold), as the chip's Cast kernel converts it."""
    a = array(self)
    if isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool):
        acl = int(dtype)
        npdt = dtypes.numpy_dtype(dtypes.to_op_dtype(acl))
        if npdt is None:
            raise TypeError(f"cast: {dtypes.dt_name(dtypes.to_op_dtype(acl))} has no numpy dtype to read back")
    else:
        npdt = np.dtype(dtype)
        dt = dtypes.from_numpy_dtype(npdt)
        if dt is None:
            raise TypeError(f"cast: numpy dtype {npdt} has no aclDataType")
        acl = int(dtypes.to_acl_dtype(dt))
    with Call() as c:
        out = c.output(a.shape, npdt)
        c.run("aclnnCast", c.tensor(a), acl, out)
        return c.read(out)
