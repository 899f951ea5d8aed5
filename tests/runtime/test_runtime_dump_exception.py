"""Exception dump (acl_dump.h): acldumpGetExceptionInfoPath, acldumpSaveExceptionInfo and the dump a
faulting kernel leaves, with adump's checks, codes and EP texts (hicann/runtime
src/dfx/adump/adump/manage/adump_api_platform.cpp, exception/exception_dumper.cpp, dump_file.cpp)."""

from __future__ import annotations

import ctypes
import json
import re
import stat
from pathlib import Path

import numpy as np
import pytest
from helpers import Dev

from aclnn_py import (
    ACL_FLOAT,
    aclCreateScalar,
    aclDestroyScalar,
    aclGetRecentErrMsg,
    aclnnAdd,
    aclnnAddGetWorkspaceSize,
    aclrtFree,
    aclrtSynchronizeStream,
)
from aclnn_py._ref import Ref
from aclnn_py.runtime import api_dump as D
from aclnn_py.runtime import api_dump_exception as X
from aclnn_py.runtime import dump_file as DF

EP6 = "Invalid_Argument(EP0006): "
EP7 = "Invalid_Argument_Null_Pointer(EP0007): "
EP8 = "Invalid_Argument_API_Call_Sequence(EP0008): "


@pytest.fixture
def dev():
    d = Dev()
    assert D.aclmdlInitDump() == 0
    yield d
    D.aclmdlFinalizeDump()
    d.close()
    aclGetRecentErrMsg()


def _scene(tmp: Path, scene: str = "aic_err_brief_dump") -> Path:
    cfg = tmp / "acl.json"
    cfg.write_text(json.dumps({"dump": {"dump_path": str(tmp), "dump_scene": scene}}))
    assert D.aclmdlSetDump(str(cfg)) == 0, aclGetRecentErrMsg()
    return (tmp / "extra-info" / "data-dump" / "0").resolve()


def _headline(eid_title: str) -> str:
    return aclGetRecentErrMsg().split("\n", 1)[0].removeprefix(eid_title)


def _header(path: Path) -> tuple[list[tuple[int, object]], bytes]:
    raw = path.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    return DF._fields(raw[8 : 8 + n]), raw[8 + n :]


def test_the_path_needs_an_exception_scene_and_a_buffer_that_holds_it(dev, tmp_path):
    buf = ctypes.create_string_buffer(4096)
    assert X.acldumpGetExceptionInfoPath(buf, 4096) == 500001
    assert _headline(EP8) == (
        "acldumpGetExceptionInfoPath failed. Reason: Exception Dump must be enabled before "
        "acldumpGetExceptionInfoPath is called."
    )
    root = _scene(tmp_path, "lite_exception")
    assert X.acldumpGetExceptionInfoPath(None, 4096) == 100000
    assert _headline(EP7) == "acldumpGetExceptionInfoPath failed because path cannot be a NULL pointer."
    assert X.acldumpGetExceptionInfoPath(buf, 1) == 100000
    assert _headline(EP6) == (
        "acldumpGetExceptionInfoPath failed. Value 1 for parameter maxLen is invalid. Reason: The parameter must "
        "be greater than 1"
    )
    need = len(str(root)) + 1
    assert X.acldumpGetExceptionInfoPath(buf, need - 1) == 100000
    assert _headline(EP6).endswith(f"The buffer size {need - 1} is not enough for the result size {need}")
    assert X.acldumpGetExceptionInfoPath(buf, need) == 0
    assert buf.value == str(root).encode() and root.is_dir()  # made on demand
    out = Ref()
    assert X.acldumpGetExceptionInfoPath(out, 4096) == 0 and out.value == str(root)


