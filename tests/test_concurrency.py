"""Many threads at once: per-thread state, and the same results as running one after another."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import aclnn_py as A
from aclnn_py import Ref

ROOT = Path(__file__).resolve().parent.parent
THREADS = 6


def _work(seed: int) -> dict[str, np.ndarray]:
    """One thread's job: its own stream, the three operators, results read back."""
    rng = np.random.default_rng(seed)
    assert A.aclrtSetDevice(seed % 2) == 0
    s = Ref()
    assert A.aclrtCreateStream(s) == 0
    stream = s.value
    ptrs, tensors = [], []

    def tensor(arr: np.ndarray, dt: int) -> A.aclTensor:
        p = Ref()
        assert A.aclrtMalloc(p, arr.nbytes, 0) == 0
        assert A.aclrtMemcpy(p.value, arr.nbytes, arr, arr.nbytes, A.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        ptrs.append(p.value)
        shape = list(arr.shape)
        t = A.aclCreateTensor(shape, len(shape), dt, None, 0, A.ACL_FORMAT_ND, shape, len(shape), p.value)
        tensors.append(t)
        return t

    def run(p1, p2, *args):
        ws, ex = Ref(0), Ref()
        assert p1(*args, ws, ex) == 0, A.aclGetRecentErrMsg()
        wsp = None
        if ws.value:
            w = Ref()
            assert A.aclrtMalloc(w, ws.value, 0) == 0
            ptrs.append(w.value)
            wsp = w.value
        assert p2(wsp, ws.value, ex.value, stream) == 0

    n = 3000
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    g = rng.standard_normal(n).astype(np.float32)
    t = rng.standard_normal(n).astype(np.float32)
    outs = {name: tensor(np.zeros(n, np.float32), 0) for name in ("smooth", "hardswish")}
    run(A.aclnnSmoothL1LossBackwardGetWorkspaceSize, A.aclnnSmoothL1LossBackward,
        tensor(g, 0), tensor(x, 0), tensor(t, 0), 1, 0.7, outs["smooth"])  # fmt: skip
    run(
        A.aclnnHardswishBackwardGetWorkspaceSize,
        A.aclnnHardswishBackward,
        tensor(g, 0),
        tensor(x, 0),
        outs["hardswish"],
    )
    shape = (2, 3, 4, 40)
    sg = rng.standard_normal(shape).astype(np.float16)
    sy = rng.uniform(0, 1, shape).astype(np.float16)
    sm = rng.uniform(0, 1, (1, 3, 4, 40)) < 0.3
    sout = tensor(np.zeros(shape, np.float16), 1)
    run(A.aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize, A.aclnnScaledMaskedSoftmaxBackward,
        tensor(sg, 1), tensor(sy, 1), tensor(sm, 12), 0.5, False, sout)  # fmt: skip
    assert A.aclrtSynchronizeStream(stream) == 0
    results = {}
    for name, out, dtype in (("smooth", outs["smooth"], np.float32), ("hardswish", outs["hardswish"], np.float32),
                             ("softmax", sout, np.float16)):  # fmt: skip
        host = np.zeros(out.view_shape, dtype)
        assert A.aclrtMemcpy(host, host.nbytes, out.storage.addr, host.nbytes, A.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        results[name] = host
    for tt in tensors:
        A.aclDestroyTensor(tt)
    for p in ptrs:
        A.aclrtFree(p)
    A.aclrtDestroyStream(stream)
    A.aclrtResetDevice(seed % 2)
    return results


@pytest.mark.parametrize("policy", ["deferred", "eager", "thread"])
def test_threads_running_the_operators_match_a_sequential_run(policy, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_STREAM", policy)
    monkeypatch.setenv("ACLNN_PY_DEVICE_COUNT", "2")
    assert A.aclInit(None) == 0
    sequential = [_work(i) for i in range(THREADS)]
    parallel: dict[int, dict[str, np.ndarray]] = {}
    errors: list[BaseException] = []

    def target(i: int) -> None:
        try:
            parallel[i] = _work(i)
        except BaseException as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert not any(th.is_alive() for th in threads), "a thread deadlocked"
    assert not errors, errors
    for i in range(THREADS):
        for name, arr in sequential[i].items():
            assert np.array_equal(arr.view(np.uint8), parallel[i][name].view(np.uint8)), (i, name)
    assert A.aclFinalize() == 0


def test_error_messages_and_current_context_are_per_thread():
    assert A.aclInit(None) == 0
    assert A.aclrtSetDevice(0) == 0
    seen = {}
    barrier = threading.Barrier(2)

    def worker(i: int) -> None:
        barrier.wait()
        seen[f"ctx{i}"] = A.aclrtGetDevice(Ref())  # no context in a new thread
        A.aclrtMalloc(None, 1, 0)
        barrier.wait()
        seen[f"msg{i}"] = A.aclGetRecentErrMsg()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert seen["ctx0"] == seen["ctx1"] == A.ACL_ERROR_RT_CONTEXT_NULL
    for i in range(2):
        assert seen[f"msg{i}"].count("devPtr cannot be a NULL pointer") == 1  # only this thread's own message
    assert A.aclGetRecentErrMsg() is None
    assert A.aclrtResetDevice(0) == 0
    assert A.aclFinalize() == 0


def test_threads_share_streams_of_a_shared_context():
    """Streams made in the primary context can be used by another thread that set the device."""
    assert A.aclInit(None) == 0 and A.aclrtSetDevice(0) == 0
    s, p = Ref(), Ref()
    assert A.aclrtCreateStream(s) == 0 and A.aclrtMalloc(p, 64, 0) == 0
    done = []

    def worker(v: int) -> None:
        A.aclrtSetDevice(0)
        done.append(A.aclrtMemsetAsync(p.value, 64, v, 64, s.value))
        A.aclrtResetDevice(0)

    threads = [threading.Thread(target=worker, args=(v,)) for v in range(1, 9)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert done == [0] * 8
    assert A.aclrtSynchronizeStream(s.value) == 0
    out = bytearray(64)
    assert A.aclrtMemcpy(out, 64, p.value, 64, A.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert len(set(out)) == 1 and out[0] in range(1, 9)  # one fill won entirely: tasks never interleave
    A.aclrtFree(p.value)
    A.aclrtDestroyStream(s.value)
    A.aclrtResetDevice(0)
    A.aclFinalize()


def test_the_samples_in_parallel_processes_with_the_thread_policy():
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACLNN_PY_")} | {"ACLNN_PY_STREAM": "thread"}
    procs = [
        subprocess.Popen([sys.executable, str(p)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        for p in sorted((ROOT / "samples").glob("test_aclnn_*.py"))
    ]
    for proc, path in zip(procs, sorted((ROOT / "samples").glob("test_aclnn_*.py"))):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and err == b""
        assert out == path.with_suffix(".out").read_bytes()
