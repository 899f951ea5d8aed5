"""The tokens of a UT file, and the C++ types and values the interpreter computes with: numeric
literals, the type names, conversions and the usual arithmetic conversions."""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass

from .model import Unreadable, Value

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
