"""``aclnn/acl_meta.h``: aclTensor, aclScalar, the arrays and lists, and their functions.

An :class:`aclTensor` is a *view* (shape, strides, offset in elements, dtype, format) on a
*storage* (a device address). It is also what the executor uses for intermediate results:
those have workspace storage that phase 2 places inside the caller's workspace.

``aclCreateTensor`` validates almost nothing, as in CANN (see docs/tensors.md); reading and
writing elements goes through the checked memory, so a view that reaches outside its
allocation is caught when it is used.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _errmsg, dtypes
from ._capi import INT64_MAX, INT64_MIN, UINT64_MAX, ApiError, as_int, as_pointer, c_api, describe, fail
from ._ref import is_out_param, store
from ._status import aclnnStatus
from .dtypes import aclDataType, aclFormat
from .runtime import sanitizer
from .runtime.device import RT
from .runtime.memory import call_chain, call_site

S = aclnnStatus


class Storage:
    """Where a tensor's bytes live: a user device address, a slot in the workspace, or (for a
    scalar made a tensor by ``ConvertToTensor``) host data that travels with the launch."""

    __slots__ = ("addr", "data", "kind", "nbytes", "ws_offset", "ws_tail")

    def __init__(self, addr: int | None, kind: str = "user", nbytes: int = 0, data: Any = None) -> None:
        self.addr = addr  # user storage: the device address; workspace: bound at phase 2
        self.kind = kind  # "user", "workspace" or "host"
        self.nbytes = nbytes
        self.data = data  # host storage: the numpy array
        self.ws_offset: int | None = None  # workspace storage: offset inside the workspace
        # nnopbase's AutoContiguous copies live at the end of the workspace the caller passes:
        # their offset counts from (passed size - the copies' total), known only at phase 2
        self.ws_tail = False

    @property
    def from_workspace(self) -> bool:
        return self.kind == "workspace"


class aclTensor:
    """A tensor view. Attributes mirror opbase's aclTensor (view/storage/origin shape & format)."""

    __slots__ = (
        "__weakref__", "alive", "dtype", "offset", "origin", "origin_format", "origin_shape", "site",
        "storage", "storage_format", "storage_shape", "strides", "view_format", "view_shape",
    )  # fmt: skip

    def __init__(
        self,
        view_shape: tuple[int, ...],
        dtype: int,
        strides: tuple[int, ...] | None,
        offset: int,
        view_format: int,
        storage_shape: tuple[int, ...],
        storage: Storage,
        site: str = "",
    ) -> None:
        self.view_shape = view_shape
        self.dtype = dtype
        self.strides = strides if strides is not None else dtypes.contiguous_strides(view_shape)
        self.offset = offset
        self.view_format = view_format
        self.storage_format = dtypes.to_op_format(view_format)
        self.origin_format = self.storage_format
        self.storage_shape = storage_shape
        self.origin_shape = view_shape  # aclCreateTensor's: its storage dims (set there)
        self.storage = storage
        self.alive = True
        self.site = site
        self.origin = site  # the user's line through helpers (call_chain), for leak reports

    # -- helpers used by checks and steps (opbase names in comments) ---------------------------

    @property
    def rank(self) -> int:
        return len(self.view_shape)

    def numel(self) -> int:
        """``Numel()``: view element count."""
        return dtypes.numel(self.view_shape)

    def storage_numel(self) -> int:
        """``Size()``: storage element count."""
        return dtypes.numel(self.storage_shape)

    def is_empty(self) -> bool:
        """``IsEmpty()``: some view dim is 0 (a 0-d tensor is not empty)."""
        return any(d == 0 for d in self.view_shape)

    @property
    def from_workspace(self) -> bool:
        return self.storage.from_workspace

    def data_address(self, workspace: int | None = None) -> int | None:
        """Address of the first element: storage address + offset * itemsize."""
        st = self.storage
        if st.kind == "workspace":
            if workspace is None or st.ws_offset is None:
                return None
            base: int | None = workspace + st.ws_offset
        else:
            base = st.addr
        if base is None:
            return None
        return base + (self.offset * dtypes.element_bits(self.dtype)) // 8

    def __repr__(self) -> str:
        fmt = dtypes.format_name
        if self.storage.kind == "workspace":
            ws = self.storage.ws_offset
            where = (
                "workspace"
                if ws is None
                else f"workspace+0x{ws + (self.offset * dtypes.element_bits(self.dtype)) // 8:x}"
            )
        else:
            # ToString prints GetData(): the address of the view's first element, as an ostream
            # prints a void* (0 for a null one)
            ptr = (self.storage.addr or 0) + (self.offset * dtypes.element_bits(self.dtype)) // 8
            where = f"0x{ptr:x}" if ptr else "0"
        return (
            f"aclTensor(view_shape = {dtypes.shape_str(self.view_shape)}, "
            f"view_strides = {dtypes.shape_str(self.strides)}, view_offset = {self.offset}, "
            f"view_format = {fmt(self.view_format)}, storage_shape = {dtypes.shape_str(self.storage_shape)}, "
            f"storage_format = {fmt(self.storage_format)}, ori_shape = {dtypes.shape_str(self.origin_shape)}, "
            f"ori_format = {fmt(self.origin_format)}, data_type = {dtypes.dt_name(self.dtype)}, "
            f"device_ptr = {where})"
        )


