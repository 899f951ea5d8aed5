"""The executor graph as a picture: DOT text (parsed back), SVG (well-formed, the expected boxes
laid out top to bottom), the trace option that writes every executor's picture, and the docs'
pictures (checked-in files equal what ``python -m aclnn_py.pictures`` makes now, under every
stream policy)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import aclnn_py
from aclnn_py import (
    ACL_BF16,
    ACL_BOOL,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_FORMAT_ND,
    Ref,
    aclCreateScalar,
    aclCreateTensor,
    aclDestroyAclOpExecutor,
    aclDestroyScalar,
    aclDestroyTensor,
    aclGetRecentErrMsg,
    aclnnAddGetWorkspaceSize,
    aclnnHardswishBackwardGetWorkspaceSize,
    aclnnInplaceAddGetWorkspaceSize,
    aclnnScaledMaskedSoftmaxGetWorkspaceSize,
)
from aclnn_py import pictures as docs_pictures
from aclnn_py.executor import picture

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def _t(shape, dtype=ACL_FLOAT, strides=None, storage=None):
    storage = storage or shape
    return aclCreateTensor(shape, len(shape), dtype, strides, 0, ACL_FORMAT_ND, storage, len(storage), None)


@pytest.fixture
def executors(dev):
    """Executors of four shapes of graph: composite with a transposed output, composite with
    two packed buckets and a host scalar, in place, and an individual op (workspace tail)."""
    made, tensors, scalars = {}, [], []

    def phase1(name, fn, *args):
        ws, ex = Ref(0), Ref()
        assert fn(*args, ws, ex) == 0, aclGetRecentErrMsg()
        made[name] = ex.value
        tensors.extend(a for a in args if type(a).__name__ == "aclTensor")

    phase1(
        "hardswish",
        aclnnHardswishBackwardGetWorkspaceSize,
        _t([2, 3]),
        _t([2, 3]),
        _t([2, 3], strides=[1, 2], storage=[3, 2]),
    )
    alpha = aclCreateScalar(np.array(1.2, np.float32), ACL_FLOAT)
    scalars.append(alpha)
    phase1("add", aclnnAddGetWorkspaceSize, _t([4, 2], ACL_BF16), _t([4, 2], ACL_BF16), alpha, _t([4, 2]))
    one = aclCreateScalar(np.array(1.0, np.float32), ACL_FLOAT)
    scalars.append(one)
    phase1("inplace", aclnnInplaceAddGetWorkspaceSize, _t([4, 2], strides=[1, 4], storage=[2, 4]), _t([4, 2]), one)
    phase1(
        "individual",
        aclnnScaledMaskedSoftmaxGetWorkspaceSize,
        _t([2, 2, 2, 3], ACL_FLOAT16, strides=[12, 6, 1, 2]),
        _t([1, 2, 2, 3], ACL_BOOL),
        0.5,
        False,
        _t([2, 2, 2, 3], ACL_FLOAT16),
    )
    phase1("empty", aclnnAddGetWorkspaceSize, _t([0, 2]), _t([0, 2]), one, _t([0, 2]))  # no steps at all
    yield made
    for ex in made.values():
        aclDestroyAclOpExecutor(ex)
    for t in tensors:
        aclDestroyTensor(t)
    for s in scalars:
        aclDestroyScalar(s)


def _labels(text: str) -> list[str]:
    """A DOT label's lines (``\\n`` centred, ``\\l`` left-justified)."""
    return [line for line in re.split(r"\\[nl]", text) if line]


# -- DOT ---------------------------------------------------------------------------------------


