"""``Ref``: the out-parameter holder that stands for C's ``&x``.

``x = Ref()`` then ``aclrtMalloc(x, size, policy)`` and read ``x.value``. Passing ``None``
where C takes a pointer is passing ``nullptr``. Where the out value is a plain number
(sizes, counts, device pointers), ctypes holders (``c_uint64()``, ``c_void_p()``) and
``ctypes.byref(holder)`` work too.
"""

from __future__ import annotations

import ctypes
from typing import Any, Generic, TypeVar

T = TypeVar("T")

# ctypes.byref() returns an object of this (private) type; it keeps the holder in `_obj`.
_CArgObject: Any = type(ctypes.byref(ctypes.c_int()))


class Ref(Generic[T]):
    """A box for one out value: ``Ref()`` is C's uninitialised variable, ``Ref(0)`` an initialised one."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Ref({self.value!r})"


class OutParamError(TypeError):
    """Raised (inside the emulator) when an object cannot serve as an out-parameter."""


def is_out_param(obj: object, numeric: bool) -> bool:
    """True if ``obj`` can receive an out value (ctypes holders only where ``numeric``)."""
    if isinstance(obj, Ref):
        return True
    if not numeric:
        return False
    if isinstance(obj, _CArgObject):
        obj = obj._obj
    return isinstance(obj, ctypes._SimpleCData)


def store(out: object, value: Any) -> None:
    """Write ``value`` through an out-parameter (``Ref``, ctypes holder or ``byref``)."""
    if isinstance(out, Ref):
        out.value = value
        return
    target = out._obj if isinstance(out, _CArgObject) else out
    if isinstance(target, ctypes._SimpleCData):
        if value is None and not isinstance(target, (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_wchar_p)):
            value = 0  # nullptr into an integer holder
        try:
            target.value = value
        except TypeError:
            raise OutParamError(
                f"a {type(target).__name__} cannot hold the {type(value).__name__} this out-parameter returns (use Ref)"
            ) from None
        return
    raise OutParamError(f"{type(out).__name__} cannot hold an out value")


def load(out: object) -> Any:
    """Read the current value behind an out-parameter holder."""
    if isinstance(out, Ref):
        return out.value
    target = out._obj if isinstance(out, _CArgObject) else out
    if isinstance(target, ctypes._SimpleCData):
        return target.value
    raise OutParamError(f"{type(out).__name__} is not an out-parameter")
