"""The executor graph as a picture: Graphviz DOT text and an SVG drawn without Graphviz.

An :class:`~aclnn_py.executor.executor.aclOpExecutor` is a short chain (a small DAG) of l0
steps. This module turns it into a :class:`Graph` — tensor nodes (shape, dtype and where the
bytes live: user memory, the workspace at an offset, or host data riding with the launch), step
nodes (the l0 call, its kernels, its note) and the workspace's memory map — and renders that one
model two ways:

* :func:`to_dot`: DOT text for Graphviz (``print`` it, paste it into any DOT viewer);
* :func:`to_svg`: an SVG drawn here with a deterministic layered layout, so no Graphviz install
  is needed (``engine="dot"`` uses the ``dot`` program instead when it is on ``PATH``).

:func:`graph` wraps both for notebooks: its ``_repr_svg_`` shows the picture and ``str`` gives
the DOT text. :func:`parse_dot` reads back the subset of DOT written here (used by the tests).

The module reads the executor's attributes only and imports nothing above ``dtypes``, so the
call trace (a low module) can use it to write every executor's picture.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import dtypes
from .._xml import escape

if TYPE_CHECKING:  # only for annotations: the executor module sits above this one
    from ..tensor import Storage, aclTensor
    from .executor import aclOpExecutor

# Fill colours by where a tensor lives (also the legend of the SVG).
COLOURS = {"user": "#dbeafe", "workspace": "#fde68a", "host": "#e5e7eb", "step": "#ffffff", "noop": "#f9fafb"}
WHERE_TEXT = {"user": "user memory", "workspace": "workspace", "host": "host (launch argument)"}
_ATTR_WIDTH = 40  # attributes longer than this are cut in the picture (the printout has them whole)


@dataclass
class Node:
    """One box of the picture: a tensor (``kind`` user/workspace/host) or a step (step/noop)."""

    key: str
    kind: str
    title: str
    lines: list[str]


@dataclass
class Edge:
    """Data flowing from a tensor into a step or from a step into a tensor."""

    src: str
    dst: str
    dashed: bool = False  # a step that launched nothing (the tensor passes through)


@dataclass
class Region:
    """One packed piece of the workspace and what occupies it."""

    offset: int
    size: int
    occupants: list[str]
    tail: bool = False  # an individual op's AutoContiguous copy: counted from the workspace's end


@dataclass
class Graph:
    """The picture's model, shared by the DOT and SVG renderers."""

    title: str
    notes: list[str]
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    regions: list[Region] = field(default_factory=list)
    workspace_size: int = 0


