"""aclopStartDumpArgs / aclopStopDumpArgs: CANN's checks, order, codes and reports."""

from __future__ import annotations

import os

import pytest

import aclnn_py as acl
from aclnn_py.runtime import api_dump_args


@pytest.fixture(autouse=True)
def _off():
    api_dump_args.reset()
    yield
    api_dump_args.reset()


def _msg() -> str:
    return acl.aclGetRecentErrMsg() or ""


def test_start_makes_the_directory_and_stop_switches_it_off(tmp_path) -> None:
    folder = tmp_path / "args" / "deeper"
    assert acl.aclopStartDumpArgs(acl.ACL_OP_DUMP_OP_AICORE_ARGS, str(folder)) == 0
    assert folder.is_dir() and api_dump_args.args_dump_path() == str(folder)
    # a second start: EP0008
    assert acl.aclopStartDumpArgs(1, str(folder)) == acl.ACL_ERROR_FAILURE
    msg = _msg()  # a recorded message is read once
    assert "EP0008" in msg and "aclopStartDumpArgs failed. Reason: This API cannot be called repeatedly." in msg
    assert acl.aclopStopDumpArgs(0) == 0 and api_dump_args.args_dump_path() == str(folder)  # no AI Core bit
    assert acl.aclopStopDumpArgs(1) == 0 and api_dump_args.args_dump_path() is None
    assert acl.aclopStopDumpArgs(1) == 0  # already off


def test_start_checks_in_cann_s_order(tmp_path) -> None:
    # NULL path first (EP0007), even with a bad type
    assert acl.aclopStartDumpArgs(0, None) == acl.ACL_ERROR_FAILURE
    assert "aclopStartDumpArgs failed because path cannot be a NULL pointer." in _msg()
    assert acl.aclopStartDumpArgs(2, str(tmp_path)) == acl.ACL_ERROR_FAILURE
    assert (
        "aclopStartDumpArgs failed. Value 2 for parameter dumpType is invalid. Reason: The parameter is reserved and "
        "can only be 1" in _msg()
    )
    assert acl.aclopStartDumpArgs(1, "") == acl.ACL_ERROR_FAILURE
    assert "Reason: The parameter is a path and cannot be empty" in _msg()
    file = tmp_path / "file"
    file.write_text("x")
    assert acl.aclopStartDumpArgs(3, str(file)) == acl.ACL_ERROR_FAILURE  # 3 holds the AI Core bit
    assert "Reason: The parameter is not a directory path" in _msg()
    assert acl.aclopStartDumpArgs(1, str(file / "sub")) == acl.ACL_ERROR_FAILURE
    assert "Reason: The parameter is a path and the path fails to be created. Error: Not a directory" in _msg()
    assert api_dump_args.args_dump_path() is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes any directory")
def test_start_refuses_a_directory_without_access(tmp_path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o500)
    assert acl.aclopStartDumpArgs(1, str(folder)) == acl.ACL_ERROR_FAILURE
    assert "The value is a path without read and write permissions" in _msg()
