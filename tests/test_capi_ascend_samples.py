"""Ascend/samples' runtime programs (cplusplus/level1_single_api/1_acl/2_memory_management), compiled
unmodified against the C ABI with each sample's own build conventions and run with the command its
README documents (issue 17).

The programs come from an Ascend/samples git mirror at test time (``ACLNN_PY_ASCEND_SAMPLES``: a bare
git repository, default /work/.mirror/Ascend+samples/repo); without it the module skips. What each
README documents is checked: every copy's data ("... data is 7"), the device memory the program sees
shrink by each allocation (aclrtMalloc's rounding: the size plus 32 bytes, 32-byte aligned) and come
back after the release cycle, and the final success line. Two things the samples do themselves are
expected as they are: ``print_data`` never frees the pinned buffer it allocates (the sanitizer's
leak report names them at aclFinalize), and the asynchronous sample's README passes
``--memory_reuse`` and ``--write_back_host``, which that program does not accept (getopt says so).
"""

from __future__ import annotations

import os
import re
import subprocess
import tarfile
from io import BytesIO
from pathlib import Path

import pytest
from capi_support import CAPI, link_flags, load_build, missing_toolchain
from capi_support import env as _env

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

SAMPLES = Path(os.environ.get("ACLNN_PY_ASCEND_SAMPLES", "/work/.mirror/Ascend+samples/repo"))
if not SAMPLES.is_dir():
    pytest.skip(
        f"needs a git mirror of Ascend/samples (not shipped): set ACLNN_PY_ASCEND_SAMPLES (looked in {SAMPLES})",
        allow_module_level=True,
    )

build = load_build()
FOLDER = "cplusplus/level1_single_api/1_acl/2_memory_management"
README_ARGS = ["--release_cycle", "10", "--number_of_cycles", "1", "--device_id", "0", "--memory_size", "10485760"]
MEMORY_SIZE = 10485760
ROUNDED = (MEMORY_SIZE + 32 + 32 - 1) // 32 * 32  # what aclrtMalloc takes for it (ALIGN_UP(size, 32) + 32)

# sample -> (its source files, its build's extra options and libraries, the README's run arguments)
CMAKE_SAMPLES: dict[str, tuple[list[str], list[str], list[str], list[str]]] = {
    "memcpy_host_device_cpp": (
        ["src/memcpy_host_device.cpp"], [], ["-lascendcl"], [*README_ARGS, "--memory_reuse", "0", "--write_back_host", "0"]
    ),
    "memcpy_host_device_async_cpp": (
        ["src/memcpy_host_device.cpp"], [], ["-lascendcl"], [*README_ARGS, "--memory_reuse", "0", "--write_back_host", "0"]
    ),
    "memcpy_host_DVPP_cpp": (
        ["src/memcpy_host_dvpp.cpp"], ["-DENABLE_DVPP_INTERFACE"], ["-lascendcl", "-lacl_dvpp"],
        [*README_ARGS, "--memory_reuse", "0"],
    ),
}  # fmt: skip