def test_saved_tensors_are_read_from_device_memory_into_a_dump_file(dev, tmp_path):
    root = _scene(tmp_path)
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    w = np.full(3, 7, np.int32)
    px, pw = dev.upload(x), dev.upload(w)
    tensors = [
        X.acldumpTensorInfo(X.ACL_DUMP_TENSOR_INPUT, x.nbytes, 2, ACL_FLOAT, px, shapeNum=2, shape=[4, 2]),
        X.acldumpTensorInfo(X.ACL_DUMP_TENSOR_WORKSPACE, w.nbytes, 2, 3, pw, argsOffset=2),
    ]
    assert X.acldumpSaveExceptionInfo("sub/info", "stage=forward", tensors, 2) == 0, aclGetRecentErrMsg()
    (saved,) = (root / "sub").iterdir()
    assert re.fullmatch(r"info\.custom\.\d{17}", saved.name)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o400  # adump's mmChmod(M_IRUSR)
    fields, data = _header(saved)
    assert (1, b"2.0") in fields and (6, saved.name.encode()) in fields
    attrs = [DF._fields(v) for k, v in fields if k == 7 and isinstance(v, bytes)]
    assert attrs == [[(1, b"user_tag"), (2, b"stage=forward")]]
    (inp,) = [dict(DF._fields(v)) for k, v in fields if k == 4 and isinstance(v, bytes)]
    assert (inp[1], inp[5], inp[11]) == (1, x.nbytes, 2)  # DT_FLOAT, size, INPUT_TENSOR
    (space,) = [dict(DF._fields(v)) for k, v in fields if k == 8 and isinstance(v, bytes)]
    assert (space[3], space[4]) == (w.nbytes, 2)
    assert data == x.tobytes() + w.tobytes()


def test_save_checks_in_adumps_order(dev, tmp_path):
    t = X.acldumpTensorInfo(X.ACL_DUMP_TENSOR_INPUT, 4, 2, 0, 0x1000)
    assert X.acldumpSaveExceptionInfo(None, None, [t], 1) == 100000
    assert _headline(EP7) == "acldumpSaveExceptionInfo failed because fileName cannot be a NULL pointer."
    assert X.acldumpSaveExceptionInfo("", None, [t], 1) == 100000
    assert _headline(EP6) == (
        "acldumpSaveExceptionInfo failed. Value  for parameter fileName is invalid. Reason: The parameter is a "
        "path and cannot be empty"
    )
    assert X.acldumpSaveExceptionInfo("a/../b", None, [t], 1) == 100000
    assert _headline(EP6).endswith("Reason: The parameter is a relative path and cannot contain '..' segment")
    assert X.acldumpSaveExceptionInfo("f", None, None, 1) == 100000
    assert _headline(EP7) == "acldumpSaveExceptionInfo failed because tensors cannot be a NULL pointer."
    assert X.acldumpSaveExceptionInfo("f", None, [t], 0) == 100000
    assert _headline(EP6).endswith(
        "Value 0 for parameter tensorCount is invalid. Reason: The parameter must be greater than 0"
    )
    assert X.acldumpSaveExceptionInfo("f", None, [t], 1) == 500001  # no exception scene
    assert "Exception Dump must be enabled before acldumpSaveExceptionInfo is called" in aclGetRecentErrMsg()
    _scene(tmp_path)
    cases = [
        (X.acldumpTensorInfo(shapeNum=26, tensorAddr=1, tensorSize=4), "tensors[0].shapeNum", "The value 26 exceeds the maximum limit of 25"),
        (X.acldumpTensorInfo(type=3, tensorAddr=1, tensorSize=4), "tensors[0].type", "The value 3 is not supported, it must be ACL_DUMP_TENSOR_INPUT/ACL_DUMP_TENSOR_OUTPUT/ACL_DUMP_TENSOR_WORKSPACE"),
        (X.acldumpTensorInfo(addrType=0, tensorAddr=1, tensorSize=4), "tensors[0].addrType", "The value 0 is not supported, it must be ACL_DUMP_ADDR_RAW"),
        (X.acldumpTensorInfo(placement=1, tensorAddr=1, tensorSize=4), "tensors[0].placement", "The value 1 is not supported, it must be ACL_DUMP_PLACEMENT_DEVICE"),
        (X.acldumpTensorInfo(tensorAddr=1, tensorSize=0), "tensors[0].tensorSize", "The parameter must be greater than 0"),
    ]  # fmt: skip
    for tensor, value, reason in cases:
        assert X.acldumpSaveExceptionInfo("f", None, [tensor], 1) == 100000
        assert _headline(EP6) == (
            f"acldumpSaveExceptionInfo failed. Value {value} for parameter tensors is invalid. Reason: {reason}"
        )
    assert X.acldumpSaveExceptionInfo("f", None, [X.acldumpTensorInfo(tensorSize=4)], 1) == 100000
    assert _headline(EP7) == "acldumpSaveExceptionInfo failed because tensors[0].tensorAddr cannot be a NULL pointer."


