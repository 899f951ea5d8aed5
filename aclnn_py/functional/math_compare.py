"""The comparisons (aclnnEqTensor ... aclnnLeScalar) and aclnnMaximum, aclnnMinimum.

A comparison returns a bool array unless ``out_dtype`` names another dtype (the BOOL result is
cast to it); a scalar ``other`` becomes an aclScalar of its type (``int`` INT64, ``float``
FLOAT, ``bool`` BOOL, a numpy scalar its own dtype). The in-place forms (``inplace_eq_tensor``
...) write the comparison into ``self`` (a numpy array), in ``self``'s dtype (1 or 0), and return it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import Call, array, broadcast_shape, promoted

__all__ = [
    "eq_scalar",
    "eq_tensor",
    "ge_scalar",
    "ge_tensor",
    "gt_scalar",
    "gt_tensor",
    "inplace_eq_scalar",
    "inplace_eq_tensor",
    "inplace_ge_scalar",
    "inplace_ge_tensor",
    "inplace_gt_scalar",
    "inplace_gt_tensor",
    "inplace_le_scalar",
    "inplace_le_tensor",
    "inplace_lt_scalar",
    "inplace_lt_tensor",
    "inplace_ne_scalar",
    "inplace_ne_tensor",
    "le_scalar",
    "le_tensor",
    "lt_scalar",
    "lt_tensor",
    "maximum",
    "minimum",
    "ne_scalar",
    "ne_tensor",
]


def _tensor_api(api: str, self: Any, other: Any, out_dtype: Any) -> np.ndarray:
    a, b = array(self), array(other)
    with Call() as c:
        out = c.output(broadcast_shape(a, b), out_dtype or np.bool_)
        c.run(api, c.tensor(a), c.tensor(b), out)
        return c.read(out)


def _scalar_api(api: str, self: Any, other: Any, out_dtype: Any) -> np.ndarray:
    a = array(self)
    with Call() as c:
        out = c.output(a.shape, out_dtype or np.bool_)
        c.run(api, c.tensor(a), c.scalar(other), out)
        return c.read(out)


def eq_tensor(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnEqTensor``: ``self == other`` (broadcast)."""
    return _tensor_api("aclnnEqTensor", self, other, out_dtype)