def _cut(text: str, width: int = _ATTR_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _layout_text(t: aclTensor) -> str:
    text = f"{dtypes.dt_name(t.dtype)}{list(t.view_shape)}"
    if t.strides != dtypes.contiguous_strides(t.view_shape):
        text += f" strides={list(t.strides)}"
    if t.offset:
        text += f" offset={t.offset}"
    return text


def _tensor_node(key: str, t: aclTensor, names: dict[int, str]) -> Node:
    st = t.storage
    if st.kind == "host":
        value = _cut(repr(st.data.tolist()), 24)
        return Node(key, "host", f"scalar {value}", [f"scalar = {value}", _layout_text(t), WHERE_TEXT["host"]])
    if st.kind == "workspace":
        if st.ws_offset is None:
            where = "workspace (not placed)"
        elif st.ws_tail:
            where = f"workspace tail+{st.ws_offset:#x}"
        else:
            where = f"workspace+{st.ws_offset:#x}"
        return Node(key, "workspace", f"intermediate @ {where}", ["intermediate", _layout_text(t), where])
    name = names.get(id(st), "user tensor")
    return Node(key, "user", name, [name, _layout_text(t), WHERE_TEXT["user"]])


def _same_view(a: aclTensor, b: aclTensor) -> bool:
    """The same tensor, or a view with the same layout of the same storage."""
    return a is b or (
        a.storage is b.storage
        and a.dtype == b.dtype
        and a.offset == b.offset
        and tuple(a.view_shape) == tuple(b.view_shape)
        and tuple(a.strides) == tuple(b.strides)
    )


def _attrs_text(attrs: dict[str, Any]) -> str:
    return _cut(" ".join(f"{k}={v!r}" for k, v in attrs.items()))


def _regions(ex: aclOpExecutor) -> list[Region]:
    """The workspace's memory map: each packed bucket (or unpacked buffer) and its occupants."""
    occupants: dict[tuple[bool, int], list[str]] = {}
    sizes: dict[tuple[bool, int], int] = {}

    def add(st: Storage, text: str, size: int) -> None:
        if st.kind != "workspace" or st.ws_offset is None:
            return
        slot = (st.ws_tail, st.ws_offset)
        names = occupants.setdefault(slot, [])
        if text not in names:
            names.append(text)
        sizes[slot] = max(sizes.get(slot, 0), size)

    for ln in ex.launches:
        for i, t in enumerate(ln.outputs):
            add(t.storage, f"kernel #{ln.index} {ln.op_type} output {i} ({t.storage.nbytes} B)", 0)
        for st in ln.scratch:
            add(st, f"kernel #{ln.index} {ln.op_type} scratch ({st.nbytes} B)", 0)
        for st in ln.tail_scratch:
            add(st, f"kernel #{ln.index} {ln.op_type} tiling workspace ({st.nbytes} B)", st.nbytes)
    # The sizes the planner gave: a composite bucket holds its largest occupant (aligned); an
    # individual op's AutoContiguous copies follow one another up to the copies' total.
    offset = 0
    for size in ex.buckets:
        if (False, offset) in sizes:
            sizes[(False, offset)] = size
        offset += size
    tails = sorted(off for tail, off in sizes if tail)
    for off, nxt in zip(tails, [*tails[1:], ex.contiguous_size]):
        sizes[(True, off)] = nxt - off
    return [Region(off, sizes[(tail, off)], occupants[(tail, off)], tail) for tail, off in sorted(occupants)]


def build(ex: aclOpExecutor) -> Graph:
    """The picture model of an executor: its steps in order, their tensors, the workspace map."""
    names = dict(ex.arg_names)
    title = f"aclOpExecutor for {ex.api} ({ex.kind}, {len(ex.launches)} kernel(s), workspace {ex.workspace_size} bytes)"
    notes = []
    if ex.cached_from is not None:
        notes.append("op cache hit: replays the kernels of an earlier identical call")
    if ex.contiguous_size:
        notes.append(f"AutoContiguous copies: the last {ex.contiguous_size} bytes of the workspace passed to phase 2")
    g = Graph(title, notes, workspace_size=ex.workspace_size)
    current: dict[int, str] = {}  # id(tensor) -> the node holding its latest value

    def tensor_key(t: aclTensor) -> str:
        key = current.get(id(t))
        if key is None:
            key = f"t{sum(1 for n in g.nodes if n.key.startswith('t'))}"
            g.nodes.append(_tensor_node(key, t, names))
            current[id(t)] = key
        return key

    for i, s in enumerate(ex.steps):
        input_keys = [tensor_key(t) for t in s.inputs]
        # a step that launched nothing and hands back one of its inputs (or the same view of
        # the same bytes) is a pass-through: drawn dashed, hanging off that input
        same = {id(o): next((t for t in s.inputs if _same_view(o, t)), None) for o in s.outputs}
        passthrough = not s.launches and all(t is not None for t in same.values())
        head = f"[{i}] {s.name}"
        attrs = _attrs_text(s.attrs)
        lines = [head + (f"  {attrs}" if attrs else "")]
        for ln in s.launches:
            engine = " on AI CPU" if ln.engine == "AiCpu" else ""
            la = _attrs_text(ln.attrs)
            lines.append(f"kernel #{ln.index} {ln.op_type}{engine}" + (f"  {la}" if la else ""))
            for st in (*ln.scratch, *ln.tail_scratch):
                if st.ws_offset is not None:
                    lines.append(f"  scratch {st.nbytes} B @ workspace+{st.ws_offset:#x}")
        if s.note:
            lines += textwrap.wrap(s.note, 52)
        key = f"s{i}"
        g.nodes.append(Node(key, "noop" if passthrough else "step", head, lines))
        for k in dict.fromkeys(input_keys):
            g.edges.append(Edge(k, key, dashed=passthrough))
        if passthrough:
            for o in s.outputs:
                src = same[id(o)]
                if src is not None and o is not src:
                    current[id(o)] = current[id(src)]
            continue
        for t in s.outputs:
            # a tensor written again (in place, or back into an argument read earlier) holds a
            # new value: a new node, so the picture stays acyclic and shows the order
            current.pop(id(t), None)
            out_key = tensor_key(t)
            g.edges.append(Edge(key, out_key))
    g.regions = _regions(ex)
    return g


# -- DOT ---------------------------------------------------------------------------------------


def _dot_quote(text: str) -> str:
    """A DOT quoted string: only the quote is escaped (labels keep their ``\\n``/``\\l`` breaks)."""
    return '"' + text.replace('"', '\\"') + '"'


def _dot_label(lines: list[str], brk: str) -> str:
    """Label text: each line's backslashes doubled, lines joined by ``brk`` (``\\n`` centred, ``\\l`` left)."""
    return brk.join(line.replace("\\", "\\\\") for line in lines)


def _dot_attrs(attrs: dict[str, str]) -> str:
    return "[" + ", ".join(f"{k}={_dot_quote(v)}" for k, v in attrs.items()) + "]"


def _region_text(r: Region) -> str:
    where = f"tail+{r.offset:#x}" if r.tail else f"+{r.offset:#x}"
    return f"{where} {r.size} B: " + "; ".join(r.occupants)


def dot_from_graph(g: Graph) -> str:
    """DOT text for a picture model (top to bottom, one box per tensor and per step)."""
    label = _dot_label([g.title, *g.notes], "\\n")
    out = [
        "digraph executor {",
        f"  graph {_dot_attrs({'label': label, 'labelloc': 't', 'rankdir': 'TB', 'fontname': 'monospace'})};",
        f"  node {_dot_attrs({'fontname': 'monospace', 'fontsize': '10', 'shape': 'box'})};",
    ]
    for n in g.nodes:
        if n.kind in ("step", "noop"):
            attrs = {
                "label": _dot_label(n.lines, "\\l") + "\\l",
                "style": "filled" if n.kind == "step" else "dashed,filled",
                "fillcolor": COLOURS[n.kind],
            }
        else:
            attrs = {"label": _dot_label(n.lines, "\\n"), "style": "rounded,filled", "fillcolor": COLOURS[n.kind]}
        out.append(f"  {n.key} {_dot_attrs(attrs)};")
    for e in g.edges:
        out.append(f"  {e.src} -> {e.dst}" + (f" {_dot_attrs({'style': 'dashed'})}" if e.dashed else "") + ";")
    if g.regions:
        lines = [f"workspace: {g.workspace_size} bytes", *(_region_text(r) for r in g.regions)]
        attrs = {"label": _dot_label(lines, "\\l") + "\\l", "style": "filled", "fillcolor": COLOURS["workspace"]}
        out.append(f"  workspace {_dot_attrs(attrs)};")
    out.append("}")
    return "\n".join(out) + "\n"


_DOT_TOKEN = re.compile(
    r'\s*(?:(->)|([\[\]{};,=])|"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z_0-9.]*|-?\d+(?:\.\d+)?))', re.S
)


def _dot_tokens(text: str) -> list[tuple[str, str]]:
    tokens = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _DOT_TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"DOT: unexpected text at offset {pos}: {text[pos : pos + 20]!r}")
        arrow, punct, quoted, ident = m.groups()
        if arrow:
            tokens.append(("op", arrow))
        elif punct:
            tokens.append(("op", punct))
        elif quoted is not None:
            tokens.append(("id", quoted.replace('\\"', '"')))
        else:
            tokens.append(("id", ident))
        pos = m.end()
    return tokens


