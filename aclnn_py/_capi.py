"""Plumbing shared by every function of the C-style surface.

* :class:`ApiError` carries a status code plus the messages to report; raising it anywhere
  below a C-style function makes that function report the messages and return the code.
* :func:`c_api` turns that (and any unexpected exception) into a return value, so bad input
  never escapes as a Python exception. Internal bugs are reported as an internal error, or
  re-raised when ``ACLNN_PY_RAISE_INTERNAL=1`` (the test-suite sets this).
* The ``as_*`` converters give C's implicit argument conversions, strictly.
"""

from __future__ import annotations

import ctypes
import functools
import inspect
import math
import numbers
import os
import struct
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from . import _errmsg
from . import trace as _trace
from ._ref import OutParamError

F = TypeVar("F", bound=Callable[..., Any])

RAISE_INTERNAL = os.environ.get("ACLNN_PY_RAISE_INTERNAL", "") == "1"

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
UINT32_MAX = 2**32 - 1
UINT64_MAX = 2**64 - 1
_F32 = struct.Struct("<f")


class ApiError(Exception):
    """A failing check: the code to return and the messages to report, each (error id, text)
    or (error id, text, headline title)."""

    def __init__(self, code: int, *messages: tuple[str, ...] | tuple[str, str, None]) -> None:
        super().__init__(code, messages)
        self.code = code
        self.messages = messages

    def report(self) -> int:
        """Record the messages for aclGetRecentErrMsg() (what returning the code from a C-style
        call does); the code, for callers that go on after a failure."""
        for message in self.messages:
            _errmsg.report(*message)
        return self.code


def fail(code: int, eid: str, text: str) -> ApiError:
    """Build an :class:`ApiError` with one message (use as ``raise fail(...)``)."""
    return ApiError(code, (eid, text))


class _Depth(threading.local):
    n = 0  # 1 while an outermost C-style call of this thread is being traced


_depth = _Depth()


_BINDING = "_aclnn_py_binding_error"


def binding_error(e: TypeError) -> None:
    """Mark ``e`` as raised while binding a C-style function's arguments (a wrong number of
    arguments), for a decorator that calls the function one frame below ``c_api``'s wrapper."""
    setattr(e, _BINDING, True)


def c_api(internal_code: int, *, handle: bool = False) -> Callable[[F], F]:
    """Decorate a C-style function: ApiError -> code (or None for handle-returning functions).

    When the call trace is on, the outermost C-style call of each thread is logged with its
    arguments, result and message."""

    # bad arguments of the runtime are ACL_ERROR_INVALID_PARAM; of aclnn and acl_meta, 161002
    param_code = 100000 if internal_code == 500000 else 161002

    def deco(fn: F) -> F:
        names = tuple(inspect.signature(fn).parameters)

        def failed(e: Exception) -> Any:
            """What the call returns for an exception its body raised (re-raised when it is a
            Python error the caller must see)."""
            if isinstance(e, ApiError):
                code = e.report()
                return None if handle else code
            # A TypeError raised while binding the arguments is a call with the wrong number of
            # arguments: in C that would not compile, so it stays a Python error. (Its traceback
            # starts in the wrapper's frame: no further frame, the body never started; a wrapper
            # between, such as the runtime's rt_api, marks it with binding_error.)
            if isinstance(e, TypeError) and (
                getattr(e, _BINDING, False) or (e.__traceback__ is not None and e.__traceback__.tb_next is None)
            ):
                raise e
            if isinstance(e, OutParamError):  # an out-parameter of the wrong C type: a bad argument
                if param_code == 100000:  # the runtime: a Python-only mistake, named by aclnn_py
                    _errmsg.report("aclnn_py", f"{fn.__name__}: {e}.", None)
                else:
                    _errmsg.report("EZ1001", f"{fn.__name__}: {e}.")
                return None if handle else param_code
            if RAISE_INTERNAL:
                raise e
            _errmsg.report("EZ9999", f"aclnn_py internal error in {fn.__name__}: {e!r}")
            return None if handle else internal_code

        def invoke(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as e:
                return failed(e)

        def traced(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            before = len(_errmsg.peek())
            named = {**dict(zip(names, args)), **kwargs}
            described = {k: _trace.describe(v) for k, v in named.items()}
            _depth.n = 1
            try:
                ret = invoke(args, kwargs)
            finally:
                _depth.n = 0
            _trace.log_call(fn.__name__, named, described, ret, before)
            return ret

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if _trace.ACTIVE and not _depth.n:
                return traced(args, kwargs)
            # invoke() inlined: the untraced call (every call of a program) pays one frame less
            try:
                return fn(*args, **kwargs)
            except Exception as e:
                return failed(e)

        return wrapper  # type: ignore[return-value]

    return deco


def describe(v: object) -> str:
    """An argument as a message names it: its repr, but never a whole array or a long repr."""
    if isinstance(v, np.ndarray):
        return f"numpy.ndarray(shape={v.shape}, dtype={v.dtype})"
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _plain_int(v: object) -> int | None:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, ctypes._SimpleCData) and isinstance(v.value, int):
        return int(v.value)
    return None


def as_int(v: object, name: str, code: int, lo: int = INT64_MIN, hi: int = INT64_MAX, eid: str = "EH0001") -> int:
    """An integer argument in ``[lo, hi]``; anything else fails with ``code``."""
    iv = _plain_int(v)
    if iv is None:
        raise fail(code, eid, f"Value {describe(v)} for {name} is invalid. Reason: an integer is required.")
    if not lo <= iv <= hi:
        raise fail(code, eid, f"Value {iv} for {name} is invalid. Reason: it must be in [{lo}, {hi}].")
    return iv


def as_float(v: object, name: str, code: int, eid: str = "EZ1001") -> float:
    """A ``float``/``double`` argument (NaN and infinities pass through, as in C)."""
    if type(v) is float:  # the usual case, before the slower ABC check
        return v
    if isinstance(v, (bool, numbers.Real, np.floating, np.integer)):
        try:
            return float(v)
        except OverflowError:  # an integer beyond any double: no C caller can pass it
            raise fail(
                code, eid, f"Value {describe(v)} for {name} is invalid. Reason: it does not fit in a double."
            ) from None
    if isinstance(v, ctypes._SimpleCData) and isinstance(v.value, (int, float)):
        return float(v.value)
    raise fail(code, eid, f"Value {describe(v)} for {name} is invalid. Reason: a number is required.")


def as_float32(v: object, name: str, code: int) -> float:
    """A C ``float`` argument: the value rounded to float32 (overflow to +-inf, as C does)."""
    x = as_float(v, name, code)
    try:
        return float(_F32.unpack(_F32.pack(x))[0])
    except OverflowError:  # beyond float32's range: C's conversion gives an infinity
        return math.copysign(math.inf, x)


def as_bool(v: object, name: str, code: int) -> bool:
    """A C ``bool`` argument: integers convert (non-zero is true)."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    iv = _plain_int(v)
    if iv is not None:
        return iv != 0
    raise fail(code, "EZ1001", f"Value {describe(v)} for {name} is invalid. Reason: a bool is required.")


def as_pointer(v: object) -> int | None:
    """A pointer argument as an int, or None for nullptr (0 and None are both nullptr).

    Returns -1 for objects that cannot be a pointer at all; callers decide what that means.
    """
    if v is None:
        return None
    iv = _plain_int(v)
    if iv is None:
        if isinstance(v, ctypes.c_void_p):
            return v.value if v.value else None
        return -1
    if iv == 0:
        return None
    if iv < 0 or iv > UINT64_MAX:
        return -1
    return iv
