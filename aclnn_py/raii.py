"""``std::unique_ptr`` and ``std::shared_ptr`` with a deleter, for the ports of C++ programs that
release their ACL resources by RAII (aclnn-port writes them: docs/porting.md).

C++ destroys a block's local objects when the block ends, on every path out of it (``return``,
``break`` and falling off its end), the last declared first. A port does the same with a
:class:`contextlib.ExitStack` per block: each object is entered into it where C++ declares it
(``stream = scope.enter_context(unique_ptr(None, aclrtDestroyStream))``), and leaving the ``with``
runs the deleters in reverse order::

    StreamPtr stream(nullptr, &aclrtDestroyStream);   stream = scope.enter_context(unique_ptr(None, aclrtDestroyStream))
    stream.reset(rawStream);                          stream.reset(rawStream.value)
    aclrtSynchronizeStream(stream.get());             aclrtSynchronizeStream(stream.get())

The null pointer is None, as everywhere in aclnn_py.
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Generic, TypeVar

P = TypeVar("P")

__all__ = ["shared_ptr", "unique_ptr"]


class unique_ptr(Generic[P]):
    """``std::unique_ptr<T, D>`` whose deleter ``D`` is a function: it owns one pointer (or None) and
    calls ``deleter(pointer)`` on it when it is destroyed or replaced, never on None."""

    __slots__ = ("_deleter", "_ptr")

    def __init__(self, ptr: P | None, deleter: Callable[[P], object]) -> None:
        self._ptr = ptr
        self._deleter = deleter

    def get(self) -> P | None:
        """The pointer it owns (None: none)."""
        return self._ptr

    def reset(self, ptr: P | None = None) -> None:
        """Owns ``ptr`` from now on, then deletes the pointer it owned before (if not None), in
        C++'s order."""
        old, self._ptr = self._ptr, ptr
        if old is not None:
            self._deleter(old)

    def release(self) -> P | None:
        """Gives the pointer up without deleting it (it owns None from now on)."""
        ptr, self._ptr = self._ptr, None
        return ptr

    def __enter__(self) -> unique_ptr[P]:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        """The destructor: deletes the pointer it owns, unless None."""
        ptr, self._ptr = self._ptr, None
        if ptr is not None:
            self._deleter(ptr)


class shared_ptr(Generic[P]):
    """``std::shared_ptr<T>`` made with a deleter and never copied (its only owner): when it is
    destroyed it calls ``deleter(pointer)``, even when the pointer is None (C++ calls the deleter of
    a shared_ptr made from nullptr: a scope guard's idiom)."""

    __slots__ = ("_deleter", "_ptr")

    def __init__(self, ptr: P | None, deleter: Callable[[P | None], object]) -> None:
        self._ptr = ptr
        self._deleter: Callable[[P | None], object] | None = deleter

    def get(self) -> P | None:
        return self._ptr

    def __enter__(self) -> shared_ptr[P]:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        """The last owner's destructor: calls the deleter once, with the pointer (None or not)."""
        deleter, self._deleter = self._deleter, None
        if deleter is not None:
            deleter(self._ptr)
