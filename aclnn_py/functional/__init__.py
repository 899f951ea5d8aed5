"""The Pythonic layer: numpy arrays in, numpy arrays out, exceptions instead of status codes.

Each function runs exactly the C-style path — device memory, ``aclCreateTensor``, phase 1,
workspace, phase 2 on a stream, synchronize, copy back, release — so the numbers, the checks and
the messages are the emulator's, not a second implementation:

    >>> import numpy as np
    >>> from aclnn_py import functional as F
    >>> F.hardswish_backward(np.ones(3, np.float32), np.array([-3, 0, 3], np.float32)).tolist()
    [-0.5, 0.5, 1.5]

Every failing call raises :class:`AclnnError` carrying the status code, its name and the message
``aclGetRecentErrMsg()`` returned: the code and message the C-style call gives (a bad argument
that never reaches one, such as a dim that is not an integer, is ACLNN_ERR_PARAM_INVALID with an
EZ1001 message naming the API). Shapes are kept exactly: a 0-d input gives a 0-d result. The
runtime is initialised on first use (``aclInit``), a thread without a current context gets
device 0, and the work runs on its default stream.

One module per operator module of :mod:`aclnn_py.ops` (``math_add`` for ``ops/math/add.py``);
every name in a module's ``__all__`` is exported here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

from ._core import AclnnError, guarded

__all__ = ["AclnnError"]


def _export_all() -> None:
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        names: list[str] = list(getattr(module, "__all__", ()))
        for name in names:
            fn = getattr(module, name)
            if inspect.isfunction(fn):
                fn = guarded(fn)  # the module's name too: F.add is F.math_add.add
                setattr(module, name, fn)
            globals()[name] = fn
        __all__.extend(names)


_export_all()
__all__.sort()


def __getattr__(name: str) -> Any:  # for type checkers: the exports are dynamic
    raise AttributeError(f"module 'aclnn_py.functional' has no attribute {name!r}")
