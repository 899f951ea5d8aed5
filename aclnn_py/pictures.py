"""The docs' pictures, made from the walkthroughs' own calls: ``python -m aclnn_py.pictures [DIR]``.

Three pictures, each written as SVG (and its source: DOT text or trace-event JSON) into ``DIR``
(default ``docs/pictures``):

* ``calling-convention``: the executor of the calling-convention walkthrough's
  ``aclnnHardswishBackward`` call (a non-contiguous output, so a workspace intermediate and a
  Transpose), drawn by :mod:`aclnn_py.executor.picture`;
* ``workspace-layout``: ``aclnnAdd`` on bfloat16 inputs with a float output and an alpha of
  1.2 — three kernels and two packed workspace buckets;
* ``stream-timeline``: one stream running the two kernels of a HardswishBackward call and an
  event record, with the host waiting on the event, as a timeline (:mod:`aclnn_py.timeline`).

``--check`` writes nothing and exits 1 if a checked-in file differs from what the programs
produce now (``make pictures`` regenerates them). Every run starts from a reset runtime, so the
output is the same on every machine and under every stream policy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from . import testing, timeline, trace
from ._ref import Ref
from .executor import picture
from .kernels import accel

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "docs" / "pictures"


def _api() -> Any:
    import aclnn_py

    return aclnn_py


def _upload(acl: Any, host: np.ndarray) -> int:
    ptr: Ref[Any] = Ref()
    assert acl.aclrtMalloc(ptr, host.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST) == 0
    assert acl.aclrtMemcpy(ptr.value, host.nbytes, host, host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return int(ptr.value)


def _hardswish_backward(acl: Any) -> tuple[Any, int, list[Any], list[int]]:
    """The calling-convention walkthrough's phase 1: returns (executor, workspace size, tensors, pointers)."""
    x = np.array([[-4, -3, 0], [1, 3, 5]], dtype=np.float32)
    x_ptr, g_ptr = _upload(acl, x), _upload(acl, np.ones((2, 3), np.float32))
    self_t = acl.aclCreateTensor([2, 3], 2, acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, [2, 3], 2, x_ptr)
    grad = acl.aclCreateTensor([2, 3], 2, acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, [2, 3], 2, g_ptr)
    out_ptr: Ref[Any] = Ref()
    assert acl.aclrtMalloc(out_ptr, 24, acl.ACL_MEM_MALLOC_HUGE_FIRST) == 0
    out = acl.aclCreateTensor([2, 3], 2, acl.ACL_FLOAT, [1, 2], 0, acl.ACL_FORMAT_ND, [3, 2], 2, out_ptr.value)
    ws: Ref[int] = Ref(0)
    ex: Ref[Any] = Ref()
    assert acl.aclnnHardswishBackwardGetWorkspaceSize(grad, self_t, out, ws, ex) == 0
    return ex.value, int(ws.value), [self_t, grad, out], [x_ptr, g_ptr, int(out_ptr.value)]


def _cleanup(acl: Any, tensors: list[Any], ptrs: list[int]) -> None:
    for t in tensors:
        acl.aclDestroyTensor(t)
    for p in ptrs:
        acl.aclrtFree(p)


def calling_convention() -> dict[str, str]:
    """The executor picture of the calling-convention walkthrough."""
    acl = _api()
    testing.reset()
    acl.aclInit(None)
    acl.aclrtSetDevice(0)
    ex, _, tensors, ptrs = _hardswish_backward(acl)
    files = {"calling-convention.dot": picture.to_dot(ex), "calling-convention.svg": picture.to_svg(ex)}
    acl.aclDestroyAclOpExecutor(ex)
    _cleanup(acl, tensors, ptrs)
    acl.aclrtResetDevice(0)
    acl.aclFinalize()
    return files


