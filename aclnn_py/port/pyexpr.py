"""A translated expression: its Python text, Python precedence, C type and what is known about it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .ctype import CType

# Python's precedence, lowest first
P_TERNARY, P_OR, P_AND, P_NOT, P_CMP, P_BOR, P_BXOR, P_BAND, P_SHIFT, P_ADD, P_MUL, P_UNARY, P_POW, P_ATOM = range(
    1, 15
)


@dataclass(frozen=True)
class PyExpr:
    """``addr``: for ``&x`` — ``ref`` (x is a Ref: pass it), ``value`` (x is a plain value; only an
    input pointer may take it), ``data`` (a container's data, or a view into it).
    ``ref_param``: a pointer parameter that holds a Ref. ``literal``: int, float, double, string,
    char, bool, nullptr. ``value``: the literal's C value. ``written``: a floating literal's value as
    written (before rounding to float). ``sym``: the variable named, if any."""

    text: str
    prec: int
    ctype: CType
    nonneg: bool = False
    wraps: bool = False
    addr: str = ""
    ref_param: bool = False
    literal: str = ""
    value: object = None
    written: float | None = None
    sym: object = None
    container: str = ""
    npscalar: bool = False  # a numpy scalar (an element of a numpy array): numpy's width, not Python's

    def paren(self, min_prec: int) -> str:
        return self.text if self.prec >= min_prec else f"({self.text})"

    def with_(self, **kw: object) -> PyExpr:
        return replace(self, **kw)  # type: ignore[arg-type]
