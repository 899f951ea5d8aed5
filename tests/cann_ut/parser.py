"""The syntax tree of a test body and its recursive-descent parser (statements and expressions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .lexer import END, Tok, is_type_name, literal
from .model import Unreadable, Value

# ---------------------------------------------------------------------------------------------
# the syntax tree
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """An expression: lit (a), name (a), call (callee, args), member (object, name), index
    (seq, i), unary (op, x), post (op, x), addr (x), binary (op, x, y), assign (op, target,
    value), cond (c, x, y), cast (type, x), brace (items), construct (type, args: ``T{...}``)."""

    kind: str
    line: int
    a: Any = None
    b: Any = None
    c: Any = None


@dataclass(frozen=True)
class Stmt:
    """A statement: block (stmts), expr (node), decl (type, [(name, init, is_array)]), if (cond,
    then, else), for (init, cond, step, body), rangefor (type, name, iterable, body), empty."""

    kind: str
    line: int
    a: Any = None
    b: Any = None
    c: Any = None
    d: Any = None


_PREC = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
    "<<": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}  # fmt: skip
_ASSIGN = ("=", "+=", "-=", "*=", "/=", "%=")
_QUALIFIERS = ("const", "static", "constexpr", "volatile")
_BUILTIN_WORDS = ("unsigned", "signed", "long", "short", "int", "char")


class Parser:
    """Statements and expressions of a test body (a recursive-descent parser)."""

    def __init__(self, toks: Sequence[Tok], enums: Iterable[str] = ()) -> None:
        self.t = list(toks)
        if not self.t or self.t[-1].kind != END:
            self.t.append(Tok(END, "", self.t[-1].line if self.t else 0))
        self.i = 0
        self.enums = frozenset(enums)

    def peek(self, k: int = 0) -> Tok:
        return self.t[min(self.i + k, len(self.t) - 1)]

    def next(self) -> Tok:
        tok = self.peek()
        self.i += 1
        return tok

    def at(self, text: str, k: int = 0) -> bool:
        tok = self.peek(k)
        return tok.kind in ("op", "name") and tok.text == text

    def expect(self, text: str) -> Tok:
        tok = self.next()
        if tok.text != text:
            raise Unreadable(f"line {tok.line}: expected {text!r}, found {tok.text!r}")
        return tok

    # -- types -----------------------------------------------------------------------------------

    def try_type(self) -> str | None:
        """A type at the cursor (consumed), else None (cursor unchanged)."""
        start = self.i
        words: list[str] = []
        while self.peek().kind == "name" and self.peek().text in _QUALIFIERS:
            words.append(self.next().text)
        if self.peek().kind != "name":
            self.i = start
            return None
        if self.at("enum"):
            self.next()
            words.append("enum " + self.next().text)
        elif self.peek().text in _BUILTIN_WORDS:
            while self.peek().kind == "name" and self.peek().text in _BUILTIN_WORDS:
                words.append(self.next().text)
        else:
            words.append(self.next().text)
            if self.at("<"):
                words[-1] += self.template_args()
        while self.at("const"):
            self.next()
        while self.peek().text in ("*", "&"):
            words[-1] += self.next().text
        return " ".join(words)

    def template_args(self) -> str:
        """``<...>`` at the cursor, as text."""
        depth, parts = 0, []
        while True:
            tok = self.next()
            if tok.kind == END:
                raise Unreadable(f"line {tok.line}: unterminated template arguments")
            parts.append(tok.text)
            if tok.kind == "op" and tok.text in "<>":
                depth += 1 if tok.text == "<" else -1
                if depth == 0:
                    return "".join(parts).replace(",", ", ")

    def declaration_ahead(self) -> bool:
        """Whether the statement at the cursor declares variables: a type, then a name, then
        ``=``, ``;``, ``(``, ``{``, ``[`` or ``,`` (a known type is needed before ``(``, ``[``, ``,``)."""
        start = self.i
        try:
            ty = self.try_type()
            if ty is None or self.peek().kind != "name":
                return False
            after = self.peek(1).text
            if after in ("=", ";", "{"):
                return True
            return after in ("(", "[", ",") and (
                is_type_name(ty.split()[-1].rstrip("*&"), self.enums) or ty != ty.split()[-1]
            )
        finally:
            self.i = start

    # -- statements ------------------------------------------------------------------------------

    def statements(self) -> list[Stmt]:
        out = []
        while self.peek().kind != END:
            out.append(self.statement())
        return out

    def statement(self) -> Stmt:
        tok = self.peek()
        if tok.kind == "op" and tok.text == "{":
            self.next()
            body = []
            while not self.at("}"):
                if self.peek().kind == END:
                    raise Unreadable(f"line {tok.line}: unterminated block")
                body.append(self.statement())
            self.next()
            return Stmt("block", tok.line, body)
        if tok.kind == "op" and tok.text == ";":
            self.next()
            return Stmt("empty", tok.line)
        if tok.kind == "name" and tok.text == "if":
            self.next()
            self.expect("(")
            cond = self.expression()
            self.expect(")")
            then = self.statement()
            other = None
            if self.at("else"):
                self.next()
                other = self.statement()
            return Stmt("if", tok.line, cond, then, other)
        if tok.kind == "name" and tok.text == "for":
            return self.for_statement()
        if tok.kind == "name" and tok.text in ("while", "do", "switch", "goto", "try", "return", "break", "continue"):
            raise Unreadable(f"line {tok.line}: a {tok.text!r} statement")
        if tok.kind == "name" and tok.text == "delete":  # delete executor; (the UT's executors)
            while not self.at(";") and self.peek().kind != END:
                self.next()
            self.expect(";")
            return Stmt("empty", tok.line)
        stmt = self.declaration() if self.declaration_ahead() else Stmt("expr", tok.line, self.expression())
        self.expect(";")
        return stmt

    def declaration(self) -> Stmt:
        line = self.peek().line
        ty = self.try_type()
        names = []
        while True:
            name = self.next().text
            array = False
            if self.at("["):
                self.next()
                while not self.at("]"):
                    self.next()
                self.next()
                array = True
            init: Node | None = None
            if self.at("="):
                self.next()
                init = self.assignment()
            elif self.at("("):  # T name(args)
                p = self.next()
                init = Node("construct", p.line, None, self.arguments(")"))
            elif self.at("{"):  # T name{args}
                init = self.primary()
            names.append((name, init, array))
            if not self.at(","):
                return Stmt("decl", line, ty, names)
            self.next()

    def for_statement(self) -> Stmt:
        line = self.next().line
        self.expect("(")
        start = self.i
        ty = self.try_type()
        if ty is not None and self.peek().kind == "name" and self.at(":", 1):  # for (auto x : xs)
            name = self.next().text
            self.next()
            iterable = self.expression()
            self.expect(")")
            return Stmt("rangefor", line, ty, name, iterable, self.statement())
        self.i = start
        init = None
        if self.declaration_ahead():
            init = self.declaration()
        elif not self.at(";"):
            init = Stmt("expr", line, self.expression())
        self.expect(";")
        cond = None if self.at(";") else self.expression()
        self.expect(";")
        step = None if self.at(")") else self.expression()
        self.expect(")")
        return Stmt("for", line, init, cond, step, self.statement())

    # -- expressions -----------------------------------------------------------------------------

    def arguments(self, close: str) -> list[Node]:
        args = []
        while not self.at(close):
            args.append(self.assignment())
            if self.at(","):
                self.next()
            elif not self.at(close):
                raise Unreadable(f"line {self.peek().line}: expected ',' or {close!r}, found {self.peek().text!r}")
        self.next()
        return args

    def expression(self) -> Node:
        node = self.assignment()
        if self.at(","):
            raise Unreadable(f"line {self.peek().line}: a comma expression")
        return node

    def assignment(self) -> Node:
        left = self.conditional()
        if self.peek().kind == "op" and self.peek().text in _ASSIGN:
            op = self.next()
            return Node("assign", op.line, op.text, left, self.assignment())
        return left

    def conditional(self) -> Node:
        cond = self.binary(1)
        if self.at("?"):
            q = self.next()
            a = self.assignment()
            self.expect(":")
            return Node("cond", q.line, cond, a, self.conditional())
        return cond

    def binary(self, level: int) -> Node:
        left = self.unary()
        while True:
            tok = self.peek()
            prec = _PREC.get(tok.text) if tok.kind == "op" else None
            if prec is None or prec < level:
                return left
            self.next()
            left = Node("binary", tok.line, tok.text, left, self.binary(prec + 1))

    def unary(self) -> Node:
        tok = self.peek()
        if tok.kind == "op" and tok.text in ("-", "+", "!", "~", "&", "++", "--"):
            self.next()
            operand = self.unary()
            return Node("addr", tok.line, operand) if tok.text == "&" else Node("unary", tok.line, tok.text, operand)
        if tok.kind == "op" and tok.text == "(":
            cast = self.try_cast()
            if cast is not None:
                return cast
        return self.postfix(self.primary())

    def try_cast(self) -> Node | None:
        """``(type) operand`` at the cursor, else None (cursor unchanged)."""
        start = self.i
        line = self.next().line
        ty = self.try_type()
        if ty is not None and self.at(")"):
            base = ty.split()[-1].rstrip("*&")
            after = self.peek(1)
            if ("*" in ty or is_type_name(base, self.enums)) and (
                after.kind in ("name", "num") or after.text in ("(", "-", "+", "!", "{")
            ):
                self.next()
                return Node("cast", line, ty, self.unary())
        self.i = start
        return None

    def primary(self) -> Node:
        tok = self.next()
        if tok.kind == "num":
            return Node("lit", tok.line, literal(tok.text))
        if tok.kind == "str":
            return Node("lit", tok.line, Value("string", tok.text))
        if tok.kind == "op" and tok.text == "(":
            node = self.expression()
            self.expect(")")
            return node
        if tok.kind == "op" and tok.text == "{":
            return Node("brace", tok.line, self.arguments("}"))
        if tok.kind != "name":
            raise Unreadable(f"line {tok.line}: unexpected {tok.text!r}")
        if tok.text in ("static_cast", "reinterpret_cast", "const_cast"):
            ty = self.template_args()[1:-1]
            self.expect("(")
            operand = self.expression()
            self.expect(")")
            return Node("cast", tok.line, ty, operand)
        if tok.text in ("true", "false"):
            return Node("lit", tok.line, Value("bool", tok.text == "true"))
        if tok.text == "nullptr":
            return Node("lit", tok.line, Value("nullptr_t", None))
        name = tok.text
        if self.at("<") and name in ("vector", "array", "initializer_list"):
            name += self.template_args()
        if self.at("{") and is_type_name(name, self.enums):
            p = self.next()
            return Node("construct", p.line, name, self.arguments("}"))
        return Node("name", tok.line, name)

    def postfix(self, node: Node) -> Node:
        while True:
            tok = self.peek()
            if tok.kind != "op":
                return node
            if tok.text == "(":
                self.next()
                node = Node("call", tok.line, node, self.arguments(")"))
            elif tok.text == "[":
                self.next()
                index = self.expression()
                self.expect("]")
                node = Node("index", tok.line, node, index)
            elif tok.text in (".", "->"):
                self.next()
                node = Node("member", tok.line, node, self.next().text)
            elif tok.text in ("++", "--"):
                self.next()
                node = Node("post", tok.line, tok.text, node)
            else:
                return node
