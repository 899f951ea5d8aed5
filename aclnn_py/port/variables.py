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

import abc
from dataclasses import replace
from typing import TYPE_CHECKING

from . import cparse
from .calls import Calls, param_role
from .ctype import INT, VOID, CType
from .decl import Declared
from .errors import Refused
from .exprs import _need
from .pyexpr import P_ATOM, PyExpr
from .scope import Sym, py_name
from .values import refuse

if TYPE_CHECKING:
    from tree_sitter import Node


class Variables(Calls):
    """Declarations and initial values (the methods the statement layer above builds on)."""

    @abc.abstractmethod
    def statements(self, node: Node, indent: int) -> None:
        """The statements of a block (:class:`~.stmts.Stmts`'s; a lambda's body is one)."""

    def local_declaration(self, node: Node, indent: int) -> None:
        if any(
            c.type == "storage_class_specifier" and cparse.text(c) in ("static", "thread_local") for c in node.children
        ):
            raise refuse(node, "a static local keeps its value between calls: no Python twin")
        decls = self.direct_initialized(node) or self.types.declaration(node)
        if any(d.ctype.is_smart for d in decls):
            if len(decls) != 1:
                raise refuse(node, "several smart pointers in one declaration (declare each on its own)")
            self.smart_declaration(decls[0], node, indent)
            return
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

    def smart_declaration(self, d: Declared, node: Node, indent: int) -> None:
        """``StreamPtr stream(nullptr, &aclrtDestroyStream);`` (a unique_ptr with its deleter) or
        ``std::shared_ptr<void> guard(nullptr, [&](void*) { ... });`` (a shared_ptr whose deleter, a
        function or a lambda, runs at the end of the block even for a null pointer): an object of
        aclnn_py.raii entered into the block's ExitStack, which destroys it where C++ does. A lambda
        is a nested function defined on the line before (it reads what it captures when it runs)."""
        t = d.ctype
        kind = t.kind
        if t.ref:
            raise refuse(node, "a reference variable aliases another: not translated")
        scope = self.raii.get(len(self.scopes))
        if scope is None:
            where = "a global" if not self.scopes else "a"
            raise refuse(
                node,
                f"{where} std::{kind} outside the statements of a block (only a block's own declarations are "
                "destroyed where C++ destroys them)",
            )
        sym = self.declare(d, node)
        made = self.smart_value(t, d.init, node, sym.py, indent)
        self.out.code(indent, f"{sym.py} = {scope}.enter_context({made})")

    def smart_value(self, t: CType, init: Node | None, node: Node, owner: str, indent: int | None) -> str:
        """``unique_ptr(pointer, deleter)`` / ``shared_ptr(pointer, deleter)`` for ``T p(pointer,
        deleter)`` (or ``{pointer, deleter}``); a lambda deleter (``indent`` None: refused) is written
        as a nested function first."""
        kind = t.kind
        ok = init is not None and init.type in ("argument_list", "initializer_list", "parameter_list")
        args = init_items(init) if init is not None and ok else []
        if init is None or len(args) != 2:
            raise refuse(node, f"a std::{kind} made without its pointer and deleter (only T p(pointer, deleter))")
        owned = t.of
        assert owned is not None
        ptr = self.convert(self.expr(args[0], owned), owned, args[0]).text
        if kind == "shared_ptr" and args[1].type == "lambda_expression" and indent is not None:
            deleter = self.lambda_deleter(args[1], owner, indent)
        else:
            e = self.expr(args[1])
            f = e.ctype.func if e.ctype.is_func and not e.addr and e.literal != "nullptr" else None
            if f is None:
                raise refuse(args[1], f"the deleter of a std::{kind} is not a function")
            if kind == "unique_ptr":
                want = t.params[0]
                if (f.of, f.params, f.variadic) != (want.of, want.params, want.variadic):
                    raise refuse(args[1], f"a deleter that is no {want}, the std::unique_ptr's deleter type")
            elif len(f.params) != 1 or not f.params[0].is_pointer or param_role(f.params[0]) != "value":
                raise refuse(args[1], "a std::shared_ptr deleter that does not take the pointer")
            deleter = e.text
        self.use("contextlib")
        self.use(kind)
        return f"{kind}({self.arglist([ptr, deleter], args, init)})"

    def lambda_deleter(self, lam: Node, owner: str, indent: int) -> str:
        """A shared_ptr's deleter written as a lambda capturing by reference (``[&](void*) { ... }``):
        a nested function (``def guard_deleter(_):``) whose body is the lambda's; it reads the
        variables it captures when it runs, as a reference capture does. Its name."""
        caps = cparse.field(lam, "captures")
        if caps is None or "".join(cparse.text(caps).split()) not in ("[&]", "[]"):
            raise refuse(
                lam, "a lambda capturing by copy ([=], [x]) is not translated (a nested function reads at call time)"
            )
        decl = cparse.field(lam, "declarator")
        body = _need(cparse.field(lam, "body"), lam)
        plist = cparse.field(decl, "parameters") if decl is not None else None
        if (
            decl is None
            or plist is None
            or len(cparse.named(decl)) != 1
            or any(
                c.type not in ("lambda_capture_specifier", "abstract_function_declarator", "compound_statement")
                for c in cparse.named(lam)
            )
        ):
            raise refuse(lam, "a lambda other than [&](T* p) { ... } as a std::shared_ptr's deleter")
        params = self.types.params(plist)
        if len(params) != 1 or not params[0].ctype.is_pointer or params[0].ctype.ref:
            raise refuse(lam, "a std::shared_ptr's deleter takes the pointer, and nothing else")
        name = self.fresh_name(f"{owner}_deleter")
        pname = py_name(params[0].name) if params[0].name else "_"
        head = cparse.snippet(caps) + cparse.snippet(decl)
        self.out.code(indent, f"def {name}({pname}):", f"{head}: reads what it captures when it runs")
        outer = self.current
        assert outer is not None
        self.current = replace(outer, ctype=CType("func", of=VOID))
        self.lambda_floors.append(len(self.scopes))
        self.push()
        try:
            if params[0].name:
                self.declare(params[0], lam, is_param=True)
            start = len(self.out.items)
            self.statements(body, indent + 1)
            if not any(i.kind == "code" for i in self.out.items[start:]):
                self.out.code(indent + 1, "pass")
        finally:
            self.pop()
            self.lambda_floors.pop()
            self.current = outer
        return name

    def direct_initialized(self, node: Node) -> list[Declared] | None:
        """``T v(n);`` (``std::vector<float> v(size);``) where every "parameter" is a plain name of a
        variable in scope: C++ reads it as the variable ``v`` initialized from ``n`` (a name that is no
        type cannot be a parameter type), tree-sitter as a function declarator. The declarator, its
        initializer the parameter list (:func:`init_items` reads its names as expressions); None for
        anything else (a real function declaration is refused as one)."""
        dnodes = cparse.fields(node, "declarator")
        if len(dnodes) != 1 or dnodes[0].type != "function_declarator":
            return None
        fd = dnodes[0]
        name = cparse.field(fd, "declarator")
        plist = cparse.field(fd, "parameters")
        if name is None or name.type != "identifier" or plist is None or len(cparse.named(fd)) != 2:
            return None
        params = cparse.named(plist)
        if not params or any(c.type == "variadic_parameter" or c.type == "..." for c in plist.children):
            return None  # `T v();` declares a function (C++'s most vexing parse)
        for p in params:
            tnode = cparse.field(p, "type")
            if p.type != "parameter_declaration" or len(cparse.named(p)) != 1 or tnode is None:
                return None
            if tnode.type != "type_identifier" or not self.is_variable_name(cparse.text(tnode)):
                return None
        tnode = cparse.field(node, "type")
        if tnode is None:
            return None
        base = self.types.base(tnode)
        if base.kind == "auto":
            return None
        if any(c.type == "type_qualifier" and cparse.text(c) in ("const", "constexpr") for c in node.children):
            base = replace(base, const=True)
        return [Declared(cparse.text(name), base, plist, name)]

    def is_variable_name(self, name: str) -> bool:
        """Whether ``name`` is a variable in scope and no type (C++ then reads it as an expression)."""
        t = self.types
        if name in t.typedefs or name in t.enums or name in t.opaque or name in t.structs or name in t.typevars:
            return False
        return self.lookup(name) is not None

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
        if init.type in ("initializer_list", "argument_list", "parameter_list"):
            items = init_items(init)
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
            if info.raii:
                scope = self.raii.get(len(self.scopes))
                if scope is None:
                    raise refuse(
                        node,
                        f"a {info.name} (it holds smart pointers) outside the statements of a block of a function",
                    )
                return f"{scope}.enter_context({info.py}())"
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
        if init.type in ("argument_list", "parameter_list"):
            args = init_items(init)
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


def init_items(init: Node) -> list[Node]:
    """The values of a braced or parenthesized initializer; of a parameter list read as one (see
    :meth:`Variables.direct_initialized`), the names its "parameter types" spell."""
    if init.type == "parameter_list":
        return [n for p in cparse.named(init) if (n := cparse.field(p, "type")) is not None]
    return cparse.named(init)
