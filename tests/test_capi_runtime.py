"""The runtime half of the C ABI (issue 17): CANN's header tree and library names, every declared
function exported and implemented, the compile line of CANN's own example builds, and the float16
conversions the library does in C.

Facts checked against hicann/runtime when its mirror is present (``ACLNN_PY_CANN_RUNTIME``: a bare
git repository, default /work/.mirror/hicann+runtime/repo); those tests skip without it.
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from capi_support import CAPI, compile_cpp, load_build, missing_toolchain, run

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

sys.path.insert(0, str(CAPI))
import gen_rt

sys.path.remove(str(CAPI))

INCLUDE = CAPI / "include"
CANN_RUNTIME = Path(os.environ.get("ACLNN_PY_CANN_RUNTIME", "/work/.mirror/hicann+runtime/repo"))
build = load_build()


def _cann(path: str) -> str:
    if not CANN_RUNTIME.is_dir():
        pytest.skip(
            f"needs a git mirror of hicann/runtime (CANN's runtime sources, not shipped): set ACLNN_PY_CANN_RUNTIME "
            f"(looked in {CANN_RUNTIME})"
        )
    done = subprocess.run(
        ["git", f"--git-dir={CANN_RUNTIME}", "show", f"HEAD:include/external/acl/{path}"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# ---------------------------------------------------------------------------------------------
# the header tree and the library
# ---------------------------------------------------------------------------------------------

# Where CANN installs each runtime header (under <install>/include), and what includes what.
LAYOUT = {
    "acl/acl.h": ["acl_rt.h", "acl_op.h", "acl_mdl.h"],
    "acl/acl_base.h": [
        "acl/acl_base_rt.h",
        "acl/acl_base_mdl.h",
        "error_codes/rt_error_codes.h",
        "error_codes/ge_error_codes.h",
    ],
    "acl/acl_rt.h": ["acl_base.h", "acl_rt_allocator.h"],
    "acl/acl_base_rt.h": [],
    "acl/acl_base_mdl.h": [],
    "acl/acl_mdl.h": [],
    "acl/acl_op.h": [],
    "acl/acl_rt_allocator.h": ["acl_base.h"],
    "acl/acl_prof.h": ["acl_base.h"],
    "acl/acl_dump.h": ["acl_base.h"],
    "acl/acl_tdt.h": ["acl/acl_base.h"],
    "acl/acl_tdt_queue.h": ["acl/acl_base.h"],
    "acl/error_codes/rt_error_codes.h": [],
    "acl/error_codes/ge_error_codes.h": [],
    "acl/ops/acl_dvpp.h": ["../acl.h", "../acl_base.h"],
    "aclnn/acl_meta.h": ["acl/acl_base.h"],
    "aclnn/aclnn_base.h": ["aclnn/acl_meta.h"],
    "aclnnop/aclnn_util.h": [],
}


def test_the_runtime_headers_sit_where_cann_installs_them_and_include_what_cann_s_do() -> None:
    for path, includes in LAYOUT.items():
        text = (INCLUDE / path).read_text(encoding="utf-8")
        quoted = re.findall(r'^#include\s+"([^"]+)"', text, re.M)
        assert quoted == includes, path
    assert sorted(p.relative_to(INCLUDE).as_posix() for p in (INCLUDE / "acl").rglob("*.h")) == sorted(
        p for p in LAYOUT if p.startswith("acl/")
    )


@pytest.mark.parametrize("header", ["error_codes/rt_error_codes.h", "error_codes/ge_error_codes.h", "acl_base_rt.h"])
def test_the_status_codes_are_cann_s(header: str) -> None:
    pattern = r"^(?:#define|static const (?:int|uint32_t))\s+(ACL_\w+)(?:\s*=)?\s+(\d+)U?;?"
    ours = dict(re.findall(pattern, (INCLUDE / "acl" / header).read_text(encoding="utf-8"), re.M))
    theirs = dict(re.findall(pattern, _cann(header), re.M))
    assert ours and ours == theirs


def test_the_runtime_prototypes_are_cann_s() -> None:
    """Every declaration under capi/include/acl is CANN's, parameter types and names included
    (acl/ops/acl_dvpp.h is not in hicann/runtime: its two prototypes are in the DVPP package)."""

    def table(text: str) -> dict[str, tuple[str, tuple[tuple[str, str], ...]]]:
        return {f.name: (f.ret, tuple((p.ctype, p.name) for p in f.params)) for f in gen_rt.declarations(text)}

    theirs = {}
    for header in (
        "acl_rt.h", "acl_base_rt.h", "acl_rt_allocator.h", "acl_prof.h", "acl_dump.h", "acl_tdt.h", "acl_tdt_queue.h",
    ):  # fmt: skip
        theirs.update(table(_cann(header)))
    ours = {
        f.name: (f.ret, tuple((p.ctype, p.name) for p in f.params))
        for f in gen_rt.header_functions()
        if f.header.startswith("acl/")  # aclnn/acl_meta.h is opbase's
    }
    dvpp = {"acldvppMalloc", "acldvppFree"}
    assert {n: ours[n] for n in ours if n not in dvpp} == {n: theirs[n] for n in ours if n not in dvpp}


def test_the_generator_reads_every_declaration_of_every_header() -> None:
    """Each export macro in a header under capi/include/acl (ACL_FUNC_VISIBILITY, acl_prof.h's
    MSVP_PROF_API, acl_dump.h's ACL_DUMP_API) starts a declaration the generator reads, function
    pointers and variadic parameters included."""
    import re

    for path in sorted((CAPI / "include" / "acl").rglob("*.h")):
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.S)
        text = re.sub(r"#define\s+\w+\s+__attribute__\(\(visibility\(\"default\"\)\)\)", "", text)
        marks = len(re.findall(r"\b(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API|ACL_DUMP_API)\b", text))
        assert len(gen_rt.declarations(text)) == marks, path.name
    sig = {f.name: f.signature() for f in gen_rt.header_functions()}
    assert sig["acldumpRegCallback"] == "e:x,x"  # int32_t (*const messageCallback)(const acldumpChunk*, int32_t)
    assert sig["acldumpUnregCallback"] == "v:"
    assert sig["acldumpGetPath"] == "t:i"
    assert sig["acltdtGetTensorTypeFromItem"] == "u:h"
    assert sig["aclprofRangeStart"] == "e:r,o:u32"
    assert sig["aclrtAllocatorSetAllocFuncToDesc"] == "e:h,r"
    assert sig["aclrtAllocatorSetObjToDesc"] == "e:h,r"


def test_every_declared_function_is_exported_and_implemented(capi_flags) -> None:
    """Every function of every header under capi/include/acl (whatever its export macro) is in the
    C library and in aclnn_py; aclAppLog (variadic) is written by hand."""
    import aclnn_py

    lib = ctypes.CDLL(str(CAPI / "build" / "lib" / "libacl_rt.so"))
    functions = gen_rt.header_functions()
    headers = {f.header for f in functions}
    assert {"acl/acl_prof.h", "acl/acl_dump.h", "acl/acl_tdt.h", "acl/acl_rt_allocator.h"} <= headers
    assert "aclAppLog" in {f.name for f in functions} and "aclAppLog" in gen_rt.hand_written()
    assert len(functions) > 100
    for f in functions:
        if f.name in gen_rt.NOT_EXPORTED:  # as CANN's libacl_rt.so: declared, not exported
            assert not hasattr(lib, f.name), f.name
            continue
        assert hasattr(lib, f.name), f"{f.name} ({f.header}) is not exported"
        assert callable(getattr(aclnn_py, f.name, None)), f"{f.name} ({f.header}) is not in aclnn_py"


def test_the_generated_wrappers_classify_every_parameter() -> None:
    """Each runtime function's signature string (how the wrapper passes its arguments), for a few
    of every kind; a new prototype the generator cannot read fails the build, not a call."""
    sig = {f.name: f.signature() for f in gen_rt.header_functions()}
    assert sig["aclrtStreamGetId"] == "e:h,o:i32"
    assert sig["aclrtCreateNotify"] == "e:H,u"
    assert sig["aclrtValueWait"] == "e:p,u,u,h"
    assert sig["acldvppMalloc"] == "e:P,u"
    assert sig["aclrtCheckArchCompatibility"] == "e:s,o:i32"
    assert sig["aclCreateDataBuffer"] == "H:r,u"
    assert sig["aclGetDataBufferAddr"] == "p:h"
    assert sig["aclGetDataBufferSize"] == "u:h"
    assert sig["aclrtQueryDeviceStatus"] == "e:i,o:i32"
    assert sig["aclrtCreateStreamConfigHandle"] == "H:"
    assert sig["aclrtLaunchHostFunc"] == "e:x,x,x"
    assert sig["aclFloat16ToFloat"] == "f:u"


PROGRAM = r"""#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnn_add.h"  // bare, as ops-nn's experimental samples include it (-I<include>/aclnnop)

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    std::vector<float> a = {1, 2, 3, 4}, b = {10, 20, 30, 40}, c(4);
    std::vector<int64_t> shape = {4}, strides = {1};
    void *da = nullptr, *db = nullptr, *dc = nullptr;
    aclrtMalloc(&da, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&db, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dc, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(da, 16, a.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(db, 16, b.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor *ta = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, da);
    aclTensor *tb = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, db);
    aclTensor *tc = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, dc);
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    int ret = aclnnAddGetWorkspaceSize(ta, tb, alpha, tc, &ws, &ex);
    std::printf("phase 1: %d\n", ret);
    std::printf("phase 2: %d\n", aclnnAdd(nullptr, ws, ex, stream));
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(c.data(), 16, dc, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("%g %g %g %g\n", c[0], c[1], c[2], c[3]);
    aclDestroyTensor(ta); aclDestroyTensor(tb); aclDestroyTensor(tc); aclDestroyScalar(alpha);
    aclrtFree(da); aclrtFree(db); aclrtFree(dc);
    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(0);
    aclFinalize();
    return 0;
}
"""


@pytest.mark.parametrize("libs", [["-lacl_rt", "-lnnopbase", "-lopapi"], ["-lascendcl", "-lopapi_math"]])
def test_the_compile_line_of_cann_s_example_builds(tmp_path, capi_flags, libs) -> None:
    """hicann/runtime's examples link -lacl_rt; ops-nn's build passes -I<include>/aclnnop."""
    lib = CAPI / "build" / "lib"
    flags = [*build.cflags(), f"-L{lib}", f"-Wl,-rpath,{lib}", *libs]  # type: ignore[attr-defined]
    exe = compile_cpp(PROGRAM, tmp_path / "add", flags)
    done = run(exe)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "phase 1: 0\nphase 2: 0\n11 22 33 44\n"


def _compile(tmp_path: Path, source: str, flags: list[str]) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "h.cpp"
    src.write_text(source, encoding="utf-8")
    return subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", str(src), *flags], capture_output=True, text=True, timeout=300
    )


def test_level2_copies_warn_as_the_installing_package_does(tmp_path, capi_flags) -> None:
    math = _compile(tmp_path, '#include "aclnnop/level2/aclnn_add.h"\n', capi_flags)
    assert math.returncode == 0
    assert "This file is scheduled to be deprecated. Please use the file with the same name" in math.stderr
    nn = _compile(tmp_path, '#include "aclnnop/level2/aclnn_softmax.h"\n', capi_flags)
    assert (nn.returncode, nn.stderr) == (0, "")
    masters = '#include "aclnnop/aclnn_ops_math.h"\n#include "aclnnop/aclnn_ops_nn.h"\nauto f = &aclnnSoftmax;\n'
    both = _compile(tmp_path, masters + "auto g = &aclnnAdd;\n", capi_flags)
    assert (both.returncode, both.stderr) == (0, "")


def test_acl_dvpp_h_needs_its_macro_as_on_cann(tmp_path, capi_flags) -> None:
    bare = _compile(tmp_path, '#include "acl/ops/acl_dvpp.h"\n', capi_flags)
    assert bare.returncode != 0
    assert "please use the macro definition (ENABLE_DVPP_INTERFACE)" in bare.stderr
    ok = _compile(tmp_path, '#define ENABLE_DVPP_INTERFACE\n#include "acl/ops/acl_dvpp.h"\n', capi_flags)
    assert (ok.returncode, ok.stderr) == (0, "")


def test_the_runtime_headers_compile_as_c(tmp_path, capi_flags) -> None:
    src = tmp_path / "c.c"
    src.write_text('#include "acl/acl.h"\n#include "aclnn/aclnn_base.h"\nint main(void) { return 0; }\n')
    done = subprocess.run(["gcc", "-std=c99", "-Wall", "-c", str(src), "-o", str(tmp_path / "c.o"), *capi_flags])
    assert done.returncode == 0


# ---------------------------------------------------------------------------------------------
# float16 conversions (done in C): CANN's documented rules, bit for bit
# ---------------------------------------------------------------------------------------------

FP16 = r"""#include <cstdint>
#include <cstdio>
#include <cstring>
#include "acl/acl.h"

// every half -> float; then float -> half for the float bit patterns on stdin
int main() {
    for (uint32_t h = 0; h < 65536; ++h) {
        float f = aclFloat16ToFloat(static_cast<aclFloat16>(h));
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        std::printf("%08x\n", bits);
    }
    unsigned int bits;
    while (std::scanf("%x", &bits) == 1) {
        float f;
        std::memcpy(&f, &bits, 4);
        std::printf("%04x\n", aclFloatToFloat16(f));
    }
    return 0;
}
"""


def _float_sweep() -> np.ndarray:
    """Float bit patterns around every rounding decision of float -> half: each exponent with
    mantissas at, just below and just above the halfway points, plus a strided sweep of all."""
    rng = np.random.default_rng(17)
    exps = np.arange(256, dtype=np.uint32) << 23
    tails = np.array([0, 1, 0xFFF, 0x1000, 0x1001, 0x2000, 0x3000, 0x7FFFFF, 0x400000, 0x7FE000, 0x7FF000],
                     dtype=np.uint32)  # fmt: skip
    near = (exps[:, None] | tails[None, :]).ravel()
    sweep = np.arange(0, 1 << 32, 65537, dtype=np.uint64).astype(np.uint32)
    random = rng.integers(0, 1 << 32, 20000, dtype=np.uint64).astype(np.uint32)
    base = np.concatenate([near, sweep, random])
    return np.concatenate([base, base | np.uint32(0x80000000)])


def test_float16_conversions_match_the_engine_and_ieee_where_cann_agrees(tmp_path, capi_flags) -> None:
    import aclnn_py

    exe = compile_cpp(FP16, tmp_path / "fp16", capi_flags)
    floats = _float_sweep()
    done = subprocess.run(
        [str(exe)], input="\n".join(f"{b:08x}" for b in floats), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split()
    to_float = np.array([int(x, 16) for x in lines[:65536]], dtype=np.uint32)
    to_half = np.array([int(x, 16) for x in lines[65536:]], dtype=np.uint16)
    # the engine's Python functions: the same rules
    halves = np.arange(65536, dtype=np.uint32)
    expected = np.array([aclnn_py.aclFloat16ToFloat(int(h)) for h in halves], dtype=np.float32).view(np.uint32)
    assert np.array_equal(to_float, expected)
    f32 = floats.view(np.float32)
    expected_half = np.array([aclnn_py.aclFloatToFloat16(float(v)) for v in f32], dtype=np.uint16)
    assert np.array_equal(to_half, expected_half)
    # IEEE (numpy's float16) wherever CANN's rules and IEEE's agree: every half below exponent 31,
    # and every float whose IEEE half is finite; beyond, CANN reads exponent 31 as a number and
    # saturates to +-65504
    ordinary = (halves >> 10) & 0x1F != 31
    ieee = halves.astype(np.uint16).view(np.float16)
    assert np.array_equal(to_float[ordinary], ieee.astype(np.float32).view(np.uint32)[ordinary])
    inf_nan = np.array([65536.0, 65536.0 * (1 + 1 / 1024)], np.float32).view(np.uint32)
    assert np.array_equal(to_float[0x7C00:0x7C02], inf_nan)
    with np.errstate(over="ignore", invalid="ignore"):
        ieee_half = f32.astype(np.float16)
    finite = np.isfinite(ieee_half)
    assert np.array_equal(to_half[finite], ieee_half[finite].view(np.uint16))
    assert set(to_half[~finite] & 0x7FFF) == {0x7BFF}


# ---------------------------------------------------------------------------------------------
# our own runtime programs (capi/tests/runtime_*.cpp), in the style of hicann/runtime's examples
# ---------------------------------------------------------------------------------------------

RUNTIME_PROGRAMS = sorted((CAPI / "tests").glob("runtime_*.cpp"))
# The functions issue 17 found missing: together the programs call every one.
ISSUE_17 = [
    "aclrtResetDeviceForce",
    "aclrtDestroyStreamForce",
    "aclrtSetStreamFailureMode",
    "acldvppMalloc",
    "acldvppFree",
    "aclsysGetVersionStr",
    "aclsysGetVersionNum",
    "aclGetCannAttribute",
    "aclGetCannAttributeList",
    "aclrtCheckArchCompatibility",
    "aclrtGetDeviceCapability",
    "aclrtGetLastError",
    "aclrtPeekAtLastError",
    "aclrtGetErrorVerbose",
    "aclFloatToFloat16",
    "aclFloat16ToFloat",
    "aclrtCtxGetCurrentDefaultStream",
    "aclrtGetResInCurrentThread",
    "aclrtEventGetTimestamp",
    "aclrtResetEvent",
    "aclrtSynchronizeEventWithTimeout",
    "aclrtCreateNotify",
    "aclrtRecordNotify",
    "aclrtWaitAndResetNotify",
    "aclrtDestroyNotify",
    "aclrtGetNotifyId",
    "aclrtNotifyBatchReset",
    "aclrtValueWrite",
    "aclrtValueWait",
    "aclrtStreamGetId",
    "aclrtStreamGetFlags",
    "aclrtStreamGetPriority",
    "aclrtCreateStreamConfigHandle",
    "aclrtSetStreamConfigOpt",
    "aclrtCreateStreamV2",
    "aclrtDestroyStreamConfigHandle",
    "aclCreateDataBuffer",
    "aclGetDataBufferAddr",
    "aclGetDataBufferSizeV2",
    "aclUpdateDataBuffer",
    "aclDestroyDataBuffer",
    "aclnnAdd",
    "aclnnAddGetWorkspaceSize",
]


def test_the_runtime_programs_call_every_function_issue_17_lists() -> None:
    called = set()
    for program in RUNTIME_PROGRAMS:
        text = program.read_text(encoding="utf-8")
        # called, or looked up by name (the stream-config calls, exported on no emulated SoC)
        called |= set(re.findall(r"\b(acl\w+)\s*\(", text)) | set(re.findall(r'"(acl\w+)"', text))
    assert sorted(set(ISSUE_17) - called) == []


@pytest.mark.parametrize(
    ("program", "soc"),
    [(p, None) for p in RUNTIME_PROGRAMS] + [(CAPI / "tests" / "runtime_quickstart.cpp", "Ascend910")],
    ids=lambda v: v.stem if isinstance(v, Path) else (v or "default"),
)
def test_runtime_program_prints_what_cann_documents(tmp_path, capi_flags, program: Path, soc: str | None) -> None:
    """Compiled with the documented line (-lacl_rt), run, and compared with its printout: every
    line is a documented value, code or order (see each program's comments), on the default SoC
    (an Ascend910B1) and, for the quick start, on Ascend910, where CANN lacks several features."""
    lib = CAPI / "build" / "lib"
    flags = [*build.cflags(), f"-L{lib}", f"-Wl,-rpath,{lib}", "-lacl_rt", "-lopapi", "-lnnopbase"]  # type: ignore[attr-defined]
    exe = compile_cpp(
        program.read_text(encoding="utf-8"), tmp_path / program.stem, [*flags, "-pthread", "-Wall", "-Werror"]
    )
    done = run(exe, **({"ACLNN_PY_SOC": soc} if soc else {}))
    expected = program.with_suffix(f".{soc}.out" if soc else ".out").read_text(encoding="utf-8")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == expected
    # stream order, not timing, decides every line: the thread policy (a worker thread runs each
    # stream) prints the same as the default, deferred (run() passes no ACLNN_PY_ setting through)
    assert run(exe, ACLNN_PY_STREAM="thread", **({"ACLNN_PY_SOC": soc} if soc else {})).stdout == expected


META = r"""#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

// A repeatable executor run twice: the second time on other buffers, set with
// aclSetInputTensorAddr / aclSetOutputTensorAddr; acl_meta's size getters and aclInitTensor.
int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    std::vector<float> a = {1, 2, 3, 4}, b = {10, 20, 30, 40}, a2 = {100, 200, 300, 400}, out(4);
    std::vector<int64_t> shape = {4}, strides = {1};
    void *da, *db, *dc, *da2, *dc2;
    for (void **p : {&da, &db, &dc, &da2, &dc2}) aclrtMalloc(p, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(da, 16, a.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(db, 16, b.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(da2, 16, a2.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor *ta = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, da);
    aclTensor *tb = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, db);
    aclTensor *tc = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, dc);
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    std::printf("phase 1: %d\n", aclnnAddGetWorkspaceSize(ta, tb, alpha, tc, &ws, &ex));
    std::printf("repeatable: %d\n", aclSetAclOpExecutorRepeatable(ex));
    std::printf("run 1: %d\n", aclnnAdd(nullptr, ws, ex, stream));
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(out.data(), 16, dc, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
    std::printf("set input: %d\n", aclSetInputTensorAddr(ex, 0, ta, da2));
    std::printf("set output: %d\n", aclSetOutputTensorAddr(ex, 0, tc, dc2));
    std::printf("run 2: %d\n", aclnnAdd(nullptr, ws, ex, stream));
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(out.data(), 16, dc2, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
    std::printf("set tensor: %d\n", aclSetTensorAddr(ex, 1, tb, da));
    std::printf("run 3: %d\n", aclnnAdd(nullptr, ws, ex, stream));
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(out.data(), 16, dc2, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("%g %g %g %g\n", out[0], out[1], out[2], out[3]);
    aclDestroyAclOpExecutor(ex);
    float fv[3] = {1, 2, 3};
    bool bv[2] = {true, false};
    aclFloatArray *fa = aclCreateFloatArray(fv, 3);
    aclBoolArray *ba = aclCreateBoolArray(bv, 2);
    float two = 2.0f;
    const aclScalar *scalars[2] = {aclCreateScalar(&one, ACL_FLOAT), aclCreateScalar(&two, ACL_FLOAT)};
    aclScalarList *sl = aclCreateScalarList(scalars, 2);
    uint64_t n1 = 0, n2 = 0, n3 = 0;
    int r1 = aclGetFloatArraySize(fa, &n1), r2 = aclGetBoolArraySize(ba, &n2), r3 = aclGetScalarListSize(sl, &n3);
    std::printf("sizes: %d %d %d -> %llu %llu %llu\n", r1, r2, r3, (unsigned long long)n1, (unsigned long long)n2,
                (unsigned long long)n3);
    std::vector<int64_t> shape2 = {2, 2}, strides2 = {2, 1};
    std::printf("init tensor: %d\n", aclInitTensor(tc, shape2.data(), 2, ACL_FLOAT, strides2.data(), 0, ACL_FORMAT_ND,
                                                    shape2.data(), 2, dc));
    int64_t *dims = nullptr;
    uint64_t ndims = 0;
    aclGetViewShape(tc, &dims, &ndims);
    std::printf("view shape: %llu: %lld %lld\n", (unsigned long long)ndims, (long long)dims[0], (long long)dims[1]);
    delete[] dims;
    aclDestroyFloatArray(fa); aclDestroyBoolArray(ba); aclDestroyScalarList(sl);  // and its scalars
    aclDestroyScalar(alpha);
    aclDestroyTensor(ta); aclDestroyTensor(tb); aclDestroyTensor(tc);
    for (void *p : {da, db, dc, da2, dc2}) aclrtFree(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""


def test_acl_meta_address_updates_and_size_getters_from_c(tmp_path, capi_flags) -> None:
    exe = compile_cpp(META, tmp_path / "meta", capi_flags)
    done = run(exe)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "phase 1: 0\nrepeatable: 0\nrun 1: 0\n11 22 33 44\nset input: 0\nset output: 0\nrun 2: 0\n110 220 330 440\n"
        "set tensor: 0\nrun 3: 0\n101 202 303 404\nsizes: 0 0 0 -> 3 2 2\ninit tensor: 0\nview shape: 2: 2 2\n"
    )


FAILING_TASK = r"""#include <cstdio>
#include "acl/acl.h"

// A copy whose destination is freed before the stream runs it: the task fails; the registered
// C callback sees it (from the stream's side), reads the info, and may call ACL functions itself.
static int g_calls = 0;
static uint32_t g_code = 0, g_stream = 0, g_device = 99;

static void OnException(aclrtExceptionInfo *info) {
    ++g_calls;
    g_code = aclrtGetErrorCodeFromExceptionInfo(info);
    g_stream = aclrtGetStreamIdFromExceptionInfo(info);
    g_device = aclrtGetDeviceIdFromExceptionInfo(info);
}

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    int32_t id = -1;
    aclrtStreamGetId(stream, &id);
    std::printf("register: %d\n", aclrtExceptionInfoCallbackRegister(OnException));
    void *host = nullptr, *dev = nullptr;
    aclrtMallocHost(&host, 64);
    aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    aclrtFree(dev);
    std::printf("synchronize: %d\n", aclrtSynchronizeStream(stream));
    std::printf("callback: %d call(s), code %u, own stream %s, device %u\n", g_calls, g_code,
                g_stream == static_cast<uint32_t>(id) ? "yes" : "no", g_device);
    std::printf("unregister: %d\n", aclrtExceptionInfoCallbackUnregister(OnException));
    aclrtFreeHost(host);
    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(0);
    aclFinalize();
    return 0;
}
"""


def test_a_failed_task_reaches_the_c_exception_callback(tmp_path, capi_flags) -> None:
    exe = compile_cpp(FAILING_TASK, tmp_path / "failing", capi_flags)
    done = run(exe, ACLNN_PY_STREAM="deferred", ACLNN_PY_SANITIZER="off")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "register: 0\nsynchronize: 507013\ncallback: 1 call(s), code 507013, own stream yes, device 0\nunregister: 0\n"
    )


def test_a_pointer_to_an_enum_is_an_out_parameter_and_to_a_struct_its_address():
    """The wrapper generator tells `aclrtRunMode *` (an enum the function writes) from
    `aclrtLaunchKernelCfg *` (a struct the function reads) by the headers' enum declarations,
    not by the acl prefix both names share."""
    kinds = {
        (f.name, p.name): gen_rt.param_kind(f.name, p)
        for f in gen_rt.header_functions()
        for p in f.params
        if f.name in ("aclrtGetRunMode", "aclrtLaunchKernelWithConfig", "aclrtBinaryLoadFromFile")
    }
    assert kinds[("aclrtGetRunMode", "runMode")] == "o:i32"
    assert kinds[("aclrtLaunchKernelWithConfig", "cfg")] == "p"
    assert kinds[("aclrtBinaryLoadFromFile", "options")] == "p"
    assert {"aclrtRunMode", "aclDataType", "aclrtMemcpyKind"} <= gen_rt.enum_names()
    assert "aclrtLaunchKernelCfg" not in gen_rt.enum_names()
