"""Variables: declarations of local and global variables, with the Python value each starts with.

The layer of the translator between the calls (:class:`~.calls.Calls`) and the statements
(:class:`~.stmts.Stmts`; the program's globals and struct members take the same path): a scalar
starts from its initializer converted as C converts it, or from nothing where C leaves it
unset (a global: its zero); a variable whose address an out-parameter takes is a ``Ref``; a
vector or array is a list or a numpy array (its elements' dtype), initialized from a braced
list, a size and a fill, or a copy of another (C++ copies it); a struct is a new object, and a
``const S&`` the object itself. A static local, a reference that aliases another variable, and
the copy of a struct are refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import cparse
from .calls import Calls
from .ctype import INT, CType
from .decl import Declared
from .errors import Refused
from .pyexpr import P_ATOM, PyExpr
from .scope import Sym
from .values import refuse

if TYPE_CHECKING:
    from tree_sitter import Node


class Variables(Calls):
    """Declarations and initial values (the methods the statement layer above builds on)."""

    def local_declaration(self, node: Node, indent: int) -> None:
        if any(
            c.type == "storage_class_specifier" and cparse.text(c) in ("static", "thread_local") for c in node.children
        ):
            raise refuse(node, "a static local keeps its value between calls: no Python twin")
        decls = self.types.declaration(node)
        targets: list[str] = []
        values: list[str | None] = []
        for d in decls:
            sym, value = self.declared(d, node)
            targets.append(sym.py)
            values.append(value)
        if all(v is not None for v in values):
            if len(targets) == 1:
                self.out.code(indent, f"{targets[0]} = {values[0]}")
            else:
                self.out.code(indent, f"{', '.join(targets)} = {', '.join(str(v) for v in values)}")
            return
        parts = [
            f"{t} = {v}" if v is not None else f"{t}: {self.annotation(self.lookup_py(t))}"
            for t, v in zip(targets, values)
        ]
        self.out.code(indent, "; ".join(parts))

    def lookup_py(self, py: str) -> CType:
        for scope in reversed(self.scopes):
            for sym in scope.values():
                if sym.py == py:
                    return sym.ctype
        return INT

    def annotation(self, t: CType) -> str:
        t = t.plain()
        if t.kind == "int":
            return "int"
        if t.kind == "bool":
            return "bool"
        if t.kind == "float":
            return "float" if t.bits == 64 else ("np.float32" if t.bits == 32 else "np.float16")
        if t.kind == "enum":
            return t.name
        return "object"

    def declared(self, d: Declared, node: Node) -> tuple[Sym, str | None]:
        """Declare one declarator; its Python initial value (None: declared, not initialized)."""
        t = d.ctype
        init = d.init
        if t.ref and not (t.const or (t.kind == "auto")):
            raise refuse(node, "a reference variable aliases another: not translated")
        if t.kind == "auto":
            if init is None:
                raise refuse(node, "auto without an initializer")
            e = self.value_of(self.expr(init), init)
            if e.ctype.kind == "struct":
                if not d.ctype.ref:
                    raise refuse(node, "a copy of a struct is not translated")
                sym = self.declare(replace(d, ctype=replace(e.ctype, ref=True, const=d.ctype.const)), node)
                return sym, e.text  # a reference: the same object
            if e.ctype.kind in ("nullptr", "func") or e.ctype.is_func:
                raise refuse(node, "auto deduced from nullptr or a function")
            t = e.ctype.plain()
            if d.ctype.ref and not d.ctype.const and not t.is_container:
                raise refuse(node, "a reference variable aliases another: not translated")
            if t.kind == "array":
                t = CType("pointer", of=t.of)
            d = replace(d, ctype=replace(t, ref=d.ctype.ref))
            sym = self.declare(d, node)
            if t.is_container:
                sym.container = e.container or sym.container
                return sym, (e.text if d.ctype.ref else self.container_value(e, sym, init).text)
            value = self.convert(e, t, init)
            sym.npscalar = value.npscalar
            return sym, self.wrap_ref(sym, value.text)
        sym = self.declare(d, node)
        if t.kind == "struct":
            return sym, self.struct_init(sym, init, node)
        if t.is_container:
            if sym.ref:
                raise refuse(node, "the address of a whole vector or array")
            return sym, self.container_init(sym, init, node)
        if t.kind == "func" or t.kind == "void":
            raise refuse(node, "a function declared inside a function")
        if init is None:
            if sym.ref:
                self.use("Ref")
                return sym, "Ref()"
            if not self.scopes or sym.is_global:
                return sym, self.zero(t)
            if t.is_pointer:
                return sym, "None"
            return sym, None
        if init.type == "initializer_list" or init.type == "argument_list":
            items = cparse.named(init)
            if not items:
                return sym, self.wrap_ref(sym, self.zero(t))
            if len(items) != 1:
                raise refuse(node, "a scalar initialized with several values")
            init = items[0]
        value = self.convert(self.expr(init, t), t, init)
        sym.npscalar = value.npscalar
        return sym, self.wrap_ref(sym, value.text)

    def struct_init(self, sym: Sym, init: Node | None, node: Node) -> str:
        """``S s;`` / ``S s{};`` is a new object with the members' default values; ``const S& r = s``
        is ``s`` itself. Copies and aggregate initialization are refused."""
        info = self.structs[sym.ctype.name]
        if init is None or (init.type in ("initializer_list", "argument_list") and not cparse.named(init)):
            if sym.ctype.ref:
                raise refuse(node, "a reference without an initializer")
            return f"{info.py}()"
        if sym.ctype.ref:
            e = self.value_of(self.expr(init), init)
            if e.ctype.kind == "struct" and e.ctype.name == sym.ctype.name:
                return e.text
        raise refuse(
            node, "copying or aggregate-initializing a struct is not translated (declare it, then set members)"
        )

    def wrap_ref(self, sym: Sym, value: str) -> str:
        if sym.ref:
            self.use("Ref")
            return f"Ref({value})"
        return value

    def zero(self, t: CType) -> str:
        t = t.plain()
        if t.is_pointer or t.is_func:
            return "None"
        if t.kind == "bool":
            return "False"
        if t.kind == "float":
            if t.bits == 64:
                return "0.0"
            self.use("np")
            return "np.float32(0)" if t.bits == 32 else "np.float16(0)"
        if t.is_int:
            return "0"
        raise Refused(0, str(t), "a zero value of this type")

    def container_init(self, sym: Sym, init: Node | None, node: Node) -> str:
        t = sym.ctype.plain()
        elem = t.of
        assert elem is not None
        if init is None:
            if t.kind == "array":
                if t.size is None:
                    raise refuse(node, "an array without a size")
                count = PyExpr(str(t.size), P_ATOM, INT, True, literal="int", value=t.size)
                return self.container_sized(t, sym.container, count, None, node).text
            if sym.container == "numpy":
                self.use("np")
                return f"np.array([], dtype={self.np_elem(elem)})"
            return "[]"
        if init.type == "initializer_list":
            return self.container_literal(init, t, sym.container, t.size if t.kind == "array" else None).text
        if init.type == "argument_list":
            args = cparse.named(init)
            if t.kind != "vector" or not 1 <= len(args) <= 2:
                raise refuse(node, "a container constructor the tool does not translate")
            first = self.expr(args[0], t)
            if len(args) == 1 and first.container:
                return self.container_value(first, sym, args[0]).text
            first = self.value_of(first, args[0])
            if not first.ctype.is_int:
                raise refuse(node, "a std::vector constructor the tool does not translate")
            fill = self.value_of(self.expr(args[1], elem), args[1]) if len(args) == 2 else None
            return self.container_sized(t, sym.container, first, fill, node).text
        e = self.expr(init, t)
        return self.container_value(e, sym, init).text

    def np_elem(self, elem: CType) -> str:
        from .ctype import numpy_type

        name = numpy_type(elem)
        if name is None:
            raise Refused(0, str(elem), "an element type numpy has no type for")
        return name

    def container_value(self, e: PyExpr, target: PyExpr | Sym, node: Node) -> PyExpr:
        """A vector initialized or assigned from another: C++ copies it."""
        e = self.value_of(e, node)
        if not e.container:
            raise refuse(node, f"a {e.ctype} assigned to a {target.ctype}")
        want = target.container
        if e.sym is not None and e.prec == P_ATOM and "(" not in e.text:
            if want and e.container != want:
                return PyExpr(
                    f"list({e.text})" if want == "list" else f"np.array({e.text})", P_ATOM, e.ctype, container=want
                )
            return e.with_(text=f"{e.text}.copy()")
        return e