def test_a_freed_tensor_is_refused_not_dumped(dev, tmp_path):
    root = _scene(tmp_path)
    p = dev.upload(np.ones(4, np.float32))
    dev.ptrs.remove(p)
    assert aclrtFree(p) == 0
    t = X.acldumpTensorInfo(X.ACL_DUMP_TENSOR_OUTPUT, 16, 2, ACL_FLOAT, p)
    assert X.acldumpSaveExceptionInfo("gone", "", [t], 1) == 500001
    assert "acldumpSaveExceptionInfo: reading the tensors failed:" in aclGetRecentErrMsg()
    assert not any(root.iterdir())


def test_a_faulting_kernel_leaves_an_exception_dump(dev, tmp_path):
    root = _scene(tmp_path, "aic_err_norm_dump")
    a = dev.tensor(np.ones(8, np.float32))
    b = dev.tensor(np.ones(8, np.float32))
    out = dev.tensor(np.zeros(8, np.float32))
    alpha = aclCreateScalar(np.float32(1.0), ACL_FLOAT)
    ws, ex = Ref(0), Ref()
    assert aclnnAddGetWorkspaceSize(a, b, alpha, out, ws, ex) == 0
    freed = dev.ptrs.pop()  # out's buffer, freed between the two phases
    assert aclrtFree(freed) == 0
    assert aclnnAdd(None, ws.value, ex.value, dev.stream) == 0
    assert aclrtSynchronizeStream(dev.stream) == 507015  # ACL_ERROR_RT_AICORE_EXCEPTION
    aclGetRecentErrMsg()
    assert aclDestroyScalar(alpha) == 0
    (dumped,) = root.iterdir()
    assert re.fullmatch(r"Add\.\d+\.\d+\.\d{17}", dumped.name)
    fields, _ = _header(dumped)
    names = [v for k, v in fields if k == 6]
    message = b"".join(v for k, v in fields if k == 9 and isinstance(v, bytes)).decode()
    assert names == [b"aclnnAdd: kernel #0 Add"]
    assert message.startswith("[Dump][Exception] aclnnAdd: kernel #0 Add failed with error code 507015:")
    assert "freed by aclrtFree" in message  # the simulated memory's own account of the fault


@pytest.mark.parametrize("kind", [D.AIC_ERR_BRIEF_DUMP, D.AIC_ERR_NORM_DUMP, D.AIC_ERR_DETAIL_DUMP])
def test_the_exception_dump_path_is_made_under_the_dump_path_or_here(dev, tmp_path, monkeypatch, kind):
    """DumpManager::GetExtraExceptionDumpPath: ExceptionDumper::CreateExtraDumpPath makes
    ``<dump_path or ./>/extra-info/data-dump/`` and returns its real path, configured or not."""
    monkeypatch.chdir(tmp_path)
    here = D.acldumpGetPath(kind)
    assert here == str((tmp_path / "extra-info" / "data-dump").resolve()) and Path(here).is_dir()
    root = tmp_path / "root"
    root.mkdir()
    _scene(root)
    assert D.acldumpGetPath(kind) == str((root / "extra-info" / "data-dump").resolve())
    assert D.acldumpGetPath(0) is None
