"""The whole program: includes, macros, typedefs, globals and functions, in source order, and the
two passes (the first learns which variables are Refs and which vectors are host memory, the
second writes the port)."""

from __future__ import annotations

import contextlib
import keyword
from dataclasses import replace
from typing import TYPE_CHECKING

from . import cparse
from .calls import param_role
from .decl import Declared
from .emit import Item, Out
from .errors import PortError, Refusal, Refused
from .exprs import ADDRESS, Cascade, _need
from .known import Known, known
from .preprocess import Expanded, Macro, collect_macros, expand
from .scope import Flags, FuncInfo, StructInfo, Sym, py_name
from .stmts import Stmts, comment_lines
from .values import refuse

if TYPE_CHECKING:
    from tree_sitter import Node

_ACL_HEADERS = {"acl/acl.h", "acl/acl_rt.h", "acl/acl_base.h", "aclnn/acl_meta.h", "aclnn/aclnn_base.h"}
_SKIP_TOP = ("{", "}", ";")
_EXIT_STACK = frozenset(dir(contextlib.ExitStack))


class Program(Stmts):
    """One pass over a translation unit."""

    def __init__(
        self, k: Known, expanded: Expanded, filename: str, flags: Flags, macros: dict[str, Macro], analysis: bool
    ) -> None:
        super().__init__(k, expanded, filename, flags, macros, analysis)
        self.includes: list[str] = []
        self.system_includes: list[str] = []
        self.has_main = False
        self.imports_placed = False
        self.consumed: set[tuple[int, int]] = set()
        self.defined: set[str] = set()

    # -- top level -------------------------------------------------------------------------------
    def unit(self, root: Node) -> None:
        self.source_names = {
            cparse.text(n)
            for n in cparse.walk(root)
            if n.type in ("identifier", "field_identifier", "type_identifier", "namespace_identifier")
        }
        self.defined = {_function_name(n) for n in cparse.walk(root) if n.type == "function_definition"}
        self.top_items(root.children, first_row=0)
        if not self.imports_placed:
            self.out.items.insert(0, _placeholder())
        if "address" in self.uses:
            self.out.blank(2)
            name = self.fresh_name("address")
            for indent, code, comment in ADDRESS:
                self.out.code(indent, code.format(name=name), comment)
        if self.has_main:
            self.use("sys")
            self.out.blank(2)
            self.out.code(0, 'if __name__ == "__main__":')
            self.out.code(1, "sys.exit(main())")
        else:
            self.refusals.append(Refusal(self.filename, 1, "int main()", "a program without main"))

    def top_items(self, children: list[Node], first_row: int) -> None:
        kids = [c for c in children if c.type not in _SKIP_TOP]
        prev_row = first_row - 1
        last_end = -1  # the row a trailing comment may end (only a one-line item's)
        for i, c in enumerate(kids):
            row = int(c.start_point[0])
            if c.type == "comment" and cparse.node_key(c) in self.consumed:
                continue
            if c.type == "comment":
                lines = comment_lines(cparse.text(c))
                if row == last_end and len(lines) == 1:
                    self.out.trail(lines[0])
                else:
                    if _starts_function_group(kids, i):
                        self.out.blank(2)
                    elif row > prev_row + 1:
                        self.out.blank()
                    for ln in lines:
                        self.out.comment(0, ln)
                prev_row = cparse.end_row(c)
                continue
            after_comment = i > 0 and kids[i - 1].type == "comment" and row == prev_row + 1
            if _is_definition(c) and not after_comment:
                self.out.blank(2)
            elif row > prev_row + 1:
                self.out.blank()
            self.top_item(c)
            if _is_definition(c):
                self.out.blank(2)
            prev_row = cparse.end_row(c)
            last_end = prev_row if c.start_point[0] == prev_row else -1

    def top_item(self, node: Node) -> None:
        saved = self.out
        self.out = Out()
        try:
            self.top(node)
            saved.extend(self.out)
        except Refused as r:
            if not isinstance(r, Cascade):
                self.record(r)
            if node.type == "declaration":
                self.declare_anyway(node)
            saved.comment(0, f"aclnn-port: REFUSED line {r.line}: {r.construct}: {r.reason}")
            for ln in cparse.text(node).split("\n")[:3]:
                saved.comment(0, "    " + ln.rstrip())
        finally:
            self.out = saved

    def top(self, node: Node) -> None:
        t = node.type
        if t == "preproc_include":
            self.include(node)
        elif t in ("preproc_def", "preproc_function_def"):
            self.macro_line(node)
        elif t == "function_definition":
            self.function(node, [])
        elif t == "template_declaration":
            self.template(node)
        elif t == "declaration":
            self.global_declaration(node)
        elif t in ("type_definition", "alias_declaration"):
            self.type_declaration(node, 0)
        elif t == "namespace_definition":
            if cparse.field(node, "name") is not None:
                raise refuse(node, "a named namespace (its qualified names are not translated)")
            self.out.comment(0, "namespace {  (an anonymous namespace: its names are this module's)")
            body = _need(cparse.field(node, "body"), node)
            saved, self.out = self.out, self.out
            self.top_items(body.children, int(body.start_point[0]) + 1)
            self.out.blank(2)
            end = "}"
            after = node.next_sibling
            if after is not None and after.type == "comment" and after.start_point[0] == cparse.end_row(node):
                end += "  // " + " ".join(comment_lines(cparse.text(after)))
                self.consumed.add(cparse.node_key(after))
            self.out.comment(0, end)
            self.out = saved
        elif t == "linkage_specification":
            body = _need(cparse.field(node, "body"), node)
            self.top_items(body.children if body.type == "declaration_list" else [body], int(body.start_point[0]))
        elif t == "preproc_call":
            directive = cparse.text(cparse.field(node, "directive"))
            if directive != "#pragma":
                raise refuse(node, f"the directive {directive}")
            self.out.comment(0, cparse.snippet(node, 200) + "  (ignored)")
        elif t in ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else"):
            raise refuse(node, "conditional compilation (#if/#ifdef) is not translated")
        elif t == "using_declaration":
            raise refuse(node, "using-declarations (using namespace std; ...) are not translated: write std::")
        elif t == "struct_specifier" and cparse.field(node, "body") is not None:
            self.struct_definition(node)
        elif t in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            raise refuse(node, "a struct, class, union or enum of the program is not translated")
        elif t == "expression_statement" and not cparse.named(node):
            return
        else:
            raise refuse(node, f"a top-level construct the tool does not translate ({t})")

    # -- structs ---------------------------------------------------------------------------------
    def struct_definition(self, node: Node) -> None:
        """A plain data struct (members with default member initializers, nothing else) as a class
        whose ``__init__`` sets them in order; a member whose address is taken is held in a Ref."""
        name_node = cparse.field(node, "name")
        body = _need(cparse.field(node, "body"), node)
        if name_node is None or name_node.type != "type_identifier":
            raise refuse(node, "an anonymous or qualified struct is not translated")
        if any(c.type == "base_class_clause" for c in node.children):
            raise refuse(node, "a struct deriving from another (inheritance) is not translated")
        name = cparse.text(name_node)
        members: dict[str, Sym] = {}
        out = Out()
        prev_row = int(body.start_point[0])
        last_end = -1
        for c in body.children:
            row = int(c.start_point[0])
            if c.type in ("{", "}"):
                continue
            if c.type == "comment":
                lines = comment_lines(cparse.text(c))
                if row == last_end and len(lines) == 1:
                    out.trail(lines[0])
                else:
                    if row > prev_row + 1:
                        out.blank()
                    for ln in lines:
                        out.comment(2, ln)
                prev_row = cparse.end_row(c)
                continue
            if row > prev_row + 1:
                out.blank()
            for sym, value in self.struct_members(c, members):
                members[sym.name] = sym
                out.code(2, f"self.{sym.py} = {value}")
            prev_row = last_end = cparse.end_row(c)
        raii = any(m.ctype.is_smart for m in members.values())
        info = StructInfo(name, py_name(name), members, raii)
        self.structs[name] = info
        self.types.structs.add(name)
        if raii:
            # destroying the object destroys its smart pointers, the last member first
            self.use("contextlib")
            self.out.code(0, f"class {info.py}(contextlib.ExitStack):", f"struct {name}: destroys its smart pointers")
            self.out.code(1, "def __init__(self):")
            self.out.code(2, "super().__init__()")
        else:
            self.out.code(0, f"class {info.py}:", f"struct {name}")
            self.out.code(1, "def __init__(self):")
        if not out.has_code():
            out.code(2, "pass")
        self.out.extend(out)

    def struct_members(self, node: Node, members: dict[str, Sym]) -> list[tuple[Sym, str]]:
        """The members of one member declaration and their initial values."""
        t = node.type
        if t in ("function_definition", "template_declaration") or (
            t in ("field_declaration", "declaration")
            and any(d.type == "function_declarator" for d in cparse.walk(node) if d is not node)
        ):
            raise refuse(node, "a struct with member functions or constructors is not translated (only plain data)")
        if t != "field_declaration":
            raise refuse(node, f"a struct member the tool does not translate ({t}): only plain data members")
        if any(c.type in ("storage_class_specifier", "bitfield_clause") for c in node.children):
            raise refuse(node, "a static or bit-field struct member is not translated")
        base = self.types.base(_need(cparse.field(node, "type"), node))
        if any(c.type == "type_qualifier" and cparse.text(c) in ("const", "constexpr") for c in node.children):
            base = replace(base, const=True)
        found: list[tuple[Sym, str]] = []
        kids = node.children
        for i, c in enumerate(kids):
            if node.field_name_for_child(i) != "declarator":
                continue
            default = None  # the default_value after this declarator (past its `=`), if any
            for j in range(i + 1, len(kids)):
                field_name = node.field_name_for_child(j)
                if field_name == "declarator":
                    break
                if field_name == "default_value":
                    default = kids[j]
                    break
            d = self.types.declarator(base, c)
            ct = d.ctype
            if ct.ref or ct.kind in ("struct", "func", "auto") or ct.is_func:
                raise refuse(node, f"the struct member {d.name} of type {ct} is not translated")
            if d.name in members or any(s.name == d.name for s, _ in found):
                raise refuse(node, f"the struct member {d.name} is declared twice")
            if default is not None:
                named = {s.name for s, _ in found} | set(members)
                if any(n.type == "identifier" and cparse.text(n) in named for n in cparse.walk(default)):
                    raise refuse(node, f"the initializer of {d.name} reads another member")
            assert d.name_node is not None
            key = cparse.node_key(d.name_node)
            py = d.name + "_" if keyword.iskeyword(d.name) else d.name
            sym = Sym(d.name, py, ct, key, ref=key in self.flags.ref_vars, is_member=True)
            if ct.is_smart:
                if sym.ref:
                    raise refuse(node, f"the address of a std::{ct.kind}")
                found.append((sym, f"self.enter_context({self.smart_value(ct, default, node, py, None)})"))
                continue
            if ct.is_container:
                if sym.ref:
                    raise refuse(node, "the address of a whole vector or array")
                sym.container = self.container_kind(ct, key)
                if default is None and ct.kind == "array":
                    raise refuse(node, f"the struct member {d.name} has no default member initializer")
                found.append((sym, self.container_init(sym, default, node)))
                continue
            if default is None:
                raise refuse(
                    node,
                    f"the struct member {d.name} has no default member initializer (its value would be "
                    "indeterminate in C++)",
                )
            init = default
            if init.type in ("initializer_list", "argument_list"):
                items = cparse.named(init)
                if len(items) > 1:
                    raise refuse(node, "a scalar initialized with several values")
                if not items:
                    found.append((sym, self.wrap_ref(sym, self.zero(ct))))
                    continue
                init = items[0]
            value = self.convert(self.expr(init, ct), ct, init)
            sym.npscalar = value.npscalar
            found.append((sym, self.wrap_ref(sym, value.text)))
        if any(sym.ctype.is_smart for sym, _ in found):
            # the class derives from contextlib.ExitStack: a member must not take one of its names
            for sym, _ in found:
                while sym.py in _EXIT_STACK:
                    sym.py += "_"
        return found

    def place_imports(self) -> None:
        if not self.imports_placed:
            self.out.placeholder("imports")
            self.imports_placed = True

    def include(self, node: Node) -> None:
        path = _need(cparse.field(node, "path"), node)
        raw = cparse.text(path)
        self.place_imports()
        if path.type == "system_lib_string":
            self.system_includes.append(raw)
            return
        header = raw.strip('"')
        if header in _ACL_HEADERS:
            self.includes.append(raw)
            return
        if header.startswith("aclnnop/"):
            flat = "aclnnop/" + header.split("/")[-1]
            if flat in self.op_headers():
                self.includes.append(raw)
                return
            raise refuse(node, f"no operator of aclnn_py is declared in {header}")
        raise refuse(node, f"the header {header}: the tool sees one file (and CANN's headers through aclnn_py)")

    def op_headers(self) -> set[str]:
        from aclnn_py.ops import registry

        return {a.header for a in registry.IMPLEMENTED}

    def macro_line(self, node: Node) -> None:
        name = cparse.text(cparse.field(node, "name"))
        m = self.macros.get(name)
        if m is None:
            raise refuse(node, "a macro the tool could not read")
        if m.kind == "alias":
            target = m.target.removeprefix("std::")
            if target == "printf":
                self.use("printf")
            elif target not in self.defined and self.known.function(target) is None:
                raise refuse(node, f"{m.name} forwards to {m.target}, which is neither in this program nor aclnn_py")
            self.out.code(0, f"{py_name(m.name)} = {target}", m.definition)
        elif m.kind == "constant":
            e = self.macro_constant(m.name, m.body, node)
            root = cparse.parse(f"auto __v = {m.body};").root_node
            init = cparse.field(cparse.fields(cparse.named(root)[0], "declarator")[0], "value")
            assert init is not None
            value = self.expr(init)
            self.out.code(0, f"{py_name(m.name)} = {value.text}", m.definition)
            del e
        else:
            self.out.comment(0, f"{m.definition}: expanded where used")

    # -- functions -------------------------------------------------------------------------------
    def template(self, node: Node) -> None:
        params = cparse.field(node, "parameters")
        names: list[str] = []
        for p in cparse.named(params) if params is not None else []:
            if p.type != "type_parameter_declaration":
                raise refuse(p, "a template parameter that is not a type (typename T)")
            ids = [c for c in p.named_children if c.type == "type_identifier"]
            if len(ids) != 1:
                raise refuse(p, "a template parameter the tool cannot read")
            names.append(cparse.text(ids[0]))
        defs = [c for c in cparse.named(node) if c.type in ("function_definition", "declaration")]
        if len(defs) != 1:
            raise refuse(node, "a template of something other than a function")
        if defs[0].type == "declaration":
            self.out.comment(0, cparse.snippet(node, 200) + "  (a declaration: nothing to do in Python)")
            return
        self.function(defs[0], names)

    def signature(self, node: Node, typevars: list[str]) -> FuncInfo:
        self.types.typevars = set(typevars)
        ret = self.types.base(_need(cparse.field(node, "type"), node))
        declarator = _need(cparse.field(node, "declarator"), node)
        decl = self.types.declarator(ret, declarator)
        fd = declarator
        while fd.type != "function_declarator":
            inner = cparse.field(fd, "declarator")
            if inner is None:
                raise refuse(node, "a function declarator the tool cannot read")
            fd = inner
        params = self.types.params(_need(cparse.field(fd, "parameters"), fd))
        info = FuncInfo(decl.name, py_name(decl.name), decl.ctype, params, node, list(typevars))
        for tv in typevars:
            for p in params:
                pt = p.ctype.plain()
                if pt.kind == "vector" and pt.of is not None and pt.of.kind == "typevar" and pt.of.name == tv:
                    info.deduced[tv] = py_name(p.name)
                    break
        # in the body, a deduced T is the element type of the vector it comes from
        self.types.typevar_py = {tv: f"{p}.dtype.type" for tv, p in info.deduced.items()}
        if info.deduced:
            info.params = self.types.params(_need(cparse.field(fd, "parameters"), fd))
        return info

    def function(self, node: Node, typevars: list[str]) -> None:
        info = self.signature(node, typevars)
        try:
            if info.name in self.functions and self.functions[info.name].node is not None:
                raise refuse(node, f"{info.name} is defined twice (overloads are not translated)")
            if self.known.function(info.name) is not None:
                raise refuse(node, f"{info.name} is an aclnn_py function: the program may not define it")
            self.functions[info.name] = info
            ret = info.ctype.of
            if ret is not None and ret.kind == "struct":
                raise refuse(node, "a function returning a struct (C++ copies it) is not translated")
            if ret is not None and ret.is_smart:
                raise refuse(node, f"a function returning a std::{ret.kind} (C++ moves it) is not translated")
            for p in info.params:
                if p.ctype.kind == "struct" and not p.ctype.ref:
                    raise refuse(
                        node, f"the struct parameter {p.name} is passed by value (C++ copies it): take a reference"
                    )
                if p.ctype.is_smart and not p.ctype.ref:
                    raise refuse(
                        node,
                        f"the std::{p.ctype.kind} parameter {p.name} is passed by value (C++ moves or copies it): "
                        "only a reference is translated",
                    )
            if info.name == "main":
                if info.params:
                    raise refuse(node, "main(argc, argv) is not translated")
                self.has_main = True
            names = list(info.explicit)
            for i, p in enumerate(info.params):
                pname = py_name(p.name) if p.name else f"_unused{i}"
                if p.default is not None:
                    default = self.convert(self.expr(p.default, p.ctype), p.ctype, p.default).text
                    pname += "=" + default
                names.append(pname)
            comment = f"template <{', '.join('typename ' + t for t in typevars)}>" if info.explicit else ""
            self.out.code(0, f"def {info.py}({', '.join(names)}):", comment)
            self.current = info
            self.push()
            start = len(self.out.items)
            try:
                by_value: list[Sym] = []  # parameters whose address is taken: held in a Ref from here
                for i, p in enumerate(info.params):
                    if p.name_node is None:
                        continue
                    role = param_role(p.ctype)
                    if p.ctype.ref and role in ("out", "array", "unknown"):
                        raise refuse(node, f"the reference to a pointer {p.name} is not translated")
                    sym = self.declare(p, node, is_param=True, ref_param=role == "out")
                    if role == "out" and sym.ref:
                        raise refuse(node, f"the address of the parameter {p.name}")
                    if sym.ref and p.ctype.is_mutable_ref:
                        # the callee writes the caller's variable: the caller passes its Ref
                        self.flags.ref_slots.add((info.name, i))
                    elif sym.ref and p.ctype.ref:
                        raise refuse(node, f"the address of the reference parameter {p.name}")
                    elif sym.ref:
                        by_value.append(sym)
                assigned = sorted(self.flags.assigned_globals.get(info.name, set()))
                if assigned:
                    self.out.code(1, f"global {', '.join(assigned)}")
                for sym in by_value:
                    self.use("Ref")
                    self.out.code(1, f"{sym.py} = Ref({sym.py})", "its address is taken")
                for p in info.params:
                    found = self.lookup(p.name) if p.name else None
                    if (
                        found is not None
                        and found.ctype.is_container
                        and not p.ctype.ref
                        and found.key in self.flags.mutated
                    ):
                        self.out.code(1, f"{found.py} = {found.py}.copy()", "passed by value")
                body = _need(cparse.field(node, "body"), node)
                self.statements(body, 1)
            finally:
                self.pop()
                self.current = None
                self.types.typevars = set()
                self.types.typevar_py = {}
            if not any(i.kind == "code" for i in self.out.items[start:]):
                self.out.code(1, "pass")
        finally:
            self.types.typevars = set()

    # -- globals ---------------------------------------------------------------------------------
    def global_declaration(self, node: Node) -> None:
        if self.direct_initialized(node):
            self.local_declaration(node, 0)
            return
        decls = self.types.declaration(node)
        if all(d.ctype.kind == "func" for d in decls):
            for d in decls:
                if d.name not in self.functions:
                    info = FuncInfo(d.name, py_name(d.name), d.ctype, _params_of(d), None)
                    self.functions[d.name] = info
            self.out.comment(0, cparse.snippet(node, 200) + "  (a declaration: nothing to do in Python)")
            return
        if any(c.type == "storage_class_specifier" and cparse.text(c) == "extern" for c in node.children):
            raise refuse(node, "an extern variable lives in another file")
        self.local_declaration(node, 0)


