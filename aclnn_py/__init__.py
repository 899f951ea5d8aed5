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

from . import trace
from ._ref import Ref
from ._status import ACL_ERROR_NONE, ACL_RT_SUCCESS, ACLNN_ERR_INNER_KEY_CONFILICT, OK, aclError, aclnnStatus
from .dtypes import aclDataType, aclDataTypeSize, aclFormat
from .executor.api import (
    aclDestroyAclOpExecutor,
    aclSetAclOpExecutorRepeatable,
    aclSetInputTensorAddr,
    aclSetOutputTensorAddr,
    aclSetTensorAddr,
)
from .executor.executor import aclOpExecutor
from .ops import registry as _registry
from .runtime.api import *  # noqa: F403 - every runtime function under its C name (runtime.api.__all__)
from .runtime.enums import *  # noqa: F403 - acl_rt.h's enums and #defines (runtime.enums.__all__)
from .runtime.enums import ENUMS as _RT_ENUMS
from .tensor import (
    aclBoolArray,
    aclCreateBoolArray,
    aclCreateFloatArray,
    aclCreateIntArray,
    aclCreateScalar,
    aclCreateScalarList,
    aclCreateTensor,
    aclCreateTensorList,
    aclDestroyBoolArray,
    aclDestroyFloatArray,
    aclDestroyIntArray,
    aclDestroyScalar,
    aclDestroyScalarList,
    aclDestroyTensor,
    aclDestroyTensorList,
    aclFloatArray,
    aclGetBoolArraySize,
    aclGetDataType,
    aclGetFloatArraySize,
    aclGetFormat,
    aclGetIntArraySize,
    aclGetRawTensorAddr,
    aclGetScalarListSize,
    aclGetStorageShape,
    aclGetTensorListSize,
    aclGetViewOffset,
    aclGetViewShape,
    aclGetViewStrides,
    aclInitTensor,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclSetRawTensorAddr,
    aclTensor,
    aclTensorList,
)

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """The operator APIs of :mod:`aclnn_py.ops.registry`, loaded when first used (PEP 562)."""
    module = _registry.EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'aclnn_py' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_registry.EXPORTS))


_ENUMS: tuple[type[IntEnum], ...] = (aclError, aclnnStatus, aclDataType, aclFormat, *_RT_ENUMS)

# Every enum member is also a module constant, as the C headers' enumerators are (aliases too:
# ACL_RT_ATOMIC_CAPABILITY_REDUCATION and _REDUCTION are both enumerators of acl_rt.h).
_constants = {name: m for e in _ENUMS for name, m in e.__members__.items()}
globals().update(_constants)

__all__ = sorted(
    {name for name in globals() if name.startswith(("acl", "ACL", "Ref", "OK"))}
    | set(_constants)
    | set(_registry.EXPORTS)
)
