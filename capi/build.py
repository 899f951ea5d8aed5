#!/usr/bin/env python3
"""Build the C ABI of aclnn_py and print the flags to compile against it (an ``aclnn_py-config``).

    python capi/build.py [--asan]      build capi/build[-asan]/lib/libaclnn_py.so and CANN's library names
                                       (libacl_rt.so, libascendcl.so, libopapi.so, libnnopbase.so ...)
    python capi/build.py --cflags      -I flags for the headers (acl/acl.h, aclnn/..., aclnnop/...) and for
                                       include/aclnnop itself (bare #include "aclnn_add.h")
    python capi/build.py --libs        -L/-l/rpath flags: the same link line a CANN program uses
    python capi/build.py --headers     rewrite the operator headers (capi/include/aclnnop) from the registry

The runtime's C functions are generated at build time from capi/include/acl (capi/gen_rt.py), the
operators' from the registry (capi/gen_ops.py).

Run it with the Python of the environment where aclnn_py is installed (``make capi`` uses .venv):
that interpreter is embedded, and its location is baked in as the default (``ACLNN_PY_PYTHON``
overrides it at run time).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: builds are not serialised
    fcntl = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_ops  # noqa: E402
import gen_rt  # noqa: E402

INCLUDE = HERE / "include"
SOURCE = HERE / "src" / "aclnn_py_capi.cpp"
# securec.h's bounds-checked functions (memset_s ...): CANN installs the header and libc_sec.so
SECUREC = HERE / "src" / "securec.c"
# profiling/aprof_pub.h's model registration (MsprofSetDeviceIdByGeModelIdx): plain C, callable before aclInit
APROF = HERE / "src" / "aprof.c"
LIBRARY = "libaclnn_py.so"
# The names CANN programs link against: -lascendcl (runtime) -lopapi / -lnnopbase (aclnn); the
# op-specific split libraries of newer CANN versions resolve to the same library.
# libacl_rt.so is the runtime's own name in current CANN (hicann/runtime's examples link -lacl_rt);
# libacl_dvpp.so is linked by Ascend/samples' DVPP memory sample (acldvppMalloc / acldvppFree);
# hicann/runtime's profiling and adump examples link libmsprofiler.so, libprofapi.so,
# libascend_dump.so and libc_sec.so (securec.h's functions); the tdt examples link libacl_tdt_channel.so and
# libacl_tdt_queue.so.
ALIASES = (
    "libascendcl.so", "libacl_rt.so", "libopapi.so", "libnnopbase.so", "libopapi_nn.so", "libopapi_math.so",
    "libacl_dvpp.so", "libmsprofiler.so", "libprofapi.so", "libascend_dump.so", "libc_sec.so",
    "libacl_tdt_channel.so", "libacl_tdt_queue.so",
)  # fmt: skip


def build_dir(asan: bool) -> Path:
    return HERE / ("build-asan" if asan else "build")


def python_flags() -> tuple[list[str], list[str]]:
    """Compile and link flags for embedding this interpreter."""
    inc = sysconfig.get_paths()["include"]
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    version = sysconfig.get_config_var("LDVERSION") or sysconfig.get_python_version()
    link = [f"-L{libdir}", f"-lpython{version}", f"-Wl,-rpath,{libdir}"] if libdir else [f"-lpython{version}"]
    return [f"-I{inc}"], link


def cflags() -> list[str]:
    """-I flags: the include root (acl/acl.h, aclnn/..., aclnnop/...) and aclnnop itself, as ops-nn's
    example build passes it, so a bare ``#include "aclnn_add.h"`` works too."""
    return [f"-I{INCLUDE}", f"-I{INCLUDE / 'aclnnop'}"]


def libs(asan: bool = False) -> list[str]:
    lib = build_dir(asan) / "lib"
    return [f"-L{lib}", f"-Wl,-rpath,{lib}", "-lascendcl", "-lopapi", "-lnnopbase"]