def _function_name(node: Node) -> str:
    d = cparse.field(node, "declarator")
    while d is not None and d.type != "identifier":
        d = cparse.field(d, "declarator")
    return cparse.text(d)


def _params_of(d: Declared) -> list[Declared]:
    t = d.ctype
    return [Declared(n or f"_unused{i}", p, None, None) for i, (n, p) in enumerate(zip(t.param_names, t.params))]


def _placeholder() -> Item:
    return Item("placeholder", text="imports")


def _is_definition(node: Node) -> bool:
    """A function, function template or struct definition (two blank lines around it, as PEP 8 has)."""
    if node.type == "function_definition" or (node.type == "struct_specifier" and cparse.field(node, "body")):
        return True
    return node.type == "template_declaration" and any(c.type == "function_definition" for c in node.named_children)


def _starts_function_group(kids: list[Node], i: int) -> bool:
    """Whether the comment ``kids[i]`` opens the comments right above a function definition."""
    if i > 0 and kids[i - 1].type == "comment" and kids[i].start_point[0] == cparse.end_row(kids[i - 1]) + 1:
        return False
    j = i
    while j < len(kids) and kids[j].type == "comment":
        if j + 1 < len(kids) and kids[j + 1].start_point[0] != cparse.end_row(kids[j]) + 1:
            return False
        j += 1
    return j < len(kids) and _is_definition(kids[j])


