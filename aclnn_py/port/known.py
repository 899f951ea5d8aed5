"""What aclnn_py exports, read from the package itself: every C function with its prototype (the
operators' from :mod:`aclnn_py.ops.registry`, the runtime's and acl_meta's from
:mod:`.prototypes`), every enum and constant. A new operator in the registry is known at once."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import IntEnum

from . import cparse, prototypes
from .ctype import INT, CType
from .decl import Types
from .errors import Refused

# aclnn_py's IntEnums that C declares as plain int typedefs (their members are int constants)
_INT_ENUMS = {"aclError", "aclnnStatus"}


@dataclass
class Known:
    exports: frozenset[str]
    functions: dict[str, CType]
    constants: dict[str, CType]  # name -> type (an enum type or int)
    enum_members: dict[str, frozenset[str]]
    types: Types

    def function(self, name: str) -> CType | None:
        return self.functions.get(name) if name in self.exports else None


@functools.lru_cache(maxsize=1)
def known() -> Known:
    import aclnn_py
    from aclnn_py.ops import registry

    exports = frozenset(aclnn_py.__all__)
    enums: dict[str, type[IntEnum]] = {}
    constants: dict[str, CType] = {}
    for name in exports:
        obj = getattr(aclnn_py, name)
        if isinstance(obj, type) and issubclass(obj, IntEnum) and name not in _INT_ENUMS:
            enums[name] = obj
    for name in exports:
        obj = getattr(aclnn_py, name)
        if isinstance(obj, IntEnum):
            cls = type(obj).__name__
            constants[name] = CType("enum", cls, 32, True) if cls in enums else INT
        elif isinstance(obj, int) and not isinstance(obj, bool):
            constants[name] = INT
    types = Types({}, set(enums), set())
    typedef_root = cparse.parse(prototypes.TYPEDEFS).root_node
    for node in cparse.named(typedef_root):
        _typedef(types, node)
    functions: dict[str, CType] = {}
    decls = [prototypes.HEADERS, prototypes.MORE]
    for api in registry.IMPLEMENTED:
        params = ", ".join(f"{p.ctype} {p.name}" for p in api.params)
        sep = ", " if params else ""
        decls.append(
            f"aclnnStatus {api.phase1}({params}{sep}uint64_t *workspaceSize, aclOpExecutor **executor);\n"
            f"aclnnStatus {api.name}(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, "
            "aclrtStream stream);\n"
        )
    for text in decls:
        root = cparse.parse(text).root_node
        for node in cparse.named(root):
            for d in types.declaration(node):
                if d.ctype.kind == "func" and d.name in exports:
                    functions[d.name] = d.ctype
    members = {n: frozenset(m.name for m in cls) for n, cls in enums.items()}
    return Known(exports, functions, constants, members, types)


def _typedef(types: Types, node: object) -> None:
    from tree_sitter import Node

    assert isinstance(node, Node)
    if node.type != "type_definition":
        raise Refused(cparse.line(node), cparse.snippet(node), "not a typedef")
    tnode = cparse.field(node, "type")
    assert tnode is not None
    for decl in cparse.fields(node, "declarator"):
        name = cparse.text(decl) if decl.type == "type_identifier" else ""
        if tnode.type == "struct_specifier":
            types.opaque.add(name)
            continue
        d = types.declarator(types.base(tnode), decl)
        t = d.ctype
        if t.kind == "pointer" and t.of is not None and t.of.kind == "void":
            t = CType("pointer", d.name, of=t.of)  # a named void*: a handle (aclrtStream ...)
        elif t.kind == "int":
            t = CType("int", d.name, t.bits, t.signed)
        types.typedefs[d.name] = t