def parse_dot(text: str) -> dict[str, Any]:
    """Parse the DOT subset :func:`to_dot` writes: one ``digraph`` with ``graph``/``node``
    attribute statements, node statements and ``a -> b`` edge statements, each with an optional
    ``[k=v, ...]`` list and ending in ``;``. Returns ``{"name", "graph", "node", "nodes",
    "edges"}``; raises ValueError on anything else (so a test can tell the text is well formed)."""
    toks = _dot_tokens(text)
    pos = 0

    def take(kind: str, value: str | None = None) -> str:
        nonlocal pos
        if pos >= len(toks):
            raise ValueError("DOT: unexpected end of text")
        k, v = toks[pos]
        if k != kind or (value is not None and v != value):
            raise ValueError(f"DOT: expected {value or kind}, got {v!r} (token {pos})")
        pos += 1
        return v

    def attr_list() -> dict[str, str]:
        nonlocal pos
        attrs: dict[str, str] = {}
        if pos < len(toks) and toks[pos] == ("op", "["):
            take("op", "[")
            while toks[pos] != ("op", "]"):
                key = take("id")
                take("op", "=")
                attrs[key] = take("id")
                if toks[pos] == ("op", ","):
                    take("op", ",")
            take("op", "]")
        return attrs

    if take("id") != "digraph":
        raise ValueError("DOT: expected digraph")
    result: dict[str, Any] = {"name": take("id"), "graph": {}, "node": {}, "nodes": {}, "edges": []}
    take("op", "{")
    while toks[pos] != ("op", "}"):
        head = take("id")
        if head in ("graph", "node"):
            result[head].update(attr_list())
        elif toks[pos] == ("op", "->"):
            take("op", "->")
            tail = take("id")
            result["edges"].append((head, tail, attr_list()))
        else:
            if head in result["nodes"]:
                raise ValueError(f"DOT: node {head} declared twice")
            result["nodes"][head] = attr_list()
        take("op", ";")
    take("op", "}")
    if pos != len(toks):
        raise ValueError("DOT: text after the graph")
    for a, b, _ in result["edges"]:
        for end in (a, b):
            if end not in result["nodes"]:
                raise ValueError(f"DOT: edge to undeclared node {end}")
    return result


