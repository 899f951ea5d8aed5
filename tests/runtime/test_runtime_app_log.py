"""aclAppLog from Python: levels, CANN's head, the 1024-byte cut, where the records go."""

from __future__ import annotations

import re

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


def test_levels_stdout_and_the_module_override(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")
    monkeypatch.setenv("ASCEND_GLOBAL_LOG_LEVEL", "3")
    monkeypatch.setenv("ASCEND_MODULE_LOG_LEVEL", "APP=0")
    for level in (acl.ACL_DEBUG, acl.ACL_INFO, acl.ACL_WARNING, acl.ACL_ERROR):
        acl.aclAppLog(level, "g", "b.cpp", 9, "m")
    out = capsys.readouterr().out.splitlines()
    assert [line.split("]")[0][1:] for line in out] == ["DEBUG", "INFO", "WARNING", "ERROR"]
    assert not _plog_lines(tmp_path)


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
