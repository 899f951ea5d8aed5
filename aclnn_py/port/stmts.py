"""Statements: assignments, if/for/while/do, return, and the comments between them (a declaration
statement is :mod:`.variables`'s).

A ``for`` that counts (``for (int64_t i = a; i < b; i++)``) becomes ``for i in range(a, b)``; a
``do { ... } while (0)`` (the statement-macro idiom) becomes its body; an ``if`` written on one line,
or expanded from a macro such as ``CHECK_RET``, stays on one line. Blank lines and comments keep
their places.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import TYPE_CHECKING

from . import cparse
from .ctype import INT, UNKNOWN, arithmetic
from .decl import Declared
from .emit import Out
from .errors import Refused
from .exprs import Cascade, _need
from .pyexpr import P_ADD, P_ATOM, P_MUL, PyExpr
from .scope import Sym
from .values import refuse
from .variables import Variables

if TYPE_CHECKING:
    from tree_sitter import Node

_LOOPS = ("for_statement", "for_range_loop", "while_statement", "do_statement", "switch_statement")


def comment_lines(raw: str) -> list[str]:
    """A C/C++ comment as the lines of Python comments (without the ``#``)."""
    if raw.startswith("//"):
        body = raw[2:]
        while body.startswith("/"):
            body = body[1:]
        return [body[1:] if body.startswith(" ") else body]
    body = raw[2:-2] if raw.endswith("*/") else raw[2:]
    lines = body.split("\n")
    out: list[str] = []
    for i, ln in enumerate(lines):
        s = ln.rstrip()
        if i > 0:
            s = s.lstrip()
            if s.startswith("*"):
                s = s[1:]
        elif s.startswith("*"):
            s = s[1:]
        s = s[1:] if s.startswith(" ") else s
        out.append(s)
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


class Stmts(Variables):
    in_macro = 0
    partial_lines = True

    # -- blocks ----------------------------------------------------------------------------------
    def body(self, node: Node, indent: int) -> None:
        """A statement as the body of a block (its own scope; ``pass`` when nothing is left)."""
        start = len(self.out.items)
        self.push()
        try:
            if node.type == "compound_statement":
                self.statements(node, indent)
            else:
                self.statement(node, indent)
        finally:
            self.pop()
        if not any(i.kind == "code" for i in self.out.items[start:]):
            self.out.code(indent, "pass")

    def statements(self, node: Node, indent: int) -> None:
        """The statements of a ``{ ... }`` with their comments and blank lines."""
        prev_row = int(node.start_point[0])
        last_end = -1
        depth = len(self.scopes)
        try:
            for c in node.children:
                if c.type in ("{", "}"):
                    continue
                row = int(c.start_point[0])
                if c.type == "comment":
                    lines = comment_lines(cparse.text(c))
                    if row == last_end and len(lines) == 1:
                        self.out.trail(lines[0])
                    else:
                        if row > prev_row + 1:
                            self.out.blank()
                        for ln in lines:
                            self.out.comment(indent, ln)
                else:
                    if row > prev_row + 1:
                        self.out.blank()
                    if depth not in self.raii and self.declares_smart(c):
                        # C++ destroys the block's smart pointers at its end, on every way out, the
                        # last declared first: the rest of the block runs in an ExitStack
                        self.raii[depth] = self.fresh_name("scope" if not self.raii else f"scope{len(self.raii) + 1}")
                        self.use("contextlib")
                        self.out.code(
                            indent,
                            f"with contextlib.ExitStack() as {self.raii[depth]}:",
                            "destroys what it holds at the end of the block, last first, as C++ does",
                        )
                        indent += 1
                    start = len(self.out.items)
                    self.statement(c, indent)
                    if row == last_end:
                        self.join_line(start, indent)
                    last_end = cparse.end_row(c)
                prev_row = cparse.end_row(c)
        finally:
            self.raii.pop(depth, None)

    def declares_smart(self, node: Node) -> bool:
        """Whether a statement declares a std::unique_ptr or std::shared_ptr."""
        tnode = cparse.field(node, "type") if node.type == "declaration" else None
        if tnode is None:
            return False
        try:
            t = self.types.base(tnode)
        except Refused:
            return False
        if t.kind == "struct" and t.name in self.structs and self.structs[t.name].raii:
            return any(d.type != "reference_declarator" for d in cparse.fields(node, "declarator"))
        return t.is_smart

    def join_line(self, start: int, indent: int) -> None:
        """Statements the C++ wrote on one line stay on one line (simple ones: ``a(); b();``)."""
        items = self.out.items
        if len(items) != start + 1 or start == 0:
            return
        prev, new = items[start - 1], items[start]
        if all(i.kind == "code" and i.indent == indent and _simple(i.text) for i in (prev, new)):
            prev.text += "; " + new.text
            prev.comment = "; ".join(c for c in (prev.comment, new.comment) if c)
            items.pop()

    def statement(self, node: Node, indent: int) -> None:
        saved = self.out
        self.out = Out()
        try:
            self.stmt(node, indent)
            for text in self.inner_comments(node):
                self.out.trail(text)
            saved.extend(self.out)
        except Refused as r:
            if not isinstance(r, Cascade):
                self.record(r)
            if node.type == "declaration":
                self.declare_anyway(node)
            saved.comment(indent, f"aclnn-port: REFUSED line {r.line}: {r.construct}: {r.reason}")
            for ln in cparse.text(node).split("\n"):
                saved.comment(indent, "    " + ln.strip())
        finally:
            self.out = saved

    def declare_anyway(self, node: Node) -> None:
        """Keep the names of a refused declaration, so that later lines are judged on their own."""
        try:
            decls = self.types.declaration(node)
        except Refused:
            decls = []
            for dnode in cparse.fields(node, "declarator"):
                inner: Node | None = dnode
                while inner is not None and inner.type != "identifier":
                    inner = cparse.field(inner, "declarator")
                if inner is not None:
                    decls.append(Declared(cparse.text(inner), UNKNOWN, None, inner))
        for d in decls:
            if d.name_node is None or not self.scopes or d.name in self.scopes[-1]:
                continue
            if d.ctype.kind == "auto":
                d = replace(d, ctype=UNKNOWN)
            with contextlib.suppress(Refused):
                self.declare(d, node)

    def inner_comments(self, node: Node) -> list[str]:
        """Comments inside a statement but outside its blocks (they end its line)."""
        if node.type == "compound_statement":
            return []
        found: list[str] = []
        stack = list(reversed(node.children))
        while stack:
            n = stack.pop()
            if n.type == "compound_statement" or (n.type in ("if_statement", "else_clause") and n is not node):
                continue
            if n.type == "comment":
                found.extend(comment_lines(cparse.text(n)))
                continue
            stack.extend(reversed(n.children))
        return found

    # -- dispatch --------------------------------------------------------------------------------
    def stmt(self, node: Node, indent: int) -> None:
        t = node.type
        if t == "expression_statement":
            kids = cparse.named(node)
            if kids:
                self.expression_statement(kids[0], indent)
            return
        if t == "declaration":
            self.local_declaration(node, indent)
            return
        if t == "compound_statement":
            self.push()
            try:
                self.statements(node, indent)
            finally:
                self.pop()
            return
        if t == "if_statement":
            self.if_statement(node, indent, "if")
            return
        if t == "for_statement":
            self.for_statement(node, indent)
            return
        if t == "for_range_loop":
            self.range_for(node, indent)
            return
        if t == "while_statement":
            c = self.truth(_need(cparse.field(_need(cparse.field(node, "condition"), node), "value"), node))
            self.out.code(indent, f"while {c.text}:")
            self.body(_need(cparse.field(node, "body"), node), indent + 1)
            return
        if t == "do_statement":
            self.do_statement(node, indent)
            return
        if t == "return_statement":
            self.return_statement(node, indent)
            return
        if t == "break_statement":
            self.out.code(indent, "break")
            return
        if t == "continue_statement":
            self.out.code(indent, "continue")
            return
        if t in ("preproc_def", "preproc_function_def"):
            self.out.comment(indent, " ".join(cparse.text(node).replace("\\\n", " ").split()) + ": expanded where used")
            return
        if t in ("type_definition", "alias_declaration"):
            self.type_declaration(node, indent)
            return
        if t in ("switch_statement", "case_statement"):
            raise refuse(node, "switch is not translated (rewrite it as if/else)")
        if t in ("goto_statement", "labeled_statement"):
            raise refuse(node, "goto has no Python twin")
        if t in ("try_statement", "throw_statement"):
            raise refuse(node, "C++ exceptions are not translated")
        raise refuse(node, f"a statement the tool does not translate ({t})")

    def type_declaration(self, node: Node, indent: int) -> None:
        if node.type == "alias_declaration":
            name = cparse.text(cparse.field(node, "name"))
            self.types.typedefs[name] = self.types.descriptor(_need(cparse.field(node, "type"), node))
        else:
            tnode = _need(cparse.field(node, "type"), node)
            base = self.types.base(tnode)
            for d in cparse.fields(node, "declarator"):
                decl = self.types.declarator(base, d)
                self.types.typedefs[decl.name] = decl.ctype
        self.out.comment(indent, cparse.snippet(node, 1000) + "  (a C type: nothing to declare in Python)")

    # -- expressions as statements ---------------------------------------------------------------
    def expression_statement(self, e: Node, indent: int) -> None:
        if e.type == "assignment_expression":
            self.assignment(e, indent)
            return
        if e.type == "update_expression":
            op = cparse.text(cparse.field(e, "operator"))
            target = self.lvalue(_need(cparse.field(e, "argument"), e))
            if not target.ctype.is_arith:
                raise refuse(e, f"{op} on a {target.ctype}")
            one = PyExpr("1", P_ATOM, INT, True, literal="int", value=1)
            self.compound(target, "+" if op == "++" else "-", one, e, indent)
            return
        if e.type == "call_expression":
            call = self.call(e, discard=True)
            self.out.code(indent, call.text)
            return
        if e.type == "cast_expression" and cparse.text(cparse.field(e, "type")).strip() == "void":
            v = self.expr(_need(cparse.field(e, "value"), e))
            self.out.code(indent, v.text)
            return
        if e.type == "parenthesized_expression":
            kids = cparse.named(e)
            if len(kids) == 1:
                self.expression_statement(kids[0], indent)
                return
        if e.type == "delete_expression":
            freed = cparse.named(e)
            if len(freed) == 1 and freed[0].type == "identifier":
                v = self.expr(freed[0])
                if v.ctype.is_pointer and not v.ctype.is_handle and not v.ctype.is_address:
                    self.out.code(indent, "pass", cparse.snippet(e) + ": Python frees the array itself")
                    return
            raise refuse(e, "delete of something other than an array an aclnn_py call returned")
        if e.type == "new_expression":
            raise refuse(e, "new: Python manages memory itself; rewrite with std::vector")
        v = self.expr(e)
        self.out.code(indent, v.text)

    def lvalue(self, node: Node) -> PyExpr:
        """An assignment target."""
        if node.type == "parenthesized_expression" and len(cparse.named(node)) == 1:
            return self.lvalue(cparse.named(node)[0])
        if node.type == "identifier":
            sym = self.lookup(cparse.text(node))
            if sym is None:
                raise refuse(node, f"{cparse.text(node)} is not a variable of this program")
            if sym.ref_param:
                raise refuse(node, "assigning an out-parameter pointer itself (only *p = value is translated)")
            if sym.ctype.is_smart:
                raise refuse(
                    node, f"assigning a std::{sym.ctype.kind} (C++ moves or shares ownership) is not translated"
                )
            self.check_capture(sym, node)
            if sym.is_param and sym.ctype.is_mutable_ref:
                self.flags.ref_vars.add(sym.key)  # the caller's variable is written: a Ref
            if sym.is_global and not sym.ref and self.current is not None:
                self.flags.assigned_globals.setdefault(self.current.name, set()).add(sym.py)
            return self.symbol_expr(sym)
        if node.type == "pointer_expression" and cparse.text(cparse.field(node, "operator")) == "*":
            return self.pointer_expr(node)
        if node.type == "field_expression":
            target = self.expr(node)
            if target.ctype.kind == "struct":
                raise refuse(node, "assigning a whole struct (C++ copies it) is not translated")
            return target
        if node.type == "subscript_expression":
            target = self.subscript(node)
            if isinstance(target.sym, Sym):
                self.flags.mutated.add(target.sym.key)
            return target
        raise refuse(node, "an assignment to something the tool does not translate")

    def assignment(self, node: Node, indent: int) -> None:
        op = cparse.text(cparse.field(node, "operator"))
        lnode = _need(cparse.field(node, "left"), node)
        rnode = _need(cparse.field(node, "right"), node)
        target = self.lvalue(lnode)
        if target.ctype.kind == "struct":
            raise refuse(node, "assigning a whole struct (C++ copies it) is not translated")
        right = self.expr(rnode, target.ctype)
        if op == "=":
            if target.ctype.is_container:
                if isinstance(target.sym, Sym) and target.sym.ctype.ref and target.sym.py == target.text:
                    raise refuse(
                        node,
                        "assigning a whole vector through a reference (Python would rebind the name, "
                        "not change the vector it refers to)",
                    )
                self.out.code(indent, f"{target.text} = {self.container_value(right, target, rnode).text}")
                return
            value = self.convert(right, target.ctype, rnode)
            self.out.code(indent, f"{target.text} = {value.text}")
            return
        self.compound(target, op[:-1], right, node, indent)

    def compound(self, target: PyExpr, op: str, right: PyExpr, node: Node, indent: int) -> None:
        """``x op= y``: C computes ``x op y`` in the usual type and converts back to x's."""
        right = self.value_of(right, node)
        if target.ctype.is_pointer:
            raise refuse(node, f"{op}= on a pointer")
        if (
            target.ctype.kind == "typevar"
            and right.ctype.kind == "typevar"
            and right.ctype.name == target.ctype.name
            and op in "+-*"
        ):
            # T op T in T: numpy computes what C computes and converts back to T
            self.out.code(indent, f"{target.text} {op}= {right.text}")
            return
        if not (target.ctype.is_arith and right.ctype.is_arith):
            raise refuse(node, f"{op}= between a {target.ctype} and a {right.ctype}")
        t = arithmetic(target.ctype, right.ctype)
        if op in ("/", "%") and t.is_int and not t.unsigned and not (target.nonneg and right.nonneg):
            raise refuse(node, f"signed integer {op}=: C truncates toward zero, Python floors")
        if t.is_float and op not in "+-*/":
            raise refuse(node, f"{op}= on floating values")
        if t.kind == "float" and t.bits == 16:
            raise refuse(node, "_Float16 arithmetic: GCC's excess precision has no numpy twin")
        py_op = "//" if op == "/" and t.is_int else op
        same = t == target.ctype.plain() or (
            t.is_int and target.ctype.is_int and t.bits == target.ctype.bits and t.signed == target.ctype.signed
        )
        rhs = self.operand(right, t)
        if same and not (t.unsigned and (op in ("-", "<<") or rhs.wraps)):
            self.out.code(indent, f"{target.text} {py_op}= {rhs.text}")
            return
        lhs = self.operand(target, t)
        prec = P_ADD if op in "+-" else P_MUL
        result = PyExpr(
            f"{lhs.paren(prec)} {py_op} {rhs.paren(prec + 1)}",
            prec,
            t,
            wraps=t.unsigned and (op == "-" or lhs.wraps or rhs.wraps),
        )
        value = self.convert(result, target.ctype, node)
        self.out.code(indent, f"{target.text} = {value.text}")

    # -- control flow ----------------------------------------------------------------------------
    def from_macro(self, node: Node) -> bool:
        return self.expanded.at(int(node.start_point[0]), int(node.start_point[1])) is not None

    def if_statement(self, node: Node, indent: int, keyword: str) -> None:
        clause = _need(cparse.field(node, "condition"), node)
        if cparse.field(clause, "initializer") is not None:
            raise refuse(node, "an if with an initializer statement")
        c = self.truth(_need(cparse.field(clause, "value"), clause))
        consequence = _need(cparse.field(node, "consequence"), node)
        alternative = cparse.field(node, "alternative")
        one_line = self.in_macro > 0 or self.from_macro(node) or node.start_point[0] == node.end_point[0]
        if one_line and alternative is None and keyword == "if":
            saved = self.out
            self.out = Out()
            try:
                self.body(consequence, indent + 1)
                body = self.out
            finally:
                self.out = saved
            items = body.items
            if items and all(i.kind == "code" and i.indent == indent + 1 for i in items):
                text = f"if {c.text}: " + "; ".join(i.text for i in items)
                comments = "; ".join(i.comment for i in items if i.comment)
                self.out.code(indent, text, comments)
                return
            self.out.code(indent, f"if {c.text}:")
            self.out.extend(body)
            return
        self.out.code(indent, f"{keyword} {c.text}:")
        self.body(consequence, indent + 1)
        if alternative is not None:
            stmts = cparse.named(alternative)
            if len(stmts) == 1 and stmts[0].type == "if_statement":
                self.if_statement(stmts[0], indent, "elif")
                return
            self.out.code(indent, "else:")
            if len(stmts) != 1:
                raise refuse(alternative, "an else the tool cannot read")
            self.body(stmts[0], indent + 1)

    def do_statement(self, node: Node, indent: int) -> None:
        cond = _need(cparse.field(node, "condition"), node)
        body = _need(cparse.field(node, "body"), node)
        inner = cond
        while inner.type == "parenthesized_expression" and len(cparse.named(inner)) == 1:
            inner = cparse.named(inner)[0]
        macro = self.from_macro(node)
        if macro:
            self.in_macro += 1
        try:
            if cparse.text(inner) in ("0", "false"):
                if _jumps(body, ("break_statement", "continue_statement")):
                    raise refuse(node, "break or continue in a do { } while (0)")
                self.push()
                try:
                    if body.type == "compound_statement":
                        self.statements(body, indent)
                    else:
                        self.statement(body, indent)
                finally:
                    self.pop()
                return
            if _jumps(body, ("continue_statement",)):
                raise refuse(node, "continue in a do-while loop (it would skip the test)")
            c = self.truth(inner)
            self.out.code(indent, "while True:")
            self.body(body, indent + 1)
            self.out.code(indent + 1, f"if not ({c.text}): break")
        finally:
            if macro:
                self.in_macro -= 1

    def return_statement(self, node: Node, indent: int) -> None:
        kids = cparse.named(node)
        if not kids:
            self.out.code(indent, "return")
            return
        if kids[0].type == "initializer_list":
            raise refuse(node, "return {...}")
        f = self.current
        assert f is not None
        ret = f.ctype.of
        assert ret is not None
        e = self.expr(kids[0], ret)
        if ret.is_container:
            e = self.value_of(e, kids[0])
            if isinstance(e.sym, Sym) and (e.sym.is_param or e.sym.is_global or e.sym.is_member) and e.prec == P_ATOM:
                e = e.with_(text=f"{e.text}.copy()")  # C++ returns a copy
            self.out.code(indent, f"return {e.text}")
            return
        self.out.code(indent, f"return {self.convert(e, ret, kids[0]).text}")

    # -- for loops -------------------------------------------------------------------------------
    def for_statement(self, node: Node, indent: int) -> None:
        init = cparse.field(node, "initializer")
        cond = cparse.field(node, "condition")
        update = cparse.field(node, "update")
        body = _need(cparse.field(node, "body"), node)
        self.push()
        try:
            if (
                init is not None
                and cond is not None
                and update is not None
                and self.counting(node, init, cond, update, body, indent)
            ):
                return
            if _jumps(body, ("continue_statement",)):
                raise refuse(node, "continue in a for loop that is not a plain count (it would skip the step)")
            if init is not None:
                if init.type == "declaration":
                    self.local_declaration(init, indent)
                else:
                    self.expression_statement(init, indent)
            c = self.truth(cond).text if cond is not None else "True"
            self.out.code(indent, f"while {c}:")
            start = len(self.out.items)
            self.body(body, indent + 1)
            if update is not None:
                if len(self.out.items) == start + 1 and self.out.items[-1].text == "pass":
                    self.out.items.pop()
                self.expression_statement(update, indent + 1)
        finally:
            self.pop()

    def counting(self, node: Node, init: Node, cond: Node, update: Node, body: Node, indent: int) -> bool:
        """``for (T i = a; i < b; i++)`` as ``for i in range(a, b)``, when that is what it does."""
        if init.type != "declaration":
            return False
        decls = cparse.fields(init, "declarator")
        if len(decls) != 1 or decls[0].type != "init_declarator":
            return False
        d = self.types.declaration(init)[0]
        if d.init is None or not d.ctype.is_int or d.ctype.kind == "enum":
            return False
        name = d.name
        step = _step(update, name)
        if step is None:
            return False
        if cond.type != "binary_expression":
            return False
        op = cparse.text(cparse.field(cond, "operator"))
        left = _need(cparse.field(cond, "left"), cond)
        right = _need(cparse.field(cond, "right"), cond)
        if left.type == "identifier" and cparse.text(left) == name:
            bound_node = right
        elif right.type == "identifier" and cparse.text(right) == name:
            bound_node = left
            op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        else:
            return False
        if (step > 0 and op not in ("<", "<=")) or (step < 0 and op not in (">", ">=")):
            return False
        if _assigns(body, {name}) or _mentions_address(body, name) or _assigns(body, _names(bound_node)):
            return False
        if _calls_other_than_size(bound_node) or _grows(body):
            return False
        start = self.value_of(self.expr(d.init, d.ctype), d.init)
        start = self.convert(start, d.ctype, d.init)
        sym = self.declare(d, init)
        if sym.ref:
            return False
        bound = self.value_of(self.expr(bound_node), bound_node)
        t = arithmetic(d.ctype, bound.ctype)
        if t.unsigned and step < 0:
            raise refuse(node, "an unsigned counter counting down (in C, i >= 0 never ends)")
        if not bound.ctype.is_int:
            raise refuse(node, "a for loop bounded by a floating value")
        bound = self.wrapped(bound, t.bits) if t.unsigned else bound
        stop = bound.text
        if op == "<=":
            stop = _plus(bound, 1)
        elif op == ">=":
            stop = _plus(bound, -1)
        if step == 1 and start.literal == "int" and start.value == 0:
            rng = f"range({stop})"
        elif step == 1:
            rng = f"range({start.text}, {stop})"
        else:
            rng = f"range({start.text}, {stop}, {step})"
        self.out.code(indent, f"for {sym.py} in {rng}:")
        self.body(body, indent + 1)
        return True

    def range_for(self, node: Node, indent: int) -> None:
        right = _need(cparse.field(node, "right"), node)
        seq = self.value_of_container(self.expr(right), right)
        elem = seq.ctype.of
        assert elem is not None
        tnode = _need(cparse.field(node, "type"), node)
        base = self.types.base(tnode)
        dnode = _need(cparse.field(node, "declarator"), node)
        d = self.types.declarator(base, dnode)
        reference = d.ctype.ref
        declared = d.ctype.plain()
        if declared.kind == "auto":
            declared = elem
        self.push()
        try:
            d = replace(d, ctype=declared)
            if reference and not d.ctype.const and _assigns(_need(cparse.field(node, "body"), node), {d.name}):
                raise refuse(node, "assigning through a range-for reference (Python's loop variable is a copy)")
            sym = self.declare(d, node)
            sym.npscalar = seq.container == "numpy"
            self.out.code(indent, f"for {sym.py} in {seq.text}:")
            conv = self.convert(PyExpr(sym.py, P_ATOM, elem, sym=sym), declared, node)
            start = len(self.out.items)
            if conv.text != sym.py:
                self.out.code(indent + 1, f"{sym.py} = {conv.text}")
            self.body(_need(cparse.field(node, "body"), node), indent + 1)
            if conv.text != sym.py and len(self.out.items) == start + 2 and self.out.items[-1].text == "pass":
                self.out.items.pop()
        finally:
            self.pop()

    def value_of_container(self, e: PyExpr, node: Node) -> PyExpr:
        if not e.container:
            raise refuse(node, "a range-for over something that is not a std::vector or an array")
        return e


def _simple(text: str) -> bool:
    """A code line that is one simple statement (not a block header or a one-line if)."""
    return not text.startswith(("if ", "elif ", "else:", "for ", "while ", "def ", "try:", "with ", "class "))


def _plus(e: PyExpr, k: int) -> str:
    if e.literal == "int" and isinstance(e.value, int):
        return str(e.value + k)
    return f"{e.paren(P_ADD)} {'+' if k > 0 else '-'} {abs(k)}"


def _step(update: Node, name: str) -> int | None:
    if update.type == "update_expression":
        arg = cparse.field(update, "argument")
        if arg is None or arg.type != "identifier" or cparse.text(arg) != name:
            return None
        return 1 if cparse.text(cparse.field(update, "operator")) == "++" else -1
    if update.type == "assignment_expression":
        left = cparse.field(update, "left")
        right = cparse.field(update, "right")
        op = cparse.text(cparse.field(update, "operator"))
        if left is None or cparse.text(left) != name or right is None or right.type != "number_literal":
            return None
        try:
            k = int(cparse.text(right), 0)
        except ValueError:
            return None
        if k <= 0:
            return None
        return k if op == "+=" else -k if op == "-=" else None
    return None


def _names(node: Node) -> set[str]:
    return {cparse.text(n) for n in cparse.walk(node) if n.type == "identifier"}


def _assigns(body: Node, names: set[str]) -> bool:
    for n in cparse.walk(body):
        target = None
        if n.type == "assignment_expression":
            target = cparse.field(n, "left")
        elif n.type == "update_expression" or (
            n.type == "pointer_expression" and cparse.text(cparse.field(n, "operator")) == "&"
        ):
            target = cparse.field(n, "argument")
        while target is not None and target.type == "parenthesized_expression" and cparse.named(target):
            target = cparse.named(target)[0]
        if target is not None and target.type == "identifier" and cparse.text(target) in names:
            return True
        if n.type == "declaration":
            for d in cparse.walk(n):
                if (
                    d.type == "identifier"
                    and cparse.text(d) in names
                    and d.parent is not None
                    and d.parent.type
                    in (
                        "init_declarator",
                        "declaration",
                    )
                ):
                    return True
    return False


def _mentions_address(body: Node, name: str) -> bool:
    return _assigns(body, {name})


def _calls_other_than_size(node: Node) -> bool:
    for n in cparse.walk(node):
        if n.type == "call_expression":
            fn = cparse.field(n, "function")
            if fn is None or fn.type != "field_expression" or cparse.text(cparse.field(fn, "field")) != "size":
                return True
    return False


def _grows(body: Node) -> bool:
    for n in cparse.walk(body):
        if n.type == "field_expression" and cparse.text(cparse.field(n, "field")) in (
            "push_back",
            "emplace_back",
            "pop_back",
            "clear",
            "resize",
            "assign",
            "erase",
            "insert",
        ):
            return True
    return False


def _jumps(body: Node, kinds: tuple[str, ...]) -> bool:
    """Whether ``body`` holds a break/continue that would leave or restart the enclosing loop."""
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type in kinds:
            return True
        for c in n.children:
            if c.type in _LOOPS:
                if "break_statement" in kinds and c.type == "switch_statement":
                    continue
                continue
            stack.append(c)
    return False