# -- SVG ---------------------------------------------------------------------------------------

FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
CHAR_W = 7.2  # width of one 12px monospace character
LINE_H = 16.0
PAD = 8.0
GAP_X = 24.0
GAP_Y = 36.0
MARGIN = 16.0


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _size(n: Node) -> tuple[float, float]:
    return max(len(s) for s in n.lines) * CHAR_W + 2 * PAD, len(n.lines) * LINE_H + 2 * PAD - 4


DUMMY_W = 8.0  # the width a long edge takes in a layer it crosses


def _layout(g: Graph) -> tuple[list[list[Node]], dict[int, list[str]]]:
    """Longest-path layering (sources on top); an edge crossing layers gets a point (a dummy
    node) in each layer it crosses, so that it is ordered with the boxes and passes between
    them; then one downward barycentre pass orders each layer by the mean position of its
    predecessors (ties keep the graph's order). Returns the layers and each edge's points."""
    preds: dict[str, list[str]] = {n.key: [] for n in g.nodes}
    for e in g.edges:
        preds[e.dst].append(e.src)
    layer: dict[str, int] = {}
    for n in g.nodes:  # nodes are created after their inputs: one pass suffices
        layer[n.key] = 1 + max((layer[p] for p in preds[n.key]), default=-1)
    rows: list[list[Node]] = [[] for _ in range(max(layer.values(), default=-1) + 1)]
    for n in g.nodes:
        rows[layer[n.key]].append(n)
    via: dict[str, list[str]] = {n.key: [] for n in g.nodes}  # predecessors, dummies included
    chains: dict[int, list[str]] = {}
    for i, e in enumerate(g.edges):
        prev, chain = e.src, []
        for k in range(layer[e.src] + 1, layer[e.dst]):
            dummy = Node(f"~{i}.{k}", "dummy", "", [])
            rows[k].append(dummy)
            via[dummy.key] = [prev]
            chain.append(dummy.key)
            prev = dummy.key
        via[e.dst].append(prev)
        chains[i] = chain
    position: dict[str, float] = {}
    for row in rows:
        order = {n.key: i for i, n in enumerate(row)}

        def weight(n: Node, order: dict[str, int] = order) -> tuple[float, int]:
            ps = [position[p] for p in via[n.key] if p in position]
            return (sum(ps) / len(ps) if ps else float(order[n.key]), order[n.key])

        row.sort(key=weight)
        for i, n in enumerate(row):
            position[n.key] = float(i)
    return rows, chains


def _layers(g: Graph) -> list[list[Node]]:
    """The layers of the picture, top to bottom (long edges' points included, kind ``dummy``)."""
    return _layout(g)[0]