def test_dot_of_the_calling_convention_executor_parses_back(executors):
    ex = executors["hardswish"]
    dot = picture.to_dot(ex)
    parsed = picture.parse_dot(dot)
    assert parsed["name"] == "executor"
    assert _labels(parsed["graph"]["label"]) == [
        "aclOpExecutor for aclnnHardswishBackward (composite, 2 kernel(s), workspace 512 bytes)"
    ]
    labels = {k: _labels(v["label"]) for k, v in parsed["nodes"].items()}
    assert labels["t0"] == ["self", "DT_FLOAT[2, 3]", "user memory"]
    assert labels["t1"] == ["gradOutput", "DT_FLOAT[2, 3]", "user memory"]
    assert labels["t2"] == ["intermediate", "DT_FLOAT[2, 3]", "workspace+0x0"]
    assert labels["t3"] == ["out", "DT_FLOAT[2, 3] strides=[1, 2]", "user memory"]
    assert labels["s2"] == ["[2] HardSwishGrad", "kernel #0 HardSwishGrad  recipe='tbe'"]
    assert labels["s3"] == ["[3] ViewCopy", "kernel #1 Transpose  perm=[1, 0]"]
    assert labels["s0"] == ["[0] Contiguous", "no kernel: already contiguous"]
    assert parsed["nodes"]["s0"]["style"] == "dashed,filled"  # a step that launched nothing
    assert labels["workspace"] == ["workspace: 512 bytes", "+0x0 512 B: kernel #0 HardSwishGrad output 0 (24 B)"]
    edges = [(a, b) for a, b, _ in parsed["edges"]]
    assert edges == [("t0", "s0"), ("t1", "s1"), ("t1", "s2"), ("t0", "s2"), ("s2", "t2"), ("t2", "s3"), ("s3", "t3")]
    # the steps in the DOT text are the executor's steps, in order
    steps = [labels[k][0] for k in parsed["nodes"] if k.startswith("s")]
    assert steps == [f"[{i}] {s.name}" for i, s in enumerate(ex.steps)]


def test_dot_shows_buckets_scalars_and_in_place_writes(executors):
    add = picture.parse_dot(picture.to_dot(executors["add"]))
    labels = {k: _labels(v["label"]) for k, v in add["nodes"].items()}
    host = [v for v in labels.values() if v[-1] == "host (launch argument)"]
    assert host == [["scalar = 1.203125", "DT_BFLOAT16[]", "host (launch argument)"]]
    assert labels["workspace"] == [
        "workspace: 1024 bytes",
        "+0x0 512 B: kernel #0 Mul output 0 (16 B)",
        "+0x200 512 B: kernel #1 Add output 0 (16 B)",
    ]
    inplace = picture.build(executors["inplace"])
    # selfRef (bound as out) is read then written: the written value is a second node, no cycle
    selves = [n.key for n in inplace.nodes if n.title == "out"]
    assert len(selves) == 2
    assert all(a != b for a, b in ((e.src, e.dst) for e in inplace.edges))
    layer = {n.key: i for i, row in enumerate(picture._layers(inplace)) for n in row}
    assert all(layer[e.src] < layer[e.dst] for e in inplace.edges)
    ind = picture.parse_dot(picture.to_dot(executors["individual"]))
    ws = _labels(ind["nodes"]["workspace"]["label"])
    assert ws[0] == f"workspace: {executors['individual'].workspace_size} bytes"
    assert any(line.startswith("tail+0x0 ") and "AutoContiguous" not in line for line in ws)
    assert "AutoContiguous copies: the last" in ind["graph"]["label"]


@pytest.mark.parametrize(
    "bad",
    [
        "digraph g { a; b; a -> b }",  # no ';' after the edge
        "digraph g { a; a -> c; }",  # an edge to a node never declared
        'digraph g { a [label="x]; }',  # an unterminated string
        "graph g { a; }",  # not a digraph
        "digraph g { a; a; }",  # a node declared twice
        "digraph g { a; } extra",
    ],
)
def test_dot_parser_refuses_what_it_does_not_know(bad):
    with pytest.raises(ValueError, match="DOT"):
        picture.parse_dot(bad)