def workspace_layout() -> dict[str, str]:
    """aclnnAdd(bf16, bf16, alpha=1.2) -> float: three kernels, two workspace buckets."""
    acl = _api()
    testing.reset()
    acl.aclInit(None)
    acl.aclrtSetDevice(0)
    ptrs: list[int] = []
    tensors: list[Any] = []
    for dt in (acl.ACL_BF16, acl.ACL_BF16, acl.ACL_FLOAT):
        ptr: Ref[Any] = Ref()
        assert acl.aclrtMalloc(ptr, 32, acl.ACL_MEM_MALLOC_HUGE_FIRST) == 0
        ptrs.append(int(ptr.value))
        tensors.append(acl.aclCreateTensor([4, 2], 2, dt, None, 0, acl.ACL_FORMAT_ND, [4, 2], 2, ptr.value))
    alpha = acl.aclCreateScalar(np.array(1.2, np.float32), acl.ACL_FLOAT)
    ws: Ref[int] = Ref(0)
    ex: Ref[Any] = Ref()
    assert acl.aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], ws, ex) == 0
    files = {"workspace-layout.dot": picture.to_dot(ex.value), "workspace-layout.svg": picture.to_svg(ex.value)}
    acl.aclDestroyAclOpExecutor(ex.value)
    acl.aclDestroyScalar(alpha)
    _cleanup(acl, tensors, ptrs)
    acl.aclrtResetDevice(0)
    acl.aclFinalize()
    return files


def stream_program(acl: Any, recorder: timeline.Recorder) -> None:
    """One stream: a HardswishBackward call's two kernels, an event record, the host waiting on
    the event, then reading the result. The setup and the cleanup are not traced."""
    acl.aclInit(None)
    acl.aclrtSetDevice(0)
    stream: Ref[Any] = Ref()
    event: Ref[Any] = Ref()
    acl.aclrtCreateStream(stream)
    acl.aclrtCreateEvent(event)
    ex, size, tensors, ptrs = _hardswish_backward(acl)
    workspace: Ref[Any] = Ref()
    acl.aclrtMalloc(workspace, size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    result = np.zeros(6, np.float32)
    with trace.tracing(recorder):
        acl.aclnnHardswishBackward(workspace.value, size, ex, stream.value)
        acl.aclrtRecordEvent(event.value, stream.value)
        acl.aclrtSynchronizeEvent(event.value)
        acl.aclrtMemcpy(result, 24, ptrs[2], 24, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.aclrtDestroyEvent(event.value)
    _cleanup(acl, tensors, [*ptrs, int(workspace.value)])
    acl.aclrtDestroyStream(stream.value)
    acl.aclrtResetDevice(0)
    acl.aclFinalize()


def stream_timeline() -> dict[str, str]:
    """The timeline of :func:`stream_program`, as trace-event JSON and as a picture."""
    acl = _api()
    testing.reset()
    recorder = timeline.Recorder()
    stream_program(acl, recorder)
    doc = recorder.document()
    return {
        "stream-timeline.json": json.dumps(doc, indent=1) + "\n",
        "stream-timeline.svg": timeline.svg(doc, "one stream: two kernels and an event (virtual clock)"),
    }


PICTURES: dict[str, Callable[[], dict[str, str]]] = {
    "calling-convention": calling_convention,
    "workspace-layout": workspace_layout,
    "stream-timeline": stream_timeline,
}


def produce() -> dict[str, str]:
    """Every picture file (name -> text), made now. The timeline notes which kernel path ran each
    kernel, and under ``ACLNN_PY_KERNELS=auto`` that depends on what the process did before
    (numba is loaded by the first large call): the pictures are made on the numpy path."""
    files: dict[str, str] = {}
    saved = os.environ.get(accel.ENV_VAR)
    os.environ[accel.ENV_VAR] = "numpy"
    try:
        for make in PICTURES.values():
            files.update(make())
    finally:
        if saved is None:
            del os.environ[accel.ENV_VAR]
        else:
            os.environ[accel.ENV_VAR] = saved
    return files


def main(argv: list[str] | None = None) -> int:
    """The command line: write the pictures, or ``--check`` them against a directory."""
    parser = argparse.ArgumentParser(prog="python -m aclnn_py.pictures", description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", default=str(DEFAULT_DIR), help="where the pictures go")
    parser.add_argument("--check", action="store_true", help="compare with the files there; write nothing")
    args = parser.parse_args(argv)
    out = Path(args.directory)
    stale = []
    for name, text in produce().items():
        path = out / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            out.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print(f"out of date in {out}: {', '.join(stale)} (run: make pictures)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
