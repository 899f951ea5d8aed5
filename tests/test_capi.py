"""The C ABI: the unmodified C++ samples of the seed documents compiled against capi/ and run.

The C++ programs are extracted from the documents at test time (the repository does not copy them);
set ACLNN_PY_SEEDS to the folder of the documents (default: ../shared/seeds next to the checkout).
Everything here skips cleanly when there is no C++ compiler or no Python headers.
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from capi_support import CAPI, ROOT, compile_cpp, extract_program, load_build, missing_toolchain, run
from capi_support import env as _env

SEEDS = Path(os.environ.get("ACLNN_PY_SEEDS", ROOT.parent / "shared" / "seeds"))
# Which Python port (samples/*.py) twins a C++ sample: by the operator header it includes.
PORTS = {
    "aclnn_smooth_l1_loss_backward.h": "test_aclnn_smooth_l1_loss_backward",
    "aclnn_hardswish_backward.h": "test_aclnn_hardswish_backward",
    "aclnn_scaled_masked_softmax_backward.h": "test_aclnn_scaled_masked_softmax_backward",
}

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

build = load_build()


def seed_programs() -> list[tuple[str, str, str]]:
    """(seed file name, program, port name) of every seed document with a sample program."""
    if not SEEDS.is_dir():
        return []
    found = []
    for doc in sorted(SEEDS.iterdir()):
        program = extract_program(doc.read_text(encoding="utf-8"))
        if program is None:
            continue
        header = re.search(r'#include\s+"aclnnop/(?:level2/)?(\w+\.h)"', program)
        assert header is not None and header.group(1) in PORTS, f"{doc.name}: no Python port for its operator"
        found.append((doc.name, program, PORTS[header.group(1)]))
    return found


SEED_PROGRAMS = seed_programs()


# ---------------------------------------------------------------------------------------------
# the seed samples
# ---------------------------------------------------------------------------------------------


def test_the_extractor_finds_the_sample_of_each_document_format() -> None:
    fenced = "intro\n```Cpp\nint f();\n```\n```c++\n#include <x>\nint main() { return 0; }\n```\n"
    assert extract_program(fenced) == "#include <x>\nint main() { return 0; }\n"
    unfenced = "调用示例\n#include <iostream>\nint main() {\nreturn 0;\n}\n"
    assert extract_program(unfenced) == "#include <iostream>\nint main() {\nreturn 0;\n}\n"
    assert extract_program("```Cpp\naclnnStatus aclnnFoo(int x);\n```\n") is None


@pytest.mark.skipif(
    not SEED_PROGRAMS,
    reason=f"needs CANN's sample documents, which the repository does not ship: set ACLNN_PY_SEEDS to their folder "
    f"(looked in {SEEDS})",
)
@pytest.mark.parametrize(("doc", "program", "port"), SEED_PROGRAMS, ids=[s[0] for s in SEED_PROGRAMS])
def test_seed_sample_prints_what_its_python_port_prints(tmp_path, capi_flags, doc, program, port):
    exe = compile_cpp(program, tmp_path / "sample", capi_flags)
    done = run(exe)
    assert done.returncode == 0, done.stdout + done.stderr
    expected = (ROOT / "samples" / f"{port}.out").read_text(encoding="utf-8")
    assert done.stdout == expected
    python = subprocess.run(
        [sys.executable, str(ROOT / "samples" / f"{port}.py")], capture_output=True, text=True, env=_env()
    )
    assert python.returncode == 0, python.stderr
    assert done.stdout == python.stdout
    assert done.stderr == ""


def test_every_operator_has_a_seed_sample() -> None:
    if not SEED_PROGRAMS:
        pytest.skip(
            f"needs CANN's sample documents, which the repository does not ship: set ACLNN_PY_SEEDS to their "
            f"folder (looked in {SEEDS})"
        )
    assert {port for _, _, port in SEED_PROGRAMS} == set(PORTS.values())


# ---------------------------------------------------------------------------------------------
# every documented error, from C
# ---------------------------------------------------------------------------------------------

TRUNK = "AclNN_Parameter_Error(EZ1001): "
FLOATS = "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,]"


def not_implemented(arg: str, dtype: str, support: str = FLOATS) -> str:
    return TRUNK + f"Tensor {arg} not implemented for {dtype}, should be in dtype support list {support}."


# case -> (code, first line of aclGetRecentErrMsg(), or None for no message), Ascend910B.
ROWS: dict[str, tuple[int, str | None]] = {
    "soc": (0, "Ascend910B"),
    "hsb.null_workspace_size": (161001, TRUNK + "The workspaceSize or executor is nullptr."),
    "hsb.null_executor": (161001, TRUNK + "The workspaceSize or executor is nullptr."),
    "hsb.null_gradOutput": (161001, TRUNK + "Expected a proper Tensor but got null for argument t0."),
    "hsb.null_self": (161001, TRUNK + "Expected a proper Tensor but got null for argument t1."),
    "hsb.null_out": (161001, TRUNK + "Expected a proper Tensor but got null for argument t2."),
    "hsb.self_int32": (161002, not_implemented("self", "DT_INT32")),
    "hsb.gradOutput_int32": (161002, not_implemented("gradOutput", "DT_INT32")),
    "hsb.gradOutput_fp16": (161002, TRUNK + "Tensor gradOutput expected dtype is DT_FLOAT but found DT_FLOAT16."),
    "hsb.out_fp16": (161002, TRUNK + "Tensor out expected dtype is DT_FLOAT but found DT_FLOAT16."),
    "hsb.gradOutput_rank9": (161002, TRUNK + "The gradOutput tensor cannot be larger than 8 dimensions."),
    "hsb.self_rank9": (161002, TRUNK + "The self tensor cannot be larger than 8 dimensions."),
    "hsb.gradOutput_shape": (
        161002,
        TRUNK
        + "Expected tensor for gradOutput to have same size as tensor for self, but [2, 4] does not equal [4, 2].",
    ),
    "hsb.out_shape": (
        161002,
        TRUNK + "Expected tensor for out to have same size as tensor for self, but [2, 4] does not equal [4, 2].",
    ),
    "hsb.phase1_ok": (0, None),
    "hsb.phase2_ok": (0, None),
    "hsb.phase2_released_executor": (
        161002,
        TRUNK + "aclnnHardswishBackward cannot run: the executor made by aclnnHardswishBackwardGetWorkspaceSize at "
        "the C program was already released (a non-repeatable executor runs once; call "
        "aclSetAclOpExecutorRepeatable right after phase 1 to run it again).",
    ),
    "hsb.phase2_null_executor": (161001, TRUNK + "executor is nullptr."),
    "hsb.synchronize": (0, None),
    "sl1.null_workspace_size": (161001, TRUNK + "The workspaceSize or executor is nullptr."),
    "sl1.null_executor": (161001, TRUNK + "The workspaceSize or executor is nullptr."),
    "sl1.null_gradOut": (161001, TRUNK + "Expected a proper Tensor but got null for argument gradOut."),
    "sl1.null_self": (161001, TRUNK + "Expected a proper Tensor but got null for argument self."),
    "sl1.null_target": (161001, TRUNK + "Expected a proper Tensor but got null for argument target."),
    "sl1.null_gradInput": (161001, TRUNK + "Expected a proper Tensor but got null for argument gradInput."),
    "sl1.self_int32": (161002, not_implemented("self", "DT_INT32")),
    "sl1.gradOut_rank9": (161002, TRUNK + "expected tensor must have at most 8 dimensions, but got 9."),
    "sl1.reduction_3": (161002, TRUNK + "Reduction should be between 0 and 2, but got 3"),
    "sl1.beta_negative": (161002, TRUNK + "beta should be greater than or equal to 0"),
    "sl1.beta_nan": (161002, TRUNK + "beta should be greater than or equal to 0"),
    "sl1.broadcast_self": (
        161002,
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [4, 2] of the tensor of operator aclnnSmoothL1LossBackward_",
    ),
    "sl1.broadcast_target": (
        161002,
        "Invalid_Argument_Tensor_Input_Shape(EZ1007): Shape [3, 2] of the tensor of operator aclnnSmoothL1LossBackward_",
    ),
    "sl1.gradInput_shape": (
        161002,
        TRUNK + "Exepected tensor for result to have same size as tensor for gradInput, "
        "but [4, 2] does not equal [2, 4].",
    ),
    "smsb.null_mask": (161001, TRUNK + "Expected a proper Tensor but got null for argument mask."),
    "smsb.mask_fp16": (161002, not_implemented("mask", "DT_FLOAT16", "[DT_BOOL,]")),
    "smsb.gradOutput_nz": (
        161002,
        TRUNK + "Input and output format only support [ND]. Actual: gradOutput:[FRACTAL_NZ], y:[ND], out:[ND].",
    ),
    "smsb.mask_nz": (161002, TRUNK + "Mask format only support [ND]. Actual: mask:[FRACTAL_NZ]."),
    "smsb.gradOutput_3d": (161002, TRUNK + "gradOutput only support 4 dims, but current is 3"),
    "smsb.d_4097": (161002, TRUNK + "shape of gradOutput is not true, current is [1, 2, 4, 4097]"),
    "smsb.y_shape": (
        161002,
        TRUNK + "shape of y should equal to gradOutput, gradOutput is [1, 2, 4, 4], y is [1, 2, 4, 8]",
    ),
    "smsb.out_shape": (
        161002,
        TRUNK + "shape of out should equal to gradOutput, gradOutput is [1, 2, 4, 4], out is [1, 2, 4, 8]",
    ),
    "smsb.mask_3d": (161002, TRUNK + "mask only support 4 dims, but current is 3"),
    "smsb.mask_s": (161002, TRUNK + "shape of mask is not true, current is [1, 2, 8, 4]"),
    "smsb.mask_broadcast": (
        161002,
        TRUNK + "mask should broadcast to gradOutput, gradOutput is [1, 2, 4, 4], mask is [1, 3, 4, 4]",
    ),
    "smsb.fixTriuMask": (161002, TRUNK + "fixTriuMask only support false"),
    "smsb.null_executor": (161001, TRUNK + "Check executor != nullptr failed"),
    # nnopbase's args-cache check turns the null workspaceLen into "found": success
    "smsb.null_workspace_size": (0, TRUNK + "Assert ((workspaceLen) != nullptr) failed"),
    "smsb.y_fp16": (
        161002,
        "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxGradV2_0. Reason: The dtype or format "
        "of the actual input or output parameter of the operator is inconsistent with that defined in the operator "
        "prototype OpDef, details of parameter are yGrad(DT_FLOAT, ND), y(DT_FLOAT16, ND), maskOptional(DT_BOOL, ND), "
        "out(DT_FLOAT, ND).",
    ),
    "smsb.phase1_ok": (0, None),
    "smsb.phase2_null_workspace": (
        161001,
        "Invalid_Argument_Null_Pointer(EZ1011): Calling the second-phase API of aclnn failed because workspace cannot be a NULL pointer.",
    ),
    "smsb.phase2_short_workspace": (
        161002,
        "Invalid_Argument(EZ1010): Value 16777184 for parameter workspaceLen is invalid. Reason: The passed workspace size 16777184 "
        "does not meet the minimum workspace size 16777216 actually required by the operator.",
    ),
    "smsb.phase2_ok": (0, None),
    "smsb.synchronize": (0, None),
    "rt.set_device_99": (
        107001,
        "Invalid_Argument(EE1003): Specifying the device used for computation by the current thread failed because "
        "value 99 for parameter drv devId is invalid. Expected value: [0, 8).",
    ),
    "rt.malloc_null_out": (
        100000,
        "Invalid_Argument_Null_Pointer(EH0008): aclMallocMemInner failed because devPtr cannot be a NULL pointer.",
    ),
    "rt.memcpy_count_over_destmax": (
        107000,
        "Invalid_Argument(EE1003): Synchronous memory copy failed because value 32 for parameter cnt is invalid. "
        "Expected value: (0, 16].",
    ),
    "rt.memcpy_wrong_kind": (
        107000,
        "aclnn_py: aclrtMemcpy: kind ACL_MEMCPY_DEVICE_TO_HOST does not match the addresses: dst is device memory and "
        "src is host memory. Pass ACL_MEMCPY_HOST_TO_DEVICE, or ACL_MEMCPY_DEFAULT to let the addresses decide.",
    ),
    "rt.create_stream_null_out": (
        100000,
        "Invalid_Argument_Null_Pointer(EH0008): aclrtCreateStream failed because stream cannot be a NULL pointer.",
    ),
    "rt.memset_host_address": (107000, "aclnn_py: aclrtMemset: devPtr 0x"),  # C's own memory is not device memory
    "rt.memcpy_async_host_to_host": (207000, None),  # not supported on a host+card system, silently
    "rt.mem_info_bad_attr": (
        107016,
        "Invalid_Argument(EE1003): Obtaining the memory information of the current device failed because value "
        "UNKNOWN(99) for parameter memInfoType is invalid. Expected value: [0, 17].",
    ),
    "rt.free": (0, None),
    "rt.free_twice": (107000, "aclnn_py: aclrtFree: double free of 0x"),
    "abi.view_shape": (0, "3: 2 3 4"),
    "abi.view_strides": (0, "3: 12 4 1"),
    "abi.accessors": (0, "1 2 0"),  # ACL_FLOAT16, ACL_FORMAT_ND, offset 0
    "abi.view_shape_null_tensor": (161001, None),  # accessors never report a message
    "abi.pinned_round_trip": (0, f"sum {sum(range(8, 64))}"),
    "abi.pinned_overflow": (107000, "aclnn_py: aclrtMemcpy: write of 128 bytes at 0x"),
    "abi.free_host": (0, None),
    "abi.objects": (0, "1 3 2"),
    "abi.destroyed_tensor": (
        161002,
        TRUNK + "aclnnHardswishBackward: argument self is an aclTensor destroyed by aclDestroyTensor "
        "(created at the C program); use after free.",
    ),
    "abi.forged_handle": (161002, TRUNK + "aclnnHardswishBackward: argument self must be an aclTensor, got "),
    "abi.forged_stream": (
        107017,
        "Invalid_Argument(EE1017): Object validation failed. Parameter stream is invalid. Reason: 1. The stream handle "
        "has been destroyed. 2. The handle type must be stream.",
    ),
    # aclGetRecentErrMsg itself, in a thread whose device was reset: its rtGetDevMsg needs a context
    "finalize": (0, "Invalid_Argument_API_Call_Sequence(EE1018): Context validation failed. Reason: No valid context"),
}

# What changes on Ascend910 (no BFLOAT16; no operator package holds ScaledMaskedSoftmaxGradV2 for the chip).
NO_KERNEL = (
    "Execution_Error(EZ1009): Failed to execute operator ScaledMaskedSoftmaxGradV2_0. Reason: 1.SoC version "
    "ascend910 verification failed."
)
NULL_EXECUTOR = TRUNK + "Assert ((executor) != nullptr) failed"
ROWS_910 = {
    **ROWS,
    "soc": (0, "Ascend910"),
    "hsb.self_int32": (161002, not_implemented("self", "DT_INT32", "[DT_FLOAT,DT_FLOAT16,]")),
    "hsb.gradOutput_int32": (161002, not_implemented("gradOutput", "DT_INT32", "[DT_FLOAT,DT_FLOAT16,]")),
    "sl1.self_int32": (161002, not_implemented("self", "DT_INT32", "[DT_FLOAT,DT_FLOAT16,]")),
    "smsb.null_executor": (161001, NO_KERNEL),  # the op registry comes before the executor out-pointer
    "smsb.null_workspace_size": (161001, NO_KERNEL),
    "smsb.y_fp16": (161001, NO_KERNEL),
    "smsb.phase1_ok": (161001, NO_KERNEL),
    "smsb.phase2_null_workspace": (161001, NULL_EXECUTOR),
    "smsb.phase2_short_workspace": (161001, NULL_EXECUTOR),
    "smsb.phase2_ok": (161001, NULL_EXECUTOR),
}


def parse_blocks(stdout: str) -> dict[str, tuple[int, list[str]]]:
    blocks: dict[str, tuple[int, list[str]]] = {}
    for chunk in stdout.split("## ")[1:]:
        name, code, *message = chunk.rstrip("\n").split("\n")
        assert name not in blocks, f"case {name} printed twice"
        blocks[name] = (int(code), message)
    return blocks


def check_rows(stdout: str, rows: dict[str, tuple[int, str | None]]) -> None:
    blocks = parse_blocks(stdout)
    assert list(blocks) == list(rows)  # every case ran, in order
    for name, (code, first_line) in rows.items():
        got_code, message = blocks[name]
        assert got_code == code, f"{name}: {got_code} {message}"
        if first_line is None:
            assert message == ["(null)"], f"{name}: {message}"
        else:
            assert message[0].startswith(first_line), f"{name}: {message[0]!r}"


@pytest.fixture(scope="module")
def error_rows_exe(tmp_path_factory, capi_flags) -> Path:
    src = (CAPI / "tests" / "error_rows.cpp").read_text(encoding="utf-8")
    return compile_cpp(src, tmp_path_factory.mktemp("capi") / "error_rows", capi_flags)


@pytest.mark.parametrize(("soc", "rows"), [("Ascend910B", ROWS), ("Ascend910", ROWS_910)])
def test_each_documented_error_from_c(error_rows_exe, soc, rows):
    done = run(error_rows_exe, ACLNN_PY_SOC=soc)
    assert done.returncode == 0, done.stdout + done.stderr
    check_rows(done.stdout, rows)
    # the one sanitizer finding: phase 1 "succeeds" with a null workspaceSize (nnopbase's defect)
    expected = (
        "aclnn_py sanitizer [undefined]: aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize: workspaceSize is nullptr; "
        "nnopbase returns ACLNN_SUCCESS anyway (its args cache check turns the null-pointer error into 'found'), with "
        "an executor whose arguments were never set up\n"
    )
    assert done.stderr == (expected if soc == "Ascend910B" else "")


def test_the_broadcast_error_keeps_its_traceback_lines(error_rows_exe):
    blocks = parse_blocks(run(error_rows_exe).stdout)
    assert blocks["sl1.broadcast_self"][1][1:] == [
        "TraceBack (most recent call last):",
        "        Broadcast [3, 2] and [4, 2] failed.",
    ]


# ---------------------------------------------------------------------------------------------
# AddressSanitizer: the C layer and the samples run clean
# ---------------------------------------------------------------------------------------------


LEAKY = """#include <cstdlib>
#include "acl/acl.h"
void* volatile keep;
int main() {
    aclInit(nullptr);
    keep = malloc(64);
    keep = nullptr;  // the only pointer to those 64 bytes is gone: a leak
    aclFinalize();
    return 0;
}
"""
# LeakSanitizer cannot see pointers kept in memory Python's small-object allocator maps by
# itself, so with it every Python object looks leaked; the malloc allocator puts every object in
# memory LSan scans (ACLNN_PY_PYTHONMALLOC: the engine's Python is isolated from PYTHON* variables). The interpreter is never finalised (CANN programs just exit), and what it
# holds stays reachable: a leak reported then is memory nothing points to any more.
LSAN_ENV = {"ACLNN_PY_PYTHONMALLOC": "malloc", "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:halt_on_error=1"}


@pytest.fixture(scope="session")
def leak_detection(tmp_path_factory, capi_asan_flags) -> bool:
    """Whether LeakSanitizer works on this host: a program leaking 64 bytes on purpose, linked
    against the C layer, must be reported (hosts that forbid ptrace cannot run LSan)."""
    exe = compile_cpp(LEAKY, tmp_path_factory.mktemp("lsan") / "leaky", capi_asan_flags, asan=True)
    done = run(exe, **LSAN_ENV)
    return "Direct leak of 64 byte(s) in 1 object(s)" in done.stderr and "in main" in done.stderr


def test_leak_detection_works_here(leak_detection):
    if not leak_detection:
        pytest.skip("needs LeakSanitizer, which cannot run on this host")


# Under ASan in ``make test``: besides the error and thread programs, the runtime program whose C
# side is hand-written (C callbacks the engine's threads call back); ``make test-slow``
# (ACLNN_PY_SLOW_TESTS=1) runs every runtime program of capi/tests. Each program costs about 1 s of
# CPU under ASan (compile, and a run with the malloc allocator and the leak check at exit); the
# runtime programs' plain runs are in tests/test_capi_runtime.py.
ASAN_RUNTIME = ("runtime_callback",)


def test_address_sanitizer_finds_nothing(tmp_path, capi_asan_flags, leak_detection):
    """The seed samples, the error and thread programs and runtime programs under
    -fsanitize=address, with leak detection on where the host supports it: no memory error, and no
    leak in the C layer or below it."""
    import os

    programs = [(name, prog) for name, prog, _ in SEED_PROGRAMS]
    runtime = sorted(p.stem for p in (CAPI / "tests").glob("runtime_*.cpp"))
    if os.environ.get("ACLNN_PY_SLOW_TESTS") != "1":
        assert set(ASAN_RUNTIME) <= set(runtime)
        runtime = list(ASAN_RUNTIME)
    for own in ("error_rows", "threads", *runtime):
        programs.append((own, (CAPI / "tests" / f"{own}.cpp").read_text(encoding="utf-8")))
    env = dict(LSAN_ENV) if leak_detection else {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1"}
    for i, (name, program) in enumerate(programs):
        exe = compile_cpp(program, tmp_path / f"asan{i}", [*capi_asan_flags, "-pthread"], asan=True)
        done = run(exe, ACLNN_PY_KERNELS="numpy", **env)
        assert "Sanitizer" not in done.stderr, f"{name}:\n{done.stderr[:5000]}"
        assert done.returncode == 0, f"{name}: {done.returncode}\n{done.stderr[:5000]}"


# ---------------------------------------------------------------------------------------------
# the library attaches to a running interpreter too
# ---------------------------------------------------------------------------------------------


def test_the_library_attaches_to_the_running_interpreter(capi_flags):
    lib = ctypes.CDLL(str(CAPI / "build" / "lib" / "libascendcl.so"))
    lib.aclDataTypeSize.restype = ctypes.c_size_t
    lib.aclDataTypeSize.argtypes = [ctypes.c_int]
    assert [lib.aclDataTypeSize(dt) for dt in (0, 1, 9, 12, 27)] == [4, 2, 8, 1, 2]
    lib.aclrtGetSocName.restype = ctypes.c_char_p
    from aclnn_py import aclrtGetSocName

    assert lib.aclrtGetSocName().decode() == aclrtGetSocName()


def test_without_aclnn_py_the_library_says_so_and_fails_every_call(error_rows_exe, tmp_path):
    done = run(error_rows_exe, ACLNN_PY_PYTHON=str(tmp_path / "no-such-python"))
    assert done.returncode == 500000 % 256  # main returns aclInit's ACL_ERROR_INTERNAL_ERROR
    assert "aclnn_py: cannot import aclnn_py._cabi (set ACLNN_PY_PYTHON" in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("policy", ["deferred", "thread"])
def test_c_threads_keep_their_own_device_and_compute_what_python_computes(tmp_path, capi_flags, policy):
    import numpy as np

    from aclnn_py.functional import hardswish_backward

    src = (CAPI / "tests" / "threads.cpp").read_text(encoding="utf-8")
    exe = compile_cpp(src, tmp_path / "threads", [*capi_flags, "-pthread"])
    done = run(exe, ACLNN_PY_STREAM=policy)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 4
    for t, line in enumerate(lines):
        head, values = line.split(":")
        assert head == f"thread {t} device {t} status 0"
        got = np.array([float.fromhex(v) for v in values.split()], dtype=np.float32)
        grad = (0.5 * (np.arange(16) + t)).astype(np.float32).reshape(4, 4)
        self = (-4.0 + 0.5 * np.arange(16)).astype(np.float32).reshape(4, 4)
        expected = hardswish_backward(grad, self).reshape(-1)
        assert got.tobytes() == expected.tobytes()


# ---------------------------------------------------------------------------------------------
# every registered API, from the registry to the library
# ---------------------------------------------------------------------------------------------


def _gen_ops() -> object:
    sys.path.insert(0, str(CAPI))
    try:
        import gen_ops  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(CAPI))
    return gen_ops


def test_the_checked_in_operator_headers_are_the_registrys() -> None:
    gen = _gen_ops()
    wanted = gen.headers()  # type: ignore[attr-defined]
    on_disk = {
        str(p.relative_to(CAPI / "include")): p.read_text(encoding="utf-8")
        for p in (CAPI / "include" / "aclnnop").rglob("*.h")
        if p.read_text(encoding="utf-8").startswith(gen.BANNER)  # type: ignore[attr-defined]
    }
    assert on_disk == wanted, "run `python capi/build.py --headers`"
    from aclnn_py.ops import registry

    for api in registry.IMPLEMENTED:
        text = wanted[api.header]
        assert f"aclnnStatus {api.phase1}(" in text and f"aclnnStatus {api.name}(void* workspace" in text


def test_the_library_exports_both_phases_of_every_registered_api(capi_flags) -> None:
    from aclnn_py.ops import registry

    lib = ctypes.CDLL(str(CAPI / "build" / "lib" / "libopapi.so"))
    missing = [n for api in registry.IMPLEMENTED for n in api.names if not hasattr(lib, n)]
    assert missing == []


def test_a_generated_wrapper_passes_each_c_argument_kind(tmp_path, capi_flags) -> None:
    """Scalars, int arrays, bool, aclDataType and tensors through the generated C functions:
    aclnnReduceSum (int array, bool, dtype) then aclnnAdds (two scalars) in one C program."""
    program = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/level2/aclnn_reduce_sum.h"

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    std::vector<float> host = {1, 2, 3, 4, 5, 6};
    std::vector<int64_t> shape = {2, 3}, strides = {3, 1}, oshape = {2}, ostrides = {1};
    void *x = nullptr, *y = nullptr, *z = nullptr;
    aclrtMalloc(&x, 24, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y, 8, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, 24, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, 24, host.data(), 24, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor *tx = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 2, x);
    aclTensor *ty = aclCreateTensor(oshape.data(), 1, ACL_FLOAT, ostrides.data(), 0, ACL_FORMAT_ND, oshape.data(), 1, y);
    aclTensor *tz = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 2, z);
    int64_t dim = 1;
    aclIntArray *dims = aclCreateIntArray(&dim, 1);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    int ret = aclnnReduceSumGetWorkspaceSize(tx, dims, false, ACL_FLOAT, ty, &ws, &ex);
    std::printf("ReduceSum phase 1: %d\n", ret);
    void *w = nullptr;
    if (ws > 0) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    std::printf("ReduceSum phase 2: %d\n", aclnnReduceSum(w, ws, ex, stream));
    float other = 0.5f, alpha = 2.0f;
    aclScalar *so = aclCreateScalar(&other, ACL_FLOAT);
    aclScalar *sa = aclCreateScalar(&alpha, ACL_FLOAT);
    ret = aclnnAddsGetWorkspaceSize(tx, so, sa, tz, &ws, &ex);
    std::printf("Adds phase 1: %d\n", ret);
    std::printf("Adds phase 2: %d\n", aclnnAdds(nullptr, ws, ex, stream));
    aclrtSynchronizeStream(stream);
    std::vector<float> sums(2), added(6);
    aclrtMemcpy(sums.data(), 8, y, 8, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(added.data(), 24, z, 24, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("sums: %g %g\n", sums[0], sums[1]);
    std::printf("added: %g %g %g\n", added[0], added[1], added[5]);
    ret = aclnnReduceSumGetWorkspaceSize(tx, nullptr, false, ACL_FLOAT, ty, &ws, &ex);
    std::printf("null dims: %d\n", ret);
    aclDestroyTensor(tx); aclDestroyTensor(ty); aclDestroyTensor(tz);
    aclDestroyIntArray(dims); aclDestroyScalar(so); aclDestroyScalar(sa);
    if (w) aclrtFree(w);
    aclrtFree(x); aclrtFree(y); aclrtFree(z);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""
    exe = compile_cpp(program, tmp_path / "kinds", capi_flags)
    done = run(exe, ACLNN_PY_SANITIZER="error")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "ReduceSum phase 1: 0\nReduceSum phase 2: 0\nAdds phase 1: 0\nAdds phase 2: 0\n"
        "sums: 6 15\nadded: 2 3 7\nnull dims: 161001\n"
    )