class aclScalar:
    """A host scalar: the value copied at creation, and its dtype."""

    __slots__ = ("__weakref__", "alive", "dtype", "key_bytes", "origin", "value")

    def __init__(self, value: Any, dtype: int) -> None:
        self.value, self.dtype, self.alive = value, dtype, True
        self.origin = ""  # where the program made it (aclCreateScalar), for leak reports
        # (value, its bytes) as the op cache's key last read them: kept while value is that object
        self.key_bytes: tuple[Any, bytes] | None = None

    def __repr__(self) -> str:
        return f"aclScalar({self.value!r}, {dtypes.dt_name(self.dtype)})"


class _Array:
    __slots__ = ("__weakref__", "alive", "origin", "values")
    kind = "array"

    def __init__(self, values: list[Any]) -> None:
        self.values, self.alive = values, True
        self.origin = ""  # where the program made it (aclCreate*Array / *List), for leak reports

    def __len__(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.values!r})"


class aclIntArray(_Array):
    """``aclIntArray``: int64 values copied at creation."""

    kind = "List[int]"


class aclFloatArray(_Array):
    """``aclFloatArray``: float32 values copied at creation."""

    kind = "List[float]"


class aclBoolArray(_Array):
    """``aclBoolArray``: bool values copied at creation."""

    kind = "List[bool]"


class aclTensorList(_Array):
    """``aclTensorList``: owns its tensors (destroying the list destroys them)."""

    kind = "TensorList"


class aclScalarList(_Array):
    """``aclScalarList``: owns its scalars."""

    kind = "ScalarList"


# ---------------------------------------------------------------------------------------------
# argument reading
# ---------------------------------------------------------------------------------------------


class _UB(Exception):
    """Input that would be undefined behaviour in C (read past an array, not a number ...)."""


def _int_list(values: object, count: int, name: str) -> tuple[int, ...]:
    """``count`` int64 values read from a C array argument (a sequence in Python)."""
    if count == 0:
        return ()
    if isinstance(values, np.ndarray):
        seq: Sequence[Any] = values.reshape(-1).tolist()
    elif isinstance(values, ctypes.Array):
        seq = list(values)
    elif isinstance(values, (list, tuple, range)):
        seq = values
    else:
        raise _UB(f"{name} must be a sequence of int64, got {type(values).__name__}")
    if len(seq) < count:
        raise _UB(f"{name} holds {len(seq)} values but {count} were to be read (C would read past the array)")
    out = []
    for v in seq[:count]:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise _UB(f"{name} holds {v!r}, which is not an int64")
        iv = int(v)
        if not INT64_MIN <= iv <= INT64_MAX:
            raise _UB(f"{name} holds {iv}, which does not fit in int64")
        out.append(iv)
    return tuple(out)