def test_dot_quotes_and_backslashes_survive(executors):
    g = picture.build(executors["hardswish"])
    g.nodes[0].lines = ['say "hi"', "C:\\path"]
    parsed = picture.parse_dot(picture.dot_from_graph(g))
    assert _labels(parsed["nodes"][g.nodes[0].key]["label"]) == ['say "hi"', "C:\\\\path"]


def test_pydot_reads_the_dot_text_when_installed(executors):
    pydot = pytest.importorskip("pydot", reason="needs pydot to parse the DOT text back (optional)")
    (graph,) = pydot.graph_from_dot_data(picture.to_dot(executors["add"]))
    assert len(graph.get_edges()) == len(picture.build(executors["add"]).edges)


# -- SVG ---------------------------------------------------------------------------------------


def _boxes(root: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class", "").startswith("node"):
            r = g.find(f"{SVG}rect")
            out[g.get("id")] = tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
    return out


@pytest.mark.parametrize("name", ["hardswish", "add", "inplace", "individual", "empty"])
def test_svg_is_well_formed_with_a_box_per_node_laid_out_downwards(executors, name):
    ex = executors[name]
    g = picture.build(ex)
    root = ET.fromstring(picture.to_svg(ex))
    assert root.tag == f"{SVG}svg"
    boxes = _boxes(root)
    assert sorted(boxes) == sorted(n.key for n in g.nodes)
    titles = {gr.get("id"): gr.find(f"{SVG}title").text for gr in root.iter(f"{SVG}g") if gr.get("id") in boxes}
    assert titles == {n.key: n.title for n in g.nodes}
    edges = [gr for gr in root.iter(f"{SVG}g") if gr.get("class") == "edge"]
    assert len(edges) == len(g.edges)
    for e in g.edges:  # every arrow points down: the source box ends above the target box
        assert boxes[e.src][1] + boxes[e.src][3] < boxes[e.dst][1]
    for a in boxes.values():  # no two boxes overlap
        for b in boxes.values():
            if a is not b:
                assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
    width = float(root.get("width"))
    assert all(x >= 0 and x + w <= width for x, _, w, _ in boxes.values())
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert f"workspace {ex.workspace_size} bytes" in texts
    if ex.workspace_size:
        assert root.find(f".//{SVG}g[@id='workspace']") is not None


def test_executor_shows_itself_in_notebooks(executors):
    ex = executors["hardswish"]
    assert ex._repr_svg_() == picture.to_svg(ex)
    pic = picture.graph(ex)
    assert pic._repr_svg_() == picture.to_svg(ex) and str(pic) == picture.to_dot(ex)
    assert str(ex) == ex.describe()  # printing the executor still gives the text graph


def test_dot_engine_falls_back_without_graphviz(executors, monkeypatch):
    monkeypatch.setattr(picture, "dot_program", lambda: None)
    ex = executors["add"]
    assert picture.to_svg(ex, engine="dot") == picture.to_svg(ex)
    assert picture.render_dot("digraph g { }") is None
    with pytest.raises(ValueError, match="engine"):
        picture.to_svg(ex, engine="neato")


def test_dot_engine_runs_graphviz_when_asked(executors, monkeypatch, tmp_path):
    """With a ``dot`` on PATH (a stand-in that records its input), engine="dot" uses it."""
    fake = tmp_path / "dot"
    fake.write_text(
        f"#!{sys.executable}\nimport sys\ntext = sys.stdin.read()\n"
        "sys.stdout.write('<svg xmlns=\"http://www.w3.org/2000/svg\"><!-- ' + sys.argv[1] + ' ' + "
        "str(text.count('->')) + ' --></svg>')\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    ex = executors["hardswish"]
    assert picture.to_svg(ex, engine="dot") == '<svg xmlns="http://www.w3.org/2000/svg"><!-- -Tsvg 7 --></svg>'
    assert picture.graph(ex, engine="dot")._repr_svg_().startswith("<svg")


# -- pictures from the call trace ----------------------------------------------------------------


def test_trace_writes_every_handed_out_executor(dev, tmp_path):
    with aclnn_py.trace.tracing(graphs=tmp_path / "graphs") as events:
        ws, ex = Ref(0), Ref()
        a, b, o = _t([2, 3]), _t([2, 3]), _t([2, 3], strides=[1, 2], storage=[3, 2])
        assert aclnnHardswishBackwardGetWorkspaceSize(a, None, o, ws, ex) != 0  # refused: no picture
        aclGetRecentErrMsg()
        assert aclnnHardswishBackwardGetWorkspaceSize(a, b, o, ws, ex) == 0
    assert events is None  # only pictures were asked for
    files = sorted(p.name for p in (tmp_path / "graphs").iterdir())
    assert files == ["001-aclnnHardswishBackward.dot", "001-aclnnHardswishBackward.svg"]
    assert (tmp_path / "graphs" / files[0]).read_text() == picture.to_dot(ex.value)
    assert (tmp_path / "graphs" / files[1]).read_text() == picture.to_svg(ex.value)
    aclDestroyAclOpExecutor(ex.value)
    for t in (a, b, o):
        aclDestroyTensor(t)


def test_trace_graphs_environment_variable(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACLNN_PY_")}
    env["ACLNN_PY_TRACE_GRAPHS"] = str(tmp_path)
    sample = ROOT / "samples" / "test_aclnn_hardswish_backward.py"
    proc = subprocess.run([sys.executable, str(sample)], capture_output=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == sample.with_suffix(".out").read_bytes()  # the program's output is untouched
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["001-aclnnHardswishBackward.dot", "001-aclnnHardswishBackward.svg"]
    parsed = picture.parse_dot((tmp_path / names[0]).read_text())
    assert "aclnnHardswishBackward" in parsed["graph"]["label"]
    ET.fromstring((tmp_path / names[1]).read_text())


# -- the docs' pictures --------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_checked_in_pictures_are_what_the_command_makes_now(policy, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    made = docs_pictures.produce()
    assert sorted(made) == sorted(
        p.name
        for p in (ROOT / "docs" / "pictures").iterdir()
        if p.suffix in (".svg", ".dot", ".json") and "schema" not in p.name
    )
    for name, text in made.items():
        assert (ROOT / "docs" / "pictures" / name).read_text(encoding="utf-8") == text, (
            f"docs/pictures/{name} is out of date: run make pictures"
        )


def test_pictures_command_writes_and_checks(tmp_path, capsys):
    assert docs_pictures.main(["--check", str(tmp_path)]) == 1
    assert "out of date" in capsys.readouterr().err
    assert docs_pictures.main([str(tmp_path)]) == 0
    assert docs_pictures.main(["--check", str(tmp_path)]) == 0
    (tmp_path / "workspace-layout.svg").write_text("<svg/>")
    assert docs_pictures.main(["--check", str(tmp_path)]) == 1
    assert "workspace-layout.svg" in capsys.readouterr().err


def test_docs_pages_show_the_pictures():
    pages = {
        "calling-convention.md": ["pictures/calling-convention.svg", "pictures/workspace-layout.svg"],
    }
    for page, images in pages.items():
        text = (ROOT / "docs" / page).read_text()
        for image in images:
            assert f"]({image})" in text
            assert (ROOT / "docs" / image).exists()


def test_the_pictures_do_not_depend_on_what_the_process_ran_before(monkeypatch):
    """Under ACLNN_PY_KERNELS=auto a large call loads the accelerator and later kernels note the
    numba path; the pictures are made on the numpy path whatever ran before."""
    import numpy as np

    from aclnn_py import functional as F

    monkeypatch.setenv("ACLNN_PY_KERNELS", "auto")
    F.add(np.ones(1 << 16, np.float32), np.ones(1 << 16, np.float32))
    made = docs_pictures.produce()
    assert made["stream-timeline.json"] == (ROOT / "docs" / "pictures" / "stream-timeline.json").read_text(
        encoding="utf-8"
    )
    assert __import__("os").environ["ACLNN_PY_KERNELS"] == "auto"
