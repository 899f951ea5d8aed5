"""Expressions: C++ operators, names, subscripts, ``sizeof`` and casts, as Python with C's values.

Every expression is translated from its C type (see :mod:`.ctype`): ``float`` arithmetic stays in
``np.float32``, a ``double`` operand turns a ``float`` one into a Python float first, integer
division is ``//`` only where C's truncation and Python's floor agree, an unsigned difference is
taken modulo 2**N where C would see it wrap, and ``&&``/``||``/``!`` on pointers test for None.
Anything whose Python reading could differ from C's is refused. The literals and C's implicit
conversions the operators build on are the layer below, :mod:`.values`.
"""

from __future__ import annotations

import abc
import math
from typing import TYPE_CHECKING

from . import cparse
from .ctype import (
    BOOL,
    CHAR,
    DOUBLE,
    FLOAT,
    INT,
    NULLPTR,
    SIZE_T,
    STRING,
    CType,
    arithmetic,
    numpy_type,
    pointer,
    promote,
)
from .errors import Refused
from .pyexpr import (
    P_ADD,
    P_AND,
    P_ATOM,
    P_BAND,
    P_BOR,
    P_BXOR,
    P_CMP,
    P_MUL,
    P_NOT,
    P_OR,
    P_SHIFT,
    P_TERNARY,
    P_UNARY,
    PyExpr,
)
from .scope import Sym, py_name
from .values import Values, negated_literal, refuse, smart_use

if TYPE_CHECKING:
    from tree_sitter import Node

_BINARY = {
    "+": P_ADD,
    "-": P_ADD,
    "*": P_MUL,
    "/": P_MUL,
    "%": P_MUL,
    "<<": P_SHIFT,
    ">>": P_SHIFT,
    "&": P_BAND,
    "^": P_BXOR,
    "|": P_BOR,
}
_COMPARE = {"==", "!=", "<", ">", "<=", ">="}
_C_CONSTANTS = {"EXIT_SUCCESS": 0, "EXIT_FAILURE": 1}
_TRAITS = {"is_integral", "is_floating_point", "is_signed", "is_unsigned", "is_same"}


# The port's own function that compares pointers as C++ does, by the addresses they hold (written
# into a program that compares pointers into memory): (indent, code, comment) lines, ``{name}`` its
# name. A host pointer is a numpy array that ends where its vector ends (``&v[i]`` is ``v[i:]``): its
# address is the vector's end less its own size, also for a view one past the end (an empty view,
# whose own data address numpy does not keep).
ADDRESS = (
    (0, "def {name}(p):", "the address a C++ pointer holds: C++ compares pointers by their addresses"),
    (1, "if p is None:", "nullptr"),
    (2, "return 0", ""),
    (1, "if not isinstance(p, np.ndarray):", "device or pinned memory: an int"),
    (2, "return int(p)", ""),
    (1, "whole = p if p.base is None else p.base", "host memory: &v[i] is v[i:], which ends where v ends"),
    (1, "return whole.ctypes.data + whole.nbytes - p.nbytes", ""),
)


class Cascade(Refused):
    """A name whose declaration was refused: the line using it is not a refusal of its own."""


