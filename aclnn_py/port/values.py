"""Values: C's literals and C's implicit conversions, as Python with C's values.

The lowest layer of the translator's expressions (:class:`Values`, under :class:`~.exprs.Exprs`):
a number, string or character literal becomes the Python value of its C type (see
:mod:`.literals`); a value converted to a C type (assignment, initialization, argument, return,
and the operands :mod:`.exprs` combines) keeps C's result: ``float`` stays ``np.float32``, an
integer narrowed or made unsigned wraps modulo 2**N as C's does, an unsigned value that wrapped is
reduced where it is seen, and a pointer tested as a condition is compared with None. A
conversion whose Python reading could differ from C's is refused (:func:`refuse`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from . import cparse
from .ctype import BOOL, CHAR, DOUBLE, FLOAT, STRING, CType, numpy_type
from .errors import Refused
from .literals import LiteralError, c_string_value, f32, float_literal, int_literal, py_float, py_string
from .pyexpr import P_ADD, P_AND, P_ATOM, P_CMP, P_MUL, P_OR, P_UNARY, PyExpr
from .scope import Context, Sym

if TYPE_CHECKING:
    from tree_sitter import Node


def refuse(node: Node, reason: str) -> Refused:
    """The refusal of ``node`` (its line and text) for ``reason``."""
    return Refused(cparse.line(node), cparse.snippet(node), reason)


class Values(Context):
    """Literals, C's implicit conversions and C's truth of a value (the methods the expression
    layer above, :class:`~.exprs.Exprs`, builds on; none of them translates a sub-expression)."""

    # -- literals --------------------------------------------------------------------------------
    def number(self, node: Node) -> PyExpr:
        s = cparse.text(node)
        if s.startswith(("-", "+")):
            e = self.number_text(s[1:].lstrip(), node)
            if s.startswith("+"):
                return e
            return negated_literal(e)
        return self.number_text(s, node)

    def number_text(self, s: str, node: Node) -> PyExpr:
        try:
            is_float = (
                ("." in s or "e" in s.lower() or s.lower().endswith("f"))
                if not s.lower().startswith("0x")
                else "p" in s.lower() or "." in s
            )
            if is_float:
                value, t, py, written = float_literal(s)
                if t == FLOAT:
                    self.use("np")
                    bare = py if f32(written) == value else f'float.fromhex("{value.hex()}")'
                    return PyExpr(
                        f"np.float32({bare})", P_ATOM, FLOAT, value >= 0, literal="float", value=value, written=written
                    )
                return PyExpr(py, P_ATOM, DOUBLE, value >= 0, literal="double", value=value, written=written)
            ivalue, it, ipy = int_literal(s)
        except LiteralError as e:
            raise refuse(node, str(e)) from None
        return PyExpr(ipy, P_ATOM, it, True, literal="int", value=ivalue)

    def string(self, node: Node) -> PyExpr:
        if node.type == "concatenated_string":
            parts = [self.string(c) for c in cparse.named(node)]
            text = " ".join(p.text for p in parts)
            return PyExpr(text, P_ATOM, STRING, literal="string", value="".join(str(p.value) for p in parts))
        if node.type != "string_literal" and node.type != "raw_string_literal":
            raise refuse(node, "a macro or name inside a string concatenation is not translated")
        raw = cparse.text(node)
        prefix = raw[: raw.index('"')]
        if node.type == "raw_string_literal" or prefix.endswith("R"):
            open_paren = raw.index("(")
            delim = raw[raw.index('"') + 1 : open_paren]
            value = raw[open_paren + 1 : len(raw) - len(delim) - 2]
        else:
            if prefix not in ("", "u8"):
                raise refuse(node, "a wide or UTF-16/32 string literal is not translated")
            try:
                value = c_string_value(raw[len(prefix) + 1 : -1])
            except LiteralError as e:
                raise refuse(node, str(e)) from None
        return PyExpr(py_string(value), P_ATOM, STRING, literal="string", value=value)

    def char(self, node: Node) -> PyExpr:
        raw = cparse.text(node)
        if not raw.startswith("'"):
            raise refuse(node, "a wide character literal is not translated")
        try:
            value = c_string_value(raw[1:-1])
        except LiteralError as e:
            raise refuse(node, str(e)) from None
        if len(value) != 1 or ord(value) > 0x7F:
            raise refuse(node, "a multi-character or non-ASCII character literal")
        code = ord(value)
        text = f"ord({py_string(value)})" if 0x20 <= code < 0x7F else str(code)
        return PyExpr(text, P_ATOM, CHAR, code >= 0, literal="char", value=code)

    # -- conversions -----------------------------------------------------------------------------
    def wrapped(self, e: PyExpr, bits: int = 0) -> PyExpr:
        """An unsigned value whose Python value may have left [0, 2**bits): reduce it, as C does."""
        if not e.wraps:
            return e
        bits = bits or (e.ctype.bits if e.ctype.kind == "int" and e.ctype.bits >= 32 else 64)
        return PyExpr(f"{e.paren(P_MUL + 1)} % 2**{bits}", P_MUL, e.ctype, True)

    def value_of(self, e: PyExpr, node: Node) -> PyExpr:
        """``e`` used as a plain value: no ``&x`` or out-parameter holder may go on from here."""
        if e.addr == "ref":
            raise refuse(node, "the address of a variable where no out-parameter takes it")
        if e.addr == "value":
            raise refuse(node, "the address of a variable where only a pointer fits (no Python twin)")
        if e.ref_param:
            raise refuse(node, "an out-parameter pointer used as a value (only *p, p == nullptr and passing p on)")
        if e.ctype.is_smart:
            raise refuse(node, smart_use(e.ctype))
        if e.ctype.kind == "bool" and e.prec in (P_AND, P_OR):
            return PyExpr(f"bool({e.text})", P_ATOM, BOOL, True)
        return e

    def convert(self, e: PyExpr, target: CType, node: Node) -> PyExpr:
        """C's implicit conversion of ``e`` to ``target`` (assignment, initialization, argument,
        return)."""
        t = target.plain()
        s = e.ctype.plain()
        if t.kind in ("auto", "unknown") or (t.kind == "typevar" and s.kind == "typevar"):
            return self.value_of(e, node)
        if e.literal == "nullptr":
            if t.is_pointer or t.is_func or t.kind == "nullptr":
                return e
            raise refuse(node, f"nullptr converted to {t}")
        if t.is_pointer:
            return self.pointer_into(self.value_of(e, node))
        if t.is_func or t.is_container or t.kind in ("opaque", "struct"):
            return self.value_of(e, node)
        e = self.value_of(e, node)
        if t.kind == "typevar":
            return PyExpr(f"{numpy_type(t)}({e.text})", P_ATOM, t)
        if t.kind == "bool":
            if s.kind == "bool":
                return e
            if s.is_pointer:
                return PyExpr(f"{e.paren(P_CMP + 1)} is not None", P_CMP, BOOL)
            if e.literal in ("int", "double", "float"):
                return PyExpr("True" if e.value else "False", P_ATOM, BOOL, True, literal="bool", value=bool(e.value))
            return PyExpr(f"bool({e.text})", P_ATOM, BOOL, True)
        if t.kind in ("int", "enum"):
            if s.kind in ("int", "enum", "bool"):
                return self.int_to_int(e, t, node, explicit=False)
            if s.kind == "float":
                if e.literal in ("double", "float") and isinstance(e.value, float) and math.isfinite(e.value):
                    v = int(e.value)
                    return PyExpr(str(v), P_ATOM if v >= 0 else P_UNARY, t, v >= 0, literal="int", value=v)
                return PyExpr(f"int({e.text})", P_ATOM, t)
            raise refuse(node, f"a {s} converted to {t}")
        if t.kind == "float":
            if s.kind not in ("int", "enum", "bool", "float"):
                raise refuse(node, f"a {s} converted to {t}")
            return self.to_float(e, t)
        raise refuse(node, f"a {s} converted to {t}")

    def pointer_into(self, e: PyExpr) -> PyExpr:
        """A pointer into a vector (``&v[i]``, ``v.data()``, an array) kept as a pointer (initialized,
        assigned, passed, returned) or compared. What the analysis learns: a vector the port would
        keep as a Python list is host memory, a numpy array, as ``&v[i]`` must be the view ``v[i:]``
        with an address, not a copy; a vector parameter passed by value is copied on entry, as C++
        copies it (its own address; writes through the pointer stay in it)."""
        if e.container and isinstance(e.sym, Sym):
            if e.container == "list":
                self.flags.buffers.add(e.sym.key)
            self.flags.mutated.add(e.sym.key)
        return e

    def int_to_int(self, e: PyExpr, t: CType, node: Node, explicit: bool) -> PyExpr:
        """Integer to integer. Python ints are exact: a value converted to a type that holds it keeps
        it; an unsigned value that wrapped is reduced where it is seen as unsigned; narrowing (and an
        explicit cast of a signed value to unsigned) wraps as C does."""
        s = e.ctype.plain()
        if t.kind == "enum":
            return e.with_(ctype=t)
        if s.kind == "enum":
            return PyExpr(f"int({e.text})", P_ATOM, t, e.nonneg) if explicit else e.with_(ctype=t)
        if e.literal in ("int", "char", "bool", "enum") and isinstance(e.value, int):
            v = int(e.value)
            lo, hi = (-(2 ** (t.bits - 1)), 2 ** (t.bits - 1) - 1) if t.signed else (0, 2**t.bits - 1)
            if lo <= v <= hi:
                if s.kind == "bool":
                    return PyExpr(str(v), P_ATOM, t, True, literal="int", value=v)
                return e.with_(ctype=t)
            w = v % 2**t.bits
            if t.signed and w > hi:
                w -= 2**t.bits
            return PyExpr(str(w), P_ATOM if w >= 0 else P_UNARY, t, w >= 0, literal="int", value=w)
        if s.kind == "bool" or (e.npscalar and (s.bits, s.signed) != (t.bits, t.signed)):
            e = PyExpr(f"int({e.text})", P_ATOM, t, e.nonneg or s.kind == "bool", e.wraps)
            s = t if s.kind == "bool" else s
        if not t.signed:
            if e.wraps or (explicit and s.signed and not e.nonneg) or t.bits < s.bits:
                return replace(self.wrapped(e.with_(wraps=True), t.bits), ctype=t)
            return e.with_(ctype=t, nonneg=True)
        if t.bits < s.bits:
            half = 2 ** (t.bits - 1)
            inner = self.wrapped(e) if e.wraps else e
            return PyExpr(f"({inner.paren(P_ADD + 1)} + {half}) % {2 * half} - {half}", P_ADD, t)
        return e.with_(ctype=t, wraps=False, nonneg=e.nonneg and not e.wraps)

    def to_float(self, e: PyExpr, t: CType) -> PyExpr:
        s = e.ctype.plain()
        if t.bits == 64:
            if e.literal == "float" and isinstance(e.value, float):
                v = e.value
                text = py_float(v) if v != e.written or not math.isfinite(v) else _strip_np(e.text)
                return PyExpr(
                    text,
                    P_ATOM if v >= 0 or math.isnan(v) else P_UNARY,
                    DOUBLE,
                    v >= 0,
                    literal="double",
                    value=v,
                    written=v,
                )
            if s.kind == "float" and s.bits < 64:
                return PyExpr(f"float({e.text})", P_ATOM, DOUBLE)
            if e.wraps:
                return self.wrapped(e).with_(ctype=DOUBLE)
            return e.with_(ctype=DOUBLE) if s.kind == "float" else e.with_(ctype=DOUBLE, wraps=False)
        np_name = "np.float32" if t.bits == 32 else "np.float16"
        self.use("np")
        if s == t or (s.kind == "float" and s.bits == t.bits):
            return e
        if t.bits == 32 and e.literal == "double" and isinstance(e.value, float):
            return PyExpr(f"np.float32({e.text})", P_ATOM, FLOAT, literal="float", value=f32(e.value), written=e.value)
        inner = self.wrapped(e)
        return PyExpr(f"{np_name}({inner.text})", P_ATOM, t)

    def element(self, e: PyExpr, elem: CType, node: Node) -> str:
        """An element of ``np.array([...], dtype=...)``: numpy converts it as C does, so literals
        stay as written."""
        e = self.value_of(e, node)
        if elem.kind == "float" and e.literal == "float" and isinstance(e.value, float):
            if elem.bits == 64:
                return self.to_float(e, DOUBLE).text
            return _strip_np(e.text)
        if e.wraps:
            return self.wrapped(e).text
        if e.ctype.is_pointer or e.ctype.is_container:
            raise refuse(node, f"a {e.ctype} stored in an array of {elem}")
        return e.text

    # -- truth -----------------------------------------------------------------------------------
    def truth_of(self, e: PyExpr, node: Node) -> PyExpr:
        if e.addr or e.ref_param:
            raise refuse(node, "a pointer to a variable tested as a condition")
        if e.ctype.is_smart:
            raise refuse(node, smart_use(e.ctype))
        if e.ctype.is_pointer or e.ctype.is_func:
            if e.literal == "nullptr":
                return PyExpr("False", P_ATOM, BOOL, literal="bool", value=False)
            return PyExpr(f"{e.paren(P_CMP + 1)} is not None", P_CMP, BOOL)
        if e.ctype.is_container:
            raise refuse(node, "a vector tested as a condition")
        return self.wrapped(e) if e.wraps else e


def smart_members(t: CType) -> str:
    """The member functions of a smart pointer the port translates (aclnn_py.raii's), as refusals
    name them: the one place that lists them."""
    return "get(), reset() and release()" if t.kind == "unique_ptr" else "get()"


def smart_use(t: CType) -> str:
    """Why a smart pointer is refused where it is used."""
    return (
        f"a std::{t.kind} used as a value: only its {smart_members(t)}, and passing it by reference to a "
        "function of the program, are translated"
    )


def negated_literal(e: PyExpr) -> PyExpr:
    """``-e`` of a number literal (:meth:`Values.number_text`'s), still a literal: its value and
    written value negated; a float one stays ``np.float32(...)`` with the sign inside."""
    assert isinstance(e.value, (int, float))
    written = -e.written if e.written is not None else None
    if e.literal == "float":
        inner = e.text[len("np.float32(") : -1]
        return e.with_(text=f"np.float32(-{inner})", value=-e.value, nonneg=False, written=written)
    return e.with_(text="-" + e.text, prec=P_UNARY, value=-e.value, nonneg=False, written=written)


def _strip_np(text: str) -> str:
    if text.startswith("np.float32(") and text.endswith(")"):
        return text[len("np.float32(") : -1]
    return text
