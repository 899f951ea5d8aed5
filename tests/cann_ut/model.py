"""What a case is made of: the arguments of a phase-1 call (tensors, scalars, arrays, plain values),
a case and a skip, the Unreadable exception, the status names and the stub's SoC names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aclnn_py

# ---------------------------------------------------------------------------------------------
# what a case is made of
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tensor:
    """An aclTensor as TensorDesc makes it (its data pointer is nullptr)."""

    shape: tuple[int, ...] = (1, 1, 16, 16)
    dtype: int = int(aclnn_py.ACL_FLOAT)
    format: int = int(aclnn_py.ACL_FORMAT_NCHW)
    strides: tuple[int, ...] | None = None  # None: aclCreateTensor gets nullptr
    offset: int = 0
    storage_shape: tuple[int, ...] | None = None  # None: the view's shape

    def __str__(self) -> str:
        view = ""
        if self.strides is not None or self.offset or self.storage_shape is not None:
            view = f" strides={list(self.strides or [])} offset={self.offset} storage={list(self.storage_shape or [])}"
        return f"Tensor({list(self.shape)} {_name(aclnn_py.aclDataType, self.dtype)} {_name(aclnn_py.aclFormat, self.format)}{view})"


@dataclass(frozen=True)
class Scalar:
    """An aclScalar as ScalarDesc makes it."""

    dtype: int
    value: bool | int | float

    def __str__(self) -> str:
        return f"Scalar({self.value!r} {_name(aclnn_py.aclDataType, self.dtype)})"


@dataclass(frozen=True)
class Array:
    """An aclIntArray / aclBoolArray / aclFloatArray (``kind``: int, bool or float)."""

    kind: str
    values: tuple[Any, ...]

    def __str__(self) -> str:
        return f"{self.kind.capitalize()}Array({list(self.values)})"


@dataclass(frozen=True)
class Value:
    """A plain C++ value: its type as the compiler sees it (``int``, ``long`` for int64_t,
    ``float``, ``bool``, ``aclDataType``, ``SocVersion``, ``nullptr_t``, ``aclTensor*`` ...) and
    its value (None for a null pointer)."""

    ctype: str
    value: Any

    @property
    def is_null(self) -> bool:
        return self.value is None and (self.ctype == "nullptr_t" or self.ctype.endswith("*"))

    def __str__(self) -> str:
        if self.is_null:
            return "nullptr"
        if self.ctype == "aclDataType":
            return _name(aclnn_py.aclDataType, self.value)
        return repr(self.value)


Arg = Tensor | Scalar | Array | Value


@dataclass(frozen=True)
class Case:
    """One phase-1 call of a UT and what the UT asserts about it."""

    id: str  # "<path>::<test name>", with "#<n>" when the test makes several calls
    path: str  # the file, relative to the folder searched
    line: int  # of the TestGetWorkspaceSize call
    soc: str  # the stub's SoC at the call: "Ascend910B", "Ascend950", "Ascend310B" ...
    api: str
    args: tuple[Arg, ...]  # phase 1's arguments before workspaceSize and executor
    status: tuple[str, int]  # ("==", code) or ("!=", code)
    workspace_init: int = 0  # the workspace variable's value before the call
    workspace: int | None = None  # the workspace size an EXPECT_EQ asserts after it, if any

    def describe(self) -> str:
        args = ", ".join(str(a) for a in self.args)
        want = f"{self.status[0]} {status_name(self.status[1])}"
        ws = "" if self.workspace is None else f", workspace == {self.workspace}"
        return f"{self.api}({args}) on {self.soc}: {want}{ws}  [{self.path}:{self.line}]"


@dataclass(frozen=True)
class Skipped:
    """A phase-1 call (or a whole test) not replayed, and why."""

    id: str
    path: str
    line: int
    apis: tuple[str, ...]  # the implemented APIs concerned (one entry per OP_API_UT)
    reason: str
    # unreadable: a construct the reader does not interpret; unchecked: no phase-1 call, or no
    # assertion on its status; disabled: DISABLED_ in gtest
    kind: str = "unreadable"


class Unreadable(Exception):
    """A construct the reader does not interpret."""


def _name(enum: Any, v: int) -> str:
    try:
        return str(enum(v).name)
    except ValueError:
        return str(v)


def status_name(code: int) -> str:
    """``ACLNN_ERR_PARAM_INVALID`` for 161002."""
    return _name(aclnn_py.aclnnStatus, code)


# SocVersion names of the stub (its ToString) and the SoC each NpuArch stands for (its
# SetPlatformNpuArch: DAV_2201 -> ASCEND910B).
SOC_NAMES = {
    "ASCEND910": "Ascend910", "ASCEND910B": "Ascend910B", "ASCEND910_93": "Ascend910_93",
    "ASCEND950": "Ascend950", "ASCEND910E": "Ascend910E", "ASCEND310": "Ascend310",
    "ASCEND310P": "Ascend310P", "ASCEND310B": "Ascend310B", "ASCEND310C": "Ascend310C",
    "ASCEND610LITE": "Ascend610LITE", "KIRINX90": "KirinX90", "KIRIN9030": "Kirin9030",
}  # fmt: skip
ARCH_SOCS = {
    "DAV_1001": "ASCEND910", "DAV_2201": "ASCEND910B", "DAV_3510": "ASCEND950",
    "DAV_2002": "ASCEND310P", "DAV_3002": "ASCEND310B", "DAV_3102": "ASCEND610LITE",
}  # fmt: skip
STUB_DEFAULT_SOC = "ASCEND910B"
