"""aclAppLog from Python: levels, CANN's head, the 1024-byte cut, where the records go."""

from __future__ import annotations

import re
import threading

import pytest

import aclnn_py as acl
from aclnn_py.runtime import api_log


@pytest.fixture(autouse=True)
def _logs(tmp_path, monkeypatch):
    for name in ("ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_MODULE_LOG_LEVEL", "ASCEND_SLOG_PRINT_TO_STDOUT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path))
    api_log.reset()
    yield
    api_log.reset()


def _plog_lines(tmp_path) -> list[str]:
    files = list((tmp_path / "debug" / "plog").glob("plog-*.log"))
    return files[0].read_text().splitlines() if files else []


def test_default_level_is_error_and_the_record_is_cann_s(tmp_path) -> None:
    assert acl.aclAppLog(acl.ACL_INFO, "f", "a.cpp", 3, "dropped %d", 1) == 0
    assert acl.aclAppLog(acl.ACL_ERROR, "f", "a.cpp", 3, "kept %s %d", "x", 2) == 0
    (line,) = _plog_lines(tmp_path)
    assert re.fullmatch(r'\[ERROR\] APP\(\d+,[^)]*\):[\d:.-]+ \d+ f:a\.cpp:3: "kept x 2"', line)


def _printed(monkeypatch, capsys, global_level: str | None, modules: str | None) -> list[str]:
    """The levels of the four records aclAppLog prints under these settings."""
    monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")
    for name, value in (("ASCEND_GLOBAL_LOG_LEVEL", global_level), ("ASCEND_MODULE_LOG_LEVEL", modules)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    for level in (acl.ACL_DEBUG, acl.ACL_INFO, acl.ACL_WARNING, acl.ACL_ERROR):
        acl.aclAppLog(level, "g", "b.cpp", 9, "m")
    return [line.split("]")[0][1:] for line in capsys.readouterr().out.splitlines()]


ALL = ["DEBUG", "INFO", "WARNING", "ERROR"]


def test_levels_stdout_and_the_module_override(tmp_path, monkeypatch, capsys) -> None:
    """AclLog::IsLogOutputEnable gates on the ASCENDCL module's level (log_inner.cpp:59-63), then
    slog's DlogWriteInner on the APP module's (dlog_core.c:213-224): APP=0 alone opens nothing."""
    assert _printed(monkeypatch, capsys, "3", "APP=0") == ["ERROR"]
    assert _printed(monkeypatch, capsys, "3", "APP=0:ASCENDCL=0") == ALL
    assert _printed(monkeypatch, capsys, "3", "ASCENDCL=0") == ["ERROR"]
    assert _printed(monkeypatch, capsys, "0", "APP=2") == ["WARNING", "ERROR"]
    assert not _plog_lines(tmp_path)


def test_an_ascendcl_level_of_null_lets_info_through(monkeypatch, capsys) -> None:
    """GetCurLogLevel maps a level outside debug..error (4, null) to ACL_INFO (log_inner.cpp:27-51)."""
    assert _printed(monkeypatch, capsys, "0", "ASCENDCL=4") == ["INFO", "WARNING", "ERROR"]
    assert _printed(monkeypatch, capsys, "4", "ASCENDCL=0") == []  # APP at 4 writes nothing


def test_slog_s_parsing_of_the_level_variables(monkeypatch, capsys) -> None:
    """DlogLevelInitByEnv (dlog_level_env.c): a global level outside 0..4 is the default (error); one
    bad ASCEND_MODULE_LOG_LEVEL item (unknown module, value outside 0..4, no value) drops them all."""
    assert _printed(monkeypatch, capsys, "7", None) == ["ERROR"]
    assert _printed(monkeypatch, capsys, " 1", None) == ["INFO", "WARNING", "ERROR"]  # strtol skips blanks
    assert _printed(monkeypatch, capsys, "3", "ASCENDCL=0:APP=0:NOPE=1") == ["ERROR"]
    assert _printed(monkeypatch, capsys, "3", "ASCENDCL=0:APP=7") == ["ERROR"]
    assert _printed(monkeypatch, capsys, "3", "ASCENDCL=0:APP=") == ["ERROR"]
    assert _printed(monkeypatch, capsys, "3", "ASCENDCL=0::APP=0") == ALL  # strtok skips the empty item
    assert _printed(monkeypatch, capsys, "3", " APP=0:ASCENDCL=0") == ["ERROR"]  # " APP" is no module


def test_a_level_outside_the_enum_is_formatted_but_not_recorded(tmp_path) -> None:
    """aclAppLogImpl: IsLogOutputEnable(7) holds (error <= 7), so the format is checked and a bad one
    is the error record; ACLSaveLog records no level outside the four. A negative level stops first."""
    acl.aclAppLog(7, "f", "a.cpp", 1, "fine")
    acl.aclAppLog(-1, "f", "a.cpp", 1, "%d %d", 1)
    assert not _plog_lines(tmp_path)
    acl.aclAppLog(7, "f", "a.cpp", 1, "%d %d", 1)
    (line,) = _plog_lines(tmp_path)
    assert line.startswith("[ERROR] APP(") and line.endswith(" aclAppLog format string is invalid")


def test_a_message_of_exactly_1023_bytes_gets_the_mark(tmp_path) -> None:
    """snprintf_truncated_s returns 1023 for a message that just fits; log.cpp marks at >= 1023."""
    head = f'{threading.get_native_id()} f:a.cpp:1: "'
    body = "z" * (api_log.MAX_LOG_STRING - 1 - len(head) - 1)
    acl.aclAppLog(acl.ACL_ERROR, "f", "a.cpp", 1, "%s", body)
    (line,) = _plog_lines(tmp_path)
    message = line.split(" ", 2)[2]
    assert message.endswith(api_log.TRUNCATED_MARK) and len(message.encode()) == api_log.MAX_LOG_STRING - 1
    assert message.startswith(head + "zzz")


def test_long_text_is_cut_with_the_mark_and_bad_formats_are_cann_s_error(tmp_path) -> None:
    acl.aclAppLog(acl.ACL_ERROR, "f", "a.cpp", 1, "%s", "y" * 3000)
    acl.aclAppLog(acl.ACL_ERROR, "f", "a.cpp", 1, "%d %d", 1)  # the arguments do not fit
    acl.aclAppLog(acl.ACL_ERROR, None, "a.cpp", 1, "no function")  # no record, as CANN
    long, bad = _plog_lines(tmp_path)
    message = long.split(" ", 2)[2]
    assert message.endswith("...[truncated]") and len(message.encode()) == api_log.MAX_LOG_STRING - 1
    assert bad.endswith(" aclAppLog format string is invalid")


def test_non_text_arguments_are_refused_without_a_record(tmp_path) -> None:
    assert acl.aclAppLog(acl.ACL_ERROR, 5, "a.cpp", 1, "x") == acl.ACL_ERROR_INVALID_PARAM
    assert acl.aclAppLog("3", "f", "a.cpp", 1, "x") == acl.ACL_ERROR_INVALID_PARAM
    assert not _plog_lines(tmp_path)