def svg_from_graph(g: Graph) -> str:
    """An SVG of the picture model: layered boxes top to bottom, arrows for data flow, the
    workspace's memory map underneath, a legend of the colours."""
    layers, chains = _layout(g)
    sizes = {n.key: _size(n) for n in g.nodes}
    sizes.update({n.key: (DUMMY_W, 0.0) for row in layers for n in row if n.kind == "dummy"})
    header = [g.title, *g.notes]
    width = max(
        [sum(sizes[n.key][0] for n in row) + GAP_X * (len(row) - 1) for row in layers]
        + [len(s) * CHAR_W for s in header]
        + [420.0]
    )
    region_lines = [_region_text(r) for r in g.regions]
    map_w = 160.0
    if region_lines:
        width = max(width, map_w + 12 + max(len(s) for s in region_lines) * CHAR_W)
    width += 2 * MARGIN
    boxes: dict[str, tuple[float, float, float, float]] = {}
    y = MARGIN + LINE_H * len(header) + 8
    for row in layers:
        row_w = sum(sizes[n.key][0] for n in row) + GAP_X * (len(row) - 1)
        row_h = max(sizes[n.key][1] for n in row)
        x = (width - row_w) / 2
        for n in row:
            w, h = sizes[n.key]
            # a long edge's point spans its layer's height: the edge runs straight through it
            boxes[n.key] = (x, y, w, row_h) if n.kind == "dummy" else (x, y + (row_h - h) / 2, w, h)
            x += w + GAP_X
        y += row_h + GAP_Y
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" height="HEIGHT" '
        f'viewBox="0 0 {_num(width)} HEIGHT" font-family="{FONT}" font-size="12">',
        "<title>" + escape(g.title) + "</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#374151"/></marker></defs>',
        f'<rect width="{_num(width)}" height="HEIGHT" fill="#ffffff"/>',
    ]
    for i, text in enumerate(header):
        weight = ' font-weight="bold"' if i == 0 else ""
        parts.append(f'<text x="{_num(MARGIN)}" y="{_num(MARGIN + LINE_H * i + 10)}"{weight}>{escape(text)}</text>')
    for i, e in enumerate(g.edges):
        x1, y1, w1, h1 = boxes[e.src]
        x2, y2, w2, _ = boxes[e.dst]
        # bottom of the source, through each crossed layer (straight down), top of the target
        points = [(x1 + w1 / 2, y1 + h1)]
        for key in chains[i]:
            dx, dy, dw, dh = boxes[key]
            points += [(dx + dw / 2, dy), (dx + dw / 2, dy + dh)]
        points.append((x2 + w2 / 2, y2))
        path = [f"M {_num(points[0][0])} {_num(points[0][1])}"]
        for k in range(0, len(points) - 1, 2):
            (ax, ay), (bx, by) = points[k], points[k + 1]
            my = (ay + by) / 2
            path.append(f"C {_num(ax)} {_num(my)} {_num(bx)} {_num(my)} {_num(bx)} {_num(by)}")
            if k + 2 < len(points):
                path.append(f"L {_num(points[k + 2][0])} {_num(points[k + 2][1])}")
        dash = ' stroke-dasharray="4 3"' if e.dashed else ""
        parts.append(
            f'<g class="edge"><title>{e.src}-&gt;{e.dst}</title><path d="{" ".join(path)}" fill="none" '
            f'stroke="#374151"{dash} marker-end="url(#arrow)"/></g>'
        )
    for n in g.nodes:
        x, y0, w, h = boxes[n.key]
        rx = "8" if n.kind in ("user", "workspace", "host") else "2"
        dash = ' stroke-dasharray="4 3"' if n.kind == "noop" else ""
        parts.append(f'<g class="node {n.kind}" id="{n.key}"><title>{escape(n.title)}</title>')
        parts.append(
            f'<rect x="{_num(x)}" y="{_num(y0)}" width="{_num(w)}" height="{_num(h)}" rx="{rx}" '
            f'fill="{COLOURS[n.kind]}" stroke="#374151"{dash}/>'
        )
        centred = n.kind not in ("step", "noop")
        for i, line in enumerate(n.lines):
            ty = y0 + PAD + LINE_H * i + 10
            bold = ' font-weight="bold"' if i == 0 else ""
            if centred:
                parts.append(
                    f'<text x="{_num(x + w / 2)}" y="{_num(ty)}" text-anchor="middle"{bold}>{escape(line)}</text>'
                )
            else:
                parts.append(f'<text x="{_num(x + PAD)}" y="{_num(ty)}"{bold}>{escape(line)}</text>')
        parts.append("</g>")
    if g.regions:
        parts.append('<g class="workspace" id="workspace"><title>workspace</title>')
        parts.append(
            f'<text x="{_num(MARGIN)}" y="{_num(y + 10)}" font-weight="bold">workspace: {g.workspace_size} bytes '
            "(bar: where each piece sits)</text>"
        )
        total = max(g.workspace_size, 1)
        for i, r in enumerate(g.regions):
            ry = y + LINE_H * (i + 1) + 4
            start = (total - r.size - r.offset) if r.tail else r.offset  # a tail copy counts from the end
            start = max(0, min(start, total))
            bw = max(2.0, map_w * min(r.size, total) / total)
            bx = MARGIN + map_w * start / total
            parts.append(
                f'<rect x="{_num(MARGIN)}" y="{_num(ry)}" width="{_num(map_w)}" height="12" fill="#f3f4f6" '
                'stroke="#9ca3af"/>'
            )
            parts.append(
                f'<rect x="{_num(min(bx, MARGIN + map_w - bw))}" y="{_num(ry)}" width="{_num(bw)}" height="12" '
                f'fill="{COLOURS["workspace"]}" stroke="#374151"/>'
            )
            parts.append(f'<text x="{_num(MARGIN + map_w + 12)}" y="{_num(ry + 10)}">{escape(_region_text(r))}</text>')
        parts.append("</g>")
        y += LINE_H * (len(g.regions) + 1) + 12
    # legend
    lx = MARGIN
    for kind in ("user", "workspace", "host"):
        parts.append(
            f'<rect x="{_num(lx)}" y="{_num(y)}" width="14" height="12" rx="3" fill="{COLOURS[kind]}" '
            'stroke="#374151"/>'
        )
        parts.append(f'<text x="{_num(lx + 20)}" y="{_num(y + 10)}">{WHERE_TEXT[kind]}</text>')
        lx += 20 + len(WHERE_TEXT[kind]) * CHAR_W + 20
    height = y + 12 + MARGIN
    parts.append("</svg>")
    return "\n".join(parts).replace("HEIGHT", _num(height)) + "\n"


