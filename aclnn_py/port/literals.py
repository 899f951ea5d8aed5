"""C literals as Python literals with the same value, and C's printf formats checked."""

from __future__ import annotations

import math
import re
import struct
from fractions import Fraction

from .ctype import DOUBLE, FLOAT, INT, CType, int_type

_INT_RE = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|0[0-7']*|[1-9][0-9']*)([uUlLzZ]*)")


class LiteralError(ValueError):
    pass


def int_literal(text: str) -> tuple[int, CType, str]:
    """(value, C type, Python text) of an integer literal (C's rules for its type)."""
    m = _INT_RE.fullmatch(text)
    if m is None:
        raise LiteralError("an integer literal the tool cannot read")
    digits, suffix = m.group(1).replace("'", ""), m.group(2).lower()
    if digits.startswith(("0x", "0X")):
        value, py, decimal = int(digits, 16), "0x" + digits[2:].lower(), False
    elif digits.startswith(("0b", "0B")):
        value, py, decimal = int(digits[2:], 2), "0b" + digits[2:], False
    elif len(digits) > 1 and digits.startswith("0"):
        value, py, decimal = int(digits, 8), "0o" + digits[1:], False
    else:
        value, py, decimal = int(digits), digits, True
    unsigned = "u" in suffix
    longs = suffix.count("l")
    if "z" in suffix:
        raise LiteralError("a size_t literal suffix (z) is not translated")
    candidates: list[str]
    if unsigned:
        candidates = ["unsigned int", "unsigned long", "unsigned long long"][min(longs, 2) if longs else 0 :]
    elif decimal:
        candidates = ["int", "long", "long long"][min(longs, 2) :]
    else:
        candidates = ["int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long"][
            2 * min(longs, 2) :
        ]
    for name in candidates:
        t = int_type(name)
        hi = 2 ** (t.bits - 1) - 1 if t.signed else 2**t.bits - 1
        if value <= hi:
            return value, (INT if name == "int" else t), py
    raise LiteralError("an integer literal too large for any C integer type")


def float32_round(x: Fraction) -> float:
    """The binary32 value nearest to ``x`` (ties to even), as C converts a decimal ``f`` literal."""
    if x == 0:
        return 0.0
    sign = -1.0 if x < 0 else 1.0
    x = abs(x)
    e = math.floor(math.log2(x.numerator) - math.log2(x.denominator))
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    e = max(e, -126)  # subnormals keep the exponent of the smallest normal
    scale = Fraction(2) ** (e - 23)
    q = x / scale
    n = math.floor(q)
    rest = q - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    value = float(n * scale)
    if value > 3.4028234663852886e38:
        return sign * math.inf
    return sign * value


def float_literal(text: str) -> tuple[float, CType, str, float]:
    """(C value, C type, Python text, value as written) of a floating literal. For a ``float``
    literal the C value is the decimal rounded once to binary32."""
    body = text.replace("'", "")
    suffix = ""
    if body[-1] in "fFlL":
        suffix, body = body[-1].lower(), body[:-1]
    if suffix == "l":
        raise LiteralError("a long double literal: Python has no long double")
    if body.lower().startswith("0x"):
        written = float.fromhex(body)
        exact = Fraction(written)
        py = f'float.fromhex("{body}")'
    else:
        written = float(body)
        exact = Fraction(body)
        py = body
    if suffix == "f":
        value = float32_round(exact)
        return value, FLOAT, py, written
    return written, DOUBLE, py, written


def f32(x: float) -> float:
    """``x`` rounded to binary32 (as numpy does it)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)


def py_float(value: float) -> str:
    """A Python literal for a float value (repr, with inf and nan spelled out)."""
    if math.isnan(value):
        return 'float("nan")'
    if math.isinf(value):
        return 'float("inf")' if value > 0 else '-float("inf")'
    return repr(value)


# -- strings ---------------------------------------------------------------------------------------

_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}


def c_string_value(body: str) -> str:
    """The characters of a C string literal's body (between the quotes), escapes decoded."""
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < len(body) else ""
        if nxt in "01234567":
            j = i + 1
            while j < len(body) and j < i + 4 and body[j] in "01234567":
                j += 1
            code = int(body[i + 1 : j], 8)
            i = j
        elif nxt == "x":
            j = i + 2
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            code = int(body[i + 2 : j], 16)
            i = j
        elif nxt in _SIMPLE:
            out.append(_SIMPLE[nxt])
            i += 2
            continue
        elif nxt in "uU":
            width = 4 if nxt == "u" else 8
            code = int(body[i + 2 : i + 2 + width], 16)
            out.append(chr(code))
            i += 2 + width
            continue
        else:
            raise LiteralError(f"the escape sequence \\{nxt} is not standard C")
        if code > 0x7F:
            raise LiteralError("a byte escape above 0x7f: Python strings are text, C's are bytes")
        out.append(chr(code))
    return "".join(out)


def py_string(value: str) -> str:
    """A double-quoted Python literal for ``value`` (non-ASCII text kept as it is)."""
    out = ['"']
    for c in value:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


# -- printf ----------------------------------------------------------------------------------------

_SPEC = re.compile(
    r"%(?P<flags>[-+ #0']*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d*))?(?P<len>hh|h|ll|l|L|q|j|z|t)?(?P<conv>.?)"
)
# what aclnn_py.porting.printf_format implements
SUPPORTED = set("diouxXeEfFgGcsp%")


def printf_conversions(fmt: str) -> list[tuple[str, int]]:
    """The arguments a printf format consumes, in order: (kind, bits) with kind ``int`` (also for a
    ``*``), ``float``, ``string``, ``pointer`` or ``char`` and the width in bits an integer
    conversion reads (32 for ``%d``, 64 for ``%ld``/``%zu``...). Raises LiteralError for a
    conversion glibc has and aclnn_py.porting does not (``%a``, ``%n``, ``%ls`` ...)."""
    kinds: list[tuple[str, int]] = []
    for m in _SPEC.finditer(fmt):
        conv = m.group("conv")
        if conv == "%":
            continue
        length = m.group("len") or ""
        if conv not in SUPPORTED or (length in ("L", "q", "j", "t") and conv not in "diouxX"):
            raise LiteralError(f"the printf conversion {m.group(0)!r} is not one aclnn_py.porting prints")
        if length == "l" and conv in "cs":
            raise LiteralError(f"the printf conversion {m.group(0)!r} (wide characters) is not translated")
        if "'" in m.group("flags"):
            raise LiteralError(f"the printf flag ' in {m.group(0)!r} depends on the locale")
        if m.group("width") == "*":
            kinds.append(("int", 32))
        if m.group("prec") == "*":
            kinds.append(("int", 32))
        bits = 64 if length in ("l", "ll", "q", "j", "z", "t") else 32
        if conv in "diouxX":
            kinds.append(("int", bits))
        elif conv in "eEfFgG":
            kinds.append(("float", 64))
        elif conv == "s":
            kinds.append(("string", 64))
        elif conv == "p":
            kinds.append(("pointer", 64))
        else:
            kinds.append(("char", 32))
    return kinds
