"""aclnn_py: a faithful emulator of Huawei CANN's aclnn operator API and AscendCL runtime.

``from aclnn_py import *`` gives the C names: the runtime (``aclInit``, ``aclrtMalloc`` ...),
the tensor API (``aclCreateTensor`` ...), the operators' two phases
(``aclnnHardswishBackwardGetWorkspaceSize`` / ``aclnnHardswishBackward`` ...), the enums with
CANN's values (``aclDataType``, ``aclFormat`` ...) and their members as constants
(``ACL_FLOAT``, ``ACL_SUCCESS``, ``ACLNN_ERR_PARAM_NULLPTR`` ...), and :class:`Ref` for
out-parameters.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

# Each name `as` itself: an explicit re-export, so that `from aclnn_py import Ref` type-checks under
# mypy --strict (ruff's isort would split a statement of `as` imports into one per name).
# isort: off
from . import trace
from ._ref import Ref as Ref
from ._status import (
    ACL_ERROR_NONE as ACL_ERROR_NONE,
    ACL_RT_SUCCESS as ACL_RT_SUCCESS,
    ACLNN_ERR_INNER_KEY_CONFILICT as ACLNN_ERR_INNER_KEY_CONFILICT,
    OK as OK,
    aclError as aclError,
    aclnnStatus as aclnnStatus,
)
from .dtypes import aclDataType as aclDataType, aclDataTypeSize as aclDataTypeSize, aclFormat as aclFormat
from .executor.api import (
    aclDestroyAclOpExecutor as aclDestroyAclOpExecutor,
    aclSetAclOpExecutorRepeatable as aclSetAclOpExecutorRepeatable,
    aclSetInputTensorAddr as aclSetInputTensorAddr,
    aclSetOutputTensorAddr as aclSetOutputTensorAddr,
    aclSetTensorAddr as aclSetTensorAddr,
)
from .executor.executor import aclOpExecutor as aclOpExecutor
from .ops import registry as _registry
from .runtime import api as _rt_api
from .runtime.enums import *  # noqa: F403 - acl_rt.h's enums and #defines (runtime.enums.__all__)
from .runtime.enums import ENUMS as _RT_ENUMS
from .tensor import (
    aclBoolArray as aclBoolArray,
    aclCreateBoolArray as aclCreateBoolArray,
    aclCreateFloatArray as aclCreateFloatArray,
    aclCreateIntArray as aclCreateIntArray,
    aclCreateScalar as aclCreateScalar,
    aclCreateScalarList as aclCreateScalarList,
    aclCreateTensor as aclCreateTensor,
    aclCreateTensorList as aclCreateTensorList,
    aclDestroyBoolArray as aclDestroyBoolArray,
    aclDestroyFloatArray as aclDestroyFloatArray,
    aclDestroyIntArray as aclDestroyIntArray,
    aclDestroyScalar as aclDestroyScalar,
    aclDestroyScalarList as aclDestroyScalarList,
    aclDestroyTensor as aclDestroyTensor,
    aclDestroyTensorList as aclDestroyTensorList,
    aclFloatArray as aclFloatArray,
    aclGetBoolArraySize as aclGetBoolArraySize,
    aclGetDataType as aclGetDataType,
    aclGetFloatArraySize as aclGetFloatArraySize,
    aclGetFormat as aclGetFormat,
    aclGetIntArraySize as aclGetIntArraySize,
    aclGetRawTensorAddr as aclGetRawTensorAddr,
    aclGetScalarListSize as aclGetScalarListSize,
    aclGetStorageShape as aclGetStorageShape,
    aclGetTensorListSize as aclGetTensorListSize,
    aclGetViewOffset as aclGetViewOffset,
    aclGetViewShape as aclGetViewShape,
    aclGetViewStrides as aclGetViewStrides,
    aclInitTensor as aclInitTensor,
    aclIntArray as aclIntArray,
    aclScalar as aclScalar,
    aclScalarList as aclScalarList,
    aclSetRawTensorAddr as aclSetRawTensorAddr,
    aclTensor as aclTensor,
    aclTensorList as aclTensorList,
)
# isort: on

if TYPE_CHECKING:
    from ._typed_constants import *  # noqa: F403 - the enum members' constants (set from the enums below)
    from .ops._typed import *  # noqa: F403 - every operator API with its signature (loaded on first use below)
    from .runtime.api import *  # noqa: F403 - every runtime function under its C name (runtime.api.__all__)
else:
    # The runtime's core chapters now; its lazy chapters (runtime.api.LAZY) through __getattr__ below,
    # so a star import here would load them all.
    globals().update({name: getattr(_rt_api, name) for name in _rt_api.__all__ if name not in _rt_api.LAZY})

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """The runtime's lazy chapters and the operator APIs of :mod:`aclnn_py.ops.registry`, loaded
    when first used (PEP 562). A type checker sees both with their signatures through the star
    imports above, and the enum members' constants (``ACL_FLOAT`` ..., set below from the enums)
    through :mod:`._typed_constants`. ``Any`` for any other name a type checker might look up."""
    if name in _rt_api.LAZY:
        value = getattr(_rt_api, name)
    else:
        module = _registry.EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'aclnn_py' has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every name, the ones loaded on first use too (tab completion)."""
    return sorted(set(globals()) | set(_registry.EXPORTS) | set(_rt_api.LAZY))


_ENUMS: tuple[type[IntEnum], ...] = (aclError, aclnnStatus, aclDataType, aclFormat, *_RT_ENUMS)

# Every enum member is also a module constant, as the C headers' enumerators are (aliases too:
# ACL_RT_ATOMIC_CAPABILITY_REDUCATION and _REDUCTION are both enumerators of acl_rt.h).
_constants = {name: m for e in _ENUMS for name, m in e.__members__.items()}
globals().update(_constants)

if not TYPE_CHECKING:
    # Hidden from type checkers, which cannot compute it and would read it as empty: without it
    # their `from aclnn_py import *` gives every public name they see above.
    __all__ = sorted(
        {name for name in globals() if name.startswith(("acl", "ACL", "Ref", "OK"))}
        | {name for name in _rt_api.LAZY if name.startswith(("acl", "ACL"))}
        | set(_constants)
        | set(_registry.EXPORTS)
    )
