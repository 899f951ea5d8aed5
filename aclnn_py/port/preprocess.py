"""The preprocessor's part: the program's macros, classified and, where a port needs it, expanded.

The C preprocessor works on tokens, before the compiler parses anything; so does this module. A
function-like macro whose body only forwards its parameters to a function (``#define
LOG_PRINT(message, ...) printf(message, ##__VA_ARGS__)``) is an *alias*: the port defines
``LOG_PRINT = printf`` and keeps every call. Any other function-like macro (``CHECK_RET(cond,
return_expr)``, whose argument is a statement) is *expanded* where it is used, exactly as ``cpp``
would, keeping the invocation on its source lines; the expansion is then parsed with the rest of the
program and translated like hand-written C++ (``CHECK_RET`` becomes ``if not (cond): return_expr``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import cparse
from .errors import Refused

_PREFIXES = {"L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R"}
_PUNCT3 = {"...", "<<=", ">>=", "->*"}
_PUNCT2 = {
    "::",
    "->",
    "##",
    "++",
    "--",
    "<<",
    ">>",
    "<=",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
    ".*",
}


@dataclass(frozen=True)
class Tok:
    kind: str  # id num str chr punct comment ws nl directive
    text: str
    start: int
    end: int


def lex(src: str, directives: bool = True) -> list[Tok]:
    """C++ preprocessing tokens of ``src``, with whitespace, newlines, comments and (unless
    ``directives`` is false, as in a macro's body) directive lines kept as tokens so that the text
    can be rebuilt exactly."""
    toks: list[Tok] = []
    i, n = 0, len(src)
    line_start = directives
    while i < n:
        c = src[i]
        start = i
        if c == "\n":
            toks.append(Tok("nl", c, i, i + 1))
            i += 1
            line_start = directives
            continue
        if c == "\\" and src.startswith("\\\n", i):
            toks.append(Tok("ws", "\\\n", i, i + 2))
            i += 2
            continue
        if c in " \t\r\f\v":
            while i < n and src[i] in " \t\r\f\v":
                i += 1
            toks.append(Tok("ws", src[start:i], start, i))
            continue
        if src.startswith("//", i):
            while i < n and src[i] != "\n":
                i += 2 if src.startswith("\\\n", i) else 1
            toks.append(Tok("comment", src[start:i], start, i))
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            toks.append(Tok("comment", src[start:i], start, i))
            continue
        if c == "#" and line_start:
            while i < n and src[i] != "\n":
                if src.startswith("\\\n", i):
                    i += 2
                elif src.startswith("/*", i):
                    j = src.find("*/", i + 2)
                    i = n if j < 0 else j + 2
                else:
                    i += 1
            toks.append(Tok("directive", src[start:i], start, i))
            continue
        line_start = False
        if c.isalpha() or c == "_":
            while i < n and (src[i].isalnum() or src[i] == "_"):
                i += 1
            word = src[start:i]
            if word in _PREFIXES and i < n and src[i] in "\"'":
                if word.endswith("R") and src[i] == '"':
                    open_paren = src.find("(", i)
                    delim = src[i + 1 : open_paren]
                    close = src.find(")" + delim + '"', open_paren)
                    i = n if close < 0 else close + len(delim) + 2
                    toks.append(Tok("str", src[start:i], start, i))
                else:
                    i = _quoted(src, i)
                    toks.append(Tok("str" if src[start + len(word)] == '"' else "chr", src[start:i], start, i))
                continue
            toks.append(Tok("id", word, start, i))
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            i += 1
            while i < n:
                if src[i] in "eEpP" and i + 1 < n and src[i + 1] in "+-":
                    i += 2
                elif src[i].isalnum() or src[i] in "._'":
                    i += 1
                else:
                    break
            toks.append(Tok("num", src[start:i], start, i))
            continue
        if c in "\"'":
            i = _quoted(src, i)
            toks.append(Tok("str" if c == '"' else "chr", src[start:i], start, i))
            continue
        for width, table in ((3, _PUNCT3), (2, _PUNCT2)):
            if src[i : i + width] in table:
                i += width
                break
        else:
            i += 1
        toks.append(Tok("punct", src[start:i], start, i))
    return toks


def _quoted(src: str, i: int) -> int:
    quote = src[i]
    i += 1
    while i < len(src) and src[i] != quote and src[i] != "\n":
        i += 2 if src[i] == "\\" else 1
    return i + 1


def _code(toks: list[Tok]) -> list[Tok]:
    return [t for t in toks if t.kind not in ("ws", "nl", "comment")]


# ---------------------------------------------------------------------------------------------
# the program's macros
# ---------------------------------------------------------------------------------------------


@dataclass
class Macro:
    """One ``#define``. ``kind``: ``alias`` (forwards to ``target``), ``expand`` (function-like,
    expanded where used), ``constant`` (object-like with a value), ``text`` (object-like, expanded
    where used), ``flag`` (object-like, empty)."""

    name: str
    params: list[str] | None  # None for an object-like macro
    variadic: bool
    body: str  # the replacement text on one line
    line: int
    kind: str = ""
    target: str = ""
    definition: str = ""  # the #define on one line, for the port's comment

    @property
    def signature(self) -> str:
        if self.params is None:
            return self.name
        return f"{self.name}({', '.join([*self.params, *(['...'] if self.variadic else [])])})"


def _unwrap_do_while(toks: list[Tok]) -> list[Tok]:
    """``do { X } while (0)`` -> ``X`` (the statement-macro idiom), with one trailing ``;`` dropped."""
    texts = [t.text for t in toks]
    if len(texts) >= 7 and texts[:2] == ["do", "{"] and texts[-5:] == ["}", "while", "(", "0", ")"]:
        toks = toks[2:-5]
    if toks and toks[-1].text == ";":
        toks = toks[:-1]
    return toks


def _alias_target(params: list[str], variadic: bool, body: list[Tok]) -> str | None:
    """The function a macro forwards to, if its body is ``f(p1, ..., pn[, ##__VA_ARGS__])``."""
    toks = _unwrap_do_while(body)
    i = 0
    name: list[str] = []
    while i < len(toks) and (toks[i].kind == "id" or toks[i].text == "::"):
        name.append(toks[i].text)
        i += 1
    if not name or name[-1] == "::" or i >= len(toks) or toks[i].text != "(" or toks[-1].text != ")":
        return None
    args = [t.text for t in toks[i + 1 : -1]]
    want: list[str] = []
    for k, p in enumerate(params):
        want += ([","] if k else []) + [p]
    if variadic:
        tail_forms = ([",", "##", "__VA_ARGS__"], [",", "__VA_ARGS__"]) if params else (["__VA_ARGS__"],)
        return "".join(name) if any(args == want + tail for tail in tail_forms) else None
    return "".join(name) if args == want else None


def collect_macros(tree_root: object, src: str) -> dict[str, Macro]:
    """The ``#define``s of a program (from its parse tree), classified."""
    from tree_sitter import Node

    assert isinstance(tree_root, Node)
    macros: dict[str, Macro] = {}
    for node in cparse.walk(tree_root):
        if node.type not in ("preproc_def", "preproc_function_def"):
            continue
        name = cparse.text(cparse.field(node, "name"))
        value = cparse.field(node, "value")
        body = cparse.text(value).replace("\\\r\n", " ").replace("\\\n", " ").strip()
        params: list[str] | None = None
        variadic = False
        if node.type == "preproc_function_def":
            params = []
            plist = cparse.field(node, "parameters")
            for p in plist.children if plist is not None else []:
                if p.type == "identifier":
                    params.append(cparse.text(p))
                elif p.type == "...":
                    variadic = True
                elif p.is_named and p.type != "comment":
                    raise Refused(cparse.line(node), cparse.snippet(node), "a macro parameter the tool cannot read")
        definition = " ".join(cparse.text(node).replace("\\\r\n", " ").replace("\\\n", " ").split())
        m = Macro(name, params, variadic, " ".join(body.split()), cparse.line(node), definition=definition)
        body_toks = _code(lex(m.body, directives=False))
        if params is None:
            if not body_toks:
                m.kind = "flag"
            elif (
                (len(body_toks) == 1 and body_toks[0].kind in ("num", "str", "chr"))
                or (len(body_toks) == 2 and body_toks[0].text == "-" and body_toks[1].kind == "num")
                or _is_parenthesized_number(body_toks)
            ):
                m.kind = "constant"
            else:
                m.kind = "text"
        else:
            target = _alias_target(params, variadic, body_toks)
            if target is not None:
                m.kind, m.target = "alias", target
            else:
                m.kind = "expand"
                if any(t.text in ("#", "##") for t in body_toks):
                    raise Refused(
                        m.line, m.definition, "a macro that stringizes (#) or pastes (##) tokens: no Python twin"
                    )
        macros[name] = m
    return macros


def _is_parenthesized_number(toks: list[Tok]) -> bool:
    texts = [t.text for t in toks]
    return (
        len(toks) in (3, 4)
        and texts[0] == "("
        and texts[-1] == ")"
        and toks[-2].kind == "num"
        and (len(toks) == 3 or texts[1] == "-")
    )


# ---------------------------------------------------------------------------------------------
# expansion
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expansion:
    """Where a macro invocation was replaced: its first character in the expanded text (row,
    UTF-8 byte column), the macro, and the invocation as written."""

    row: int
    col: int
    macro: str
    source: str


@dataclass
class Expanded:
    text: str
    expansions: list[Expansion] = field(default_factory=list)

    def at(self, row: int, col: int) -> Expansion | None:
        for e in self.expansions:
            if (e.row, e.col) == (row, col):
                return e
        return None


def expand(src: str, macros: dict[str, Macro]) -> Expanded:
    """``src`` with every invocation of an ``expand``/``text`` macro replaced by its expansion.
    Each replacement keeps the newlines of the invocation, so every other token stays on its row."""
    wanted = {n: m for n, m in macros.items() if m.kind in ("expand", "text", "flag")}
    if not wanted:
        return Expanded(src)
    out: list[str] = []
    expansions: list[Expansion] = []
    pos = 0
    for start, end, name, replacement in _invocations(src, wanted, frozenset()):
        out.append(src[pos:start])
        prefix = "".join(out)
        row = prefix.count("\n")
        col = len(prefix[prefix.rfind("\n") + 1 :].encode("utf-8"))
        expansions.append(Expansion(row, col, name, src[start:end]))
        out.append(replacement)
        pos = end
    out.append(src[pos:])
    return Expanded("".join(out), expansions)


def _invocations(src: str, macros: dict[str, Macro], active: frozenset[str]) -> list[tuple[int, int, str, str]]:
    toks = lex(src)
    found: list[tuple[int, int, str, str]] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        m = macros.get(t.text) if t.kind == "id" and t.text not in active else None
        if m is None:
            i += 1
            continue
        if m.params is None:
            found.append((t.start, t.end, m.name, _rescan(m.body, macros, active | {m.name})))
            i += 1
            continue
        j = i + 1
        while j < len(toks) and toks[j].kind in ("ws", "nl", "comment"):
            j += 1
        if j >= len(toks) or toks[j].text != "(":
            i += 1  # the name without arguments is not an invocation
            continue
        args, close = _arguments(src, toks, j)
        if close < 0:
            raise Refused(src.count("\n", 0, t.start) + 1, m.name, "the macro's arguments never close")
        invocation = src[t.start : toks[close].end]
        replacement = _substitute(m, args, src.count("\n", 0, t.start) + 1)
        replacement = _rescan(replacement, macros, active | {m.name})
        missing = invocation.count("\n") - replacement.count("\n")
        if missing > 0:
            replacement += "\n" * missing
        elif missing < 0:
            replacement = _drop_newlines(replacement, -missing)
        found.append((t.start, toks[close].end, m.name, replacement))
        i = close + 1
    return found


def _rescan(text: str, macros: dict[str, Macro], active: frozenset[str]) -> str:
    out: list[str] = []
    pos = 0
    for start, end, _name, replacement in _invocations(text, macros, active):
        out += [text[pos:start], replacement]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _drop_newlines(text: str, count: int) -> str:
    while count > 0 and "\n" in text:
        k = text.rfind("\n")
        text = text[:k] + " " + text[k + 1 :]
        count -= 1
    return text


def _arguments(src: str, toks: list[Tok], open_index: int) -> tuple[list[str], int]:
    """The raw argument texts of an invocation whose ``(`` is ``toks[open_index]`` (only
    parentheses nest, as in cpp), and the index of the closing ``)``."""
    depth = 0
    args: list[str] = []
    arg_start = toks[open_index].end
    for k in range(open_index, len(toks)):
        t = toks[k]
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                args.append(src[arg_start : t.start])
                return args, k
        elif t.text == "," and depth == 1:
            args.append(src[arg_start : t.start])
            arg_start = t.end
    return args, -1


def _substitute(m: Macro, args: list[str], line: int) -> str:
    assert m.params is not None
    if len(args) == 1 and not args[0].strip() and not m.params:
        args = []
    if len(args) < len(m.params) or (len(args) > len(m.params) and not m.variadic):
        raise Refused(line, m.name, f"{m.name} takes {len(m.params)} argument(s), the call passes {len(args)}")
    values = dict(zip(m.params, args))
    values["__VA_ARGS__"] = ",".join(args[len(m.params) :])
    used: set[str] = set()
    out: list[str] = []
    for t in lex(m.body, directives=False):
        if t.kind == "id" and t.text in values:
            arg = values[t.text]
            out.append(arg if t.text not in used else " ".join(arg.split()))
            used.add(t.text)
        else:
            out.append(t.text)
    return "".join(out)
