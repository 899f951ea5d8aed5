"""Calls: aclnn_py's functions (their C prototypes say which pointers are out-parameters), the
program's own functions and templates, printf, casts, and std::vector's members."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import cparse
from .ctype import INT, SIZE_T, VOID, CType, numpy_type, pointer, promote
from .errors import Refused
from .exprs import Exprs, _need
from .literals import LiteralError, printf_conversions
from .pyexpr import P_ATOM, P_CMP, P_MUL, PyExpr
from .scope import FuncInfo, Key, Sym
from .values import refuse, smart_members

if TYPE_CHECKING:
    from tree_sitter import Node

# Non-const void* parameters that only read what they point to (CANN declares them non-const).
_READ_ONLY_VOID = {("aclCreateScalar", 0)}
_CASTS = {"static_cast", "const_cast", "reinterpret_cast", "dynamic_cast"}


def param_role(t: CType) -> str:
    """How a C parameter takes its argument: ``out`` (a ``T*`` the callee writes: a Ref),
    ``array`` (``const T*``: a sequence), ``vector`` (a std::vector), ``value`` (anything else)."""
    t = t.plain()
    if t.kind == "pointer":
        of = t.of
        assert of is not None
        if t.is_handle or t.is_address or t.is_string or of.kind == "func":
            return "value"
        if of.const:
            return "array"
        if of.kind in ("int", "bool", "float", "enum", "pointer"):
            return "out"
        return "unknown"
    if t.kind == "vector":
        return "vector"
    return "value"


class Calls(Exprs):
    def call(self, node: Node, discard: bool = False) -> PyExpr:
        fn = _need(cparse.field(node, "function"), node)
        args_node = _need(cparse.field(node, "arguments"), node)
        args = cparse.named(args_node)
        if fn.type == "field_expression":
            return self.method(fn, args, node, discard)
        if fn.type == "template_function":
            name = cparse.text(cparse.field(fn, "name"))
            targs_node = cparse.field(fn, "arguments")
            targs = [self.types.descriptor(a) for a in cparse.named(targs_node)] if targs_node is not None else []
            if name in _CASTS:
                if name == "dynamic_cast":
                    raise refuse(node, "dynamic_cast: the tool translates no classes")
                if len(targs) != 1 or len(args) != 1:
                    raise refuse(node, f"a {name} the tool cannot read")
                if name == "reinterpret_cast" and not targs[0].is_pointer:
                    raise refuse(node, "reinterpret_cast of a value")
                return self.cast(targs[0], args[0], node)
            if name in self.functions:
                return self.program_call(self.functions[name], targs, args, args_node, node, discard)
            raise refuse(node, f"{name}<...>: a template the tool does not know")
        if fn.type in ("primitive_type", "type_identifier", "sized_type_specifier") and len(args) == 1:
            target = self.types.base(fn)
            if target.is_arith or target.kind == "typevar":
                return self.cast(target, args[0], node)
        if fn.type == "qualified_identifier":
            scope = cparse.text(cparse.field(fn, "scope"))
            name = cparse.text(cparse.field(fn, "name"))
            if scope == "std":
                return self.std_call(name, args, args_node, node, discard)
            raise refuse(node, f"{scope}::{name} is not translated")
        if fn.type != "identifier":
            raise refuse(node, "a call through an expression the tool does not translate")
        name = cparse.text(fn)
        sym = self.lookup(name)
        if sym is not None:
            if not sym.ctype.is_func:
                raise refuse(node, f"{name} is not a function")
            callee = self.symbol_expr(sym)
            return self.c_call(callee.text, sym.ctype.func, args, args_node, node, name, discard)
        if name in self.functions:
            return self.program_call(self.functions[name], [], args, args_node, node, discard)
        m = self.macros.get(name)
        if m is not None and m.kind == "alias":
            forwarded = m.target.removeprefix("std::")
            if forwarded == "printf":
                return self.printf(name, args, args_node, node, discard)
            if forwarded in self.functions:
                return self.program_call(self.functions[forwarded], [], args, args_node, node, discard)
            api_f = self.known.function(forwarded)
            if api_f is None:
                raise refuse(node, f"the macro {name} forwards to {m.target}, which aclnn_py does not export")
            return self.c_call(name, api_f, args, args_node, node, forwarded, discard)
        if name == "printf":
            self.use("printf")
            return self.printf("printf", args, args_node, node, discard)
        api = self.known.function(name)
        if api is not None:
            return self.c_call(name, api, args, args_node, node, name, discard)
        if name in ("fprintf", "puts", "putchar", "fflush", "exit", "abort", "malloc", "free", "memcpy", "memset"):
            raise refuse(node, f"C's {name} is not translated")
        raise refuse(node, f"{name} is declared neither in this program nor by aclnn_py")

    # -- argument lists --------------------------------------------------------------------------
    def arglist(self, texts: list[str], nodes: list[Node], args_node: Node) -> str:
        """``a, b, c`` with the C++'s line breaks."""
        out = ""
        prev_row = int(args_node.start_point[0])
        for i, (text, n) in enumerate(zip(texts, nodes)):
            sep = "" if i == 0 else ","
            brk = "\n" if int(n.start_point[0]) > prev_row and i > 0 else ("" if i == 0 else " ")
            out += sep + brk + text
            prev_row = int(n.end_point[0])
        return out

    def argument(self, ptype: CType, node: Node, func: str, index: int, param_key: Key | None = None) -> str:
        role = param_role(ptype)
        if ptype.is_smart:
            e = self.expr(node)
            if e.ctype.plain() != ptype.plain() or e.addr or not ptype.ref:
                raise refuse(node, f"a {e.ctype} passed for a {ptype}")
            return e.text  # a reference: the same object
        if role == "vector":
            elem = ptype.plain().of
            # host memory in the callee (a vector<T>, or a parameter used as a buffer) must be numpy here
            buffer = (elem is not None and elem.kind == "typevar") or (param_key in self.flags.buffers)
            if node.type == "initializer_list":
                return self.container_literal(node, ptype.plain(), "numpy" if buffer else "").text
            e = self.expr(node)
            if not e.container:
                raise refuse(node, f"a {e.ctype} passed for a {ptype}")
            if buffer and isinstance(e.sym, Sym):
                self.flags.buffers.add(e.sym.key)
            return e.text
        e = self.expr(node, ptype)
        if ptype.kind == "struct":
            if e.ctype.kind != "struct" or e.ctype.name != ptype.name or e.addr:
                raise refuse(node, f"a {e.ctype} passed for a {ptype}")
            return e.text  # a reference: the same object
        if e.literal == "nullptr":
            return "None"
        if role == "out":
            if e.addr == "ref" or e.ref_param:
                return e.text
            if e.addr == "value" and isinstance(e.sym, Sym):
                self.flags.ref_vars.add(e.sym.key)
                if self.analysis:
                    return e.text
            raise refuse(node, f"the out-parameter {ptype} of {func} takes &variable, an out-parameter or nullptr")
        if param_key is not None and param_key in self.flags.addressed:
            self.addressed_argument(e, node, func)
        if role == "array":
            if e.addr == "value":
                return f"[{e.text}]"
            if e.addr == "ref":
                return f"[{e.text}.value]"
            if e.addr == "data" or e.container:
                return e.text
            of = e.ctype.of if e.ctype.kind == "pointer" else None
            if of is not None and (of.is_arith or of.is_handle) and e.literal != "raw" and not e.ref_param:
                return e.text
            raise refuse(node, f"{ptype} of {func} takes an array (vector.data(), &variable)")
        if role == "unknown":
            raise refuse(node, f"a parameter of type {ptype} is not translated")
        t = ptype.plain()
        if t.is_address or (t.kind == "pointer" and t.of is not None and t.of.kind == "void"):
            if e.addr == "data":
                if isinstance(e.sym, Sym):
                    self.flags.buffers.add(e.sym.key)
                return e.text
            if e.addr in ("value", "ref"):
                sym = e.sym
                assert isinstance(sym, Sym)
                value = e.text + (".value" if e.addr == "ref" else "")
                const = t.of is not None and t.of.const
                if not const and (func, index) not in _READ_ONLY_VOID:
                    raise refuse(node, f"a scalar's address as memory {func} may write: use a std::vector")
                return self.scalar_bytes(value, sym.ctype, func, node)
            if e.ctype.is_container:
                raise refuse(node, "a std::vector passed where C takes a pointer (use .data())")
        if e.addr:
            raise refuse(node, f"an address passed for a {ptype}")
        return self.convert(e, ptype, node).text

    def addressed_argument(self, e: PyExpr, node: Node, func: str) -> None:
        """The argument of a pointer parameter whose address the callee compares (Flags.addressed):
        it must hold an address. ``&variable`` would be a new list or array, without the
        variable's; a pointer parameter passed on is compared too; a vector becomes host memory."""
        if e.addr in ("value", "ref"):
            raise refuse(
                node, f"&variable passed for a pointer {func} compares (the port passes a copy, without its address)"
            )
        if isinstance(e.sym, Sym) and e.sym.is_param and not e.addr:
            self.flags.addressed.add(e.sym.key)
        self.pointer_into(e)

    def ref_argument(self, node: Node, func: str, param: str) -> str:
        """The argument of a reference parameter ``T&`` that ``func`` writes: C++ binds it to the
        caller's variable, so the variable is held in a Ref and the Ref is passed."""
        e = self.address_of(node, node)
        if e.addr == "ref" or e.ref_param:
            return e.text
        if e.addr == "value" and isinstance(e.sym, Sym):
            self.flags.ref_vars.add(e.sym.key)
            if self.analysis:
                return e.text
        raise refuse(node, f"the reference parameter {param} of {func}, which {func} writes, takes a variable")

    def scalar_bytes(self, value: str, ctype: CType, func: str, node: Node) -> str:
        """``&x`` for a ``void*`` that reads the bytes of x: x itself where the callee reads the
        same type (aclCreateScalar with the matching dtype), else a 0-d numpy array of x's type."""
        np_name = numpy_type(ctype)
        if np_name is None:
            raise refuse(node, f"the address of a {ctype} as raw bytes")
        if func == "aclCreateScalar":
            dtype_node = cparse.named(_need(node.parent, node))[1] if node.parent is not None else None
            if dtype_node is not None:
                try:
                    dt = self.expr(dtype_node)
                except Refused:
                    dt = None
                if dt is not None and dt.literal == "enum" and isinstance(dt.value, int):
                    import numpy as np

                    from aclnn_py import dtypes

                    want = dtypes.numpy_dtype(dtypes.to_op_dtype(dt.value))
                    have = np.dtype(getattr(np, np_name.removeprefix("np.")))
                    if want is not None and np.dtype(want) == have:
                        return value
                    if 0 <= dt.value < 2**31 and have.itemsize < dtypes.aclDataTypeSize(dt.value):
                        raise refuse(
                            node,
                            f"aclCreateScalar reads {dtypes.aclDataTypeSize(dt.value)} bytes from a "
                            f"{have.itemsize}-byte {ctype}: past the variable, undefined in C",
                        )
        self.use("np")
        return f"np.array({value}, dtype={np_name})"

    # -- calls -----------------------------------------------------------------------------------
    def c_call(
        self, callee: str, f: CType, args: list[Node], args_node: Node, node: Node, name: str, discard: bool
    ) -> PyExpr:
        if len(args) != len(f.params) and not (f.variadic and len(args) >= len(f.params)):
            raise refuse(node, f"{name} takes {len(f.params)} argument(s), the call passes {len(args)}")
        texts = [self.argument(p, a, name, i) for i, (p, a) in enumerate(zip(f.params, args))]
        texts += [self.value_of(self.expr(a), a).text for a in args[len(f.params) :]]
        ret = f.of or INT
        return PyExpr(f"{callee}({self.arglist(texts, args, args_node)})", P_ATOM, ret.plain(), ret.unsigned)

    def program_call(
        self, f: FuncInfo, targs: list[CType], args: list[Node], args_node: Node, node: Node, discard: bool
    ) -> PyExpr:
        texts: list[str] = []
        nodes: list[Node] = []
        if targs:
            if len(targs) > len(f.typevars):
                raise refuse(node, f"{f.name} has {len(f.typevars)} template parameter(s)")
            for tv, ta in zip(f.typevars, targs):
                name = numpy_type(ta)
                if name is None:
                    raise refuse(node, f"{f.name}<{ta}>: a template argument that is not a number type")
                self.flags.instantiations.setdefault((f.name, tv), set()).add(name)
                if tv not in f.deduced:
                    self.use("np")
                    texts.append(name)
                    nodes.append(args_node)
        missing = [tv for tv in f.explicit if tv not in f.typevars[: len(targs)]]
        if missing:
            raise refuse(node, f"{f.name} needs its template argument(s) {', '.join(missing)} spelled out")
        required = sum(1 for p in f.params if p.default is None)
        if not required <= len(args) <= len(f.params):
            raise refuse(node, f"{f.name} takes {len(f.params)} argument(s), the call passes {len(args)}")
        bound = dict(zip(f.typevars, targs))
        for i, (p, a) in enumerate(zip(f.params, args)):
            key = cparse.node_key(p.name_node) if p.name_node is not None else None
            if (f.name, i) in self.flags.ref_slots:
                texts.append(self.ref_argument(a, f.name, p.name))
            else:
                texts.append(self.argument(p.ctype, a, f.name, i, key))
            nodes.append(a)
            pt = p.ctype.plain()
            if pt.kind == "vector" and pt.of is not None and pt.of.kind == "typevar" and pt.of.name not in bound:
                arg_type = self.expr(a).ctype.plain()
                if arg_type.is_container and arg_type.of is not None:
                    bound[pt.of.name] = arg_type.of
        ret = f.ctype.of
        assert ret is not None
        if ret.kind == "typevar":
            if ret.name not in bound:
                raise refuse(node, f"the return type {ret.name} of {f.name} is not known at this call")
            ret = bound[ret.name]
        text = f"{f.py}({self.arglist(texts, nodes, args_node)})"
        if ret.is_container:
            return PyExpr(text, P_ATOM, ret.plain(), container=self.container_kind(ret.plain(), (-1, -1)))
        return PyExpr(text, P_ATOM, ret.plain(), ret.unsigned)

    def printf(self, callee: str, args: list[Node], args_node: Node, node: Node, discard: bool) -> PyExpr:
        self.use("printf")
        if not discard:
            raise refuse(node, "printf's return value (aclnn_py.porting's printf returns nothing)")
        if not args:
            raise refuse(node, "printf without a format")
        values = [self.value_of(self.expr(a), a) for a in args]
        fmt = values[0]
        if not fmt.ctype.is_string:
            raise refuse(node, "a printf format that is not a string")
        if fmt.literal == "string":
            try:
                kinds = printf_conversions(str(fmt.value))
            except LiteralError as e:
                raise refuse(node, str(e)) from None
            if len(kinds) != len(values) - 1:
                raise refuse(node, f"the format takes {len(kinds)} argument(s), the call passes {len(values) - 1}")
            for (kind, bits), v, a in zip(kinds, values[1:], args[1:]):
                if kind in ("int", "char") and v.ctype.is_int and promote(v.ctype).bits != bits:
                    raise refuse(
                        a,
                        f"a {promote(v.ctype).bits}-bit {v.ctype} printed with a {bits}-bit conversion "
                        "(undefined in C: cast it, or use the conversion of its size)",
                    )
                ok = (
                    (kind in ("int", "char") and v.ctype.is_int)
                    or (kind == "float" and v.ctype.is_float)
                    or (kind == "string" and (v.ctype.is_string or v.literal == "nullptr"))
                    or (kind == "pointer" and (v.ctype.is_pointer or v.ctype.is_handle))
                )
                if not ok:
                    raise refuse(a, f"a {v.ctype} printed with a %-conversion for {kind}s (undefined in C)")
        texts = [self.wrapped(v).text for v in values]
        return PyExpr(f"{callee}({self.arglist(texts, args, args_node)})", P_ATOM, INT)

    def std_call(self, name: str, args: list[Node], args_node: Node, node: Node, discard: bool) -> PyExpr:
        if name == "printf":
            self.use("printf")
            return self.printf("printf", args, args_node, node, discard)
        if name in ("nanf", "nan") and len(args) == 1:
            e = self.expr(args[0])
            if e.literal != "string" or e.value != "":
                raise refuse(node, f"std::{name} with a payload")
            self.use("np")
            from .ctype import DOUBLE, FLOAT

            if name == "nanf":
                return PyExpr(
                    'np.float32("nan")', P_ATOM, FLOAT, literal="float", value=float("nan"), written=float("nan")
                )
            return PyExpr('float("nan")', P_ATOM, DOUBLE, literal="double", value=float("nan"), written=float("nan"))
        raise refuse(
            node,
            f"std::{name} is not translated (of the C++ library, the tool knows std::vector, "
            "std::printf, std::nan/nanf and type traits)",
        )

    # -- std::vector members ---------------------------------------------------------------------
    def method(self, fn: Node, args: list[Node], node: Node, discard: bool) -> PyExpr:
        obj_node = _need(cparse.field(fn, "argument"), fn)
        op = cparse.text(cparse.field(fn, "operator"))
        member = cparse.text(cparse.field(fn, "field"))
        obj = self.expr(obj_node)
        if obj.ctype.is_smart and not obj.addr:
            return self.smart_method(obj, op, member, args, node, discard)
        if op != "." or not obj.container:
            raise refuse(node, f"the member function {member}: the tool translates std::vector's only")
        elem = obj.ctype.of
        assert elem is not None
        base = obj.paren(P_ATOM)
        sym = obj.sym if isinstance(obj.sym, Sym) else None
        if member == "size" and not args:
            return PyExpr(f"len({obj.text})", P_ATOM, SIZE_T, True)
        if member == "data" and not args:
            return obj.with_(ctype=pointer(elem), addr="data")
        if member == "empty" and not args:
            return PyExpr(f"len({obj.text}) == 0", P_CMP, CType("bool", "bool", 8, False))
        numpy = obj.container == "numpy"
        if member in ("front", "back") and not args:
            return PyExpr(f"{base}[{0 if member == 'front' else -1}]", P_ATOM, elem, npscalar=numpy)
        if member == "at" and len(args) == 1:
            idx = self.value_of(self.expr(args[0]), args[0])
            return PyExpr(f"{base}[{self.wrapped(idx).text}]", P_ATOM, elem, npscalar=numpy)
        if member in ("push_back", "emplace_back", "pop_back", "clear"):
            if obj.container != "list":
                raise refuse(node, f"{member} on a vector of numbers (a numpy array cannot grow or shrink)")
            if not discard:
                raise refuse(node, f"the value of {member}")
            if sym is not None:
                self.flags.mutated.add(sym.key)
            if member == "pop_back" and not args:
                return PyExpr(f"{base}.pop()", P_ATOM, CType("void"))
            if member == "clear" and not args:
                return PyExpr(f"{base}.clear()", P_ATOM, CType("void"))
            if member in ("push_back", "emplace_back") and len(args) == 1:
                v = self.convert(self.expr(args[0], elem), elem, args[0])
                return PyExpr(f"{base}.append({v.text})", P_ATOM, CType("void"))
        raise refuse(node, f"std::vector::{member} is not translated")

    def smart_method(self, obj: PyExpr, op: str, member: str, args: list[Node], node: Node, discard: bool) -> PyExpr:
        """``p.get()``; a unique_ptr's ``p.reset(q)``, ``p.reset()`` and ``p.release()`` (aclnn_py.raii
        does what C++ does: reset deletes the old pointer, unless null, after taking the new one)."""
        t = obj.ctype.plain()
        owned = t.of
        assert owned is not None
        base = obj.paren(P_ATOM)
        if op == "." and member == "get" and not args:
            return PyExpr(f"{base}.get()", P_ATOM, owned)
        if op == "." and t.kind == "unique_ptr" and member == "release" and not args:
            return PyExpr(f"{base}.release()", P_ATOM, owned)
        if op == "." and t.kind == "unique_ptr" and member == "reset" and len(args) <= 1:
            if not discard:
                raise refuse(node, "the value of reset()")
            value = self.convert(self.expr(args[0], owned), owned, args[0]).text if args else ""
            return PyExpr(f"{base}.reset({value})", P_ATOM, VOID)
        raise refuse(node, f"std::{t.kind}'s {op}{member} is not translated (only {smart_members(t)})")

    # -- sizes and containers ----------------------------------------------------------------------
    def sizeof_type(self, t: CType, node: Node) -> PyExpr:
        t = t.plain()
        if t.kind == "typevar":
            f = self.current
            if f is not None and t.name in f.deduced:
                return PyExpr(f"{f.deduced[t.name]}.itemsize", P_ATOM, SIZE_T, True)
            self.use("np")
            return PyExpr(f"np.dtype({t.name}).itemsize", P_ATOM, SIZE_T, True)
        if t.kind == "enum":
            return PyExpr("4", P_ATOM, SIZE_T, True, literal="int", value=4)
        if t.is_pointer:
            return PyExpr("8", P_ATOM, SIZE_T, True, literal="int", value=8)
        name = numpy_type(t)
        if name is None:
            raise refuse(node, f"sizeof({t})")
        self.use("np")
        return PyExpr(f"np.dtype({name}).itemsize", P_ATOM, SIZE_T, True)

    def container_literal(self, node: Node, t: CType, kind: str, length: int | None = None) -> PyExpr:
        """``{a, b, c}`` as a numpy array or a list (C pads a short array with zeros)."""
        elem = t.of
        assert elem is not None
        kind = kind or self.container_kind(t, (-1, -1))
        items = cparse.named(node)
        texts: list[str] = []
        for item in items:
            if item.type == "initializer_list":
                raise refuse(item, "a nested braced list (arrays of arrays are not translated)")
            e = self.expr(item, elem)
            texts.append(self.element(e, elem, item) if kind == "numpy" else self.convert(e, elem, item).text)
        if length is not None:
            if len(texts) > length:
                raise refuse(node, "more initializers than the array holds")
            pad = length - len(texts)
            if pad:
                texts += ["None" if elem.is_pointer else "0"] * pad
                items = items + [items[-1] if items else node] * pad
        body = "[" + self.arglist(texts, items, node) + "]" if items else "[]"
        if kind == "numpy":
            self.use("np")
            dt = numpy_type(elem)
            return PyExpr(f"np.array({body}, dtype={dt})", P_ATOM, t, container="numpy")
        return PyExpr(body, P_ATOM, t, container="list")

    def container_sized(self, t: CType, kind: str, count: PyExpr, fill: PyExpr | None, node: Node) -> PyExpr:
        """``std::vector<T> v(n)`` / ``v(n, value)``."""
        elem = t.of
        assert elem is not None
        n = self.wrapped(self.value_of(count, node)).text
        if kind == "numpy":
            self.use("np")
            dt = numpy_type(elem)
            zero = fill is None or (fill.literal in ("int", "double", "float", "bool", "char") and not fill.value)
            if zero:
                return PyExpr(f"np.zeros({n}, dtype={dt})", P_ATOM, t, container="numpy")
            assert fill is not None
            return PyExpr(f"np.full({n}, {self.element(fill, elem, node)}, dtype={dt})", P_ATOM, t, container="numpy")
        v = ("None" if elem.is_pointer else "0") if fill is None else self.convert(fill, elem, node).text
        count = self.wrapped(self.value_of(count, node))
        return PyExpr(f"[{v}] * {count.paren(P_MUL + 1)}", P_MUL, t, container="list")
