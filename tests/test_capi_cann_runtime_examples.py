"""hicann/runtime's own example programs (``example/``), compiled unmodified against the C ABI with
the documented compile line and run (issue 17).

The programs are taken from the hicann/runtime mirror at test time (``ACLNN_PY_CANN_RUNTIME``: a bare
git repository, default /work/.mirror/hicann+runtime/repo); without it the module skips. Examples that
launch custom AscendC kernels (built with ``ascendc_library``, which needs Huawei's kernel compiler)
or use APIs aclnn_py does not emulate (IPC, virtual memory, exception callbacks, model capture, tdt,
profiling, dump) are not in the list.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

import pytest
from capi_support import CAPI, load_build, missing_toolchain
from capi_support import env as _env

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

CANN_RUNTIME = Path(os.environ.get("ACLNN_PY_CANN_RUNTIME", "/work/.mirror/hicann+runtime/repo"))
if not CANN_RUNTIME.is_dir():
    pytest.skip(f"no hicann/runtime mirror at {CANN_RUNTIME} (set ACLNN_PY_CANN_RUNTIME)", allow_module_level=True)

build = load_build()

# example directory -> lines its printout must contain (what CANN documents the program prints)
EXAMPLES: dict[str, list[str]] = {
    "0_quickstart/0_hello_cann": [f"  result[{i}] = {v} (expected: {v})" for i, v in enumerate(["1.5", "3.0", "4.5"])],
    "0_quickstart/1_error_handling": [
        "Diagnostics: ret=100000, peekErr=0, lastErr=0, recentErrMsg=Invalid_Argument_Null_Pointer(EH0008): "
        "aclrtGetRunMode failed because runMode cannot be a NULL pointer.",
        "Verbose error info: errorType=0, tryRepair=0, hasDetail=0",
        "After diagnostics are consumed once: peekErr=0, lastErr=0, recentErrMsg=<null>",
    ],
    "0_quickstart/2_system_info": ["Float conversion: 1.625000 -> 0x3e80 -> 1.625000"],
    "0_quickstart/3_cross_version/0_runtime_compatibility": [
        "CANN attribute ACL_CANN_ATTR_BF16 support value: 1",
        "[SUCCESS] Runtime compatibility sample completed successfully",
    ],
    "1_basic_features/context/0_context_query": [
        "Get current thread cube core limit: 24",
        "Get current thread vector core limit: 48",
        "[SUCCESS] Context query sample completed successfully",
    ],
    "1_basic_features/device/0_device_normal": ["Run the device_normal sample successfully."],
    "1_basic_features/device/2_device_P2P": [
        "The data read from the memory is 103, verify success!",
        "Run the device_P2P sample successfully.",
    ],
    "1_basic_features/memory/0_h2h_memory_copy": ["Destination data: 123"],
    "1_basic_features/memory/9_multistream_sync_memory": ["Flag value read by the waiting thread: 123"],
    "1_basic_features/stream/3_stream_config_query": [
        "[SKIP] Stream config query sample skipped because the current Runtime library does not export all "
        "stream config APIs."
    ],
}


@pytest.fixture(scope="module")
def examples(tmp_path_factory) -> Path:
    """hicann/runtime's example/ tree, extracted from the mirror."""
    out = tmp_path_factory.mktemp("cann_runtime")
    archive = subprocess.run(
        ["git", f"--git-dir={CANN_RUNTIME}", "archive", "--format=tar", "HEAD", "example"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(out, filter="data")
    return out / "example"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_cann_runtime_example_compiles_unmodified_and_runs(tmp_path, capi_flags, examples: Path, name: str) -> None:
    folder = examples / name
    lib = CAPI / "build" / "lib"
    # the examples' CMakeLists: include ${ASCEND_CANN_PACKAGE_PATH}/include and the example folders,
    # link libacl_rt.so (+ libopapi/libnnopbase for aclnn calls, dl, pthread)
    flags = [*build.cflags(), f"-I{examples}", f"-I{folder}", f"-I{folder.parent}"]  # type: ignore[attr-defined]
    link = [f"-L{lib}", f"-Wl,-rpath,{lib}", "-lacl_rt", "-lopapi", "-lnnopbase", "-ldl", "-pthread"]
    exe = tmp_path / "main"
    cmd = ["g++", "-std=c++17", *sorted(map(str, folder.glob("*.cpp"))), "-o", str(exe), *flags, *link]
    built = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    (tmp_path / "file").mkdir()  # 9_multistream_sync_memory hands a flag over through file/flag.txt
    done = subprocess.run([str(exe)], capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=300)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    # without the [INFO]/[ERROR] prefix and the indentation
    lines = [(line.split("]", 1)[-1] if line.startswith("[") else line).strip() for line in done.stdout.splitlines()]
    for wanted in EXAMPLES[name]:
        assert wanted.strip() in lines, f"{name}: {wanted!r} not printed:\n{done.stdout}"
    assert "[ERROR]" not in done.stdout or name == "0_quickstart/1_error_handling"
