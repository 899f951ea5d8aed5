"""C++ declarations to :class:`~.ctype.CType`: type specifiers and declarators."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from . import cparse
from .ctype import BOOL, DOUBLE, FLOAT, FLOAT_TYPES, HALF, INT_TYPES, SMART, VOID, CType, int_type, pointer, vector
from .errors import Refused

if TYPE_CHECKING:
    from tree_sitter import Node


@dataclass
class Declared:
    """One declarator of a declaration: its name, type, initializer and the name's node."""

    name: str
    ctype: CType
    init: Node | None
    name_node: Node | None
    default: Node | None = None  # a parameter's default argument


class Types:
    """Resolves type names: C's own, aclnn_py's (typedefs, enums, opaque structs), the program's
    typedefs and, inside a template, its type parameters."""

    def __init__(self, typedefs: dict[str, CType], enums: set[str], opaque: set[str]) -> None:
        self.typedefs = dict(typedefs)
        self.enums = set(enums)
        self.opaque = set(opaque)
        self.typevars: set[str] = set()
        self.typevar_py: dict[str, str] = {}
        self.structs: set[str] = set()  # the program's plain data structs (Python classes)
        # the type of a function by name (the program's or aclnn_py's), for decltype(&f)
        self.function_type: Callable[[str], CType | None] = lambda name: None

    # -- type specifiers -------------------------------------------------------------------------
    def base(self, node: Node) -> CType:
        t = node.type
        s = cparse.text(node)
        if t == "primitive_type":
            return self._named(s, node)
        if t == "sized_type_specifier":
            words = " ".join(s.split())
            if words in INT_TYPES:
                return int_type(words)
            raise Refused(cparse.line(node), s, "a C type aclnn-port does not model")
        if t in ("type_identifier", "identifier"):
            return self._named(s, node)
        if t == "qualified_identifier":
            scope = cparse.text(cparse.field(node, "scope"))
            name = cparse.field(node, "name")
            if scope == "std" and name is not None:
                if name.type == "template_type" and cparse.text(cparse.field(name, "name")) == "vector":
                    args = cparse.field(name, "arguments")
                    descs = [c for c in cparse.named(args)] if args is not None else []
                    if len(descs) != 1 or descs[0].type != "type_descriptor":
                        raise Refused(cparse.line(node), s, "a std::vector with an allocator or no element type")
                    return vector(_no_struct(self.descriptor(descs[0]), node, "a std::vector of structs"))
                if name.type == "template_type" and cparse.text(cparse.field(name, "name")) in SMART:
                    return self.smart_pointer(name, node)
                if name.type == "type_identifier" and cparse.text(name) in INT_TYPES:
                    return int_type(cparse.text(name))
            raise Refused(cparse.line(node), s, "a C++ library type with no Python translation")
        if t == "placeholder_type_specifier":
            if s == "auto":
                return CType("auto")
            raise Refused(cparse.line(node), s, "decltype(auto) is not translated")
        if t == "struct_specifier" and cparse.field(node, "body") is None:
            tag = cparse.text(cparse.field(node, "name"))
            if tag in self.structs:
                return CType("struct", tag)  # `struct S s;`
        if t in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            raise Refused(cparse.line(node), cparse.snippet(node, 60), "a struct, class, union or enum of the program")
        if t == "template_type":
            raise Refused(cparse.line(node), s, "a template type outside namespace std (write std::vector<T>)")
        raise Refused(cparse.line(node), s, f"a type the tool cannot read ({t})")

    def smart_pointer(self, name: Node, node: Node) -> CType:
        """``std::unique_ptr<T, decltype(&f)>`` (``T`` may be ``std::remove_pointer<H>::type``) or
        ``std::shared_ptr<T>``, of a handle or device memory."""
        kind = cparse.text(cparse.field(name, "name"))
        args = cparse.field(name, "arguments")
        descs = cparse.named(args) if args is not None else []
        want = 2 if kind == "unique_ptr" else 1
        if len(descs) != want or any(d.type != "type_descriptor" for d in descs):
            why = (
                "a std::unique_ptr without a function deleter (only std::unique_ptr<T, decltype(&f)> is translated: "
                "the default deleter is C++'s delete)"
                if kind == "unique_ptr"
                else "a std::shared_ptr of an array or the tool cannot read"
            )
            raise Refused(cparse.line(node), cparse.snippet(node), why)
        owned = self._owned(descs[0], node)
        if kind == "shared_ptr":
            return CType("shared_ptr", of=owned)
        return CType("unique_ptr", of=owned, params=(self._deleter_type(descs[1], owned, node),))

    def _owned(self, desc: Node, node: Node) -> CType:
        """The pointer a smart pointer of ``T`` owns: ``T*``, or ``H`` for ``std::remove_pointer<H>::type``."""
        tnode = cparse.field(desc, "type")
        inner = cparse.field(tnode, "name") if tnode is not None and tnode.type == "qualified_identifier" else None
        trait = cparse.field(inner, "scope") if inner is not None and inner.type == "qualified_identifier" else None
        if (
            tnode is not None
            and cparse.text(cparse.field(tnode, "scope")) == "std"
            and inner is not None
            and trait is not None
            and trait.type == "template_type"
            and cparse.text(cparse.field(trait, "name")) == "remove_pointer"
            and cparse.text(cparse.field(inner, "name")) == "type"
            and cparse.field(desc, "declarator") is None
        ):
            targs = cparse.field(trait, "arguments")
            of = cparse.named(targs) if targs is not None else []
            owned = self.descriptor(of[0]) if len(of) == 1 and of[0].type == "type_descriptor" else None
            if owned is None or owned.kind != "pointer":
                raise Refused(cparse.line(node), cparse.snippet(node), "std::remove_pointer of something not a pointer")
        else:
            owned = pointer(_no_struct(self.descriptor(desc), node, "a smart pointer to a struct"))
        if not (owned.is_handle or owned.is_address):
            raise Refused(
                cparse.line(node),
                cparse.snippet(node),
                f"a smart pointer owning a {owned} (only handles and device memory, void*, are translated)",
            )
        return owned

    def _deleter_type(self, desc: Node, owned: CType, node: Node) -> CType:
        """``decltype(&f)``: the function type of ``f``, which must take the owned pointer."""
        tnode = cparse.field(desc, "type")
        kids = cparse.named(tnode) if tnode is not None and tnode.type == "decltype" else []
        arg = kids[0] if len(kids) == 1 else None
        if arg is not None and arg.type == "pointer_expression" and cparse.text(cparse.field(arg, "operator")) == "&":
            arg = cparse.field(arg, "argument")
        else:
            arg = None
        f = self.function_type(cparse.text(arg)) if arg is not None and arg.type == "identifier" else None
        if f is None or cparse.field(desc, "declarator") is not None:
            raise Refused(
                cparse.line(node),
                cparse.snippet(node),
                "a std::unique_ptr deleter type other than decltype(&f) of a function of the program or aclnn_py",
            )
        f = f.func
        p = f.params[0].plain() if len(f.params) == 1 and not f.variadic else None
        if (
            p is None
            or p.of is None
            or owned.of is None
            or not (p.is_handle or p.is_address)
            or not (p.is_address or p.of.plain() == owned.of.plain())
        ):
            raise Refused(
                cparse.line(node), cparse.snippet(node), f"the deleter {cparse.text(arg)} does not take a {owned}"
            )
        return f

    def _named(self, s: str, node: Node) -> CType:
        if s in INT_TYPES:
            return int_type(s)
        if s == "bool":
            return BOOL
        if s in FLOAT_TYPES:
            return {"_Float16": HALF, "float": FLOAT, "double": DOUBLE}[s]
        if s == "void":
            return VOID
        if s in self.typevars:
            return CType("typevar", s, py=self.typevar_py.get(s, s))
        if s in self.typedefs:
            return self.typedefs[s]
        if s in self.enums:
            return CType("enum", s, 32, True)
        if s in self.opaque:
            return CType("opaque", s)
        if s in self.structs:
            return CType("struct", s)
        if s == "char16_t" or s == "char32_t" or s == "wchar_t":
            raise Refused(cparse.line(node), s, "wide characters are not translated")
        raise Refused(cparse.line(node), s, "an unknown type: not declared in the program nor by aclnn_py")

    def descriptor(self, node: Node) -> CType:
        """A ``type_descriptor`` (``const int64_t*``, ``aclnnStatus (*)(void*, ...)``)."""
        base = self.base(_require(cparse.field(node, "type"), node))
        if _has_const(node):
            base = replace(base, const=True)
        decl = cparse.field(node, "declarator")
        return self._abstract(base, decl) if decl is not None else base

    def _abstract(self, base: CType, node: Node) -> CType:
        t = node.type
        inner = cparse.field(node, "declarator")
        if t == "abstract_pointer_declarator":
            p = pointer(_no_struct(base, node, "a pointer to a struct"))
            if _has_const(node):
                p = replace(p, const=True)
            return self._abstract(p, inner) if inner is not None else p
        if t == "abstract_reference_declarator":
            return replace(self._abstract(base, inner) if inner is not None else base, ref=True)
        if t == "abstract_function_declarator":
            f = self.function(base, _require(cparse.field(node, "parameters"), node))
            return self._abstract(f, inner) if inner is not None else f
        if t == "abstract_parenthesized_declarator":
            kids = cparse.named(node)
            return self._abstract(base, kids[0]) if kids else base
        if t == "abstract_array_declarator":
            size = cparse.field(node, "size")
            a = CType("array", of=_no_struct(base, node, "an array of structs"), size=_int_literal(size))
            return self._abstract(a, inner) if inner is not None else a
        raise Refused(cparse.line(node), cparse.snippet(node), f"a declarator the tool cannot read ({t})")

    # -- declarators -----------------------------------------------------------------------------
    def declarator(self, base: CType, node: Node) -> Declared:
        """Apply a declarator to a base type (inside out, as C reads it)."""
        t = node.type
        if t in ("identifier", "field_identifier", "type_identifier"):
            return Declared(cparse.text(node), base, None, node)
        if t == "init_declarator":
            d = self.declarator(base, _require(cparse.field(node, "declarator"), node))
            d.init = cparse.field(node, "value")
            return d
        if t == "pointer_declarator":
            p = pointer(_no_struct(base, node, "a pointer to a struct"))
            if _has_const(node):
                p = replace(p, const=True)
            return self.declarator(p, _require(cparse.field(node, "declarator"), node))
        if t == "reference_declarator":
            kids = cparse.named(node)
            d = self.declarator(base, kids[-1])
            d.ctype = replace(d.ctype, ref=True)
            return d
        if t == "array_declarator":
            size = cparse.field(node, "size")
            return self.declarator(
                CType("array", of=_no_struct(base, node, "an array of structs"), size=_int_literal(size)),
                _require(cparse.field(node, "declarator"), node),
            )
        if t == "function_declarator":
            f = self.function(base, _require(cparse.field(node, "parameters"), node))
            return self.declarator(f, _require(cparse.field(node, "declarator"), node))
        if t == "parenthesized_declarator":
            return self.declarator(base, cparse.named(node)[0])
        raise Refused(cparse.line(node), cparse.snippet(node), f"a declarator the tool cannot read ({t})")

    def function(self, ret: CType, plist: Node) -> CType:
        params = self.params(plist)
        variadic = any(c.type == "variadic_parameter" or c.type == "..." for c in plist.children)
        return CType(
            "func",
            of=ret,
            params=tuple(p.ctype for p in params),
            param_names=tuple(p.name for p in params),
            variadic=variadic,
        )

    def params(self, plist: Node) -> list[Declared]:
        out: list[Declared] = []
        for p in cparse.named(plist):
            if p.type in ("variadic_parameter",):
                continue
            if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
                raise Refused(cparse.line(p), cparse.snippet(p), f"a parameter the tool cannot read ({p.type})")
            base = self.base(_require(cparse.field(p, "type"), p))
            if _has_const(p):
                base = replace(base, const=True)
            decl = cparse.field(p, "declarator")
            if decl is None:
                if base.kind == "void" and len(cparse.named(plist)) == 1:
                    return []
                d = Declared("", base, None, None)
            elif decl.type.startswith("abstract_"):
                d = Declared("", self._abstract(base, decl), None, None)
            else:
                d = self.declarator(base, decl)
            d.default = cparse.field(p, "default_value")
            out.append(d)
        return out

    def declaration(self, node: Node) -> list[Declared]:
        """Every declarator of a ``declaration`` node."""
        base = self.base(_require(cparse.field(node, "type"), node))
        if _has_const(node):
            base = replace(base, const=True)
        return [self.declarator(base, d) for d in cparse.fields(node, "declarator")]


def _no_struct(t: CType, node: Node, what: str) -> CType:
    """``t``, unless it is one of the program's structs (they are Python objects: no pointers into
    them, no arrays of them)."""
    if t.kind == "struct":
        raise Refused(cparse.line(node), cparse.snippet(node), f"{what} is not translated (only struct variables)")
    if t.is_smart:
        raise Refused(cparse.line(node), cparse.snippet(node), f"a pointer, array or vector of {t} is not translated")
    return t


def _has_const(node: Node) -> bool:
    return any(c.type == "type_qualifier" and cparse.text(c) in ("const", "constexpr") for c in node.children)


def _int_literal(node: Node | None) -> int | None:
    if node is None:
        return None
    s = cparse.text(node).rstrip("uUlL")
    try:
        return int(s, 0)
    except ValueError:
        return None


def _require(node: Node | None, parent: Node) -> Node:
    if node is None:
        raise Refused(cparse.line(parent), cparse.snippet(parent), "an incomplete declaration")
    return node
