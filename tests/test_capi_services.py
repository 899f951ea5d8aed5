"""The C ABI of the service headers (acl/acl_prof.h, acl/acl_dump.h, acl/acl_tdt.h,
acl/acl_rt_allocator.h) and aclAppLog: programs of our own, compiled against capi/include and run
(hicann/runtime's own examples are in tests/test_capi_cann_runtime_examples.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from capi_support import CAPI, compile_cpp, load_build, missing_toolchain, run

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

build = load_build()
LOG_LINE = re.compile(
    r"\[(DEBUG|INFO|WARNING|ERROR)\] APP\(\d+,[^)]*\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} (\d+) (.*)"
)


def _exe(tmp_path: Path, name: str, source: str | None = None) -> Path:
    lib = CAPI / "build" / "lib"
    flags = [*build.cflags(), f"-L{lib}", f"-Wl,-rpath,{lib}", "-lacl_rt", "-pthread", "-Wall", "-Werror"]  # type: ignore[attr-defined]
    text = source if source is not None else (CAPI / "tests" / f"{name}.cpp").read_text(encoding="utf-8")
    return compile_cpp(text, tmp_path / name, flags)


def _records(text: str) -> list[tuple[str, str]]:
    """(level, message) of each record; the message starts with the thread id."""
    found = [LOG_LINE.fullmatch(line) for line in text.splitlines()]
    return [(m.group(1), f"{m.group(2)} {m.group(3)}") for m in found if m is not None]


def test_app_log_prints_the_enabled_levels_with_cann_s_head(tmp_path, capi_flags) -> None:
    exe = _exe(tmp_path, "app_log")
    done = run(exe, ASCEND_SLOG_PRINT_TO_STDOUT="1", ASCEND_GLOBAL_LOG_LEVEL="1")
    assert (done.returncode, done.stderr) == (0, "")
    records = _records(done.stdout)
    # info and above (level 1): "<func>:<file>:<line>: "<text>"" after the thread id
    assert [level for level, _ in records] == ["INFO", "WARNING", "ERROR", "ERROR"]
    assert re.fullmatch(r'\d+ main:\S*app_log\.cpp:10: "info value 1"', records[0][1])
    assert records[1][1].endswith(': "warning 2.50"')
    assert records[2][1].endswith(': "error 3"')
    # the long message (thread id and head included): cut to 1023 bytes with CANN's mark at the end
    long = records[3][1]
    assert long.endswith("...[truncated]") and len(long.encode()) == 1023
    assert done.stdout.splitlines()[-1] == "done"


def test_app_log_default_level_is_error_and_goes_to_the_plog(tmp_path, capi_flags) -> None:
    exe = _exe(tmp_path, "app_log")
    logs = tmp_path / "logs"
    done = run(exe, ASCEND_PROCESS_LOG_PATH=str(logs))
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "done\n")
    (plog,) = (logs / "debug" / "plog").glob("plog-*.log")
    assert [level for level, _ in _records(plog.read_text())] == ["ERROR", "ERROR"]


def test_app_log_level_4_writes_nothing(tmp_path, capi_flags) -> None:
    exe = _exe(tmp_path, "app_log")
    done = run(exe, ASCEND_SLOG_PRINT_TO_STDOUT="1", ASCEND_GLOBAL_LOG_LEVEL="4")
    assert (done.returncode, done.stdout) == (0, "done\n")


def test_mbufs_managed_memory_simt_tdt_and_prof_through_the_c_abi(tmp_path, capi_flags) -> None:
    """capi/tests/services_abi.cpp: mbuf data and user data through C memory, chains, the
    by-value structs of the managed-memory and SIMT calls (CANN's checks reach them), a tdt item's
    dims and data address, a profiling id; its printout is capi/tests/services_abi.out."""
    exe = _exe(tmp_path, "services_abi")
    done = run(exe)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (CAPI / "tests" / "services_abi.out").read_text(encoding="utf-8")