def _count(v: object, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= UINT64_MAX:
        raise _UB(f"{name} must be a uint64 count, got {v!r}")
    return int(v)


def _ub_none(fn_name: str, e: _UB) -> None:
    _errmsg.report("EZ1001", f"{fn_name} failed: {e} (aclnn_py refuses input that is undefined behaviour in C).")


# ---------------------------------------------------------------------------------------------
# creation
# ---------------------------------------------------------------------------------------------


@c_api(S.ACLNN_ERR_INNER, handle=True)
def aclCreateTensor(
    viewDims: Sequence[int] | None,
    viewDimsNum: int,
    dataType: int,
    stride: Sequence[int] | None,
    offset: int,
    format: int,
    storageDims: Sequence[int] | None,
    storageDimsNum: int,
    tensorData: int | None,
) -> aclTensor | None:
    """Create a tensor view. Returns None only if a dims pointer is null with a non-zero count."""
    try:
        n_view = _count(viewDimsNum, "viewDimsNum")
        n_storage = _count(storageDimsNum, "storageDimsNum")
        if (viewDims is None and n_view > 0) or (storageDims is None and n_storage > 0):
            return None  # CANN returns nullptr here without a message
        view = _int_list(viewDims, n_view, "viewDims")
        storage_shape = _int_list(storageDims, n_storage, "storageDims")
        strides = None if stride is None else _int_list(stride, n_view, "stride")
        off = as_int(offset, "offset", S.ACLNN_ERR_PARAM_INVALID)
        dt = as_int(dataType, "dataType", S.ACLNN_ERR_PARAM_INVALID, -(2**31), 2**31 - 1)
        fmt = as_int(format, "format", S.ACLNN_ERR_PARAM_INVALID, -(2**31), 2**31 - 1)
        addr = as_pointer(tensorData)
        if addr is not None and addr < 0:
            raise _UB(f"tensorData must be a device pointer (int) or None, got {type(tensorData).__name__}")
    except _UB as e:
        _ub_none("aclCreateTensor", e)
        return None
    except ApiError as e:
        _ub_none("aclCreateTensor", _UB(e.messages[0][1]))
        return None
    t = aclTensor(view, dtypes.to_op_dtype(dt), strides, off, fmt, storage_shape, Storage(addr), call_site())
    t.origin_shape = storage_shape  # the constructor's ToShape(storageDims, ..., MutableOriginShape())
    t.origin = call_chain()
    RT.tensors.add(t)
    return t


# The dtypes opbase can hold in a scalar (aclCreateScalar, ConvertToTensor), and its EZ1006 text.
SCALAR_DTYPES = (
    dtypes.DT_FLOAT, dtypes.DT_FLOAT16, dtypes.DT_BF16, dtypes.DT_INT8, dtypes.DT_INT16, dtypes.DT_UINT16,
    dtypes.DT_UINT8, dtypes.DT_INT32, dtypes.DT_INT64, dtypes.DT_UINT32, dtypes.DT_UINT64, dtypes.DT_BOOL,
    dtypes.DT_DOUBLE, dtypes.DT_COMPLEX64, dtypes.DT_COMPLEX128, dtypes.DT_FLOAT8_E5M2, dtypes.DT_FLOAT8_E4M3FN,
    dtypes.DT_FLOAT8_E8M0, dtypes.DT_FLOAT6_E3M2, dtypes.DT_FLOAT6_E2M3, dtypes.DT_FLOAT4_E2M1,
    dtypes.DT_FLOAT4_E1M2, dtypes.DT_HIFLOAT8,
)  # fmt: skip
SCALAR_DTYPE_RANGE = (
    "[DT_FLOAT(0), DT_FLOAT16(1), DT_INT8(2), DT_INT32(3), DT_UINT8(4), DT_INT16(6), DT_UINT16(7), "
    "DT_UINT32(8), DT_INT64(9), DT_UINT64(10), DT_DOUBLE(11), DT_BOOL(12), DT_COMPLEX64(16), "
    "DT_COMPLEX128(17), DT_BF16(27), DT_HIFLOAT8(34), DT_FLOAT8_E5M2(35), DT_FLOAT8_E4M3FN(36), "
    "DT_FLOAT8_E8M0(37), DT_FLOAT6_E3M2(38), DT_FLOAT6_E2M3(39), DT_FLOAT4_E2M1(40), DT_FLOAT4_E1M2(41)]"
)


@c_api(S.ACLNN_ERR_INNER, handle=True)
def aclCreateScalar(value: object, dataType: int) -> aclScalar | None:
    """Copy a host value into a scalar. ``value`` is what C's ``void*`` points to: a Python or numpy
    number (converted to the dtype) or a buffer whose first bytes hold the value."""
    if value is None:
        return None
    dt = dtypes.to_op_dtype(as_int(dataType, "dataType", S.ACLNN_ERR_PARAM_INVALID, -(2**31), 2**31 - 1))
    if dt not in SCALAR_DTYPES:
        _errmsg.report(
            "EZ1006",
            f"Operator  does not support data type {dtypes.dt_name(dt)}({dt}). "
            f"The supported data type range is {SCALAR_DTYPE_RANGE}.",
        )
        _errmsg.report_code(S.ACLNN_ERR_INNER, "aclCreateScalar error.")
        return None
    npdt = dtypes.numpy_dtype(dt) or np.dtype(np.uint8)
    try:
        if isinstance(value, (bytes, bytearray, memoryview, np.ndarray)):
            raw = np.frombuffer(
                memoryview(value).cast("B") if not isinstance(value, np.ndarray) else value.reshape(-1).view(np.uint8),
                np.uint8,
            )
            if raw.size < npdt.itemsize:
                raise _UB(f"the buffer holds {raw.size} bytes but a {dtypes.dt_name(dt)} needs {npdt.itemsize}")
            v = raw[: npdt.itemsize].view(npdt)[0]
        else:
            if isinstance(value, (complex, np.complexfloating)) and npdt.kind != "c":
                value = value.real  # what numpy's conversion keeps, without its ComplexWarning
            with np.errstate(all="ignore"):
                v = np.array(value).astype(npdt)[()]
    except OverflowError:  # a Python int beyond 64 bits for an integer dtype: no C value holds it
        _ub_none("aclCreateScalar", _UB(f"{describe(value)} does not fit in {dtypes.dt_name(dt)}"))
        return None
    except (_UB, TypeError, ValueError) as e:
        _ub_none("aclCreateScalar", _UB(str(e)))
        return None
    made = aclScalar(v, dt)
    made.origin = call_chain()
    RT.handles.add(made)
    return made


def _array_values(value: object, size: object, name: str, conv: Any) -> list[Any] | None:
    n = _count(size, "size")
    if value is None or n == 0:
        return []
    if isinstance(value, np.ndarray):
        seq = value.reshape(-1).tolist()
    elif isinstance(value, (ctypes.Array, list, tuple, range)):
        seq = list(value)
    else:
        raise _UB(f"{name} must be a sequence, got {type(value).__name__}")
    if len(seq) < n:
        raise _UB(f"{name} holds {len(seq)} values but {n} were to be read (C would read past the array)")
    return [conv(v) for v in seq[:n]]


def _conv_int(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not INT64_MIN <= int(v) <= INT64_MAX:
        raise _UB(f"{v!r} is not an int64")
    return int(v)


def _conv_float(v: object) -> float:
    if not isinstance(v, (int, float, np.integer, np.floating)):
        raise _UB(f"{v!r} is not a float")
    with np.errstate(over="ignore"):
        return float(np.float32(v))


def _conv_bool(v: object) -> bool:
    if not isinstance(v, (bool, int, np.bool_, np.integer)):
        raise _UB(f"{v!r} is not a bool")
    return bool(v)


def _make_array(cls: type[_Array], fn: str, value: object, size: object, conv: Any) -> Any:
    try:
        values = _array_values(value, size, "value", conv)
    except _UB as e:
        _ub_none(fn, e)
        return None
    made = cls(values or [])
    made.origin = call_chain()
    RT.handles.add(made)
    return made


@c_api(S.ACLNN_ERR_INNER, handle=True)
def aclCreateIntArray(value: Sequence[int] | None, size: int) -> aclIntArray | None:
    """Copy ``size`` int64 values (None or size 0 gives a valid empty array)."""
    return _make_array(aclIntArray, "aclCreateIntArray", value, size, _conv_int)  # type: ignore[no-any-return]


@c_api(S.ACLNN_ERR_INNER, handle=True)
def aclCreateFloatArray(value: Sequence[float] | None, size: int) -> aclFloatArray | None:
    """Copy ``size`` float32 values (None or size 0 gives a valid empty array)."""
    return _make_array(aclFloatArray, "aclCreateFloatArray", value, size, _conv_float)  # type: ignore[no-any-return]


@c_api(S.ACLNN_ERR_INNER, handle=True)
def aclCreateBoolArray(value: Sequence[bool] | None, size: int) -> aclBoolArray | None:
    """Copy ``size`` bool values (None or size 0 gives a valid empty array)."""
    return _make_array(aclBoolArray, "aclCreateBoolArray", value, size, _conv_bool)  # type: ignore[no-any-return]


def _conv_elem(kind: type) -> Any:
    def conv(v: object) -> Any:
        if v is not None and not isinstance(v, kind):
            raise _UB(f"{v!r} is not an {kind.__name__}")
        return v

    return conv


@c_api(S.ACLNN_ERR_INNER, handle=True)
def aclCreateTensorList(value: Sequence[aclTensor | None] | None, size: int) -> aclTensorList | None:
    """A list owning ``size`` tensors (null elements allowed; None or 0 gives an empty list)."""
    return _make_array(aclTensorList, "aclCreateTensorList", value, size, _conv_elem(aclTensor))  # type: ignore[no-any-return]


@c_api(S.ACLNN_ERR_INNER, handle=True)
def aclCreateScalarList(value: Sequence[aclScalar | None] | None, size: int) -> aclScalarList | None:
    """A list owning ``size`` scalars (null elements allowed; None or 0 gives an empty list)."""
    return _make_array(aclScalarList, "aclCreateScalarList", value, size, _conv_elem(aclScalar))  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------
# destruction
# ---------------------------------------------------------------------------------------------


def _destroy(obj: object, cls: type, fn: str) -> int:
    if obj is None:
        return S.ACLNN_SUCCESS
    if not isinstance(obj, cls):
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            f"{fn}: expected an {cls.__name__}, got {type(obj).__name__}.",
        )
    if not obj.alive:  # type: ignore[attr-defined]
        sanitizer.finding(
            "memcheck", f"{fn}: double free of {obj!r} (it was already destroyed)", S.ACLNN_ERR_PARAM_INVALID
        )
        return S.ACLNN_SUCCESS
    obj.alive = False  # type: ignore[attr-defined]
    RT.tensors.discard(obj)
    RT.handles.discard(obj)
    return S.ACLNN_SUCCESS


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyTensor(tensor: aclTensor | None) -> int:
    """Release a tensor object (never its device memory). None -> 0."""
    return _destroy(tensor, aclTensor, "aclDestroyTensor")


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyScalar(scalar: aclScalar | None) -> int:
    """Release a scalar. None -> 0."""
    return _destroy(scalar, aclScalar, "aclDestroyScalar")


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyIntArray(array: aclIntArray | None) -> int:
    """Release an int array. None -> 0."""
    return _destroy(array, aclIntArray, "aclDestroyIntArray")


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyFloatArray(array: aclFloatArray | None) -> int:
    """Release a float array. None -> 0."""
    return _destroy(array, aclFloatArray, "aclDestroyFloatArray")


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyBoolArray(array: aclBoolArray | None) -> int:
    """Release a bool array. None -> 0."""
    return _destroy(array, aclBoolArray, "aclDestroyBoolArray")


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyTensorList(array: aclTensorList | None) -> int:
    """Release a tensor list and every tensor in it."""
    if isinstance(array, aclTensorList) and array.alive:
        for t in array.values:
            if t is not None:
                _destroy(t, aclTensor, "aclDestroyTensorList")
    return _destroy(array, aclTensorList, "aclDestroyTensorList")


@c_api(S.ACLNN_ERR_INNER)
def aclDestroyScalarList(array: aclScalarList | None) -> int:
    """Release a scalar list and every scalar in it."""
    if isinstance(array, aclScalarList) and array.alive:
        for s in array.values:
            if s is not None:
                _destroy(s, aclScalar, "aclDestroyScalarList")
    return _destroy(array, aclScalarList, "aclDestroyScalarList")


# ---------------------------------------------------------------------------------------------
# accessors (CANN reports nothing for their 161001; the emulator adds a message only for
# arguments that would be undefined behaviour in C)
# ---------------------------------------------------------------------------------------------


class _Silent(Exception):
    """A failure CANN returns without a message."""

    def __init__(self, code: int) -> None:
        self.code = code


def _live(obj: object, cls: type, name: str) -> Any:
    if obj is None:
        raise _Silent(S.ACLNN_ERR_PARAM_NULLPTR)
    if not isinstance(obj, cls):
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            f"{name} must be an {cls.__name__}, got {type(obj).__name__}.",
        )
    if not obj.alive:  # type: ignore[attr-defined]
        raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", f"{name} was already destroyed (use after free).")
    return obj


