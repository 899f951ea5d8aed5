"""The bench's copy bound counts the bytes every kernel of a call's executor graph moves
(``bench/run.py``: ``graph_moved``), read from the launches phase 1 built."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from aclnn_py import Ref

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench", "run.py")
N = 4096


@pytest.fixture(scope="module")
def bench() -> Any:
    spec = importlib.util.spec_from_file_location("aclnn_bench_run", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def inputs(bench: Any) -> Iterator[Any]:
    """The bench's own device tensors: [N] bfloat16 vectors, a [1] tensor, a strided view."""
    dev = bench.Device()
    try:
        yield bench.Inputs(dev, N, bench.BF16, np.random.default_rng(0))
    finally:
        dev.close()


def graph_of(bench: Any, inputs: Any, layout: str, name: str) -> tuple[int, dict[Any, int], int]:
    p1, _, args, _, _ = bench.elementwise_cases(inputs, layout)[name]
    ws, ex = Ref(0), Ref()
    assert p1(*args, ws, ex) == 0
    try:
        return bench.graph_moved(ex.value)
    finally:
        ex.value.release()


def test_a_graph_of_several_kernels_counts_each_kernels_bytes(bench: Any, inputs: Any) -> None:
    # bfloat16 Muls on Ascend910B: Cast (2 + 4 bytes an element), Mul in float32 with its scalar
    # (4 + 4, and the scalar's 4 bytes), Cast back (4 + 2)
    assert graph_of(bench, inputs, "same shape", "Muls") == (20 * N + 4, {}, 3)
    # alpha != 1 on bfloat16: Mul (x2 and the alpha scalar in, n out), then Add (two in, one out)
    assert graph_of(bench, inputs, "same shape", "Add alpha=2 (Axpy)") == (10 * N + 2, {}, 2)


def test_one_kernel_counts_the_calls_own_bytes(bench: Any, inputs: Any) -> None:
    assert graph_of(bench, inputs, "same shape", "InplaceAdd") == (6 * N, {}, 1)  # self read and written
    assert graph_of(bench, inputs, "scalar operand", "Add") == (4 * N + 2, {}, 1)  # the [1] operand's 2 bytes


def test_a_strided_view_is_a_strided_read_then_its_copy(bench: Any, inputs: Any) -> None:
    """Every second element of a 2n buffer is, to CANN's Contiguous, a Slice of the buffer read as
    [n, 2]: it reads its box, n elements through a stride (a strided copy in the bound), and
    writes n elements; the Add reads that copy and the other operand and writes its output."""
    contiguous, strided, kernels = graph_of(bench, inputs, "strided view", "Add")
    assert kernels == 2
    assert strided == {bench.BF16: N}
    assert contiguous == 2 * N + 6 * N


def test_a_slice_box_is_dense_only_as_one_contiguous_run(bench: Any) -> None:
    assert bench._box_is_dense((5, 6, 7), (2, 6, 7), None)  # whole rows
    assert bench._box_is_dense((5, 6, 7), (1, 2, 7), None)
    assert not bench._box_is_dense((5, 6, 7), (2, 2, 7), None)
    assert not bench._box_is_dense((8, 2), (8, 1), None)  # every second element
    assert not bench._box_is_dense((8,), (4,), (2,))


def test_a_kernel_without_inputs_counts_its_output(bench: Any, inputs: Any) -> None:
    """InplaceFillScalar's Fill has no tensor input: only what it writes counts."""
    contiguous, strided, kernels = graph_of(bench, inputs, "same shape", "InplaceFillScalar")
    assert kernels >= 1 and strided == {} and contiguous >= 2 * N
