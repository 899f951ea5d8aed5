"""A reader of CANN's op_api unit tests: the gtest files of hicann/ops-math and hicann/ops-nn
whose ``OP_API_UT(aclnnXxx, INPUT(...), OUTPUT(...))`` cases call the phase 1 of an API
(``ut.TestGetWorkspaceSize(&ws)``) and assert what it returns (``EXPECT_EQ(aclRet,
ACLNN_ERR_PARAM_INVALID)``). They are an oracle of phase 1's status independent of the emulator:
``tests/test_cann_op_api_ut.py`` replays every case this package can read.

Which files: those CANN's CMake compiles into the op_api UT binary, ``test_aclnn_*.cpp`` in
``<op>/tests/ut/op_api/`` (ops-nn's cmake/func.cmake also scans ``<op>/tests/ut/op_host/`` and
``<op>/tests/ut/op_host/op_api/``); none under ``experimental/``. Other ``.cpp`` files there
(``test_Maximum.cpp``, ``test_copy.cpp``, ops-math's ``op_host/op_api`` copies ...) are never built.

What the UT harness does (``tests/ut/op_api/op_api_ut_common/`` of both repositories):

* ``TensorDesc(view_dims = {1, 1, 16, 16}, dtype = ACL_FLOAT, format = ACL_FORMAT_NCHW,
  strides = {}, offset = 0, storage_dims = {})`` becomes ``aclCreateTensor(view, dtype, strides
  or nullptr, offset, format, storage_dims or view, data = nullptr)``. ``.ValueRange``,
  ``.Value``, ``.Precision``, ``.ValidCount`` only feed the precision run (their arguments are
  not read here); ``.ViewDims`` and ``.Format`` change the tensor.
* ``ScalarDesc(v)`` takes its dtype from the C++ type of ``v`` (one constructor per type: bool,
  int8_t ... uint64_t, float, double); ``ScalarDesc(v, ACL_FLOAT16)`` makes a half.
  ``IntArrayDesc`` / ``BoolArrayDesc`` / ``FloatArrayDesc`` wrap a vector.
* Each element of ``INPUT(...)`` and ``OUTPUT(...)`` is converted on its own (the same desc twice
  is two tensors); phase 1 gets them, then OP_API_UT's extra arguments, then ``&workspaceSize,
  &executor``. Plain values (``dim``, ``keepdim``, ``ACL_FLOAT``, ``nullptr``,
  ``(aclTensor*)nullptr``) are passed as they are.
* The platform stub (``tests/ut/op_api/stub/opdev/platform.cpp``) starts on ASCEND910B;
  ``op::SetPlatformSocVersion`` / ``op::SetPlatformNpuArch`` change it until changed again. gtest
  runs a file's tests suite by suite, in order, with the fixture's SetUp / TearDown around each.
  (All files of a repository share one binary, so a file that left the stub on another SoC would
  change the next file's; each file is read here as starting on ASCEND910B.)

The reader is a tokenizer and a small interpreter of the C++ these files use: declarations,
assignments, ``for`` and ``if``, vectors, casts, the desc classes, the platform calls and the
gtest assertions. A test using anything else is reported as skipped with the reason (nothing is
guessed), and so is a phase-1 call no assertion checks.

The modules, in the order they build on each other: ``model`` (what a case is made of, the
status names), ``lexer`` (tokens, literals, C++ types and conversions), ``parser`` (the syntax
tree), ``interpreter`` (running a test body) and ``files`` (a file's outline, which files CANN
builds, reading them).

``python -m cann_ut <folder>``, run in ``tests/``, prints every case and skip it reads there.
"""

from __future__ import annotations

from .files import count_calls, read_tree
from .model import Arg, Array, Case, Scalar, Tensor, Value, status_name

__all__ = ["Arg", "Array", "Case", "Scalar", "Tensor", "Value", "count_calls", "read_tree", "status_name"]