def _outp(obj: object, numeric: bool) -> object:
    if obj is None:
        raise _Silent(S.ACLNN_ERR_PARAM_NULLPTR)
    if not is_out_param(obj, numeric):
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            f"{type(obj).__name__} cannot receive an out value (use Ref).",
        )
    return obj


def _accessor(fn: Any) -> Any:
    """Map _Silent to its code without a message (accessors never report in CANN)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any) -> Any:
        try:
            return fn(*args)
        except _Silent as s:
            return s.code

    return c_api(S.ACLNN_ERR_INNER)(wrapper)


@_accessor
def aclGetViewShape(tensor: aclTensor, viewDims: object, viewDimsNum: object) -> int:
    """The view shape as a new list (C: a new[]'d array) and its length."""
    t, d, n = _live(tensor, aclTensor, "tensor"), _outp(viewDims, False), _outp(viewDimsNum, True)
    store(d, list(t.view_shape))
    store(n, len(t.view_shape))
    return S.ACLNN_SUCCESS


@_accessor
def aclGetStorageShape(tensor: aclTensor, storageDims: object, storageDimsNum: object) -> int:
    """The storage shape as a new list and its length."""
    t, d, n = _live(tensor, aclTensor, "tensor"), _outp(storageDims, False), _outp(storageDimsNum, True)
    store(d, list(t.storage_shape))
    store(n, len(t.storage_shape))
    return S.ACLNN_SUCCESS


@_accessor
def aclGetViewStrides(tensor: aclTensor, stridesValue: object, stridesNum: object) -> int:
    """The view strides (elements) as a new list and its length."""
    t, d, n = _live(tensor, aclTensor, "tensor"), _outp(stridesValue, False), _outp(stridesNum, True)
    store(d, list(t.strides))
    store(n, len(t.strides))
    return S.ACLNN_SUCCESS


@_accessor
def aclGetViewOffset(tensor: aclTensor, offset: object) -> int:
    """The view offset in elements."""
    t, o = _live(tensor, aclTensor, "tensor"), _outp(offset, True)
    store(o, t.offset)
    return S.ACLNN_SUCCESS


@_accessor
def aclGetFormat(tensor: aclTensor, format: object) -> int:
    """The view format (``ACL_FORMAT_UNDEFINED`` for values aclFormat does not list)."""
    t, o = _live(tensor, aclTensor, "tensor"), _outp(format, True)
    store(o, dtypes.to_acl_format(t.view_format))
    return S.ACLNN_SUCCESS


@_accessor
def aclGetDataType(tensor: aclTensor, dataType: object) -> int:
    """The dtype (``ACL_DT_UNDEFINED`` for values aclDataType does not list)."""
    t, o = _live(tensor, aclTensor, "tensor"), _outp(dataType, True)
    store(o, dtypes.to_acl_dtype(t.dtype))
    return S.ACLNN_SUCCESS


def _size_getter(cls: type, fn_name: str) -> Any:
    def getter(array: object, size: object) -> int:
        a, o = _live(array, cls, "array"), _outp(size, True)
        store(o, len(a.values))
        return S.ACLNN_SUCCESS

    getter.__name__ = getter.__qualname__ = fn_name
    getter.__doc__ = f"The element count of an {cls.__name__}."
    return _accessor(getter)


aclGetIntArraySize = _size_getter(aclIntArray, "aclGetIntArraySize")
aclGetFloatArraySize = _size_getter(aclFloatArray, "aclGetFloatArraySize")
aclGetBoolArraySize = _size_getter(aclBoolArray, "aclGetBoolArraySize")
aclGetTensorListSize = _size_getter(aclTensorList, "aclGetTensorListSize")
aclGetScalarListSize = _size_getter(aclScalarList, "aclGetScalarListSize")


@_accessor
def aclInitTensor(
    tensor: aclTensor,
    viewDims: Sequence[int] | None,
    viewDimsNum: int,
    dataType: int,
    stride: Sequence[int] | None,
    offset: int,
    format: int,
    storageDims: Sequence[int] | None,
    storageDimsNum: int,
    tensorDataAddr: int | None,
) -> int:
    """Re-initialise a tensor in place (shapes replaced only when given, address only if non-null)."""
    t = _live(tensor, aclTensor, "tensor")
    try:
        n_view = _count(viewDimsNum, "viewDimsNum")
        n_storage = _count(storageDimsNum, "storageDimsNum")
        view = _int_list(viewDims, n_view, "viewDims") if viewDims is not None and n_view else None
        storage_shape = (
            _int_list(storageDims, n_storage, "storageDims") if storageDims is not None and n_storage else None
        )
        # InitTensor reads viewDimsNum strides whether or not viewDims replaces the shape
        strides = _int_list(stride, n_view, "stride") if stride is not None else None
        addr = as_pointer(tensorDataAddr)
        if addr is not None and addr < 0:
            raise _UB("tensorDataAddr must be a device pointer (int) or None")
    except _UB as e:
        raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", f"aclInitTensor failed: {e}.") from None
    off = as_int(offset, "offset", S.ACLNN_ERR_PARAM_INVALID)
    dt = as_int(dataType, "dataType", S.ACLNN_ERR_PARAM_INVALID, -(2**31), 2**31 - 1)
    fmt = as_int(format, "format", S.ACLNN_ERR_PARAM_INVALID, -(2**31), 2**31 - 1)
    if view is not None:
        t.view_shape = view
    t.strides = strides if strides is not None else dtypes.contiguous_strides(t.view_shape)
    t.offset = off
    t.view_format = fmt
    if storage_shape is not None:
        t.storage_shape = t.origin_shape = storage_shape
    t.dtype = dtypes.to_op_dtype(dt)
    t.storage_format = t.origin_format = dtypes.to_op_format(fmt)
    if addr is not None:
        t.storage.addr = addr
    return S.ACLNN_SUCCESS


@c_api(S.ACLNN_ERR_INNER)
def aclSetRawTensorAddr(tensor: aclTensor | None, addr: int | None) -> int:
    """Point the tensor's storage at ``addr`` (may be None). Not legal between phase 1 and 2."""
    if tensor is None:
        raise fail(
            S.ACLNN_ERR_PARAM_NULLPTR,
            "EZ1011",
            "aclSetRawTensorAddr failed because tensor cannot be a NULL pointer.",
        )
    t = _live_or_fail(tensor)
    p = as_pointer(addr)
    if p is not None and p < 0:
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            "aclSetRawTensorAddr: addr must be a device pointer (int) or None.",
        )
    t.storage.addr = p
    return S.ACLNN_SUCCESS