@pytest.fixture(scope="module")
def samples(tmp_path_factory, capi_flags) -> Path:
    """The memory-management folder of Ascend/samples, extracted from the mirror (and the library
    the programs link, built: this module may be a worker's first)."""
    out = tmp_path_factory.mktemp("ascend_samples")
    archive = subprocess.run(
        ["git", f"--git-dir={SAMPLES}", "archive", "--format=tar", "HEAD", FOLDER], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(out, filter="data")
    return out / FOLDER


def _compile(cmd: list[str]) -> None:
    cmd = [*cmd, *link_flags()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(cmd)}\n{done.stderr}"


def _lib() -> list[str]:
    lib = CAPI / "build" / "lib"
    return [f"-L{lib}", f"-Wl,-rpath,{lib}"]


def _leak_lines_only(stderr: str) -> None:
    """stderr holds nothing but the leak report of print_data's pinned buffers (the samples' own)."""
    for line in stderr.splitlines():
        assert line.startswith(("aclnn_py sanitizer [leakcheck]", "  ")) or "unrecognized option" in line, line
        if line.startswith("    "):
            assert "made by aclrtMallocHost" in line and "never aclrtFreeHost'ed" in line, line


@pytest.mark.parametrize("name", sorted(CMAKE_SAMPLES))
def test_memory_sample_compiles_unmodified_and_prints_what_its_readme_documents(tmp_path, samples, name) -> None:
    sources, defines, libs, args = CMAKE_SAMPLES[name]
    folder = samples / name
    exe = tmp_path / "main"
    # src/CMakeLists.txt: -std=c++11, -O2 -Wall, include ${INSTALL_DIR}/runtime/include and ../src, link stdc++
    cmd = ["g++", "-std=c++11", "-fPIC", "-O2", "-Wall", *defines, *(str(folder / s) for s in sources)]
    cmd += ["-o", str(exe), *build.cflags(), f"-I{folder / 'src'}", *_lib(), *libs, "-lstdc++"]  # type: ignore[attr-defined]
    _compile(cmd)
    done = subprocess.run([str(exe), *args], capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert out.rstrip().splitlines()[-1].endswith("run success!")
    copies = re.findall(r"^At (.+) data is (\w+)$", out, re.M)
    assert copies and all(value == "7" for _, value in copies)
    assert sum(1 for c, _ in copies if c == "memcpy device") == 10  # every copy to the device was read back
    frees = [int(v) for v in re.findall(r"HBM free memory:(\d+) Byte", out)]
    total = int(re.search(r"HBM total memory:(\d+) Byte", out).group(1))  # type: ignore[union-attr]
    assert frees[0] == total and frees[-1] == total  # all released after the release cycle
    assert min(frees) == total - 10 * ROUNDED  # ten allocations of the documented size held at once
    assert all((total - f) % ROUNDED == 0 for f in frees)
    assert re.findall(r"DDR free memory:(\d+) Byte,\s+DDR total memory:(\d+)", out)[0] == ("0", "0")  # HBM chips
    _leak_lines_only(done.stderr)
    if name == "memcpy_host_device_async_cpp":
        assert "unrecognized option '--memory_reuse'" in done.stderr  # the README passes what it lacks


ASYNC = "06_async_memcpy_01_host2device"
ASYNC_STEPS = [
    "acl init success", "set device success", "create context success", "set contex success", "create stream success",
    "malloc host success", "malloc device success", "main init_fromwork success", "sync stream success",
    "memcopy to device success", "destroy stream success", "destroy context success", "reset device success",
    "aclFinalize success", "uninit_formwork success",
]  # fmt: skip


def test_async_host_to_device_sample_runs_every_step_its_readme_lists(tmp_path, samples) -> None:
    """06_async_memcpy_01_host2device: its README's compile line (-DENABLE_DVPP_INTERFACE, -lascendcl),
    run where its aclInit("./acl.json") finds a configuration file, as CANN's samples are; it copies
    1 GB host to device asynchronously."""
    src = samples / ASYNC / "async_memcpy_host2device.cpp"
    exe = tmp_path / "Async_Memcpy_Host2Device"
    cmd = ["g++", "-DENABLE_DVPP_INTERFACE", str(src), "-o", str(exe), *build.cflags(), "-I/usr/include/"]  # type: ignore[attr-defined]
    _compile([*cmd, *_lib(), "-lascendcl", "-lstdc++"])
    (tmp_path / "acl.json").write_text("{}\n", encoding="utf-8")
    done = subprocess.run([str(exe)], capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=300)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    lines = [line.strip() for line in done.stdout.splitlines()]
    for step in ASYNC_STEPS:
        assert step in lines, f"{step!r} not printed:\n{done.stdout}"
    assert lines.index("sync stream success") < lines.index("memcopy to device success")