class Exprs(Values, abc.ABC):
    """Expression translation. The three abstract methods belong to the next layer up
    (:class:`~.calls.Calls`), which expressions reach for calls, ``sizeof`` and braced lists."""

    @abc.abstractmethod
    def call(self, node: Node, discard: bool = False) -> PyExpr:
        """A function call (``discard``: its value is not used)."""

    @abc.abstractmethod
    def sizeof_type(self, t: CType, node: Node) -> PyExpr:
        """``sizeof`` of a type."""

    @abc.abstractmethod
    def container_literal(self, node: Node, t: CType, kind: str, length: int | None = None) -> PyExpr:
        """A braced initializer list for a container of type ``t``."""

    # -- dispatch --------------------------------------------------------------------------------
    def expr(self, node: Node, expect: CType | None = None) -> PyExpr:
        t = node.type
        if t == "identifier" or (t == "type_identifier" and _direct_init_name(node)):
            return self.identifier(node)
        if t == "number_literal":
            return self.number(node)
        if t in ("string_literal", "concatenated_string", "raw_string_literal"):
            return self.string(node)
        if t == "char_literal":
            return self.char(node)
        if t in ("true", "false"):
            return PyExpr("True" if t == "true" else "False", P_ATOM, BOOL, True, literal="bool", value=t == "true")
        if t == "null":
            return PyExpr("None", P_ATOM, NULLPTR, literal="nullptr")
        if t == "parenthesized_expression":
            kids = cparse.named(node)
            if len(kids) != 1 or kids[0].type == "comma_expression":
                raise refuse(node, "the comma operator has no Python twin")
            inner = self.expr(kids[0], expect)
            if inner.addr or inner.ref_param:
                return inner
            return inner.with_(text=f"({inner.text})", prec=P_ATOM)
        if t == "unary_expression":
            return self.unary(node)
        if t == "binary_expression":
            return self.binary(node)
        if t == "conditional_expression":
            return self.ternary(node)
        if t == "call_expression":
            return self.call(node)
        if t == "pointer_expression":
            return self.pointer_expr(node)
        if t == "subscript_expression":
            return self.subscript(node)
        if t == "qualified_identifier":
            return self.qualified(node)
        if t == "sizeof_expression":
            return self.sizeof(node)
        if t == "cast_expression":
            target = self.types.descriptor(_need(cparse.field(node, "type"), node))
            return self.cast(target, _need(cparse.field(node, "value"), node), node)
        if t == "assignment_expression":
            return self.walrus(node)
        if t == "initializer_list":
            if expect is not None and expect.is_container:
                return self.container_literal(node, expect, "")
            raise refuse(node, "a braced list where the tool cannot tell the type it initializes")
        if t == "field_expression":
            base, m = self.member(node)
            if m.ref:
                return PyExpr(f"{base}.{m.py}.value", P_ATOM, m.ctype, sym=m, npscalar=m.npscalar)
            return PyExpr(f"{base}.{m.py}", P_ATOM, m.ctype, nonneg=m.ctype.unsigned, sym=m, container=m.container)
        if t == "update_expression":
            raise refuse(node, "++/-- whose value is used (only as a statement or a for-loop step)")
        if t in ("new_expression", "delete_expression"):
            raise refuse(node, "new/delete: Python manages memory itself; rewrite with std::vector")
        if t == "lambda_expression":
            raise refuse(node, "a lambda is not translated")
        if t == "this":
            raise refuse(node, "this: the tool translates no classes")
        if t == "comma_expression":
            raise refuse(node, "the comma operator has no Python twin")
        raise refuse(node, f"a C++ expression the tool does not translate ({t})")

    # -- names -----------------------------------------------------------------------------------
    def symbol_expr(self, sym: Sym) -> PyExpr:
        if sym.ref:
            return PyExpr(f"{sym.py}.value", P_ATOM, sym.ctype, sym=sym, container=sym.container, npscalar=sym.npscalar)
        if sym.ref_param:
            return PyExpr(sym.py, P_ATOM, sym.ctype, ref_param=True, sym=sym)
        return PyExpr(
            sym.py,
            P_ATOM,
            sym.ctype,
            nonneg=sym.ctype.unsigned,
            sym=sym,
            container=sym.container,
            npscalar=sym.npscalar,
        )

    def check_capture(self, sym: Sym, node: Node) -> None:
        """Inside a lambda, assigning a variable it captures is refused (a Python nested function
        would make a local of its own): only a variable held in a Ref is written through."""
        if not self.lambda_floors or sym.ref:
            return
        if not any(scope.get(sym.name) is sym for scope in self.scopes[self.lambda_floors[-1] :]):
            raise refuse(node, f"a lambda assigning {sym.name}, which it captures (Python's nested function would not)")

    def member(self, node: Node) -> tuple[str, Sym]:
        """``object.member`` of a struct of the program: the object's Python text and the member."""
        op = cparse.text(cparse.field(node, "operator"))
        name = cparse.text(cparse.field(node, "field"))
        if op != ".":
            raise refuse(node, f"{op}: a pointer to a struct is not translated (only struct variables)")
        obj = self.expr(_need(cparse.field(node, "argument"), node))
        info = self.structs.get(obj.ctype.name) if obj.ctype.kind == "struct" and not obj.addr else None
        if info is None:
            raise refuse(node, "a member of something that is not a struct of the program")
        m = info.members.get(name)
        if m is None:
            raise refuse(node, f"{info.name} has no member {name}")
        return obj.paren(P_ATOM), m

    def identifier(self, node: Node) -> PyExpr:
        name = cparse.text(node)
        sym = self.lookup(name)
        if sym is not None:
            if sym.ctype.kind == "unknown":
                raise Cascade(cparse.line(node), name, "declared by a refused line")
            return self.symbol_expr(sym)
        if name in self.functions:
            fi = self.functions[name]
            if any(f == name for f, _ in self.flags.ref_slots):
                # a call through a pointer could not pass the caller's Ref for it
                raise refuse(node, f"{name}, which writes a reference parameter, used as a value")
            return PyExpr(fi.py, P_ATOM, fi.ctype, sym=fi)
        m = self.macros.get(name)
        if m is not None and m.kind == "constant":
            return self.macro_constant(m.name, m.body, node)
        if m is not None and m.kind == "alias":
            target = m.target.removeprefix("std::")
            if target == "printf":
                return PyExpr(name, P_ATOM, CType("func", of=INT, variadic=True, params=(STRING,)))
            api = self.known.function(target)
            if api is None:
                raise refuse(node, f"the macro {name} forwards to {m.target}, which aclnn_py does not export")
            return PyExpr(name, P_ATOM, api)
        if name in self.known.constants and name in self.known.exports:
            import aclnn_py

            value = int(getattr(aclnn_py, name))
            return PyExpr(name, P_ATOM, self.known.constants[name], value >= 0, literal="enum", value=value)
        known_f = self.known.function(name)
        if known_f is not None:
            return PyExpr(name, P_ATOM, known_f)
        if name == "printf":
            self.use("printf")
            return PyExpr("printf", P_ATOM, CType("func", of=INT, variadic=True, params=(STRING,)))
        if name in ("NAN", "INFINITY"):
            v = math.nan if name == "NAN" else math.inf
            return PyExpr(
                f'np.float32("{"nan" if name == "NAN" else "inf"}")', P_ATOM, FLOAT, literal="float", value=v, written=v
            )
        if name in _C_CONSTANTS:
            return PyExpr(str(_C_CONSTANTS[name]), P_ATOM, INT, True, literal="int", value=_C_CONSTANTS[name])
        if name in ("stdout", "stderr", "stdin", "errno"):
            raise refuse(node, f"C's {name} is not translated")
        raise refuse(node, f"{name} is declared neither in this program nor by aclnn_py")

    def macro_constant(self, name: str, body: str, node: Node) -> PyExpr:
        root = cparse.parse(f"auto __v = {body};").root_node
        decl = cparse.named(root)[0]
        init = cparse.field(cparse.fields(decl, "declarator")[0], "value")
        assert init is not None
        e = self.expr(init)
        # the constant's name is an int where the literal was one; a float or a string is just a value
        literal = e.literal if e.literal in ("int", "char", "bool", "enum") else ""
        return e.with_(text=py_name(name), prec=P_ATOM, literal=literal)

    def qualified(self, node: Node) -> PyExpr:
        scope = cparse.field(node, "scope")
        name = cparse.field(node, "name")
        scope_text = cparse.text(scope)
        if scope is not None and name is not None and scope_text in self.known.enum_members:
            member = cparse.text(name)
            if member not in self.known.enum_members[scope_text]:
                raise refuse(node, f"{scope_text} has no member {member} in aclnn_py")
            import aclnn_py

            value = int(getattr(aclnn_py, member))
            return PyExpr(
                f"{scope_text}.{member}",
                P_ATOM,
                CType("enum", scope_text, 32, True),
                value >= 0,
                literal="enum",
                value=value,
            )
        if scope_text == "std" and name is not None and name.type == "qualified_identifier":
            trait = cparse.field(name, "scope")
            member = cparse.text(cparse.field(name, "name"))
            if trait is not None and trait.type == "template_type" and member == "value":
                return self.type_trait(trait, node)
        if scope_text == "std" and name is not None and name.type == "identifier":
            ident = cparse.text(name)
            if ident == "printf":
                self.use("printf")
                return PyExpr("printf", P_ATOM, CType("func", of=INT, variadic=True, params=(STRING,)))
        if scope_text == "std":
            raise refuse(
                node,
                f"{cparse.text(node)} is not translated (of the C++ library, the tool knows std::vector, "
                "std::printf, std::nan/nanf and type traits)",
            )
        raise refuse(node, "a qualified name the tool does not translate")

    def type_trait(self, trait: Node, node: Node) -> PyExpr:
        tname = cparse.text(cparse.field(trait, "name"))
        args_node = cparse.field(trait, "arguments")
        args = [self.types.descriptor(a) for a in cparse.named(args_node)] if args_node is not None else []
        if tname not in _TRAITS or not args:
            raise refuse(node, f"std::{tname} is not translated")
        self.use("np")
        names = [numpy_type(a) for a in args]
        if any(n is None for n in names):
            raise refuse(node, f"std::{tname} of a type that is not a number")
        t = names[0]
        if tname == "is_same":
            if len(names) != 2:
                raise refuse(node, "std::is_same takes two types")
            return PyExpr(f"{t} is {names[1]}", P_CMP, BOOL)
        if tname == "is_integral":
            text = f"np.issubdtype({t}, np.integer)"
            if args[0].kind == "bool" or (args[0].kind == "typevar" and self.may_be_bool(args[0].name)):
                return PyExpr(f"{text} or {t} is np.bool_", P_OR, BOOL)
            return PyExpr(text, P_ATOM, BOOL)
        if tname == "is_floating_point":
            return PyExpr(f"np.issubdtype({t}, np.floating)", P_ATOM, BOOL)
        if tname == "is_signed":
            return PyExpr(f"np.issubdtype({t}, np.signedinteger) or np.issubdtype({t}, np.floating)", P_OR, BOOL)
        return PyExpr(f"np.issubdtype({t}, np.unsignedinteger) or {t} is np.bool_", P_OR, BOOL)

    def may_be_bool(self, typevar: str) -> bool:
        """Whether a call instantiates the current template with bool (is_integral<bool> is true in
        C++, np.bool_ is no np.integer)."""
        if self.current is None:
            return True
        seen = self.flags.instantiations.get((self.current.name, typevar))
        return seen is None or "np.bool_" in seen

    # -- truth -----------------------------------------------------------------------------------
    def truth(self, node: Node) -> PyExpr:
        """``node`` in a condition: C's test against zero / nullptr."""
        e = self.expr(node)
        return self.truth_of(e, node)

    # -- operators -------------------------------------------------------------------------------
    def unary(self, node: Node) -> PyExpr:
        op = cparse.text(cparse.field(node, "operator"))
        arg_node = _need(cparse.field(node, "argument"), node)
        if op == "!":
            e = self.expr(arg_node)
            if e.ctype.is_pointer and not e.addr and not e.ref_param:
                if e.literal == "nullptr":
                    return PyExpr("True", P_ATOM, BOOL, literal="bool", value=True)
                return PyExpr(f"{e.paren(P_CMP + 1)} is None", P_CMP, BOOL)
            if e.ref_param:
                return PyExpr(f"{e.text} is None", P_CMP, BOOL)
            tested = self.truth_of(e, arg_node)
            return PyExpr(f"not {tested.paren(P_NOT)}", P_NOT, BOOL)
        e = self.value_of(self.expr(arg_node), arg_node)
        if not e.ctype.is_arith:
            raise refuse(node, f"{op} on a {e.ctype}")
        if op in ("-", "+"):
            t = promote(e.ctype) if e.ctype.kind != "float" else e.ctype.plain()
            if t.kind == "float" and t.bits == 16:
                raise refuse(node, "_Float16 arithmetic: GCC's excess precision has no numpy twin")
            if op == "+":
                return e.with_(ctype=t)
            if e.literal in ("int", "double") and isinstance(e.value, (int, float)) and e.prec == P_ATOM:
                return negated_literal(e)
            if e.literal == "float" and isinstance(e.value, float) and e.text.startswith("np.float32("):
                return negated_literal(e)
            e = self.operand(e, t)
            return PyExpr(f"-{e.paren(P_UNARY)}", P_UNARY, t, wraps=t.unsigned, npscalar=e.npscalar)
        if op == "~":
            if not e.ctype.is_int:
                raise refuse(node, "~ on a floating value")
            t = promote(e.ctype)
            e = self.operand(e, t)
            return PyExpr(f"~{e.paren(P_UNARY)}", P_UNARY, t, wraps=t.unsigned, npscalar=e.npscalar)
        raise refuse(node, f"the unary operator {op}")

    def binary(self, node: Node) -> PyExpr:
        op_node = _need(cparse.field(node, "operator"), node)
        op = cparse.text(op_node)
        lnode = _need(cparse.field(node, "left"), node)
        rnode = _need(cparse.field(node, "right"), node)
        if op in ("&&", "||"):
            left = self.truth(lnode)
            right = self.truth(rnode)
            prec = P_AND if op == "&&" else P_OR
            word = "and" if op == "&&" else "or"
            return PyExpr(self.join(left.paren(prec), word, right.paren(prec + 1), lnode, op_node, rnode), prec, BOOL)
        left = self.expr(lnode)
        right = self.expr(rnode)
        if op in _COMPARE:
            return self.compare(op, left, right, node, lnode, op_node, rnode)
        if op not in _BINARY:
            raise refuse(node, f"the operator {op}")
        if left.addr == "data" or (left.ctype.is_pointer and not left.ref_param and left.literal != "nullptr"):
            return self.pointer_arith(op, left, right, node)
        left = self.value_of(left, lnode)
        right = self.value_of(right, rnode)
        if not (left.ctype.is_arith and right.ctype.is_arith):
            raise refuse(node, f"{op} between a {left.ctype} and a {right.ctype}")
        t = arithmetic(left.ctype, right.ctype)
        prec = _BINARY[op]
        if t.is_float:
            if t.bits == 16:
                raise refuse(node, "_Float16 arithmetic: GCC's excess precision has no numpy twin")
            if op not in "+-*/":
                raise refuse(node, f"{op} on floating values")
            lt, rt = self.operand(left, t), self.operand(right, t)
            text = self.join(lt.paren(prec), op, rt.paren(prec + 1), lnode, op_node, rnode)
            return PyExpr(text, prec, t)
        lt, rt = self.operand(left, t), self.operand(right, t)
        py_op = op
        if op in ("/", "%"):
            if t.unsigned:
                lt, rt = self.wrapped(lt, t.bits), self.wrapped(rt, t.bits)
            elif not (lt.nonneg and rt.nonneg):
                if not (_pure(lnode) and _pure(rnode)):
                    raise refuse(
                        node,
                        f"signed integer {op} of operands with side effects: C truncates toward zero, Python "
                        "floors, and the exact form reads each operand twice",
                    )
                if lt.literal == "int" and rt.literal == "int" and rt.value:
                    x, y = int(lt.value), int(rt.value)  # type: ignore[call-overload]
                    q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
                    v = q if op == "/" else x - y * q
                    return PyExpr(str(v), P_ATOM if v >= 0 else P_UNARY, t, v >= 0, literal="int", value=v)
                # C truncates toward zero: floor where the signs agree, else round the magnitude down
                a, b = lt.paren(P_UNARY), rt.paren(P_UNARY)
                neg = f"-({a})" if a.startswith("-") else f"-{a}"
                py = "//" if op == "/" else "%"
                text = f"{a} {py} {b} if ({a} < 0) == ({b} < 0) else -({neg} {py} {b})"
                return PyExpr(text, P_TERNARY, t, npscalar=lt.npscalar or rt.npscalar)
            py_op = "//" if op == "/" else "%"
        if op in ("&", "|", "^", ">>") and t.unsigned:
            lt, rt = self.wrapped(lt, t.bits), self.wrapped(rt, t.bits)
        text = self.join(lt.paren(prec), py_op, rt.paren(prec + 1), lnode, op_node, rnode)
        nonneg = lt.nonneg and rt.nonneg and op != "-"
        wraps = (
            t.unsigned
            and (op in ("-", "<<") or lt.wraps or rt.wraps)
            and not (
                op == "-" and lt.literal == "int" and rt.literal == "int" and int(lt.value or 0) >= int(rt.value or 0)  # type: ignore[call-overload]
            )
        )
        if op == "-" and not t.unsigned and lt.literal == "int" and rt.literal == "int":
            nonneg = int(lt.value or 0) >= int(rt.value or 0)  # type: ignore[call-overload]
        return PyExpr(text, prec, t, nonneg or (t.unsigned and not wraps), wraps, npscalar=lt.npscalar or rt.npscalar)

    def join(self, left: str, op: str, right: str, lnode: Node, op_node: Node, rnode: Node) -> str:
        """``left op right``, breaking the line where the C++ did."""
        if rnode.start_point[0] > lnode.end_point[0]:
            if op_node.start_point[0] == lnode.end_point[0]:
                return f"{left} {op}\n{right}"
            return f"{left}\n{op} {right}"
        return f"{left} {op} {right}"

    def operand(self, e: PyExpr, t: CType) -> PyExpr:
        """An operand converted to the type C computes in."""
        s = e.ctype.plain()
        if t.kind == "float" and t.bits == 32:
            if s.kind == "float" and s.bits == 32:
                return e
            if e.literal in ("int", "char", "bool"):
                return e  # an int literal: numpy converts it to float32 as C does
            return self.to_float(e, FLOAT)
        if t.kind == "float" and t.bits == 64:
            return self.to_float(e, DOUBLE)
        if s.kind == "bool":
            return PyExpr(f"int({e.text})", P_ATOM, INT, True)
        if e.npscalar and s.kind == "int" and (s.bits, s.signed) != (t.bits, t.signed):
            return PyExpr(f"int({e.text})", P_ATOM, s, e.nonneg)  # C computes it in t, not in numpy's s
        return e

    def compare(
        self, op: str, left: PyExpr, right: PyExpr, node: Node, lnode: Node, op_node: Node, rnode: Node
    ) -> PyExpr:
        for e in (left, right):
            if e.ctype.is_smart:
                raise refuse(node, smart_use(e.ctype))
        lp = left.ctype.is_pointer or left.ref_param or left.ctype.is_func
        rp = right.ctype.is_pointer or right.ref_param or right.ctype.is_func
        if lp or rp:
            return self.pointer_compare(op, left, right, node, lnode, op_node, rnode)
        left = self.value_of(left, lnode)
        right = self.value_of(right, rnode)
        if left.ctype.is_arith and right.ctype.is_arith:
            t = arithmetic(left.ctype, right.ctype)
            lt, rt = self.operand(left, t), self.operand(right, t)
            if t.unsigned:
                lt, rt = self.wrapped(lt, t.bits), self.wrapped(rt, t.bits)
            text = self.join(lt.paren(P_CMP + 1), op, rt.paren(P_CMP + 1), lnode, op_node, rnode)
            return PyExpr(text, P_CMP, BOOL)
        raise refuse(node, f"{op} between a {left.ctype} and a {right.ctype}")

    def pointer_compare(
        self, op: str, left: PyExpr, right: PyExpr, node: Node, lnode: Node, op_node: Node, rnode: Node
    ) -> PyExpr:
        """C++ compares the addresses pointers hold. Against nullptr, or between handles (objects),
        it is identity: ``is``. Between pointers into memory (host memory is a numpy array, which
        ``==`` would compare element by element): the addresses, ``address(p) == address(q)``
        (:data:`ADDRESS`), for the six operators."""
        operands = ((left, lnode), (right, rnode))
        for e, n in operands:
            if e.addr in ("value", "ref"):
                raise refuse(n, "the address of a variable compared (a Python value has no address)")
        if "nullptr" in (left.literal, right.literal):
            if op not in ("==", "!="):
                raise refuse(node, "a pointer ordered against nullptr (C++ refuses to compile it)")
            for e, n in operands:
                if e.addr == "data":
                    raise refuse(
                        n,
                        "a vector's address compared with nullptr (C++'s data() of an empty vector may be null, "
                        "the port's array never is)",
                    )
        if "nullptr" in (left.literal, right.literal) or any(e.ctype.is_handle or e.ref_param for e in (left, right)):
            if op not in ("==", "!="):
                raise refuse(node, "ordering handles has no Python twin (they are objects, not addresses)")
            word = "is" if op == "==" else "is not"
            text = self.join(left.paren(P_CMP + 1), word, right.paren(P_CMP + 1), lnode, op_node, rnode)
            return PyExpr(text, P_CMP, BOOL)
        if left.ctype.is_func or right.ctype.is_func:
            if op not in ("==", "!="):
                raise refuse(node, "ordering function pointers has no Python twin")
            text = self.join(left.paren(P_CMP + 1), op, right.paren(P_CMP + 1), lnode, op_node, rnode)
            return PyExpr(text, P_CMP, BOOL)
        for e, n in operands:
            if e.ctype.is_string and e.addr != "data":
                raise refuse(node, "comparing char pointers compares addresses in C (a Python string has none)")
            if e.addr == "data":
                self.pointer_into(e)
                if e.container != "numpy" and not self.analysis:
                    # a vector the analysis cannot make host memory: a list (of handles, or unnamed)
                    raise refuse(
                        n, "a pointer into a std::vector the port keeps as a Python list (it has no addresses)"
                    )
            if isinstance(e.sym, Sym) and e.sym.is_param and not e.addr:
                self.flags.addressed.add(e.sym.key)
        lt, rt = self.address(left), self.address(right)
        return PyExpr(self.join(lt, op, rt, lnode, op_node, rnode), P_CMP, BOOL)

    def address(self, e: PyExpr) -> str:
        """``address(p)``: the address the pointer ``p`` holds, as an int (:data:`ADDRESS`)."""
        self.use("np")
        self.use("address")
        return f"{self.fresh_name('address')}({e.text})"

    def pointer_arith(self, op: str, left: PyExpr, right: PyExpr, node: Node) -> PyExpr:
        right = self.value_of(right, node)
        if op not in ("+", "-") or not right.ctype.is_int:
            raise refuse(node, f"pointer arithmetic with {op}")
        if left.addr == "data" and left.container:
            if op == "-":
                raise refuse(node, "a pointer before a vector's data")
            return PyExpr(
                f"{left.paren(P_ATOM)}[{right.text}:]",
                P_ATOM,
                left.ctype,
                addr="data",
                sym=left.sym,
                container=left.container,
            )
        of = left.ctype.of
        if left.ctype.is_address or (of is not None and of.kind == "int" and of.bits == 8 and left.literal == "raw"):
            return PyExpr(f"{left.paren(P_ADD)} {op} {right.paren(P_ADD + 1)}", P_ADD, left.ctype, literal="raw")
        raise refuse(node, "pointer arithmetic on host memory has no Python twin (index a std::vector instead)")

    def ternary(self, node: Node) -> PyExpr:
        c = self.truth(_need(cparse.field(node, "condition"), node))
        a = self.value_of(self.expr(_need(cparse.field(node, "consequence"), node)), node)
        b = self.value_of(self.expr(_need(cparse.field(node, "alternative"), node)), node)
        if a.ctype.is_arith and b.ctype.is_arith:
            t = arithmetic(a.ctype, b.ctype)
            if a.ctype.kind == "bool" and b.ctype.kind == "bool":
                t = BOOL
            a, b = self.convert(a, t, node), self.convert(b, t, node)
        elif a.ctype.is_string and b.ctype.is_string:
            t = STRING
        elif a.ctype.is_pointer or b.ctype.is_pointer:
            t = a.ctype if a.literal != "nullptr" else b.ctype
        else:
            raise refuse(node, f"?: between a {a.ctype} and a {b.ctype}")
        text = f"{a.paren(P_TERNARY + 1)} if {c.paren(P_TERNARY + 1)} else {b.paren(P_TERNARY)}"
        return PyExpr(text, P_TERNARY, t, a.nonneg and b.nonneg, a.wraps or b.wraps)

    def walrus(self, node: Node) -> PyExpr:
        op = cparse.text(cparse.field(node, "operator"))
        left = _need(cparse.field(node, "left"), node)
        if op != "=" or left.type != "identifier":
            raise refuse(node, "an assignment used as a value (only `(name = value)` is translated, as :=)")
        sym = self.lookup(cparse.text(left))
        if sym is None or sym.ref or sym.ref_param or sym.is_global or sym.ctype.is_container or sym.ctype.is_smart:
            raise refuse(node, "an assignment used as a value, to something := cannot assign")
        self.check_capture(sym, node)
        value = self.convert(self.expr(_need(cparse.field(node, "right"), node), sym.ctype), sym.ctype, node)
        return PyExpr(f"({sym.py} := {value.text})", P_ATOM, sym.ctype, value.nonneg)

    # -- pointers and subscripts -----------------------------------------------------------------
    def pointer_expr(self, node: Node) -> PyExpr:
        op = cparse.text(cparse.field(node, "operator"))
        arg = _need(cparse.field(node, "argument"), node)
        if op == "&":
            return self.address_of(arg, node)
        e = self.expr(arg)
        if e.ref_param:
            of = e.ctype.of
            assert of is not None
            return PyExpr(f"{e.text}.value", P_ATOM, of, container="")
        if e.addr == "data" and e.container:
            return PyExpr(f"{e.paren(P_ATOM)}[0]", P_ATOM, e.ctype.of or CHAR, npscalar=e.container == "numpy")
        if e.ctype.kind == "pointer" and e.ctype.of is not None and e.ctype.of.is_arith and e.literal != "raw":
            return PyExpr(f"{e.paren(P_ATOM)}[0]", P_ATOM, e.ctype.of)
        raise refuse(node, "reading or writing memory through a raw pointer has no Python twin")

    def address_of(self, arg: Node, node: Node) -> PyExpr:
        if arg.type == "identifier":
            name = cparse.text(arg)
            sym = self.lookup(name)
            if sym is None:
                if name in self.functions or self.known.function(name) is not None:
                    return self.expr(arg)
                raise refuse(node, f"the address of {name}")
            if sym.ctype.is_container:
                raise refuse(node, "the address of a whole vector or array")
            if sym.ctype.kind == "struct":
                raise refuse(node, "the address of a struct: pointers to structs are not translated")
            if sym.ctype.is_smart:
                raise refuse(node, f"the address of a std::{sym.ctype.kind}")
            if sym.ref_param:
                raise refuse(node, "the address of a pointer parameter")
            if sym.ref:
                return PyExpr(sym.py, P_ATOM, pointer(sym.ctype), addr="ref", sym=sym)
            return PyExpr(sym.py, P_ATOM, pointer(sym.ctype), addr="value", sym=sym)
        if arg.type == "subscript_expression":
            base = self.expr(_need(cparse.field(arg, "argument"), arg))
            if base.container:
                index = self.subscript_index(arg)
                elem = base.ctype.of or CHAR
                if index.literal == "int" and index.value == 0:
                    return base.with_(ctype=pointer(elem), addr="data")
                return PyExpr(
                    f"{base.paren(P_ATOM)}[{index.text}:]",
                    P_ATOM,
                    pointer(elem),
                    addr="data",
                    sym=base.sym,
                    container=base.container,
                )
        if arg.type == "parenthesized_expression":
            kids = cparse.named(arg)
            if len(kids) == 1:
                return self.address_of(kids[0], node)
        if arg.type == "field_expression":
            obj, m = self.member(arg)
            if m.ctype.is_container:
                raise refuse(node, "the address of a whole vector or array")
            addr = "ref" if m.ref else "value"
            return PyExpr(f"{obj}.{m.py}", P_ATOM, pointer(m.ctype), addr=addr, sym=m)
        if arg.type == "pointer_expression" and cparse.text(cparse.field(arg, "operator")) == "*":
            # &*p is p itself (C11 6.5.3.2: neither operator is evaluated)
            return self.expr(_need(cparse.field(arg, "argument"), arg))
        raise refuse(node, "this address has no Python twin (only &variable and &vector[i])")

    def subscript_index(self, node: Node) -> PyExpr:
        idx = cparse.field(node, "indices") or cparse.field(node, "index")
        if idx is not None and idx.type == "subscript_argument_list":
            kids = cparse.named(idx)
            if len(kids) != 1:
                raise refuse(node, "a subscript with several indices")
            idx = kids[0]
        if idx is None:
            raise refuse(node, "a subscript the tool cannot read")
        e = self.value_of(self.expr(idx), idx)
        if not e.ctype.is_int:
            raise refuse(node, "a subscript that is not an integer")
        return self.wrapped(e)

    def subscript(self, node: Node) -> PyExpr:
        base_node = _need(cparse.field(node, "argument"), node)
        base = self.expr(base_node)
        index = self.subscript_index(node)
        if base.container:
            elem = base.ctype.of
            assert elem is not None
            return PyExpr(
                f"{base.paren(P_ATOM)}[{index.text}]",
                P_ATOM,
                elem,
                elem.unsigned,
                sym=base.sym,
                container=("numpy" if elem.is_container else ""),
                npscalar=base.container == "numpy",
            )
        if base.ref_param:
            raise refuse(node, "indexing an out-parameter pointer (only *p is translated)")
        if base.addr == "data" and base.container:
            return PyExpr(
                f"{base.paren(P_ATOM)}[{index.text}]",
                P_ATOM,
                base.ctype.of or CHAR,
                npscalar=base.container == "numpy",
            )
        if (
            base.ctype.kind == "pointer"
            and base.ctype.of is not None
            and base.ctype.of.is_arith
            and base.literal != "raw"
            and not base.ctype.is_string
        ):
            return PyExpr(f"{base.paren(P_ATOM)}[{index.text}]", P_ATOM, base.ctype.of, base.ctype.of.unsigned)
        raise refuse(node, "reading or writing memory through a raw pointer has no Python twin")

    # -- sizeof and casts ------------------------------------------------------------------------
    def sizeof(self, node: Node) -> PyExpr:
        tnode = cparse.field(node, "type")
        if tnode is not None:
            return self.sizeof_type(self.types.descriptor(tnode), node)
        value = _need(cparse.field(node, "value"), node)
        while value.type == "parenthesized_expression" and len(cparse.named(value)) == 1:
            value = cparse.named(value)[0]
        if value.type == "identifier" and self.lookup(cparse.text(value)) is None:
            name = cparse.text(value)
            if name in self.types.typevars or name in self.types.typedefs or name in self.types.enums:
                return self.sizeof_type(self.types.base(value), node)
        if value.type == "subscript_expression":
            base = self.expr(_need(cparse.field(value, "argument"), value))
            if base.container == "numpy":
                return PyExpr(f"{base.paren(P_ATOM)}.itemsize", P_ATOM, SIZE_T, True)
        e = self.expr(value)
        if e.container == "numpy" and e.ctype.kind == "array":
            return PyExpr(f"{e.paren(P_ATOM)}.nbytes", P_ATOM, SIZE_T, True)
        if e.ctype.is_container:
            raise refuse(node, "sizeof of a std::vector object (not of its data)")
        return self.sizeof_type(e.ctype, node)

    def cast(self, target: CType, value_node: Node, node: Node) -> PyExpr:
        e = self.expr(value_node)
        t = target.plain()
        s = e.ctype.plain()
        if t.kind == "void":
            return e
        if t.is_arith and (s.is_arith or s.kind == "typevar"):
            e = self.value_of(e, value_node)
            if t.kind == "bool":
                return self.convert(e, t, node)
            if t.kind in ("int", "enum"):
                if s.kind == "float":
                    return PyExpr(f"int({e.text})", P_ATOM, t)
                if s.kind == "typevar":
                    return PyExpr(f"int({e.text})", P_ATOM, t)
                return self.int_to_int(e, t, node, explicit=True)
            if t.kind == "float":
                if t.bits == 64 and s.kind != "float" and not e.literal:
                    return PyExpr(f"float({self.wrapped(e).text})", P_ATOM, DOUBLE)
                return self.to_float(e, t)
        if t.kind == "typevar":
            return PyExpr(f"{numpy_type(t)}({self.value_of(e, value_node).text})", P_ATOM, t)
        if t.is_pointer:
            if e.literal == "nullptr":
                return e
            if s.is_address or (s.kind == "pointer" and e.literal == "raw"):
                if t.is_handle:
                    raise refuse(node, "a handle made from a raw pointer has no Python twin")
                return e.with_(ctype=t, literal="raw")
            if e.addr == "data" or (s.kind == "pointer" and t.is_address):
                e = self.pointer_into(e)
                return e.with_(ctype=t) if t.is_address or t == s else e
            if s.is_int:
                raise refuse(node, "a pointer or handle forged from an integer has no Python twin")
            if s.is_handle and t.is_handle:
                return e
        raise refuse(node, f"a cast from {s} to {t}")


def _pure(node: Node) -> bool:
    """Whether evaluating ``node`` twice is evaluating it once (no call, assignment or ++/--)."""
    return not any(
        n.type in ("call_expression", "assignment_expression", "update_expression", "new_expression")
        for n in cparse.walk(node)
    )


def _direct_init_name(node: Node) -> bool:
    """A name tree-sitter reads as a parameter type in ``T v(n);``, C++ as the value ``n`` (see
    :meth:`~.variables.Variables.direct_initialized`)."""
    p = node.parent
    return (
        p is not None
        and p.type == "parameter_declaration"
        and p.parent is not None
        and p.parent.type == "parameter_list"
    )


def _need(node: Node | None, parent: Node) -> Node:
    if node is None:
        raise refuse(parent, "an incomplete expression")
    return node