@c_api(S.ACLNN_ERR_INNER)
def aclGetRawTensorAddr(tensor: aclTensor | None, addr: object) -> int:
    """The storage base address (not offset-adjusted)."""
    if tensor is None:
        raise fail(
            S.ACLNN_ERR_PARAM_NULLPTR,
            "EZ1011",
            "aclGetRawTensorAddr failed because tensor cannot be a NULL pointer.",
        )
    if addr is None:
        raise fail(
            S.ACLNN_ERR_PARAM_NULLPTR,
            "EZ1011",
            "aclGetRawTensorAddr failed because addr cannot be a NULL pointer.",
        )
    t = _live_or_fail(tensor)
    if not is_out_param(addr, True):
        raise fail(
            S.ACLNN_ERR_PARAM_INVALID,
            "EZ1001",
            f"{type(addr).__name__} cannot receive an out value (use Ref).",
        )
    store(addr, t.storage.addr)
    return S.ACLNN_SUCCESS


def _live_or_fail(tensor: object) -> aclTensor:
    if not isinstance(tensor, aclTensor):
        raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", f"tensor must be an aclTensor, got {type(tensor).__name__}.")
    if not tensor.alive:
        raise fail(S.ACLNN_ERR_PARAM_INVALID, "EZ1001", "tensor was already destroyed (use after free).")
    return tensor


__all__ = [
    "aclBoolArray", "aclCreateBoolArray", "aclCreateFloatArray", "aclCreateIntArray", "aclCreateScalar",
    "aclCreateScalarList", "aclCreateTensor", "aclCreateTensorList", "aclDataType", "aclDestroyBoolArray",
    "aclDestroyFloatArray", "aclDestroyIntArray", "aclDestroyScalar", "aclDestroyScalarList",
    "aclDestroyTensor", "aclDestroyTensorList", "aclFloatArray", "aclFormat", "aclGetBoolArraySize",
    "aclGetDataType", "aclGetFloatArraySize", "aclGetFormat", "aclGetIntArraySize", "aclGetRawTensorAddr",
    "aclGetScalarListSize", "aclGetStorageShape", "aclGetTensorListSize", "aclGetViewOffset",
    "aclGetViewShape", "aclGetViewStrides", "aclInitTensor", "aclIntArray", "aclScalar", "aclScalarList",
    "aclSetRawTensorAddr", "aclTensor", "aclTensorList",
]  # fmt: skip
