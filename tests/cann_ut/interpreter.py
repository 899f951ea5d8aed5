"""Running a test body: the Interpreter (the stub's SoC, the variables, the phase-1 calls made and
what the assertions say of them) and the objects of the UT harness it makes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import aclnn_py

from .lexer import _DESCS, _ENUMS, _FLOATS, _INT_BITS, _SCALAR_DTYPES, _arith_type, canonical, convert, is_type_name
from .model import ARCH_SOCS, Arg, Array, Scalar, Tensor, Unreadable, Value
from .parser import Node, Stmt

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
