"""The C ABI of ``aclnn/acl_meta.h`` (tensors, scalars, arrays, lists and the executor calls): the
C library looks each function up by name on :mod:`aclnn_py._cabi`, which imports them from here.
C's arrays are read in place, handles become tokens (:mod:`aclnn_py._cabi_core`).
"""

from __future__ import annotations

import ctypes
from typing import Any

from . import dtypes as _dtypes
from . import tensor as _t
from ._cabi_core import H, _dev, _i32, _i64, _int64s, _ref, _u64
from .executor import api as _exe


def aclCreateTensor(
    viewDims: int,
    viewDimsNum: int,
    dataType: int,
    stride: int,
    offset: int,
    format: int,
    storageDims: int,
    storageDimsNum: int,
    tensorData: int,
) -> int:
    t = _t.aclCreateTensor(
        _int64s(viewDims, viewDimsNum), viewDimsNum, dataType, _int64s(stride, viewDimsNum), offset, format,
        _int64s(storageDims, storageDimsNum), storageDimsNum, _dev(tensorData),
    )  # fmt: skip
    return H.token(t)


def aclInitTensor(
    tensor: int,
    viewDims: int,
    viewDimsNum: int,
    dataType: int,
    stride: int,
    offset: int,
    format: int,
    storageDims: int,
    storageDimsNum: int,
    tensorDataAddr: int,
) -> int:
    return int(
        _t.aclInitTensor(
            H.obj(tensor), _int64s(viewDims, viewDimsNum), viewDimsNum, dataType, _int64s(stride, viewDimsNum),
            offset, format, _int64s(storageDims, storageDimsNum), storageDimsNum, _dev(tensorDataAddr),
        )
    )  # fmt: skip


def aclCreateScalar(value: int, dataType: int) -> int:
    size = _dtypes.aclDataTypeSize(dataType) if 0 <= dataType < 2**31 else 0
    data = None if value == 0 else memoryview((ctypes.c_char * max(size, 1)).from_address(value)).cast("B")
    return H.token(_t.aclCreateScalar(data, dataType))


def aclCreateIntArray(value: int, size: int) -> int:
    return H.token(_t.aclCreateIntArray(_int64s(value, size), size))


def aclCreateFloatArray(value: int, size: int) -> int:
    vals = None if value == 0 else list((ctypes.c_float * size).from_address(value))
    return H.token(_t.aclCreateFloatArray(vals, size))


def aclCreateBoolArray(value: int, size: int) -> int:
    vals = None if value == 0 else list((ctypes.c_bool * size).from_address(value))
    return H.token(_t.aclCreateBoolArray(vals, size))


def _handle_list(value: int, size: int) -> list[object] | None:
    if value == 0:
        return None
    return [H.obj(tok) for tok in (ctypes.c_uint64 * size).from_address(value)]


def aclCreateTensorList(value: int, size: int) -> int:
    return H.token(_t.aclCreateTensorList(_handle_list(value, size), size))  # type: ignore[arg-type]


def aclCreateScalarList(value: int, size: int) -> int:
    return H.token(_t.aclCreateScalarList(_handle_list(value, size), size))  # type: ignore[arg-type]


def _destroy(fn: Any, handle: int) -> int:
    obj = H.obj(handle)
    rc: int = fn(obj)
    elements = getattr(obj, "values", None) if isinstance(obj, (_t.aclTensorList, _t.aclScalarList)) else None
    H.sweep(handle, *(H.by_id.get(id(e), 0) for e in elements or ()))
    return rc


def aclDestroyTensor(tensor: int) -> int:
    return _destroy(_t.aclDestroyTensor, tensor)


def aclDestroyScalar(scalar: int) -> int:
    return _destroy(_t.aclDestroyScalar, scalar)


def aclDestroyIntArray(array: int) -> int:
    return _destroy(_t.aclDestroyIntArray, array)


def aclDestroyFloatArray(array: int) -> int:
    return _destroy(_t.aclDestroyFloatArray, array)


def aclDestroyBoolArray(array: int) -> int:
    return _destroy(_t.aclDestroyBoolArray, array)


def aclDestroyTensorList(array: int) -> int:
    return _destroy(_t.aclDestroyTensorList, array)


def aclDestroyScalarList(array: int) -> int:
    return _destroy(_t.aclDestroyScalarList, array)


def _shape_getter(fn: Any, tensor: int, dims: int, num: int) -> tuple[int, list[int] | None]:
    """(status, values): the C side copies ``values`` into a new[]'d array for ``*dims``."""
    ref = _ref(dims)
    rc: int = fn(H.obj(tensor), ref, _u64(num))
    return rc, (ref.value if ref is not None else None)


def aclGetViewShape(tensor: int, viewDims: int, viewDimsNum: int) -> tuple[int, list[int] | None]:
    return _shape_getter(_t.aclGetViewShape, tensor, viewDims, viewDimsNum)


def aclGetStorageShape(tensor: int, storageDims: int, storageDimsNum: int) -> tuple[int, list[int] | None]:
    return _shape_getter(_t.aclGetStorageShape, tensor, storageDims, storageDimsNum)


def aclGetViewStrides(tensor: int, stridesValue: int, stridesNum: int) -> tuple[int, list[int] | None]:
    return _shape_getter(_t.aclGetViewStrides, tensor, stridesValue, stridesNum)


def aclGetViewOffset(tensor: int, offset: int) -> int:
    return int(_t.aclGetViewOffset(H.obj(tensor), _i64(offset)))


def aclGetFormat(tensor: int, format: int) -> int:
    return int(_t.aclGetFormat(H.obj(tensor), _i32(format)))


def aclGetDataType(tensor: int, dataType: int) -> int:
    return int(_t.aclGetDataType(H.obj(tensor), _i32(dataType)))


def aclGetIntArraySize(array: int, size: int) -> int:
    return int(_t.aclGetIntArraySize(H.obj(array), _u64(size)))


def aclGetTensorListSize(tensorList: int, size: int) -> int:
    return int(_t.aclGetTensorListSize(H.obj(tensorList), _u64(size)))


def aclSetAclOpExecutorRepeatable(executor: int) -> int:
    return _exe.aclSetAclOpExecutorRepeatable(H.obj(executor))


def aclDestroyAclOpExecutor(executor: int) -> int:
    rc = _exe.aclDestroyAclOpExecutor(H.obj(executor))
    H.sweep(executor)
    return rc


def aclSetRawTensorAddr(tensor: int, addr: int) -> int:
    return _t.aclSetRawTensorAddr(H.obj(tensor), _dev(addr))  # type: ignore[arg-type]


def aclGetRawTensorAddr(tensor: int, addr: int) -> int:
    return _t.aclGetRawTensorAddr(H.obj(tensor), _u64(addr))  # type: ignore[arg-type]