def dot_program() -> str | None:
    """The Graphviz ``dot`` program if it is installed, else None."""
    return shutil.which("dot")


def render_dot(text: str, fmt: str = "svg") -> str | None:
    """Run Graphviz ``dot -T<fmt>`` on DOT text; None when ``dot`` is not installed or fails."""
    program = dot_program()
    if program is None:
        return None
    done = subprocess.run([program, f"-T{fmt}"], input=text, capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else None


def to_dot(ex: aclOpExecutor) -> str:
    """The executor's graph as Graphviz DOT text."""
    return dot_from_graph(build(ex))


def to_svg(ex: aclOpExecutor, engine: str = "builtin") -> str:
    """The executor's graph as SVG text.

    ``engine="builtin"`` (default) draws it here, with no dependency; ``"dot"`` asks Graphviz's
    ``dot`` for it and falls back to the built-in drawing when ``dot`` is not installed."""
    if engine not in ("builtin", "dot"):
        raise ValueError(f"unknown engine {engine!r}: expected 'builtin' or 'dot'")
    g = build(ex)
    if engine == "dot":
        svg = render_dot(dot_from_graph(g))
        if svg is not None:
            return svg
    return svg_from_graph(g)


class ExecutorPicture:
    """An executor's picture for notebooks and printing: ``str()`` is the DOT text,
    ``_repr_svg_()`` the SVG (Jupyter displays it)."""

    def __init__(self, ex: aclOpExecutor, engine: str = "builtin") -> None:
        self.graph = build(ex)
        self.engine = engine

    def dot(self) -> str:
        """The DOT text."""
        return dot_from_graph(self.graph)

    def svg(self) -> str:
        """The SVG text (Graphviz's when ``engine="dot"`` and ``dot`` is installed)."""
        if self.engine == "dot":
            svg = render_dot(self.dot())
            if svg is not None:
                return svg
        return svg_from_graph(self.graph)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self) -> str:
        return self.dot()


def graph(ex: aclOpExecutor, engine: str = "builtin") -> ExecutorPicture:
    """The executor's picture: ``print(graph(ex))`` shows DOT, a notebook shows the SVG."""
    return ExecutorPicture(ex, engine)
