"""Names: the program's variables, parameters, functions and macros, and what each is in Python."""

from __future__ import annotations

import keyword
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import cparse
from .ctype import CType
from .decl import Declared, Types
from .emit import Out
from .errors import Refusal, Refused
from .known import Known
from .preprocess import Expanded, Macro

if TYPE_CHECKING:
    from tree_sitter import Node

# Names the port itself uses: a C name equal to one of them gets a trailing underscore.
RESERVED = frozenset(keyword.kwlist) | {
    "np",
    "sys",
    "Ref",
    "printf",
    "len",
    "range",
    "int",
    "float",
    "bool",
    "print",
    "ord",
    "list",
    "isinstance",
    "contextlib",
    "unique_ptr",
    "shared_ptr",
}

Key = tuple[int, int]


def py_name(name: str) -> str:
    return name + "_" if name in RESERVED else name


@dataclass
class Sym:
    """A variable or parameter. ``ref``: held in a ``Ref`` (its address goes to an out-parameter);
    ``ref_param``: a pointer parameter the caller fills with a ``Ref``; ``container``: ``numpy`` or
    ``list`` for vectors and arrays."""

    name: str
    py: str
    ctype: CType
    key: Key
    ref: bool = False
    ref_param: bool = False
    container: str = ""
    is_global: bool = False
    is_param: bool = False
    npscalar: bool = False  # holds an element of a numpy array (a numpy scalar)
    is_member: bool = False  # a member of a struct of the program (one Sym for every object's)


@dataclass
class StructInfo:
    """A plain data struct of the program: a Python class whose ``__init__`` sets the members, in
    order, to their default member initializers."""

    name: str
    py: str
    members: dict[str, Sym]
    raii: bool = False  # holds smart pointers: a contextlib.ExitStack that destroys them, last first


@dataclass
class FuncInfo:
    """A function of the program."""

    name: str
    py: str
    ctype: CType
    params: list[Declared]
    node: Node | None
    typevars: list[str] = field(default_factory=list)
    deduced: dict[str, str] = field(default_factory=dict)  # typevar -> the vector<T> parameter it comes from

    @property
    def explicit(self) -> list[str]:
        """Template parameters the Python function takes first (numpy scalar types)."""
        return [t for t in self.typevars if t not in self.deduced]


@dataclass
class Flags:
    """What the analysis pass learns and the writing pass needs."""

    ref_vars: set[Key] = field(default_factory=set)
    buffers: set[Key] = field(default_factory=set)
    mutated: set[Key] = field(default_factory=set)
    assigned_globals: dict[str, set[str]] = field(default_factory=dict)
    instantiations: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # (function, parameter index) of the non-const scalar or pointer references (``T&``) the callee
    # holds in a Ref (it assigns them or takes their address): callers pass their variable's Ref
    ref_slots: set[tuple[str, int]] = field(default_factory=set)
    # the pointer parameters whose address the function compares (or passes on to one that does):
    # a caller's ``&x`` there is a new list ``[x]``, without x's address
    addressed: set[Key] = field(default_factory=set)

    def snapshot(self) -> tuple[object, ...]:
        return (
            frozenset(self.ref_vars),
            frozenset(self.buffers),
            frozenset(self.mutated),
            frozenset((k, frozenset(v)) for k, v in self.assigned_globals.items()),
            frozenset((k, frozenset(v)) for k, v in self.instantiations.items()),
            frozenset(self.ref_slots),
            frozenset(self.addressed),
        )


class Context:
    """The translator's state: what is known, the scopes, the output, the refusals."""

    def __init__(
        self, known: Known, expanded: Expanded, filename: str, flags: Flags, macros: dict[str, Macro], analysis: bool
    ) -> None:
        self.known = known
        self.types = Types(known.types.typedefs, set(known.enum_members), known.types.opaque)
        self.expanded = expanded
        self.filename = filename
        self.flags = flags
        self.macros = macros
        self.analysis = analysis
        self.refusals: list[Refusal] = []
        self.scopes: list[dict[str, Sym]] = []
        self.globals: dict[str, Sym] = {}
        self.functions: dict[str, FuncInfo] = {}
        self.structs: dict[str, StructInfo] = {}
        self.current: FuncInfo | None = None
        self.out = Out()
        self.uses: set[str] = set()  # np, sys, printf, Ref, contextlib, unique_ptr, shared_ptr, address
        self.types.function_type = self.function_type
        # the contextlib.ExitStack of each block (by its scope depth) that declares smart pointers
        self.raii: dict[int, str] = {}
        # the scope depth each lambda being translated starts above (its captures live below it)
        self.lambda_floors: list[int] = []
        self.source_names: set[str] = set()  # every name the C++ spells (new Python names avoid them)

    def function_type(self, name: str) -> CType | None:
        """The type of a function of the program or of aclnn_py."""
        f = self.functions.get(name)
        return f.ctype if f is not None else self.known.function(name)

    def fresh_name(self, base: str) -> str:
        """A Python name of the port's own that no C++ name and no variable in scope takes."""
        name = base
        while name in self.source_names or name in RESERVED or self.lookup(name) is not None:
            name += "_"
        return name

    # -- scopes ----------------------------------------------------------------------------------
    def push(self) -> None:
        self.scopes.append({})

    def pop(self) -> None:
        self.scopes.pop()

    def lookup(self, name: str) -> Sym | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.globals.get(name)

    def declare(self, d: Declared, node: Node, *, is_param: bool = False, ref_param: bool = False) -> Sym:
        name = d.name
        assert d.name_node is not None
        if self.scopes:
            for scope in self.scopes:
                if name in scope:
                    raise Refused(
                        cparse.line(node),
                        cparse.snippet(node),
                        f"{name} is declared again inside a block where it is already declared: "
                        "Python has one scope per function",
                    )
            if name in self.globals or name in self.functions:
                raise Refused(
                    cparse.line(node), cparse.snippet(node), f"the local {name} hides a global of the same name"
                )
        key = cparse.node_key(d.name_node)
        t = d.ctype.plain()
        if t.is_container and t.of is not None and t.of.is_container:
            raise Refused(cparse.line(node), cparse.snippet(node), "a vector or array of vectors is not translated")
        sym = Sym(name, py_name(name), d.ctype, key, is_param=is_param, ref_param=ref_param)
        sym.ref = key in self.flags.ref_vars
        if d.ctype.is_container:
            sym.container = self.container_kind(d.ctype, key)
        if self.scopes:
            self.scopes[-1][name] = sym
        else:
            sym.is_global = True
            self.globals[name] = sym
        return sym

    def container_kind(self, t: CType, key: Key) -> str:
        """numpy for arithmetic elements, except int64 indices and shapes that never serve as host
        memory (they stay Python lists, as people write them); lists for handles and pointers."""
        elem = t.of
        assert elem is not None
        if elem.kind in ("int", "bool", "float", "typevar"):
            if elem.kind == "int" and elem.bits == 64 and elem.signed and key not in self.flags.buffers:
                return "list"
            return "numpy"
        return "list"

    # -- refusals --------------------------------------------------------------------------------
    def record(self, r: Refused) -> None:
        if self.analysis:
            return
        self.refusals.append(Refusal(self.filename, r.line, r.construct, r.reason))

    def use(self, what: str) -> None:
        self.uses.add(what)