def write_headers() -> list[Path]:
    """Write the generated operator headers under capi/include; returns the files changed. Headers
    of APIs no longer in the registry are removed."""
    wanted = {INCLUDE / path: text for path, text in gen_ops.headers().items()}
    changed = []
    for path in sorted((INCLUDE / "aclnnop").rglob("*.h")):
        if path not in wanted and path.read_text().startswith(gen_ops.BANNER):
            path.unlink()
            changed.append(path)
    for path, text in wanted.items():
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(path)
    return changed


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def generated(asan: bool) -> Path:
    """The generated sources the library compiles (operator wrappers and header list)."""
    gen = build_dir(asan) / "gen"
    _write_if_changed(gen / "aclnn_py_ops.inc", gen_ops.wrappers())
    _write_if_changed(gen / "aclnn_py_op_headers.inc", gen_ops.includes())
    _write_if_changed(gen / "aclnn_py_rt.inc", gen_rt.wrappers())
    return gen


def needs_build(target: Path, gen: Path) -> bool:
    if not target.exists():
        return True
    inputs = [SOURCE, SECUREC, APROF, Path(__file__), HERE / "gen_rt.py", *INCLUDE.rglob("*.h"), *gen.glob("*.inc")]
    return target.stat().st_mtime < max(p.stat().st_mtime for p in inputs)


def build(asan: bool = False, cxx: str | None = None, force: bool = False) -> Path:
    """Compile the library (when out of date) and create the aliases; returns the library path.

    Several processes may ask at once (test workers, a make target beside the suite): one builds
    while the others wait on a lock file, then find the library up to date."""
    lib = build_dir(asan) / "lib"
    lib.mkdir(parents=True, exist_ok=True)
    with open(lib.parent / ".build.lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        return _build_locked(lib, asan, cxx, force)


def _build_locked(lib: Path, asan: bool, cxx: str | None, force: bool) -> Path:
    target = lib / LIBRARY
    gen = generated(asan)
    if force or needs_build(target, gen):
        compiler = cxx or os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")
        if compiler is None:
            raise SystemExit("capi/build.py: no C++ compiler (install g++)")
        py_c, py_l = python_flags()
        if not Path(py_c[0][2:], "Python.h").exists():
            raise SystemExit(
                f"capi/build.py: Python.h not found in {py_c[0][2:]} (install the Python development headers, "
                "e.g. python3-dev)"
            )
        default_python = sys.executable.replace("\\", "\\\\").replace('"', '\\"')
        # The AddressSanitizer variant exists to find memory errors, not to be fast: at -O0 it
        # compiles in a third of the time (2 s instead of 6.5 s of CPU) and instruments every access
        # (the optimiser removes none); its calls' cost is the Python engine's either way.
        san = ["-fsanitize=address", "-fno-omit-frame-pointer", "-g", "-O0"] if asan else ["-O2"]
        cmd = [
            compiler, "-std=c++17", "-fPIC", "-shared", "-Wall", "-Wextra", "-Werror",
            "-fvisibility=hidden", *san, *cflags(), f"-I{gen}", *py_c, f'-DACLNN_PY_DEFAULT_PYTHON="{default_python}"',
            str(SOURCE), str(SECUREC), str(APROF), "-o", str(target) + ".tmp", *py_l, "-Wl,--no-undefined",
            "-Wl,-soname," + LIBRARY,
        ]  # fmt: skip
        print(shlex.join(cmd), flush=True)
        subprocess.run(cmd, check=True)
        os.replace(str(target) + ".tmp", target)
    for alias in ALIASES:
        link = lib / alias
        if not link.is_symlink():
            link.unlink(missing_ok=True)
            link.symlink_to(LIBRARY)
    return target


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--asan", action="store_true", help="build (or give flags for) the AddressSanitizer variant")
    ap.add_argument("--force", action="store_true", help="rebuild even when up to date")
    ap.add_argument("--cflags", action="store_true", help="print the compile flags")
    ap.add_argument("--libs", action="store_true", help="print the link flags")
    ap.add_argument("--headers", action="store_true", help="rewrite the operator headers from the registry")
    args = ap.parse_args()
    if args.headers:
        for path in write_headers():
            print(path.relative_to(HERE))
        return
    if args.cflags or args.libs:
        print(" ".join([*(cflags() if args.cflags else []), *(libs(args.asan) if args.libs else [])]))
        return
    print(build(args.asan, force=args.force))


if __name__ == "__main__":
    main()
