"""Data dump: aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump, aclInit's "dump" section and
acl_dump.h: the configuration checks of hicann/runtime (src/acl/aclrt_impl/toolchain/dump.cpp,
src/dfx/adump/adump/impl/dump_config_converter.cpp) with their EP messages and codes, and the dump
files (CANN's layout: an 8-byte length, a toolkit.dumpdata.DumpData message, the inputs' and the
outputs' bytes)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from helpers import Dev
from rt_texts import GET_DEV_MSG_LINES

from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclInit
from aclnn_py.runtime import api_dump as D
from aclnn_py.runtime import dump_file as DF

INNER = "[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:133]"
TRACEBACK = "TraceBack (most recent call last):\n"
SET_FAILED = f"        [Set][Dump]set dump config failed, adx errorCode = -2{INNER}\n"


@pytest.fixture
def dev():
    """aclInit, device 0 and a stream (tests/helpers.py's Dev), then aclmdlInitDump; all ended after."""
    d = Dev()
    assert D.aclmdlInitDump() == 0
    yield d
    D.aclmdlFinalizeDump()
    D.acldumpUnregCallback()
    d.close()
    aclGetRecentErrMsg()


@pytest.fixture
def dump(dev, tmp_path):
    """The dump directory of a test (with ``dev``'s runtime)."""
    return tmp_path


def _set(tmp: Path, config: object) -> int:
    path = tmp / "dump.json"
    path.write_text(config if isinstance(config, str) else json.dumps(config))
    return int(D.aclmdlSetDump(str(path)))


def _refused(tmp: Path, config: object, eid: str, title: str, text: str) -> None:
    assert _set(tmp, config) == 100009  # ACL_ERROR_INVALID_DUMP_CONFIG
    cfg = tmp / "dump.json"
    assert aclGetRecentErrMsg() == f"{title}({eid}): {text.format(cfg=cfg)}\n" + TRACEBACK + SET_FAILED


def test_call_order(tmp_path):
    assert D.aclmdlInitDump() == 100001  # before aclInit
    assert aclGetRecentErrMsg() == (
        "Invalid_Argument_API_Call_Sequence(EP0008): aclmdlInitDump failed. Reason: aclInit must be executed before "
        "aclmdlInitDump is called.\n" + TRACEBACK + GET_DEV_MSG_LINES  # no context: aclGetRecentErrMsg's own
    )
    assert aclInit(None) == 0
    try:
        assert D.aclmdlSetDump(str(tmp_path)) == 100045  # ACL_ERROR_DUMP_NOT_RUN
        assert "aclmdlInitDump must be executed before aclmdlSetDumpImpl is called." in aclGetRecentErrMsg()
        assert D.aclmdlFinalizeDump() == 100045
        assert D.aclmdlInitDump() == 0
        assert D.aclmdlInitDump() == 100002
        assert "aclmdlInitDump failed. Reason: This API cannot be called repeatedly." in aclGetRecentErrMsg()
        assert D.aclmdlSetDump(None) == 100000
        assert "aclmdlSetDump failed because dumpCfgPath cannot be a NULL pointer." in aclGetRecentErrMsg()
        assert D.aclmdlSetDump(str(tmp_path / "missing.json")) == 100003
        assert "missing.json is invalid" in aclGetRecentErrMsg()
        (tmp_path / "empty.json").write_text("")
        assert D.aclmdlSetDump(str(tmp_path / "empty.json")) == 0  # an empty file is no configuration
        assert D.aclmdlFinalizeDump() == 0
    finally:
        D.aclmdlFinalizeDump()
        aclFinalize()
        aclGetRecentErrMsg()


def test_configuration_checks(dump):
    d = str(dump)
    assert _set(dump, "{bad") == 100009  # the parse reason is Python's json wording, not nlohmann's
    assert aclGetRecentErrMsg().startswith(
        f"File_Operation_Error_Parse(EP0004): Failed to parse file {dump}/dump.json."
    )
    _refused(dump, {"dump": []}, "EP0001", "Config_Error",
             "The content of configuration item dump in configuration file {cfg} is invalid. Reason: This "
             "configuration item must be of the object type.")  # fmt: skip
    _refused(dump, {"dump": {"dump_mode": 1}}, "EP0001", "Config_Error",
             "The content of configuration item dump_mode in configuration file {cfg} is invalid. Reason: This "
             "configuration item must be of the string type.")  # fmt: skip
    _refused(dump, {"dump": {"dump_list": [{"layer": ["a", 2]}]}}, "EP0001", "Config_Error",
             "The content of configuration item dump_list[0].layer[1] in configuration file {cfg} is invalid. "
             "Reason: The member type of this configuration item must be string.")  # fmt: skip
    _refused(dump, {"dump": {"dump_mode": "both"}}, "EP0002", "Config_Error",
             "Value both for configuration item dump_mode in configuration file {cfg} is invalid. Expected value: "
             "all/input/output.")  # fmt: skip
    _refused(dump, {"dump": {"dump_op_switch": "on"}}, "EP0001", "Config_Error",
             "The content of configuration item dump_path in configuration file {cfg} is invalid. Reason: The "
             "configuration item is not found.")  # fmt: skip
    _refused(dump, {"dump": {"dump_op_switch": "on", "dump_path": d + "/nope"}}, "EP0003", "Config_Error",
             f"Value {d}/nope for configuration item dump_path in configuration file {{cfg}} is invalid. Reason: "
             "The path does not exist.")  # fmt: skip
    _refused(dump, {"dump": {"dump_path": d, "dump_step": "5-2"}}, "EP0003", "Config_Error",
             "Value 5-2 for configuration item dump_step[0] in configuration file {cfg} is invalid. Reason: The "
             "value has invalid format, start step must not exceed end step, expected format: 5-10.")  # fmt: skip
    _refused(dump, {"dump": {"dump_scene": "aic_err_brief_dump", "dump_op_switch": "on"}}, "EP0005", "Config_Error",
             "Conflict of configuration items in configuration file {cfg}. Reason: When configuration item "
             "dump_scene is set to aic_err_brief_dump, configuration item dump_op_switch cannot be set to on.")  # fmt: skip
    _refused(dump, {"dump": {"dump_path": d, "dump_stats": ["Max"]}}, "EP0005", "Config_Error",
             "Conflict of configuration items in configuration file {cfg}. Reason: When configuration item "
             "dump_data is set to tensor, configuration item dump_stats cannot be configured.")  # fmt: skip
    _refused(dump, {"dump": {"dump_path": d, "dump_list": [{"model_name": "m", "optype_blacklist": [{"name": "A"}]}]}},
             "EP0005", "Config_Error",
             "Conflict of configuration items in configuration file {cfg}. Reason: When configuration item "
             "dump_level is not set to op, configuration item dump_list[0].optype_blacklist cannot be "
             "configured.")  # fmt: skip
    assert not DF.ACTIVE
    assert _set(dump, {"dump": {"dump_path": d, "dump_op_switch": "on"}}) == 0
    assert DF.ACTIVE
    path = D.acldumpGetPath(D.DATA_DUMP)
    assert path is not None and Path(path).parent == dump and len(Path(path).name) == 14
    assert _set(dump, {"other": 1}) == 0 and DF.ACTIVE  # no "dump" section: nothing changes


class _Kernel:
    """A kernel's arguments as the executor's hook hands them over."""

    def __init__(self, dev: Dev, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        self.ins = [(dev.tensor(a), None, a), (dev.tensor(b), None, b)]
        self.outs = [(dev.tensor(out), None, out)]


def test_a_kernel_is_dumped_in_canns_file_layout(dump, dev):
    d = str(dump)
    assert _set(dump, {"dump": {"dump_path": d, "dump_op_switch": "on", "dump_mode": "all"}}) == 0
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((2, 3), dtype=np.float16)
    out = a + 1
    k = _Kernel(dev, a, b, out)
    DF.kernel_ran(dev.stream, "Add", "aclnnAdd: kernel #0 Add", k.ins, k.outs)
    (written,) = DF.dumped_files()[-1:]
    path = Path(written)
    op_type, op_name, task, stream, stamp = path.name.split(".")
    assert (op_type, op_name, task, stream) == ("Add", "aclnnAdd_Add_0", "0", str(dev.stream.ident))
    assert path.parent.name == "0" and path.parent.parent == Path(D.acldumpGetPath(D.DATA_DUMP))
    doc = DF.read_dump_file(path)
    assert doc["version"] == "2.0" and doc["op_name"] == "aclnnAdd_Add_0" and doc["dump_time"] == int(stamp)
    assert [t["data_type"] for t in doc["input"]] == [1, 2]  # DT_FLOAT, DT_FLOAT16
    assert [t["shape"] for t in doc["input"] + doc["output"]] == [[2, 3]] * 3
    assert [t["format"] for t in doc["output"]] == [2]  # FORMAT_ND
    assert np.frombuffer(doc["input"][0]["data"], np.float32).tolist() == a.ravel().tolist()
    assert np.frombuffer(doc["input"][1]["data"], np.float16).tolist() == b.ravel().tolist()
    assert np.frombuffer(doc["output"][0]["data"], np.float32).tolist() == out.ravel().tolist()
    # output mode (the default) keeps the outputs only; the task id counts per stream
    assert _set(dump, {"dump": {"dump_path": d, "dump_op_switch": "on"}}) == 0
    DF.kernel_ran(dev.stream, "Add", "aclnnAdd: kernel #0 Add", k.ins, k.outs)
    doc = DF.read_dump_file(DF.dumped_files()[-1])
    assert doc["input"] == [] and len(doc["output"]) == 1
    assert Path(DF.dumped_files()[-1]).name.split(".")[2] == "1"


def test_stats_and_callback(dump, dev):
    d = str(dump)
    a = np.array([1.0, -2.0, np.inf, np.nan], dtype=np.float32)
    k = _Kernel(dev, a, a, a)
    assert _set(dump, {"dump": {"dump_path": d, "dump_op_switch": "on", "dump_data": "stats",
                                "dump_stats": ["Max", "Min"]}}) == 0  # fmt: skip
    DF.kernel_ran(dev.stream, "Abs", "aclnnAbs: kernel #0 Abs", k.ins, k.outs)
    written = DF.dumped_files()[-1]
    assert written.endswith(".csv")
    lines = Path(written).read_text().splitlines()
    assert lines[0].startswith("Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value")
    assert lines[1] == "Output,0,16,DT_FLOAT,ND,4,1.0,-2.0,-0.5,4,1,0,1"
    chunks: list[DF.acldumpChunk] = []
    assert D.acldumpRegCallback(None, 0) == 500001
    assert "acldumpRegCallback failed because messageCallback cannot be a NULL pointer." in aclGetRecentErrMsg()
    assert D.acldumpRegCallback(lambda c, n: chunks.append(c), 1) == 500001
    assert "Value 1 for parameter flag is invalid. Reason: The parameter is reserved and can only be 0" in (
        aclGetRecentErrMsg()
    )
    assert D.acldumpRegCallback(lambda c, n: chunks.append(c), 0) == 0
    assert _set(dump, {"dump": {"dump_path": d, "dump_op_switch": "on"}}) == 0
    DF.kernel_ran(dev.stream, "Abs", "aclnnAbs: kernel #0 Abs", k.ins, k.outs)
    assert [c.isLastChunk for c in chunks] == [0, 1]  # the message, then the output's bytes
    assert chunks[1].dataBuf == a.tobytes() and chunks[0].offset == -1
    assert not Path(chunks[0].fileName).exists()  # delivered instead of written


def test_acl_init_reads_the_dump_section(tmp_path):
    cfg = tmp_path / "acl.json"
    cfg.write_text(json.dumps({"dump": {"dump_path": str(tmp_path), "dump_op_switch": "on", "dump_mode": "bad"}}))
    assert aclInit(str(cfg)) == 100009
    assert aclGetRecentErrMsg() == (
        f"Config_Error(EP0002): Value bad for configuration item dump_mode in configuration file {cfg} is invalid. "
        "Expected value: all/input/output.\n" + TRACEBACK + SET_FAILED
        + f"        [Process][DumpConfig]process HandleDumpConfig failed{INNER}\n"
        + GET_DEV_MSG_LINES
    )  # fmt: skip
    cfg.write_text(json.dumps({"dump": {"dump_path": str(tmp_path), "dump_op_switch": "on"}}))
    assert aclInit(str(cfg)) == 0
    try:
        assert DF.ACTIVE and D.acldumpGetPath(D.DATA_DUMP).startswith(str(tmp_path))
    finally:
        aclFinalize()
    assert not DF.ACTIVE  # the dump ends with the runtime


def test_an_aclnn_call_is_dumped(dump, dev):
    from aclnn_py import aclCreateScalar, aclDestroyScalar, aclnnAdd, aclnnAddGetWorkspaceSize

    assert _set(dump, {"dump": {"dump_path": str(dump), "dump_op_switch": "on", "dump_mode": "all"}}) == 0
    a = np.arange(4, dtype=np.float32)
    ta, tb, tout = dev.tensor(a), dev.tensor(a), dev.tensor(np.zeros(4, np.float32))
    alpha = aclCreateScalar(np.array([1.0], np.float32), 0)
    assert dev.run(aclnnAddGetWorkspaceSize, aclnnAdd, ta, tb, alpha, tout) == (0, 0, 0)
    aclDestroyScalar(alpha)
    doc = DF.read_dump_file(DF.dumped_files()[-1])
    assert np.frombuffer(doc["output"][0]["data"], np.float32).tolist() == [0.0, 2.0, 4.0, 6.0]


def test_init_dump_stays_initialised_across_acl_finalize(tmp_path):
    # dump.cpp's file-static aclmdlInitDumpFlag (:30) is cleared only by aclmdlFinalizeDumpImpl (:236)
    assert aclInit(None) == 0
    try:
        assert D.aclmdlInitDump() == 0
        assert aclFinalize() == 0
        assert aclInit(None) == 0
        assert D.aclmdlInitDump() == 100002
        assert aclGetRecentErrMsg().startswith(
            "Invalid_Argument_API_Call_Sequence(EP0008): aclmdlInitDump failed. Reason: This API cannot be called "
            "repeatedly."
        )
        (tmp_path / "empty.json").write_text("")
        assert D.aclmdlSetDump(str(tmp_path / "empty.json")) == 0  # still initialised
        assert D.aclmdlFinalizeDump() == 0
        assert D.aclmdlInitDump() == 0
    finally:
        D.aclmdlFinalizeDump()
        aclFinalize()
        aclGetRecentErrMsg()


def test_set_dump_refuses_a_directory_and_a_config_nested_too_deep(dev, tmp_path):
    # JsonParser::GetConfigStrFromFile (src/acl/common/json_parser.cpp): IsValidFileName's regular-file
    # check reports the real path (:96-104); the nesting check (:202-219) is ACL_ERROR_PARSE_FILE
    link = tmp_path / "cfg-link"
    link.symlink_to(tmp_path)
    assert D.aclmdlSetDump(str(link)) == 100003
    assert aclGetRecentErrMsg() == (
        f"File_Operation_Error(EH0004): File {tmp_path} is invalid. Reason: config file is not a regular file.\n"
        + TRACEBACK
        + f"        Get config string from file[{link}] failed, errorCode = 100003{INNER}\n"
    )
    deep = tmp_path / "deep.json"
    deep.write_text('{"dump": ' + "[" * 11 + "]" * 11 + "}")
    assert D.aclmdlSetDump(str(deep)) == 100006
    msg = aclGetRecentErrMsg()
    assert (
        f"File {deep} is invalid. Reason: object depth 1 exceeds max 10 or array depth 11 exceeds max 10.\n" in msg
    ), msg
    assert f"Get config string from file[{deep}] failed, errorCode = 100006{INNER}" in msg
    deep.write_text("{" * 10 + "}" * 10)  # 10 levels: read, then refused by the dump configuration
    assert D.aclmdlSetDump(str(deep)) != 100006
    aclGetRecentErrMsg()
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(10 * 1024 * 1024 + 1)
    assert D.aclmdlSetDump(str(big)) == 100003
    assert f"File {big} is invalid. Reason: file size 10485761 exceeds maximum allowed size 10485760." in (
        aclGetRecentErrMsg()
    )
