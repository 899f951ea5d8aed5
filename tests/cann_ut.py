"""A reader of CANN's op_api unit tests: the gtest files of hicann/ops-math and hicann/ops-nn
whose ``OP_API_UT(aclnnXxx, INPUT(...), OUTPUT(...))`` cases call the phase 1 of an API
(``ut.TestGetWorkspaceSize(&ws)``) and assert what it returns (``EXPECT_EQ(aclRet,
ACLNN_ERR_PARAM_INVALID)``). They are an oracle of phase 1's status independent of the emulator:
``tests/test_cann_op_api_ut.py`` replays every case this module can read.

Which files: those CANN's CMake compiles into the op_api UT binary, ``test_aclnn_*.cpp`` in
``<op>/tests/ut/op_api/`` (ops-nn's cmake/func.cmake also scans ``<op>/tests/ut/op_host/`` and
``<op>/tests/ut/op_host/op_api/``); none under ``experimental/``. Other ``.cpp`` files there
(``test_Maximum.cpp``, ``test_copy.cpp``, ops-math's ``op_host/op_api`` copies ...) are never built.

What the UT harness does (``tests/ut/op_api/op_api_ut_common/`` of both repositories):

* ``TensorDesc(view_dims = {1, 1, 16, 16}, dtype = ACL_FLOAT, format = ACL_FORMAT_NCHW,
  strides = {}, offset = 0, storage_dims = {})`` becomes ``aclCreateTensor(view, dtype, strides
  or nullptr, offset, format, storage_dims or view, data = nullptr)``. ``.ValueRange``,
  ``.Value``, ``.Precision``, ``.ValidCount`` only feed the precision run (their arguments are
  not read here); ``.ViewDims`` and ``.Format`` change the tensor.
* ``ScalarDesc(v)`` takes its dtype from the C++ type of ``v`` (one constructor per type: bool,
  int8_t ... uint64_t, float, double); ``ScalarDesc(v, ACL_FLOAT16)`` makes a half.
  ``IntArrayDesc`` / ``BoolArrayDesc`` / ``FloatArrayDesc`` wrap a vector.
* Each element of ``INPUT(...)`` and ``OUTPUT(...)`` is converted on its own (the same desc twice
  is two tensors); phase 1 gets them, then OP_API_UT's extra arguments, then ``&workspaceSize,
  &executor``. Plain values (``dim``, ``keepdim``, ``ACL_FLOAT``, ``nullptr``,
  ``(aclTensor*)nullptr``) are passed as they are.
* The platform stub (``tests/ut/op_api/stub/opdev/platform.cpp``) starts on ASCEND910B;
  ``op::SetPlatformSocVersion`` / ``op::SetPlatformNpuArch`` change it until changed again. gtest
  runs a file's tests suite by suite, in order, with the fixture's SetUp / TearDown around each.
  (All files of a repository share one binary, so a file that left the stub on another SoC would
  change the next file's; each file is read here as starting on ASCEND910B.)

The reader is a tokenizer and a small interpreter of the C++ these files use: declarations,
assignments, ``for`` and ``if``, vectors, casts, the desc classes, the platform calls and the
gtest assertions. A test using anything else is reported as skipped with the reason (nothing is
guessed), and so is a phase-1 call no assertion checks.

``python tests/cann_ut.py <folder>`` prints every case and skip it reads there.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aclnn_py

# ---------------------------------------------------------------------------------------------
# what a case is made of
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tensor:
    """An aclTensor as TensorDesc makes it (its data pointer is nullptr)."""

    shape: tuple[int, ...] = (1, 1, 16, 16)
    dtype: int = int(aclnn_py.ACL_FLOAT)
    format: int = int(aclnn_py.ACL_FORMAT_NCHW)
    strides: tuple[int, ...] | None = None  # None: aclCreateTensor gets nullptr
    offset: int = 0
    storage_shape: tuple[int, ...] | None = None  # None: the view's shape

    def __str__(self) -> str:
        view = ""
        if self.strides is not None or self.offset or self.storage_shape is not None:
            view = f" strides={list(self.strides or [])} offset={self.offset} storage={list(self.storage_shape or [])}"
        return f"Tensor({list(self.shape)} {_name(aclnn_py.aclDataType, self.dtype)} {_name(aclnn_py.aclFormat, self.format)}{view})"


@dataclass(frozen=True)
class Scalar:
    """An aclScalar as ScalarDesc makes it."""

    dtype: int
    value: bool | int | float

    def __str__(self) -> str:
        return f"Scalar({self.value!r} {_name(aclnn_py.aclDataType, self.dtype)})"


@dataclass(frozen=True)
class Array:
    """An aclIntArray / aclBoolArray / aclFloatArray (``kind``: int, bool or float)."""

    kind: str
    values: tuple[Any, ...]

    def __str__(self) -> str:
        return f"{self.kind.capitalize()}Array({list(self.values)})"


@dataclass(frozen=True)
class Value:
    """A plain C++ value: its type as the compiler sees it (``int``, ``long`` for int64_t,
    ``float``, ``bool``, ``aclDataType``, ``SocVersion``, ``nullptr_t``, ``aclTensor*`` ...) and
    its value (None for a null pointer)."""

    ctype: str
    value: Any

    @property
    def is_null(self) -> bool:
        return self.value is None and (self.ctype == "nullptr_t" or self.ctype.endswith("*"))

    def __str__(self) -> str:
        if self.is_null:
            return "nullptr"
        if self.ctype == "aclDataType":
            return _name(aclnn_py.aclDataType, self.value)
        return repr(self.value)


Arg = Tensor | Scalar | Array | Value


@dataclass(frozen=True)
class Case:
    """One phase-1 call of a UT and what the UT asserts about it."""

    id: str  # "<path>::<test name>", with "#<n>" when the test makes several calls
    path: str  # the file, relative to the folder searched
    line: int  # of the TestGetWorkspaceSize call
    soc: str  # the stub's SoC at the call: "Ascend910B", "Ascend950", "Ascend310B" ...
    api: str
    args: tuple[Arg, ...]  # phase 1's arguments before workspaceSize and executor
    status: tuple[str, int]  # ("==", code) or ("!=", code)
    workspace_init: int = 0  # the workspace variable's value before the call
    workspace: int | None = None  # the workspace size an EXPECT_EQ asserts after it, if any

    def describe(self) -> str:
        args = ", ".join(str(a) for a in self.args)
        want = f"{self.status[0]} {status_name(self.status[1])}"
        ws = "" if self.workspace is None else f", workspace == {self.workspace}"
        return f"{self.api}({args}) on {self.soc}: {want}{ws}  [{self.path}:{self.line}]"


@dataclass(frozen=True)
class Skipped:
    """A phase-1 call (or a whole test) not replayed, and why."""

    id: str
    path: str
    line: int
    apis: tuple[str, ...]  # the implemented APIs concerned (one entry per OP_API_UT)
    reason: str
    # unreadable: a construct the reader does not interpret; unchecked: no phase-1 call, or no
    # assertion on its status; disabled: DISABLED_ in gtest
    kind: str = "unreadable"


class Unreadable(Exception):
    """A construct the reader does not interpret."""


def _name(enum: Any, v: int) -> str:
    try:
        return str(enum(v).name)
    except ValueError:
        return str(v)


def status_name(code: int) -> str:
    """``ACLNN_ERR_PARAM_INVALID`` for 161002."""
    return _name(aclnn_py.aclnnStatus, code)


# SocVersion names of the stub (its ToString) and the SoC each NpuArch stands for (its
# SetPlatformNpuArch: DAV_2201 -> ASCEND910B).
SOC_NAMES = {
    "ASCEND910": "Ascend910", "ASCEND910B": "Ascend910B", "ASCEND910_93": "Ascend910_93",
    "ASCEND950": "Ascend950", "ASCEND910E": "Ascend910E", "ASCEND310": "Ascend310",
    "ASCEND310P": "Ascend310P", "ASCEND310B": "Ascend310B", "ASCEND310C": "Ascend310C",
    "ASCEND610LITE": "Ascend610LITE", "KIRINX90": "KirinX90", "KIRIN9030": "Kirin9030",
}  # fmt: skip
ARCH_SOCS = {
    "DAV_1001": "ASCEND910", "DAV_2201": "ASCEND910B", "DAV_3510": "ASCEND950",
    "DAV_2002": "ASCEND310P", "DAV_3002": "ASCEND310B", "DAV_3102": "ASCEND610LITE",
}  # fmt: skip
STUB_DEFAULT_SOC = "ASCEND910B"

# ---------------------------------------------------------------------------------------------
# tokens
# ---------------------------------------------------------------------------------------------

_COMMENTS = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/|^[ \t]*#[^\n]*', re.S | re.M)
_TOKEN = re.compile(
    r"""(?P<ws>\s+)
      | (?P<num>(?:0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)[uUlLfF]*)
      | (?P<str>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
      | (?P<name>(?:::\s*)?[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)
      | (?P<op><<=|<<|->|\+\+|--|&&|\|\||[<>=!+\-*/%&|^]=|[{}()\[\];,.<>=+\-*/%&|^!~?:])""",
    re.X,
)  # ">>" stays two tokens, so vector<vector<int>> closes twice
_NAMESPACES = re.compile(r"^(?:(?:std|op|ge|testing)::)+")  # op::SocVersion::X is SocVersion::X


@dataclass(frozen=True)
class Tok:
    kind: str  # num, str, name, op, end
    text: str
    line: int


END = "end"


def strip_comments(text: str) -> str:
    """Comments and preprocessor lines blanked (newlines kept, so lines keep their numbers)."""

    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        return s if s.startswith(('"', "'")) else re.sub(r"[^\n]", " ", s)

    return _COMMENTS.sub(blank, text)


def tokenize(text: str) -> list[Tok]:
    text = strip_comments(text)
    out: list[Tok] = []
    pos, line = 0, 1
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise Unreadable(f"line {line}: unexpected character {text[pos]!r}")
        kind, s = m.lastgroup or "", m.group(0)
        if kind == "name":
            s = _NAMESPACES.sub("", re.sub(r"\s+", "", s).removeprefix("::"))
        if kind != "ws":
            out.append(Tok(kind, s, line))
        line += m.group(0).count("\n")
        pos = m.end()
    out.append(Tok(END, "", line))
    return out


# ---------------------------------------------------------------------------------------------
# C++ types and values
# ---------------------------------------------------------------------------------------------

# the fixed-width names as LP64 Linux spells them
_TYPEDEFS = {
    "int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short", "uint16_t": "unsigned short",
    "int32_t": "int", "uint32_t": "unsigned int", "int64_t": "long", "uint64_t": "unsigned long",
    "size_t": "unsigned long", "unsigned": "unsigned int", "long int": "long", "short int": "short",
    "long long int": "long long", "unsigned long int": "unsigned long", "aclnnStatus": "int",
}  # fmt: skip
_INT_BITS = {
    "signed char": (8, True), "unsigned char": (8, False), "char": (8, True), "short": (16, True),
    "unsigned short": (16, False), "int": (32, True), "unsigned int": (32, False), "long": (64, True),
    "unsigned long": (64, False), "long long": (64, True), "unsigned long long": (64, False),
}  # fmt: skip
_FLOATS = ("float", "double", "long double")
_ENUMS = ("aclDataType", "aclFormat", "SocVersion", "NpuArch")
_DESCS = ("TensorDesc", "ScalarDesc", "IntArrayDesc", "BoolArrayDesc", "FloatArrayDesc")
_TYPE_NAMES = {
    *_TYPEDEFS, *_ENUMS, *_DESCS, "bool", "char", "short", "int", "long", "float", "double", "unsigned",
    "signed", "void", "auto", "vector", "string", "aclTensor", "aclScalar", "aclIntArray", "aclBoolArray",
    "aclFloatArray", "aclTensorList", "aclScalarList", "aclOpExecutor", "nullptr_t",
}  # fmt: skip

# ScalarDesc's constructors: the C++ type of the argument -> the scalar's dtype
_SCALAR_DTYPES = {
    "bool": "ACL_BOOL", "signed char": "ACL_INT8", "unsigned char": "ACL_UINT8", "short": "ACL_INT16",
    "unsigned short": "ACL_UINT16", "int": "ACL_INT32", "unsigned int": "ACL_UINT32", "long": "ACL_INT64",
    "unsigned long": "ACL_UINT64", "float": "ACL_FLOAT", "double": "ACL_DOUBLE",
}  # fmt: skip


def is_type_name(name: str, enums: Iterable[str] = ()) -> bool:
    name = name.split("<")[0]
    return name in _TYPE_NAMES or name in enums or name.startswith("enum ") or bool(re.fullmatch(r"u?int\d+_t", name))


def canonical(ctype: str) -> str:
    words = [w for w in ctype.split() if w not in ("const", "constexpr", "static", "volatile")]
    ctype = " ".join(words).rstrip("&").strip()
    return _TYPEDEFS.get(ctype, ctype)


def _f32(x: float) -> float:
    try:
        return float(struct.unpack("f", struct.pack("f", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def convert(v: Value, ctype: str) -> Value:
    """``v`` converted to ``ctype`` as C++ does (integers wrap, float rounds to binary32)."""
    ctype = canonical(ctype)
    x = v.value
    if ctype == "bool":
        return Value("bool", bool(x))
    if ctype in _INT_BITS:
        if isinstance(x, float):
            if not math.isfinite(x):
                raise Unreadable(f"{x} converted to {ctype}")
            x = int(x)  # toward zero, as C++
        if not isinstance(x, int):
            raise Unreadable(f"{v.ctype} {x!r} converted to {ctype}")
        bits, signed = _INT_BITS[ctype]
        x &= (1 << bits) - 1
        if signed and x >= 1 << (bits - 1):
            x -= 1 << bits
        return Value(ctype, x)
    if ctype in _FLOATS:
        return Value(ctype, _f32(float(x)) if ctype == "float" else float(x))
    if ctype in _ENUMS and v.ctype in (ctype, *_INT_BITS):
        return Value(ctype, x)
    if (ctype.endswith("*") or ctype == "nullptr_t") and v.is_null:
        return Value(ctype, None)
    raise Unreadable(f"a {v.ctype} converted to {ctype}")


def literal(text: str) -> Value:
    """The value and type of a C++ numeric literal."""
    t = text.lower()
    if not t.startswith("0x") and (re.search(r"[.e]", t) or t.endswith("f")):
        if t.endswith("f"):
            return Value("float", _f32(float(t[:-1])))
        if t.endswith("l"):
            return Value("long double", float(t[:-1]))
        return Value("double", float(t))
    digits = t.rstrip("ul")
    suffix = t[len(digits) :]
    base = 16 if digits.startswith("0x") else 8 if len(digits) > 1 and digits.startswith("0") else 10
    n = int(digits, base)
    unsigned, longs = "u" in suffix, suffix.count("l")
    if longs == 2:
        return Value("unsigned long long" if unsigned else "long long", n)
    if longs == 1 or n >= 2**31:
        return Value("unsigned long" if unsigned else "long", n)
    return Value("unsigned int" if unsigned else "int", n)


def _arith_type(a: str, b: str) -> str:
    """The usual arithmetic conversions, for the types these files use."""
    for f in ("long double", "double", "float"):
        if f in (a, b):
            return f
    rank = ["int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long"]
    a, b = (t if t in rank else "int" for t in (a, b))
    return rank[max(rank.index(a), rank.index(b))]


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


# ---------------------------------------------------------------------------------------------
# running a test body
# ---------------------------------------------------------------------------------------------


@dataclass
class UT:
    """An OP_API_UT object: its API and its arguments."""

    api: str
    args: tuple[Arg, ...]
    line: int
    used: str = ""  # "phase1" once TestGetWorkspaceSize ran; "precision" for TestPrecision only


@dataclass
class Call:
    """One TestGetWorkspaceSize: what went in, and what the test asserts about it."""

    api: str
    args: tuple[Arg, ...]
    soc: str
    line: int
    workspace_init: int | None  # None: the variable holds an earlier call's result
    status: tuple[str, int] | None = None
    workspace: int | None = None


@dataclass(frozen=True)
class Status:
    """What TestGetWorkspaceSize returned."""

    call: Call


@dataclass(frozen=True)
class WorkspaceOut:
    """The workspace variable after TestGetWorkspaceSize wrote it."""

    call: Call


@dataclass(frozen=True)
class Platform:
    """op::GetCurrentPlatformInfo()."""


class _Unset:
    """An uninitialised variable (reading it is undefined behaviour: unreadable)."""


_UNSET = _Unset()
_IGNORED_CALLS = {"cout", "cerr", "endl", "printf", "setenv", "unsetenv", "SCOPED_TRACE"}
_PRECISION_ONLY = {"ValueRange", "Value", "Precision", "ValidCount", "ValueFile"}  # TensorDesc's
_LOOP_LIMIT = 10_000


class Interpreter:
    """Runs test bodies: the stub's SoC, the variables, the phase-1 calls made."""

    def __init__(self, constants: Mapping[str, Value], soc: str | None) -> None:
        self.constants = constants  # the file's enumerators
        self.enums = frozenset(v.ctype.removeprefix("enum ") for v in constants.values() if v.ctype.startswith("enum "))
        self.soc = soc  # the stub's SocVersion; None when an unreadable test may have changed it
        self.scopes: list[dict[str, Any]] = [{}]
        self.calls: list[Call] = []
        self.uts: list[UT] = []

    # -- variables -------------------------------------------------------------------------------

    def lookup(self, name: str, line: int) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                if scope[name] is _UNSET:
                    raise Unreadable(f"line {line}: {name!r} read before it is set")
                return scope[name]
        if name in self.constants:
            return self.constants[name]
        m = re.fullmatch(r"(SocVersion|NpuArch)::(\w+)", name)
        if m:
            return Value(m.group(1), m.group(2))
        if re.fullmatch(r"ACL(NN)?_\w+", name) and hasattr(aclnn_py, name):
            v = getattr(aclnn_py, name)
            kind = next((t for t in ("aclDataType", "aclFormat") if isinstance(v, getattr(aclnn_py, t))), "int")
            return Value(kind, int(v))
        raise Unreadable(f"line {line}: unknown name {name!r}")

    def assign(self, name: str, value: Any, line: int) -> None:
        for scope in reversed(self.scopes):
            if name in scope:
                scope[name] = value
                return
        raise Unreadable(f"line {line}: assignment to unknown {name!r}")

    # -- statements ------------------------------------------------------------------------------

    def run(self, stmts: Iterable[Stmt]) -> None:
        for s in stmts:
            self.execute(s)

    def scoped(self, s: Stmt, names: Mapping[str, Any] | None = None) -> None:
        self.scopes.append(dict(names or {}))
        try:
            self.execute(s)
        finally:
            self.scopes.pop()

    def execute(self, s: Stmt) -> None:
        if s.kind == "empty":
            return
        if s.kind == "block":
            self.scopes.append({})
            try:
                self.run(s.a)
            finally:
                self.scopes.pop()
        elif s.kind == "expr":
            self.evaluate(s.a)
        elif s.kind == "decl":
            for name, init, array in s.b:
                self.scopes[-1][name] = self.initial(s.a, init, array, s.line)
        elif s.kind == "if":
            branch = s.b if self.truth(self.evaluate(s.a), s.line) else s.c
            if branch is not None:
                self.scoped(branch)
        elif s.kind == "for":
            self.scopes.append({})
            try:
                if s.a is not None:
                    self.execute(s.a)
                for _ in range(_LOOP_LIMIT):
                    if s.b is not None and not self.truth(self.evaluate(s.b), s.line):
                        return
                    self.scoped(s.d)
                    if s.c is not None:
                        self.evaluate(s.c)
                raise Unreadable(f"line {s.line}: a loop of more than {_LOOP_LIMIT} iterations")
            finally:
                self.scopes.pop()
        elif s.kind == "rangefor":
            items = self.evaluate(s.c)
            if not isinstance(items, list):
                raise Unreadable(f"line {s.line}: a range-for over a {type(items).__name__}")
            for item in list(items):
                self.scoped(s.d, {s.b: self.held(s.a, item, s.line)})
        else:
            raise Unreadable(f"line {s.line}: a {s.kind} statement")

    def initial(self, ty: str, init: Node | None, array: bool, line: int) -> Any:
        """The value a declared variable starts with."""
        if "&" in ty and not ty.startswith("const"):
            raise Unreadable(f"line {line}: a non-const reference")
        base = canonical(ty)
        if init is None:
            if base.startswith("vector") or array:
                return []
            if base in _DESCS:
                return self.construct(base, [], line)
            return _UNSET
        if init.kind == "construct" and init.a is None:  # T name(args)
            return self.held(ty, self.construct(ty, init.b, line), line)
        if init.kind == "brace" and not array:  # T name{args}
            return self.held(ty, self.construct(ty, init.a, line, brace=True), line)
        return self.held(ty, self.evaluate(init), line, array)

    def held(self, ty: str, value: Any, line: int, array: bool = False) -> Any:
        """``value`` as a variable of type ``ty`` holds it: a copy, numbers converted."""
        base = canonical(ty)
        if base.startswith("enum ") or base in self.enums:
            base = "int"
        if isinstance(value, list):
            if not (array or base.startswith("vector") or base == "auto"):
                raise Unreadable(f"line {line}: a brace list held as {ty}")
            elem = base[base.find("<") + 1 : base.rfind(">")] if "<" in base else "auto"
            if array:
                elem = base
            return [convert(v, elem) if isinstance(v, Value) and elem != "auto" else v for v in value]
        if base == "auto" or base in _DESCS or not isinstance(value, Value):
            return value
        return convert(value, base)

    @staticmethod
    def truth(v: Any, line: int) -> bool:
        if isinstance(v, Value) and v.ctype != "string":
            return bool(v.value)
        raise Unreadable(f"line {line}: a condition on a {type(v).__name__}")

    # -- expressions -----------------------------------------------------------------------------

    def evaluate(self, n: Node) -> Any:
        return getattr(self, f"_e_{n.kind}")(n)

    def _e_lit(self, n: Node) -> Any:
        return n.a

    def _e_name(self, n: Node) -> Any:
        return self.lookup(n.a, n.line)

    def _e_brace(self, n: Node) -> Any:
        return [self.evaluate(x) for x in n.a]

    def _e_construct(self, n: Node) -> Any:  # T{a, b}
        return self.construct(n.a, n.b, n.line, brace=True)

    def _e_cast(self, n: Node) -> Any:
        v = self.evaluate(n.b)
        ty = n.a.removeprefix("enum ")
        if not isinstance(v, Value):
            raise Unreadable(f"line {n.line}: a cast of a {type(v).__name__} to {n.a}")
        return convert(v, "int" if ty in self.enums else ty)

    def _e_addr(self, n: Node) -> Any:
        if n.a.kind != "name":
            raise Unreadable(f"line {n.line}: the address of an expression")
        return ("addr", n.a.a)

    def _e_unary(self, n: Node) -> Any:
        op = n.a
        if op in ("++", "--"):
            return self._increment(n.b, op, n.line, post=False)
        v = self.evaluate(n.b)
        if not isinstance(v, Value) or not isinstance(v.value, (int, float)):
            raise Unreadable(f"line {n.line}: unary {op} on {v!r}")
        if op == "!":
            return Value("bool", not v.value)
        ty = _arith_type(v.ctype, "int")
        if op == "~":
            return convert(Value(ty, ~int(v.value)), ty)
        return convert(Value(ty, -v.value if op == "-" else v.value), ty)

    def _e_post(self, n: Node) -> Any:
        return self._increment(n.b, n.a, n.line, post=True)

    def _increment(self, target: Node, op: str, line: int, post: bool) -> Any:
        if target.kind != "name":
            raise Unreadable(f"line {line}: {op} on an expression")
        old = self.lookup(target.a, line)
        if not isinstance(old, Value) or not isinstance(old.value, int):
            raise Unreadable(f"line {line}: {op} on {old!r}")
        new = convert(Value(old.ctype, old.value + (1 if op == "++" else -1)), old.ctype)
        self.assign(target.a, new, line)
        return old if post else new

    def _e_cond(self, n: Node) -> Any:
        return self.evaluate(n.b) if self.truth(self.evaluate(n.a), n.line) else self.evaluate(n.c)

    def _e_binary(self, n: Node) -> Any:
        op = n.a
        if op == "<<":  # cout << ...
            left = n.b
            while left.kind == "binary" and left.a == "<<":
                left = left.b
            if left.kind == "name" and left.a in ("cout", "cerr"):
                return None
        if op in ("&&", "||"):
            first = self.truth(self.evaluate(n.b), n.line)
            if first == (op == "||"):
                return Value("bool", first)
            return Value("bool", self.truth(self.evaluate(n.c), n.line))
        a, b = self.evaluate(n.b), self.evaluate(n.c)
        if not (isinstance(a, Value) and isinstance(b, Value)):
            raise Unreadable(f"line {n.line}: {op} on a {type(a).__name__} and a {type(b).__name__}")
        platform = ("SocVersion", "NpuArch")
        if op in ("==", "!="):
            if (a.ctype in platform) != (b.ctype in platform):
                raise Unreadable(f"line {n.line}: a {a.ctype} compared with a {b.ctype}")
            return Value("bool", (a.value == b.value) == (op == "=="))
        if not (isinstance(a.value, (int, float)) and isinstance(b.value, (int, float))) or a.ctype in platform:
            raise Unreadable(f"line {n.line}: {op} on {a.ctype} and {b.ctype}")
        x, y = a.value, b.value
        if op in ("<", ">", "<=", ">="):
            return Value("bool", {"<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op])
        ty = _arith_type(canonical(a.ctype), canonical(b.ctype))
        if op in ("/", "%") and y == 0:
            raise Unreadable(f"line {n.line}: division by zero")
        if ty in _FLOATS:
            if op not in ("+", "-", "*", "/"):
                raise Unreadable(f"line {n.line}: {op} on {ty}")
            return convert(Value(ty, {"+": x + y, "-": x - y, "*": x * y, "/": x / y if y else 0.0}[op]), ty)
        x, y = int(x), int(y)
        quotient = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1) if y else 0  # C++ truncates
        r = {
            "+": x + y,
            "-": x - y,
            "*": x * y,
            "/": quotient,
            "%": x - y * quotient,
            "&": x & y,
            "|": x | y,
            "^": x ^ y,
        }
        return convert(Value(ty, r[op]), ty)

    def _e_assign(self, n: Node) -> Any:
        value = self.evaluate(n.c)
        target = n.b
        if n.a != "=":
            value = self._e_binary(Node("binary", n.line, n.a[0], target, Node("lit", n.line, value)))
        if target.kind == "name":
            new = self._assigned(self._peek_var(target.a), value)
            self.assign(target.a, new, n.line)
            return new
        if target.kind == "index" and target.a.kind == "name":
            seq = self.lookup(target.a.a, n.line)
            i = self.evaluate(target.b)
            if not (
                isinstance(seq, list) and isinstance(i, Value) and isinstance(i.value, int) and 0 <= i.value < len(seq)
            ):
                raise Unreadable(f"line {n.line}: an indexed assignment")
            seq[i.value] = self._assigned(seq[i.value], value)
            return seq[i.value]
        raise Unreadable(f"line {n.line}: an assignment to a {target.kind}")

    def _peek_var(self, name: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    @staticmethod
    def _assigned(old: Any, value: Any) -> Any:
        """``value`` stored where ``old`` was: converted to the variable's type."""
        if isinstance(old, Value) and isinstance(value, Value):
            return convert(value, old.ctype)
        return value

    def _e_index(self, n: Node) -> Any:
        seq, i = self.evaluate(n.a), self.evaluate(n.b)
        if not (isinstance(seq, list) and isinstance(i, Value) and isinstance(i.value, int)):
            raise Unreadable(f"line {n.line}: an index into a {type(seq).__name__}")
        if not 0 <= i.value < len(seq):
            raise Unreadable(f"line {n.line}: index {i.value} out of range")
        return seq[i.value]

    def _e_member(self, n: Node) -> Any:
        raise Unreadable(f"line {n.line}: member {n.b!r} read")

    def _e_call(self, n: Node) -> Any:
        callee = n.a
        if callee.kind == "member":
            return self.method(callee.a, callee.b, n.b, n.line)
        if callee.kind != "name":
            raise Unreadable(f"line {n.line}: a call of a {callee.kind}")
        name = callee.a
        if name in _IGNORED_CALLS:
            return None
        if name == "OP_API_UT":
            return self.op_api_ut(n.b, n.line)
        if name in ("SetPlatformSocVersion", "SetPlatformNpuArch"):
            (v,) = [self.evaluate(a) for a in n.b]
            soc = v.value if v.ctype == "SocVersion" else ARCH_SOCS.get(v.value) if v.ctype == "NpuArch" else None
            if soc is None:
                raise Unreadable(f"line {n.line}: {name}({v})")
            self.soc = soc
            return None
        if name == "GetCurrentPlatformInfo":
            return Platform()
        if name in ("EXPECT_EQ", "ASSERT_EQ", "EXPECT_NE", "ASSERT_NE"):
            return self.expectation(name, n.b, n.line)
        if name in ("EXPECT_TRUE", "EXPECT_FALSE", "ASSERT_TRUE", "ASSERT_FALSE"):
            (v,) = [self.evaluate(a) for a in n.b]  # about a phase-1 call: unreadable on the way
            return None
        if is_type_name(name, self.enums):  # T(args)
            return self.construct(name, n.b, n.line)
        raise Unreadable(f"line {n.line}: a call of {name}()")

    # -- the UT's objects ------------------------------------------------------------------------

    def construct(self, ty: str, arg_nodes: Sequence[Node], line: int, brace: bool = False) -> Any:
        """``ty(args)``, or ``ty{args}`` when ``brace``."""
        base = canonical(ty)
        args = [self.evaluate(a) for a in arg_nodes]
        if base == "TensorDesc":
            return self.tensor_desc(args, line)
        if base == "ScalarDesc":
            return self.scalar_desc(args, line)
        if base in ("IntArrayDesc", "BoolArrayDesc", "FloatArrayDesc"):
            kind = base.removesuffix("ArrayDesc").lower()
            if len(args) == 2 and isinstance(args[0], Value):  # (count, value)
                values = [args[1]] * int(args[0].value)
            elif len(args) == 1 and isinstance(args[0], list):
                values = args[0]
            else:
                raise Unreadable(f"line {line}: {base}({args!r})")
            elem = {"int": "long", "bool": "bool", "float": "float"}[kind]
            return Array(kind, tuple(convert(v, elem).value for v in values))
        if base.startswith("vector"):
            elem = base[base.find("<") + 1 : base.rfind(">")]
            if brace:  # vector<T>{a, b, c}
                items = args
            elif len(args) == 1 and isinstance(args[0], list):  # a copy, or vector<T>({a, b})
                items = args[0]
            elif len(args) == 2 and isinstance(args[0], Value):  # vector<T>(count, value)
                items = [args[1]] * int(args[0].value)
            else:
                raise Unreadable(f"line {line}: {ty}({args!r})")
            return [convert(v, elem) if isinstance(v, Value) else v for v in items]
        if base in _INT_BITS or base in _FLOATS or base == "bool" or base in _ENUMS:
            if len(args) != 1 or not isinstance(args[0], Value):
                raise Unreadable(f"line {line}: {base}({args!r})")
            return convert(args[0], base)
        raise Unreadable(f"line {line}: a {ty} object")

    @staticmethod
    def tensor_desc(args: list[Any], line: int) -> Tensor:
        if len(args) == 1 and isinstance(args[0], Tensor):
            return args[0]  # the copy constructor
        if len(args) > 6:
            raise Unreadable(f"line {line}: TensorDesc with {len(args)} arguments")

        def dims(v: Any, what: str) -> tuple[int, ...]:
            if not isinstance(v, list) or not all(isinstance(x, Value) and isinstance(x.value, int) for x in v):
                raise Unreadable(f"line {line}: TensorDesc {what} {v!r}")
            return tuple(convert(x, "long").value for x in v)

        def enum(v: Any, ctype: str) -> int:
            if not (isinstance(v, Value) and v.ctype == ctype):
                raise Unreadable(f"line {line}: TensorDesc {ctype} {v!r}")
            return int(v.value)

        t = Tensor()
        if len(args) > 0:
            t = replace(t, shape=dims(args[0], "dims"))
        if len(args) > 1:
            t = replace(t, dtype=enum(args[1], "aclDataType"))
        if len(args) > 2:
            t = replace(t, format=enum(args[2], "aclFormat"))
        if len(args) > 3:
            t = replace(t, strides=dims(args[3], "strides") or None)
        if len(args) > 4:
            if not (isinstance(args[4], Value) and isinstance(args[4].value, int)):
                raise Unreadable(f"line {line}: TensorDesc offset {args[4]!r}")
            t = replace(t, offset=convert(args[4], "long").value)
        if len(args) > 5:
            t = replace(t, storage_shape=dims(args[5], "storage dims") or None)
        return t

    def scalar_desc(self, args: list[Any], line: int) -> Scalar:
        if len(args) == 2:  # ScalarDesc(float val, aclDataType dtype): it asserts ACL_FLOAT or ACL_FLOAT16
            v, dt = args
            if not (isinstance(v, Value) and isinstance(dt, Value) and dt.ctype == "aclDataType"):
                raise Unreadable(f"line {line}: ScalarDesc({args!r})")
            if dt.value not in (int(aclnn_py.ACL_FLOAT), int(aclnn_py.ACL_FLOAT16)):
                raise Unreadable(f"line {line}: ScalarDesc of {dt}, which its constructor asserts against")
            return Scalar(dt.value, convert(v, "float").value)
        if len(args) != 1 or not isinstance(args[0], Value):
            raise Unreadable(f"line {line}: ScalarDesc({args!r})")
        v = args[0]
        ctype = "int" if v.ctype in _ENUMS or v.ctype.startswith("enum ") else canonical(v.ctype)
        dtype = _SCALAR_DTYPES.get(ctype)
        if dtype is None:  # long long, char, long double: no constructor matches exactly
            raise Unreadable(f"line {line}: ScalarDesc of a {v.ctype}, which picks no constructor exactly")
        return Scalar(int(getattr(aclnn_py, dtype)), convert(v, ctype).value)

    def method(self, recv: Node, name: str, arg_nodes: Sequence[Node], line: int) -> Any:
        obj = self.evaluate(recv)
        if isinstance(obj, Tensor):
            if name in _PRECISION_ONLY:
                return obj
            if name in ("ViewDims", "Format") and len(arg_nodes) == 1:
                arg = self.evaluate(arg_nodes[0])
                if name == "ViewDims":
                    new = replace(obj, shape=self.tensor_desc([arg], line).shape)
                else:
                    new = replace(obj, format=self.tensor_desc([[], Value("aclDataType", obj.dtype), arg], line).format)
                if recv.kind == "name":  # desc.ViewDims(...) changes desc
                    self.assign(recv.a, new, line)
                return new
        if isinstance(obj, UT):
            if name in ("TestGetWorkspaceSize", "TestGetWorkspaceSizeWithNNopbaseInner"):
                return self.phase1(obj, arg_nodes, line)
            if name == "TestPrecision":
                obj.used = obj.used or "precision"
                return None
        if isinstance(obj, Platform) and name == "GetSocVersion":
            if self.soc is None:
                raise Unreadable(f"line {line}: the SoC, which an earlier unreadable test may have changed")
            return Value("SocVersion", self.soc)
        if isinstance(obj, list) and name in ("size", "empty", "push_back", "emplace_back"):
            if name == "size":
                return Value("unsigned long", len(obj))
            if name == "empty":
                return Value("bool", not obj)
            obj.append(self.evaluate(arg_nodes[0]))
            return None
        raise Unreadable(f"line {line}: a call of {type(obj).__name__}.{name}()")

    def op_api_ut(self, arg_nodes: Sequence[Node], line: int) -> UT:
        if len(arg_nodes) < 3 or arg_nodes[0].kind != "name":
            raise Unreadable(f"line {line}: OP_API_UT with {len(arg_nodes)} arguments")

        def group(node: Node, macro: str) -> list[Node]:
            if not (node.kind == "call" and node.a.kind == "name" and node.a.a == macro):
                raise Unreadable(f"line {line}: OP_API_UT without {macro}(...)")
            return list(node.b)

        args = []
        for node in [*group(arg_nodes[1], "INPUT"), *group(arg_nodes[2], "OUTPUT"), *arg_nodes[3:]]:
            v = self.evaluate(node)
            if not isinstance(v, (Tensor, Scalar, Array, Value)):
                raise Unreadable(f"line {line}: a {type(v).__name__} passed to OP_API_UT")
            args.append(v)
        ut = UT(arg_nodes[0].a, tuple(args), line)
        self.uts.append(ut)
        return ut

    def phase1(self, ut: UT, arg_nodes: Sequence[Node], line: int) -> Status:
        ws = self.evaluate(arg_nodes[0]) if arg_nodes else None
        if not (isinstance(ws, tuple) and ws[0] == "addr"):
            raise Unreadable(f"line {line}: TestGetWorkspaceSize without &workspaceSize")
        if self.soc is None:
            raise Unreadable(f"line {line}: the SoC, which an earlier unreadable test may have changed")
        init = self.lookup(ws[1], line)
        ut.used = "phase1"
        call = Call(ut.api, ut.args, self.soc, line, int(init.value) if isinstance(init, Value) else None)
        self.calls.append(call)
        self.assign(ws[1], WorkspaceOut(call), line)
        return Status(call)

    def expectation(self, macro: str, arg_nodes: Sequence[Node], line: int) -> None:
        if len(arg_nodes) != 2:
            raise Unreadable(f"line {line}: {macro} with {len(arg_nodes)} arguments")
        a, b = (self.evaluate(x) for x in arg_nodes)
        if isinstance(b, (Status, WorkspaceOut)):
            a, b = b, a
        if not isinstance(a, (Status, WorkspaceOut)):
            return None  # not about phase 1
        if not (isinstance(b, Value) and isinstance(b.value, int) and b.ctype not in ("bool", "SocVersion")):
            raise Unreadable(f"line {line}: {macro} of a phase-1 result and {b!r}")
        op = "==" if macro.endswith("_EQ") else "!="
        if isinstance(a, Status):
            if a.call.status is not None:
                raise Unreadable(f"line {line}: a second assertion on one call's status")
            a.call.status = (op, b.value)
        elif op == "==":
            a.call.workspace = b.value
        else:
            raise Unreadable(f"line {line}: {macro} on the workspace size")
        return None


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------


@dataclass
class _Test:
    suite: str
    name: str
    line: int
    body: list[Tok]


@dataclass
class _Outline:
    """A file's tests, its fixtures' SetUp / TearDown bodies and its enumerators."""

    tests: list[_Test] = field(default_factory=list)
    fixtures: dict[str, dict[str, list[Tok]]] = field(default_factory=dict)  # class -> method -> body
    enumerators: dict[str, Value] = field(default_factory=dict)
    stray: list[tuple[int, str]] = field(default_factory=list)  # (line, API) of an OP_API_UT outside a test


_FIXTURE_METHODS = ("SetUp", "TearDown", "SetUpTestCase", "TearDownTestCase", "SetUpTestSuite", "TearDownTestSuite")


def _block(toks: Sequence[Tok], i: int) -> tuple[list[Tok], int]:
    """The tokens inside the braces opening at toks[i], and the index after the closing one."""
    if toks[i].text != "{":
        raise Unreadable(f"line {toks[i].line}: expected '{{', found {toks[i].text!r}")
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind == "op" and toks[j].text in ("{", "}"):
            depth += 1 if toks[j].text == "{" else -1
            if depth == 0:
                return list(toks[i + 1 : j]), j + 1
    raise Unreadable(f"line {toks[i].line}: unterminated block")


def _outline(toks: Sequence[Tok]) -> _Outline:
    out = _Outline()
    i = 0
    while toks[i].kind != END:
        t = toks[i]
        texts = [x.text for x in toks[i + 1 : i + 6]]
        if (
            t.kind == "name"
            and t.text in ("TEST_F", "TEST")
            and texts[0] == "("
            and texts[2] == ","
            and texts[4] == ")"
        ):
            body, i = _block(toks, i + 6)
            out.tests.append(_Test(texts[1], texts[3], t.line, body))
        elif t.kind == "name" and t.text in ("class", "struct") and toks[i + 1].kind == "name":
            name = toks[i + 1].text
            j = i + 2
            while toks[j].text not in ("{", ";") and toks[j].kind != END:
                j += 1
            if toks[j].text != "{":
                i = j
                continue
            inner, i = _block(toks, j)
            out.fixtures[name] = _methods(inner)
        elif t.kind == "name" and t.text == "enum":
            j = i + 1 + (toks[i + 1].text in ("class", "struct"))
            type_name = toks[j].text if toks[j].kind == "name" else ""
            while toks[j].text not in ("{", ";") and toks[j].kind != END:
                j += 1
            if toks[j].text != "{":
                i = j
                continue
            inner, i = _block(toks, j)
            out.enumerators.update(_enumerators(inner, type_name))
        else:
            if t.text == "OP_API_UT" and toks[i + 1].text == "(":
                out.stray.append((t.line, toks[i + 2].text))
            i += 1
    return out


def _methods(toks: Sequence[Tok]) -> dict[str, list[Tok]]:
    """A fixture class's SetUp / TearDown / SetUpTestCase / TearDownTestCase bodies."""
    out = {}
    for i, t in enumerate(toks[:-1]):
        if t.kind == "name" and t.text in _FIXTURE_METHODS and toks[i + 1].text == "(":
            j = i + 2
            while j < len(toks) and toks[j].text not in ("{", ";"):
                j += 1
            if j < len(toks) and toks[j].text == "{":
                out[t.text.replace("TestSuite", "TestCase")] = _block(toks, j)[0]
    return out


def _enumerators(toks: Sequence[Tok], type_name: str) -> dict[str, Value]:
    """``enum T { A, B = 3, C }``'s enumerators (an unnamed enum's are plain ints)."""
    out: dict[str, Value] = {}
    value = -1
    for item in " ".join(t.text for t in toks).split(","):
        if not item.strip():
            continue
        name, _, expr = item.partition("=")
        if expr.strip():
            v = Interpreter(out, None).evaluate(Parser(tokenize(expr)).expression())
            if not isinstance(v, Value) or not isinstance(v.value, int):
                raise Unreadable(f"enumerator {name.strip()} = {expr.strip()}")
            value = v.value
        else:
            value += 1
        out[name.strip()] = Value(f"enum {type_name}" if type_name else "int", value)
    return out


_OP_API_UT = re.compile(r"\bOP_API_UT\s*\(\s*(\w+)\s*,")


def read_file(path: Path, root: Path, apis: Mapping[str, int]) -> tuple[list[Case], list[Skipped]]:
    """The cases of one UT file, in gtest's order: the phase-1 calls of the APIs in ``apis``
    (name -> the number of phase-1 parameters before workspaceSize and executor)."""
    rel = path.relative_to(root).as_posix()
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        toks = tokenize(text)
        outline = _outline(toks)
    except Unreadable as e:
        in_file = tuple(a for a in _OP_API_UT.findall(strip_comments(text)) if a in apis)
        return [], [Skipped(rel, rel, 1, in_file, f"the file: {e}")] if in_file else []
    cases: list[Case] = []
    skipped: list[Skipped] = []
    for line, api in outline.stray:
        if api in apis:
            skipped.append(Skipped(f"{rel}@{line}", rel, line, (api,), f"line {line}: an OP_API_UT outside a TEST_F"))

    def parse(body: Sequence[Tok]) -> list[Stmt]:
        return Parser(body, Interpreter(outline.enumerators, None).enums).statements()

    def named(body: Sequence[Tok]) -> tuple[str, ...]:
        return tuple(
            body[k + 2].text for k in range(len(body) - 2) if body[k].text == "OP_API_UT" and body[k + 2].text in apis
        )

    soc: str | None = STUB_DEFAULT_SOC

    def fixture(suite: str, method: str) -> None:
        nonlocal soc
        body = outline.fixtures.get(suite, {}).get(method)
        if body:
            interp = Interpreter(outline.enumerators, soc)
            try:
                interp.run(parse(body))
                soc = interp.soc
            except Unreadable:
                soc = None

    suites: dict[str, list[_Test]] = {}  # gtest runs suite by suite, in the order they first appear
    for t in outline.tests:
        suites.setdefault(t.suite, []).append(t)
    for suite, tests in suites.items():
        fixture(suite, "SetUpTestCase")
        for t in tests:
            test_id = f"{rel}::{t.name}"
            apis_in = named(t.body)
            if t.name.startswith("DISABLED_") or suite.startswith("DISABLED_"):
                if apis_in:
                    skipped.append(Skipped(test_id, rel, t.line, apis_in, "DISABLED_ in gtest", "disabled"))
                continue
            fixture(suite, "SetUp")
            interp = Interpreter(outline.enumerators, soc)
            try:
                interp.run(parse(t.body))
            except Unreadable as e:
                if apis_in:
                    skipped.append(Skipped(test_id, rel, t.line, apis_in, str(e)))
                if any(tok.text in ("SetPlatformSocVersion", "SetPlatformNpuArch") for tok in t.body):
                    soc = None  # the SoC from here on is not known
            else:
                soc = interp.soc
                cases_and_skips = _calls(test_id, rel, interp, apis)
                cases += [c for c in cases_and_skips if isinstance(c, Case)]
                skipped += [c for c in cases_and_skips if isinstance(c, Skipped)]
            fixture(suite, "TearDown")
        fixture(suite, "TearDownTestCase")
    return cases, skipped


def _calls(test_id: str, rel: str, interp: Interpreter, apis: Mapping[str, int]) -> list[Case | Skipped]:
    out: list[Case | Skipped] = []
    for ut in interp.uts:
        if ut.api in apis and ut.used != "phase1":
            why = "TestPrecision only" if ut.used == "precision" else "never called"
            out.append(
                Skipped(f"{test_id}@{ut.line}", rel, ut.line, (ut.api,), f"no phase-1 call ({why})", "unchecked")
            )
    calls = [c for c in interp.calls if c.api in apis]
    for k, c in enumerate(calls):
        cid = test_id if len(calls) == 1 else f"{test_id}#{k + 1}"
        if c.status is None:
            out.append(Skipped(cid, rel, c.line, (c.api,), "no assertion on its status", "unchecked"))
        elif len(c.args) != apis[c.api]:
            out.append(Skipped(cid, rel, c.line, (c.api,), f"{len(c.args)} arguments for {apis[c.api]} parameters"))
        else:
            soc = SOC_NAMES.get(c.soc, c.soc)
            init, workspace = (c.workspace_init, c.workspace) if c.workspace_init is not None else (0, None)
            out.append(Case(cid, rel, c.line, soc, c.api, c.args, c.status, init, workspace))
    return out


def _built(path: Path) -> bool:
    """Whether CANN's CMake compiles this file into its op_api UT binary (see the docstring)."""
    if not path.name.startswith("test_aclnn_"):
        return False
    parts = path.parent.parts
    if parts[-3:] == ("tests", "ut", "op_api"):
        return True
    if parts[-3:] != ("tests", "ut", "op_host") and parts[-4:] != ("tests", "ut", "op_host", "op_api"):
        return False
    for repo in path.parents:
        func = repo / "cmake" / "func.cmake"
        if func.is_file():
            return "op_host/op_api" in func.read_text(encoding="utf-8", errors="replace")
    return False


def find_files(root: Path, apis: Iterable[str]) -> list[Path]:
    """The op_api UT sources under ``root`` that CANN builds (none under ``experimental``) and
    that construct an OP_API_UT of one of ``apis``."""
    wanted = set(apis)
    out = []
    for path in sorted(root.rglob("tests/ut/**/test_aclnn_*.cpp")):
        if "experimental" in path.relative_to(root).parts or not _built(path):
            continue
        if wanted & set(_OP_API_UT.findall(strip_comments(path.read_text(encoding="utf-8", errors="replace")))):
            out.append(path)
    return out


def read_tree(root: Path, apis: Mapping[str, int]) -> tuple[list[Case], list[Skipped]]:
    """Every case of every UT file under ``root`` that calls one of ``apis``."""
    cases: list[Case] = []
    skipped: list[Skipped] = []
    for path in find_files(root, apis):
        c, s = read_file(path, root, apis)
        cases += c
        skipped += s
    return cases, skipped


def count_calls(cases: Iterable[Case], skipped: Iterable[Skipped]) -> Iterator[tuple[str, int, int]]:
    """(api, read, unreadable) per API: the phase-1 calls with an assertion that are replayed,
    and the OP_API_UTs of the tests that could not be read."""
    read: dict[str, int] = {}
    unreadable: dict[str, int] = {}
    for c in cases:
        read[c.api] = read.get(c.api, 0) + 1
    for s in skipped:
        if s.kind == "unreadable":
            for api in s.apis:
                unreadable[api] = unreadable.get(api, 0) + 1
    for api in sorted(read.keys() | unreadable.keys()):
        yield api, read.get(api, 0), unreadable.get(api, 0)


if __name__ == "__main__":
    import sys
    from collections import Counter

    from aclnn_py.ops import registry

    all_cases, all_skipped = read_tree(Path(sys.argv[1]), {a.name: len(a.params) for a in registry.APIS})
    for c in all_cases:
        print(c.id, "|", c.describe())
    for s in all_skipped:
        print("SKIP", s.kind, s.id, "|", s.reason)
    for api, r, u in count_calls(all_cases, all_skipped):
        print(f"{api:36} read {r:4}  unreadable {u:4}")
    print(Counter((s.kind, re.sub(r"line \d+: ", "", s.reason)) for s in all_skipped).most_common(20))