# ---------------------------------------------------------------------------------------------
# the two passes
# ---------------------------------------------------------------------------------------------


def run(source: str, filename: str, display_name: str) -> tuple[str, list[Refusal]]:
    """Translate ``source``; the port's text and its refusals (empty when it is faithful)."""
    k = known()
    source = source.replace("\r\n", "\n")
    refusals: list[Refusal] = []
    original = cparse.parse(source)
    try:
        macros = collect_macros(original.root_node, source)
        expanded = expand(source, macros)
    except Refused as r:
        raise PortError([Refusal(filename, r.line, r.construct, r.reason)]) from None
    tree = cparse.parse(expanded.text)
    errors = cparse.syntax_errors(tree.root_node)
    if errors:
        refusals = [
            Refusal(
                filename,
                cparse.line(e),
                cparse.snippet(e, 60) or "(missing token)",
                "C++ the parser cannot read (an unknown macro, or not C++)",
            )
            for e in errors
        ]
        raise PortError(refusals)
    flags = Flags()
    # learn which variables are Refs and which vectors are host memory, until nothing changes (a
    # vector parameter used as host memory makes its callers' arguments host memory, and so on)
    # (each pass only adds to the flags, so this settles; a chain of reference parameters settles one
    # caller per pass)
    settled = False
    for _ in range(64):
        before = flags.snapshot()
        Program(k, expanded, filename, flags, macros, True).unit(tree.root_node)
        if flags.snapshot() == before:
            settled = True
            break
    prog = Program(k, expanded, filename, flags, macros, False)
    prog.unit(tree.root_node)
    if not settled:
        prog.refusals.append(
            Refusal(filename, 1, display_name, "the program's variables did not settle as Refs or values in 64 passes")
        )
    text = prog.out.text({"imports": _imports(prog)})
    header = [
        "#!/usr/bin/env python3",
        f"# Generated by aclnn-port from {display_name}: its line-by-line Python port (docs/porting.md).",
    ]
    return "\n".join(header) + "\n" + text, prog.refusals


def _imports(prog: Program) -> list[str]:
    lines: list[str] = []
    if prog.system_includes:
        lines.append(f"# #include {', '.join(prog.system_includes)}: Python's own (numpy arrays for std::vector)")
    if "contextlib" in prog.uses or "sys" in prog.uses:
        lines += [f"import {m}" for m in ("contextlib", "sys") if m in prog.uses] + [""]
    if "np" in prog.uses:
        lines += ["import numpy as np", ""]
    star = "from aclnn_py import *"
    if prog.includes:
        star += "  # " + ", ".join(prog.includes)
    lines.append(star)
    if "printf" in prog.uses:
        lines.append("from aclnn_py.porting import LOG_PRINT as printf  # C's printf, as glibc prints")
    smart = [k for k in ("shared_ptr", "unique_ptr") if k in prog.uses]
    if smart:
        spelled = " and ".join("std::" + k for k in smart)
        lines.append(f"from aclnn_py.raii import {', '.join(smart)}  # {spelled}, with their deleters")
    return lines
