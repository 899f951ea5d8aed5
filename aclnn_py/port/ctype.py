"""C types, as far as a port needs them: what a value is in C decides what it is in Python.

* integers and bools are Python ints and bools (``int``/``int64_t``/``size_t``/... keep their width
  and signedness here, for C's arithmetic conversions);
* ``float`` is ``np.float32`` and ``_Float16`` is ``np.float16`` (their rounding is C's), ``double``
  is a Python float;
* enums are aclnn_py's IntEnums; pointers are ints (device addresses) or None, handles
  (``aclTensor*``, ``aclrtStream`` ...) are aclnn_py objects or None;
* ``std::vector<T>`` and ``T[N]`` are numpy arrays of T, or Python lists (of handles, or of int64
  values that are only indices, shapes and counts).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

INT_TYPES: dict[str, tuple[int, bool]] = {
    "char": (8, True),
    "signed char": (8, True),
    "unsigned char": (8, False),
    "int8_t": (8, True),
    "uint8_t": (8, False),
    "short": (16, True),
    "short int": (16, True),
    "unsigned short": (16, False),
    "int16_t": (16, True),
    "uint16_t": (16, False),
    "int": (32, True),
    "signed": (32, True),
    "signed int": (32, True),
    "unsigned": (32, False),
    "unsigned int": (32, False),
    "int32_t": (32, True),
    "uint32_t": (32, False),
    "long": (64, True),
    "long int": (64, True),
    "unsigned long": (64, False),
    "unsigned long int": (64, False),
    "long long": (64, True),
    "long long int": (64, True),
    "unsigned long long": (64, False),
    "unsigned long long int": (64, False),
    "int64_t": (64, True),
    "uint64_t": (64, False),
    "size_t": (64, False),
    "ssize_t": (64, True),
    "ptrdiff_t": (64, True),
    "intptr_t": (64, True),
    "uintptr_t": (64, False),
}
FLOAT_TYPES = {"_Float16": 16, "float": 32, "double": 64}
# std::unique_ptr<T, decltype(&f)> and std::shared_ptr<T> (aclnn_py.raii): ``of`` is what ``get()``
# returns (a handle or a device address), a unique_ptr's ``params`` its deleter's function type
SMART = ("unique_ptr", "shared_ptr")
# integer rank for C's usual arithmetic conversions (long and long long differ in rank only)
_RANK = {8: 1, 16: 2, 32: 3, 64: 4}


@dataclass(frozen=True)
class CType:
    """``kind``: int bool float enum void opaque pointer vector array func typevar nullptr struct
    unique_ptr shared_ptr auto unknown. ``of`` is the pointee / element / return type (of a smart
    pointer: the pointer it owns)."""

    kind: str
    name: str = ""
    bits: int = 0
    signed: bool = True
    of: CType | None = None
    params: tuple[CType, ...] = ()
    param_names: tuple[str, ...] = ()
    variadic: bool = False
    size: int | None = None
    const: bool = False
    ref: bool = False  # a C++ reference (parameter ``T&``)
    py: str = ""  # a template type parameter's Python spelling (``T``, ``hostData.dtype.type``)

    # -- predicates ------------------------------------------------------------------------------
    @property
    def is_int(self) -> bool:
        return self.kind in ("int", "bool", "enum")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_arith(self) -> bool:
        return self.kind in ("int", "bool", "enum", "float")

    @property
    def is_pointer(self) -> bool:
        return self.kind in ("pointer", "nullptr")

    @property
    def is_string(self) -> bool:
        return self.kind == "pointer" and self.of is not None and self.of.kind == "int" and self.of.name == "char"

    @property
    def is_handle(self) -> bool:
        """An opaque handle: ``aclTensor*`` ..., ``aclrtStream`` (a named ``void*``)."""
        if self.kind != "pointer" or self.of is None:
            return False
        return self.of.kind == "opaque" or (self.of.kind == "void" and self.name != "")

    @property
    def is_address(self) -> bool:
        """A plain ``void*`` (device or pinned memory: an int in Python)."""
        return self.kind == "pointer" and self.of is not None and self.of.kind == "void" and not self.name

    @property
    def is_container(self) -> bool:
        return self.kind in ("vector", "array")

    @property
    def is_smart(self) -> bool:
        """A ``std::unique_ptr`` or ``std::shared_ptr`` (an object of aclnn_py.raii)."""
        return self.kind in SMART

    @property
    def is_mutable_ref(self) -> bool:
        """A non-const reference to a scalar, pointer or handle (a parameter ``T&``): where the callee
        writes through it, Python holds it in a ``Ref``."""
        return self.ref and not self.const and self.kind not in ("vector", "array", "struct", "auto", *SMART)

    @property
    def is_func(self) -> bool:
        return self.kind == "func" or (self.kind == "pointer" and self.of is not None and self.of.kind == "func")

    @property
    def func(self) -> CType:
        assert self.is_func
        return self if self.kind == "func" else self.of  # type: ignore[return-value]

    @property
    def unsigned(self) -> bool:
        return self.kind == "int" and not self.signed

    def plain(self) -> CType:
        """Without const and reference."""
        return replace(self, const=False, ref=False)

    def __str__(self) -> str:
        return spell(self)


VOID = CType("void")
BOOL = CType("bool", "bool", 8, False)
INT = CType("int", "int", 32, True)
INT64 = CType("int", "int64_t", 64, True)
UINT64 = CType("int", "uint64_t", 64, False)
SIZE_T = CType("int", "size_t", 64, False)
CHAR = CType("int", "char", 8, True)
FLOAT = CType("float", "float", 32)
DOUBLE = CType("float", "double", 64)
HALF = CType("float", "_Float16", 16)
NULLPTR = CType("nullptr")
UNKNOWN = CType("unknown")
STRING = CType("pointer", of=replace(CHAR, const=True))


def int_type(name: str) -> CType:
    bits, signed = INT_TYPES[name]
    return CType("int", name, bits, signed)


def pointer(of: CType, name: str = "") -> CType:
    return CType("pointer", name, of=of)


def vector(of: CType) -> CType:
    return CType("vector", of=of)


def spell(t: CType) -> str:
    """The type as C++ would write it."""
    const = "const " if t.const else ""
    if t.kind in ("int", "bool", "float", "enum", "opaque", "typevar", "struct"):
        return const + (t.name or t.kind)
    if t.kind == "void":
        return const + "void"
    if t.kind == "pointer":
        if t.name:
            return t.name
        return spell(t.of or UNKNOWN) + "*"
    if t.kind == "vector":
        return f"std::vector<{spell(t.of or UNKNOWN)}>"
    if t.kind == "array":
        return f"{spell(t.of or UNKNOWN)}[{t.size if t.size is not None else ''}]"
    if t.kind == "func":
        return f"{spell(t.of or UNKNOWN)}({', '.join(spell(p) for p in t.params)})"
    if t.kind in SMART:
        return f"std::{t.kind} (owning a {spell(t.of or UNKNOWN)})"
    return t.kind


# -- numpy ---------------------------------------------------------------------------------------

_NUMPY_INT = {
    (8, True): "np.int8",
    (8, False): "np.uint8",
    (16, True): "np.int16",
    (16, False): "np.uint16",
    (32, True): "np.int32",
    (32, False): "np.uint32",
    (64, True): "np.int64",
    (64, False): "np.uint64",
}
_NUMPY_FLOAT = {16: "np.float16", 32: "np.float32", 64: "np.float64"}


def numpy_type(t: CType) -> str | None:
    """numpy's scalar type for a C arithmetic type (``std::vector<char>`` holds int8)."""
    t = t.plain()
    if t.kind == "int":
        return _NUMPY_INT[(t.bits, t.signed)]
    if t.kind == "bool":
        return "np.bool_"
    if t.kind == "float":
        return _NUMPY_FLOAT[t.bits]
    if t.kind == "typevar":
        return t.py or t.name
    return None


# -- C's conversions -------------------------------------------------------------------------------


def promote(t: CType) -> CType:
    """Integer promotion: what C computes a small integer, a bool or an enum in."""
    if t.kind in ("bool", "enum") or (t.kind == "int" and t.bits < 32):
        return INT
    return t.plain()


def arithmetic(a: CType, b: CType) -> CType:
    """C's usual arithmetic conversions: the type ``a op b`` is computed in."""
    if a.is_float or b.is_float:
        bits = max(x.bits for x in (a, b) if x.is_float)
        return {16: HALF, 32: FLOAT, 64: DOUBLE}[bits]
    a, b = promote(a), promote(b)
    if a.signed == b.signed:
        return a if a.bits >= b.bits else b
    s, u = (a, b) if a.signed else (b, a)
    if _RANK[u.bits] >= _RANK[s.bits]:
        return u
    if s.bits > u.bits:
        return s
    return replace(s, signed=False, name="unsigned " + s.name)