def eq_scalar(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnEqScalar``: ``self == other`` with a scalar ``other``."""
    return _scalar_api("aclnnEqScalar", self, other, out_dtype)


def ne_tensor(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnNeTensor``: ``self != other`` (broadcast)."""
    return _tensor_api("aclnnNeTensor", self, other, out_dtype)


def ne_scalar(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnNeScalar``: ``self != other`` with a scalar ``other``."""
    return _scalar_api("aclnnNeScalar", self, other, out_dtype)


def gt_tensor(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnGtTensor``: ``self > other`` (broadcast)."""
    return _tensor_api("aclnnGtTensor", self, other, out_dtype)


def gt_scalar(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnGtScalar``: ``self > other`` with a scalar ``other``."""
    return _scalar_api("aclnnGtScalar", self, other, out_dtype)


def ge_tensor(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnGeTensor``: ``self >= other`` (broadcast)."""
    return _tensor_api("aclnnGeTensor", self, other, out_dtype)


def ge_scalar(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnGeScalar``: ``self >= other`` with a scalar ``other``."""
    return _scalar_api("aclnnGeScalar", self, other, out_dtype)


def lt_tensor(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnLtTensor``: ``self < other`` (broadcast)."""
    return _tensor_api("aclnnLtTensor", self, other, out_dtype)


def lt_scalar(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnLtScalar``: ``self < other`` with a scalar ``other``."""
    return _scalar_api("aclnnLtScalar", self, other, out_dtype)


def le_tensor(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnLeTensor``: ``self <= other`` (broadcast)."""
    return _tensor_api("aclnnLeTensor", self, other, out_dtype)


def le_scalar(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnLeScalar``: ``self <= other`` with a scalar ``other``."""
    return _scalar_api("aclnnLeScalar", self, other, out_dtype)


def _maxmin(api: str, self: Any, other: Any, out_dtype: Any) -> np.ndarray:
    a, b = array(self), array(other)
    with Call() as c:
        out = c.output(broadcast_shape(a, b), out_dtype or promoted(a, b))
        c.run(api, c.tensor(a), c.tensor(b), out)
        return c.read(out)


def maximum(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnMaximum``: the elementwise maximum (broadcast; BOOL: or); the promoted dtype
    unless ``out_dtype``. A NaN loses against a number."""
    return _maxmin("aclnnMaximum", self, other, out_dtype)


def minimum(self: Any, other: Any, *, out_dtype: Any = None) -> np.ndarray:
    """``aclnnMinimum``: the elementwise minimum (broadcast; BOOL: and); the promoted dtype
    unless ``out_dtype``. A NaN loses against a number."""
    return _maxmin("aclnnMinimum", self, other, out_dtype)


def _inplace(api: str, self: np.ndarray, other: Any, scalar: bool) -> np.ndarray:
    """Run an in-place comparison on a copy of ``self`` and write the result back into ``self``."""
    with Call() as c:
        t = c.tensor(self)
        c.run(api, t, c.scalar(other) if scalar else c.tensor(array(other)))
        self[...] = c.read(t)
        return self


def inplace_eq_tensor(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceEqTensor``: ``self = (self == other)`` in ``self``'s dtype (``other`` broadcast to ``self``)."""
    return _inplace("aclnnInplaceEqTensor", self, other, False)


def inplace_eq_scalar(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceEqScalar``: ``self = (self == other)`` in ``self``'s dtype, a scalar ``other``."""
    return _inplace("aclnnInplaceEqScalar", self, other, True)


def inplace_ne_tensor(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceNeTensor``: ``self = (self != other)`` in ``self``'s dtype (``other`` broadcast to ``self``)."""
    return _inplace("aclnnInplaceNeTensor", self, other, False)


def inplace_ne_scalar(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceNeScalar``: ``self = (self != other)`` in ``self``'s dtype, a scalar ``other``."""
    return _inplace("aclnnInplaceNeScalar", self, other, True)


def inplace_gt_tensor(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceGtTensor``: ``self = (self > other)`` in ``self``'s dtype (``other`` broadcast to ``self``)."""
    return _inplace("aclnnInplaceGtTensor", self, other, False)


def inplace_gt_scalar(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceGtScalar``: ``self = (self > other)`` in ``self``'s dtype, a scalar ``other``."""
    return _inplace("aclnnInplaceGtScalar", self, other, True)


def inplace_ge_tensor(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceGeTensor``: ``self = (self >= other)`` in ``self``'s dtype (``other`` broadcast to ``self``)."""
    return _inplace("aclnnInplaceGeTensor", self, other, False)


def inplace_ge_scalar(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceGeScalar``: ``self = (self >= other)`` in ``self``'s dtype, a scalar ``other``."""
    return _inplace("aclnnInplaceGeScalar", self, other, True)


def inplace_lt_tensor(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceLtTensor``: ``self = (self < other)`` in ``self``'s dtype (``other`` broadcast to ``self``)."""
    return _inplace("aclnnInplaceLtTensor", self, other, False)


def inplace_lt_scalar(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceLtScalar``: ``self = (self < other)`` in ``self``'s dtype, a scalar ``other``."""
    return _inplace("aclnnInplaceLtScalar", self, other, True)


def inplace_le_tensor(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceLeTensor``: ``self = (self <= other)`` in ``self``'s dtype (``other`` broadcast to ``self``)."""
    return _inplace("aclnnInplaceLeTensor", self, other, False)


def inplace_le_scalar(self: np.ndarray, other: Any) -> np.ndarray:
    """``aclnnInplaceLeScalar``: ``self = (self <= other)`` in ``self``'s dtype, a scalar ``other``."""
    return _inplace("aclnnInplaceLeScalar", self, other, True)
