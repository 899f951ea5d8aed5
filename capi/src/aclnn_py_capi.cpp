// The C ABI of aclnn_py: every exported function converts its arguments to Python numbers, calls the
// function of the same name in aclnn_py._cabi, and converts the result back. All behaviour (checks,
// codes, messages, memory, kernels) is the Python engine's; nothing here decides anything.
//
// The interpreter is embedded on first use (or attached to, when the process already runs Python).
// Which interpreter and environment: ACLNN_PY_PYTHON (a python executable, e.g. a venv's
// bin/python), else the one baked in at build time (ACLNN_PY_DEFAULT_PYTHON).
#include <Python.h>

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE  // the library defines acl/ops/acl_dvpp.h's functions too
#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/ops/acl_dvpp.h"
#include "aclnn/acl_meta.h"
#include "aclnn_py_op_headers.inc"  // every operator header (generated: capi/gen_ops.py)

#ifndef ACLNN_PY_DEFAULT_PYTHON
#define ACLNN_PY_DEFAULT_PYTHON ""
#endif

namespace {

PyObject *g_module = nullptr;  // aclnn_py._cabi, owned for the life of the process
std::once_flag g_once;

// The engine's Python is started isolated from the host program: CANN's library does not touch the
// program's locale, its C stdio buffers, its signals or its environment, so neither may the embedded
// interpreter. An isolated configuration ignores PYTHON* variables (a PYTHONHOME or PYTHONPATH of
// another Python, PYTHONUNBUFFERED) and the user's site directory, leaves LC_CTYPE alone (UTF-8 mode
// gives Python its text encoding without setlocale) and does not change the buffering of C's
// stdin/stdout/stderr (configure_c_stdio is off). PYTHONMALLOC being ignored too, the memory
// allocator is chosen with ACLNN_PY_PYTHONMALLOC (same values; "malloc" lets LeakSanitizer see
// every Python object).
PyMemAllocatorName Allocator() {
    const char *name = std::getenv("ACLNN_PY_PYTHONMALLOC");
    if (name == nullptr || *name == '\0') return PYMEM_ALLOCATOR_NOT_SET;
    const std::string n = name;
    if (n == "default") return PYMEM_ALLOCATOR_DEFAULT;
    if (n == "debug") return PYMEM_ALLOCATOR_DEBUG;
    if (n == "malloc") return PYMEM_ALLOCATOR_MALLOC;
    if (n == "malloc_debug") return PYMEM_ALLOCATOR_MALLOC_DEBUG;
    if (n == "pymalloc") return PYMEM_ALLOCATOR_PYMALLOC;
    if (n == "pymalloc_debug") return PYMEM_ALLOCATOR_PYMALLOC_DEBUG;
    std::fprintf(stderr, "aclnn_py: ACLNN_PY_PYTHONMALLOC=%s is not an allocator name (ignored)\n", name);
    return PYMEM_ALLOCATOR_NOT_SET;
}

PyStatus StartIsolated(const char *python) {
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    pre.utf8_mode = 1;
    pre.allocator = Allocator();
    PyStatus status = Py_PreInitialize(&pre);
    if (PyStatus_Exception(status)) return status;
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    // The executable's location decides sys.prefix, and a venv's pyvenv.cfg its site-packages.
    if (*python != '\0') {
        status = PyConfig_SetBytesString(&config, &config.program_name, python);
        if (PyStatus_Exception(status)) {
            PyConfig_Clear(&config);
            return status;
        }
    }
    status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    return status;
}

void StartPython() {
    if (!Py_IsInitialized()) {
        const char *python = std::getenv("ACLNN_PY_PYTHON");
        if (python == nullptr || *python == '\0') python = ACLNN_PY_DEFAULT_PYTHON;
        PyStatus status = StartIsolated(python);
        if (PyStatus_Exception(status)) {
            std::fprintf(stderr, "aclnn_py: cannot start Python (%s)\n", status.err_msg ? status.err_msg : "?");
            return;
        }
        PyGILState_STATE gil = PyGILState_Ensure();
        g_module = PyImport_ImportModule("aclnn_py._cabi");
        PyObject *done = g_module ? PyObject_CallMethod(g_module, "embedded", nullptr) : nullptr;
        if (done == nullptr) {
            std::fprintf(stderr, "aclnn_py: cannot import aclnn_py._cabi (set ACLNN_PY_PYTHON to the python "
                                 "of an environment where aclnn_py is installed)\n");
            PyErr_Print();
            Py_CLEAR(g_module);
        }
        Py_XDECREF(done);
        PyGILState_Release(gil);
        PyEval_SaveThread();  // let any thread take the GIL from now on
        return;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    g_module = PyImport_ImportModule("aclnn_py._cabi");
    if (g_module == nullptr) PyErr_Print();
    PyGILState_Release(gil);
}

// A C thread unknown to Python gets a Python thread state on its first call and keeps it until it
// exits: a per-call state would lose the thread's Python thread-locals (its current context, its
// error messages) between calls.
//
// The constructor does nothing on purpose: g++ initialises all of a file's thread_local objects
// together, on the first use of any of them (the text buffers below included), which can happen
// before Python is started -- e.g. when aclrtGetSocName() is the program's first ACL call. Attach()
// is called once Python runs.
class ThreadAttach {
public:
    ThreadAttach() = default;
    void Attach() {
        if (attached_) return;
        attached_ = true;
        if (PyGILState_GetThisThreadState() == nullptr) {
            state_ = PyGILState_Ensure();
            saved_ = PyEval_SaveThread();
        }
    }
    ~ThreadAttach() {
        if (saved_ != nullptr && Py_IsInitialized()) {
            PyEval_RestoreThread(saved_);
            PyGILState_Release(state_);
        }
    }
    ThreadAttach(const ThreadAttach &) = delete;
    ThreadAttach &operator=(const ThreadAttach &) = delete;

private:
    bool attached_ = false;
    PyGILState_STATE state_ = PyGILState_UNLOCKED;
    PyThreadState *saved_ = nullptr;
};

thread_local ThreadAttach t_attach;

// Holds the GIL for one call (starting Python on the very first). If Python could not be started
// at all, nothing is held and every call fails with its internal-error code.
class Gil {
public:
    Gil() {
        std::call_once(g_once, StartPython);
        if (!Py_IsInitialized()) return;
        t_attach.Attach();  // this thread's lasting Python thread state
        state_ = PyGILState_Ensure();
        held_ = true;
    }
    ~Gil() {
        if (held_) PyGILState_Release(state_);
    }
    Gil(const Gil &) = delete;
    Gil &operator=(const Gil &) = delete;

private:
    PyGILState_STATE state_ = PyGILState_UNLOCKED;
    bool held_ = false;
};

// With the GIL held: aclnn_py._cabi.<name>(*Py_BuildValue(fmt, ...)); a new reference, or nullptr
// after printing a Python exception (an emulator bug: the Python API never raises for bad input).
PyObject *Call(const char *name, const char *fmt, ...) {
    if (g_module == nullptr) return nullptr;
    va_list ap;
    va_start(ap, fmt);
    PyObject *args = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    PyObject *fn = args ? PyObject_GetAttrString(g_module, name) : nullptr;
    PyObject *result = fn ? PyObject_CallObject(fn, args) : nullptr;
    Py_XDECREF(fn);
    Py_XDECREF(args);
    if (result == nullptr) {
        std::fprintf(stderr, "aclnn_py: internal error in %s:\n", name);
        PyErr_Print();
    }
    return result;
}

// Status-returning functions: `failure` is what an internal error returns.
template <typename... Args>
int32_t Status(int32_t failure, const char *name, const char *fmt, Args... args) {
    Gil gil;
    PyObject *r = Call(name, fmt, args...);
    if (r == nullptr) return failure;
    long long code = PyLong_AsLongLong(r);
    Py_DECREF(r);
    if (code == -1 && PyErr_Occurred()) {
        PyErr_Print();
        return failure;
    }
    return static_cast<int32_t>(code);
}

// Handle-returning functions (aclCreateTensor ...): the token as a pointer, nullptr for None/0.
template <typename... Args>
void *Handle(const char *name, const char *fmt, Args... args) {
    Gil gil;
    PyObject *r = Call(name, fmt, args...);
    if (r == nullptr) return nullptr;
    unsigned long long token = PyLong_AsUnsignedLongLong(r);
    Py_DECREF(r);
    if (PyErr_Occurred()) {
        PyErr_Print();
        return nullptr;
    }
    return reinterpret_cast<void *>(static_cast<uintptr_t>(token));
}

// Number-returning functions (aclGetDataBufferSizeV2, aclFloat16ToFloat ...): `failure` is what an
// internal error returns.
template <typename R, typename... Args>
R Value(R failure, const char *name, const char *fmt, Args... args) {
    Gil gil;
    PyObject *r = Call(name, fmt, args...);
    if (r == nullptr) return failure;
    R value = failure;
    if (PyFloat_Check(r)) {
        value = static_cast<R>(PyFloat_AsDouble(r));
    } else {
        value = static_cast<R>(PyLong_AsUnsignedLongLongMask(r));  // two's complement, as C converts
    }
    Py_DECREF(r);
    if (PyErr_Occurred()) {
        PyErr_Print();
        return failure;
    }
    return value;
}

// String-returning functions: the text stays valid until this thread's next call of the same function.
const char *Text(std::string &keep, const char *name) {
    Gil gil;
    PyObject *r = Call(name, "()");
    if (r == nullptr) return nullptr;
    const char *result = nullptr;
    if (r != Py_None) {
        const char *utf8 = PyUnicode_AsUTF8(r);
        if (utf8 != nullptr) {
            keep = utf8;
            result = keep.c_str();
        } else {
            PyErr_Print();
        }
    }
    Py_DECREF(r);
    return result;
}

// Text-returning runtime functions (acltdtGetDatasetName, acldumpGetPath ...): each distinct text is
// kept for the process, so a pointer stays valid as CANN's (into the object or a static) does, and
// two calls in one expression do not overwrite each other's text.
template <typename... Args>
const char *TextOf(const char *name, const char *fmt, Args... args) {
    static std::mutex lock;
    static std::unordered_set<std::string> *kept = new std::unordered_set<std::string>();  // never freed
    Gil gil;
    PyObject *r = Call(name, fmt, args...);
    if (r == nullptr) return nullptr;
    const char *result = nullptr;
    if (r != Py_None) {
        const char *utf8 = PyUnicode_AsUTF8(r);
        if (utf8 != nullptr) {
            std::lock_guard<std::mutex> hold(lock);
            result = kept->insert(utf8).first->c_str();
        } else {
            PyErr_Print();
        }
    }
    Py_DECREF(r);
    return result;
}

// aclGetViewShape & co: Python returns (status, list); the list becomes a new[]'d array for the caller
// to delete[], as CANN's accessors hand it out.
int32_t ShapeGetter(const char *name, const aclTensor *tensor, int64_t **values, uint64_t *num) {
    Gil gil;
    PyObject *r = Call(name, "(KKK)", (unsigned long long)(uintptr_t)tensor, (unsigned long long)(uintptr_t)values,
                       (unsigned long long)(uintptr_t)num);
    if (r == nullptr) return ACLNN_ERR_INNER;
    long long code = ACLNN_ERR_INNER;
    PyObject *list = nullptr;
    if (PyArg_ParseTuple(r, "LO", &code, &list) && list != Py_None && values != nullptr) {
        Py_ssize_t n = PyList_Size(list);
        int64_t *array = new int64_t[n > 0 ? n : 0];
        for (Py_ssize_t i = 0; i < n; ++i) array[i] = PyLong_AsLongLong(PyList_GetItem(list, i));
        *values = array;
    }
    if (PyErr_Occurred()) PyErr_Print();
    Py_DECREF(r);
    return static_cast<int32_t>(code);
}

inline unsigned long long P(const void *p) { return static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)); }

thread_local std::string t_err_msg;
thread_local std::string t_soc_name;

}  // namespace

extern "C" {

// ---- acl / aclrt -----------------------------------------------------------------------------

aclError aclInit(const char *configPath) { return Status(ACL_ERROR_INTERNAL_ERROR, "aclInit", "(z)", configPath); }
aclError aclFinalize(void) { return Status(ACL_ERROR_INTERNAL_ERROR, "aclFinalize", "()"); }
const char *aclGetRecentErrMsg(void) { return Text(t_err_msg, "aclGetRecentErrMsg"); }
const char *aclrtGetSocName(void) { return Text(t_soc_name, "aclrtGetSocName"); }

size_t aclDataTypeSize(aclDataType dataType) {
    return static_cast<size_t>(Status(0, "aclDataTypeSize", "(i)", static_cast<int>(dataType)));
}

aclError aclrtSetDevice(int32_t deviceId) { return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSetDevice", "(i)", deviceId); }
aclError aclrtResetDevice(int32_t deviceId) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtResetDevice", "(i)", deviceId);
}
aclError aclrtGetDevice(int32_t *deviceId) { return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtGetDevice", "(K)", P(deviceId)); }
aclError aclrtGetDeviceCount(uint32_t *count) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtGetDeviceCount", "(K)", P(count));
}
aclError aclrtSynchronizeDevice(void) { return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSynchronizeDevice", "()"); }
aclError aclrtGetRunMode(aclrtRunMode *runMode) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtGetRunMode", "(K)", P(runMode));
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtCreateContext", "(Ki)", P(context), deviceId);
}
aclError aclrtDestroyContext(aclrtContext context) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtDestroyContext", "(K)", P(context));
}
aclError aclrtSetCurrentContext(aclrtContext context) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSetCurrentContext", "(K)", P(context));
}
aclError aclrtGetCurrentContext(aclrtContext *context) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtGetCurrentContext", "(K)", P(context));
}

aclError aclrtCreateStream(aclrtStream *stream) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtCreateStream", "(K)", P(stream));
}
aclError aclrtDestroyStream(aclrtStream stream) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtDestroyStream", "(K)", P(stream));
}
aclError aclrtSynchronizeStream(aclrtStream stream) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSynchronizeStream", "(K)", P(stream));
}
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSynchronizeStreamWithTimeout", "(Ki)", P(stream), timeout);
}
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtStreamQuery", "(KK)", P(stream), P(status));
}
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtStreamWaitEvent", "(KK)", P(stream), P(event));
}

aclError aclrtCreateEvent(aclrtEvent *event) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtCreateEvent", "(K)", P(event));
}
aclError aclrtDestroyEvent(aclrtEvent event) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtDestroyEvent", "(K)", P(event));
}
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtRecordEvent", "(KK)", P(event), P(stream));
}
aclError aclrtSynchronizeEvent(aclrtEvent event) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSynchronizeEvent", "(K)", P(event));
}
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtQueryEventStatus", "(KK)", P(event), P(status));
}
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtEventElapsedTime", "(KKK)", P(ms), P(startEvent), P(endEvent));
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtMalloc", "(KKi)", P(devPtr), (unsigned long long)size,
                  static_cast<int>(policy));
}
aclError aclrtMallocHost(void **hostPtr, size_t size) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtMallocHost", "(KK)", P(hostPtr), (unsigned long long)size);
}
aclError aclrtFree(void *devPtr) { return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtFree", "(K)", P(devPtr)); }
aclError aclrtFreeHost(void *hostPtr) { return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtFreeHost", "(K)", P(hostPtr)); }
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtMemcpy", "(KKKKi)", P(dst), (unsigned long long)destMax, P(src),
                  (unsigned long long)count, static_cast<int>(kind));
}
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtMemcpyAsync", "(KKKKiK)", P(dst), (unsigned long long)destMax,
                  P(src), (unsigned long long)count, static_cast<int>(kind), P(stream));
}
aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtMemset", "(KKiK)", P(devPtr), (unsigned long long)maxCount, value,
                  (unsigned long long)count);
}
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtMemsetAsync", "(KKiKK)", P(devPtr), (unsigned long long)maxCount,
                  value, (unsigned long long)count, P(stream));
}
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "aclrtGetMemInfo", "(iKK)", static_cast<int>(attr), P(free), P(total));
}

// float16 <-> float are pure conversions: done here, without the interpreter (a program may convert
// millions of values, and before aclInit). They follow CANN's documented conversions, as the Python
// functions of the same name do (tests/test_capi_runtime.py compares all 65536 halves and a sweep of
// floats bit for bit): exponent 31 is an ordinary exponent (no Inf/NaN), and a float beyond the
// float16 range -- Inf and NaN included -- saturates to +-65504; otherwise round to nearest, ties to
// even, subnormals included.
float aclFloat16ToFloat(aclFloat16 value) {
    const float sign = (value & 0x8000u) ? -1.0f : 1.0f;
    const int exp = (value >> 10) & 0x1F;
    const int man = value & 0x3FF;
    if (exp == 0) return sign * std::ldexp(static_cast<float>(man), -24);
    return sign * std::ldexp(1.0f + static_cast<float>(man) / 1024.0f, exp - 15);
}

aclFloat16 aclFloatToFloat16(float value) {
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const uint32_t exp = (bits >> 23) & 0xFFu;
    const uint32_t man = bits & 0x7FFFFFu;
    if (exp > 142) return sign | 0x7BFF;  // |x| >= 65536, Inf, NaN
    if (exp >= 113) {                     // a normal float16
        uint32_t half_exp = exp - 112, half_man = man >> 13;
        const uint32_t rest = man & 0x1FFFu;
        if (rest > 0x1000u || (rest == 0x1000u && (half_man & 1u))) {
            if (++half_man == 0x400u) half_man = 0, ++half_exp;
        }
        if (half_exp >= 31) return sign | 0x7BFF;
        return static_cast<aclFloat16>(sign | (half_exp << 10) | half_man);
    }
    if (exp >= 103) {  // a float16 subnormal: value = full * 2^(exp-150), in units of 2^-24
        const uint32_t full = man | 0x800000u, shift = 126 - exp;
        uint32_t q = full >> shift;
        const uint32_t rest = full & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        if (rest > half || (rest == half && (q & 1u))) ++q;
        return static_cast<aclFloat16>(sign | q);
    }
    if (exp == 102 && man != 0) return sign | 0x0001;  // above half the smallest subnormal
    return sign;
}

// aclAppLog is variadic: formatted here as CANN formats it (vsnprintf into MAX_LOG_STRING = 1024
// bytes, cut rather than dropped), then the text goes to the Python side
// (aclnn_py/runtime/api_log.py: the level check, the "<tid> func:file:line" head, the
// "...[truncated]" mark and where the record is written). A format vsnprintf refuses is CANN's
// "aclAppLog format string is invalid" error record (cut = 2).
void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line, const char *fmt, ...) {
    if (fmt == nullptr || func == nullptr || file == nullptr) return;
    char text[1024] = {};
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    const unsigned long long cut = n < 0 ? 2ULL : (n >= static_cast<int>(sizeof text) - 1 ? 1ULL : 0ULL);
    (void)Status(0, "rt_call", "(ssLKKKKK)", "aclAppLog", "v:x,x,x,x,x,x", static_cast<long long>(logLevel), P(func),
                 P(file), static_cast<unsigned long long>(line), P(text), cut);
}

// Structs passed by value: their fields go to the adaptors (aclnn_py/_cabi_services.py) one by one.
using ull = unsigned long long;
aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                            aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "rt_call", "(ssKKKKKKKKKKK)", "aclrtLaunchSIMTKernelWithArgsArray",
                  "e:x,x,x,x,x,x,x", P(func), ull{gridDim.x}, ull{gridDim.y}, ull{gridDim.z}, ull{blockDim.x},
                  ull{blockDim.y}, ull{blockDim.z}, ull{dynUbufSize}, P(stream), P(cfg), P(args));
}
aclError aclrtLaunchSIMTKernelWithHostArgs(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                           size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray,
                                           size_t placeHolderNum) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "rt_call", "(ssKKKKKKKKKKKKKK)", "aclrtLaunchSIMTKernelWithHostArgs",
                  "e:x,x,x,x,x,x,x,x,x,x", P(func), ull{gridDim.x}, ull{gridDim.y}, ull{gridDim.z}, ull{blockDim.x},
                  ull{blockDim.y}, ull{blockDim.z}, ull{dynUbufSize}, P(stream), P(cfg), P(hostArgs), ull{argsSize},
                  P(placeHolderArray), ull{placeHolderNum});
}
aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "rt_call", "(ssKKLLL)", "aclrtMemManagedAdvise", "e:x,x,x,x", P(ptr),
                  ull{size}, static_cast<long long>(advise), static_cast<long long>(location.type),
                  static_cast<long long>(location.id));
}
aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "rt_call", "(ssKKLLKK)", "aclrtMemManagedPrefetchAsync", "e:x,x,x,x,x",
                  P(ptr), ull{size}, static_cast<long long>(location.type), static_cast<long long>(location.id),
                  ull{flags}, P(stream));
}

// aclrtIpcOpenEventHandle takes its 64-byte handle by value: the adaptor (aclnn_py/_cabi_stream.py)
// reads the bytes at the copy's address.
aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "rt_call", "(ssKK)", "aclrtIpcOpenEventHandle", "e:x,x", P(&handle),
                  P(event));
}

// aclmdlRIAddCondTask takes its struct by value: its fields go to the adaptor one by one
// (aclnn_py/_cabi_model_ri.py), which writes the sub-models into params.modelRIArray.
aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
    return Status(ACL_ERROR_INTERNAL_ERROR, "rt_call", "(ssKLKKKK)", "aclmdlRIAddCondTask", "e:x,x,x,x,x,x",
                  P(params.handle), static_cast<long long>(params.type), static_cast<unsigned long long>(params.size),
                  P(params.modelRIArray), P(stream), static_cast<unsigned long long>(flags));
}

// ---- aclnn/acl_meta.h ------------------------------------------------------------------------

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorData) {
    return static_cast<aclTensor *>(Handle("aclCreateTensor", "(KKiKLiKKK)", P(viewDims),
                                           (unsigned long long)viewDimsNum, static_cast<int>(dataType), P(stride),
                                           (long long)offset, static_cast<int>(format), P(storageDims),
                                           (unsigned long long)storageDimsNum, P(tensorData)));
}
aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    return static_cast<aclScalar *>(Handle("aclCreateScalar", "(Ki)", P(value), static_cast<int>(dataType)));
}
aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
    return static_cast<aclIntArray *>(Handle("aclCreateIntArray", "(KK)", P(value), (unsigned long long)size));
}
aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
    return static_cast<aclFloatArray *>(Handle("aclCreateFloatArray", "(KK)", P(value), (unsigned long long)size));
}
aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
    return static_cast<aclBoolArray *>(Handle("aclCreateBoolArray", "(KK)", P(value), (unsigned long long)size));
}
aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    return static_cast<aclTensorList *>(Handle("aclCreateTensorList", "(KK)", P(value), (unsigned long long)size));
}
aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
    return static_cast<aclScalarList *>(Handle("aclCreateScalarList", "(KK)", P(value), (unsigned long long)size));
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) { return Status(ACLNN_ERR_INNER, "aclDestroyTensor", "(K)", P(tensor)); }
aclnnStatus aclDestroyScalar(const aclScalar *scalar) { return Status(ACLNN_ERR_INNER, "aclDestroyScalar", "(K)", P(scalar)); }
aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
    return Status(ACLNN_ERR_INNER, "aclDestroyIntArray", "(K)", P(array));
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
    return Status(ACLNN_ERR_INNER, "aclDestroyFloatArray", "(K)", P(array));
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
    return Status(ACLNN_ERR_INNER, "aclDestroyBoolArray", "(K)", P(array));
}
aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
    return Status(ACLNN_ERR_INNER, "aclDestroyTensorList", "(K)", P(array));
}
aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
    return Status(ACLNN_ERR_INNER, "aclDestroyScalarList", "(K)", P(array));
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    return ShapeGetter("aclGetViewShape", tensor, viewDims, viewDimsNum);
}
aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
    return ShapeGetter("aclGetStorageShape", tensor, storageDims, storageDimsNum);
}
aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
    return ShapeGetter("aclGetViewStrides", tensor, stridesValue, stridesNum);
}
aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
    return Status(ACLNN_ERR_INNER, "aclGetViewOffset", "(KK)", P(tensor), P(offset));
}
aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
    return Status(ACLNN_ERR_INNER, "aclGetFormat", "(KK)", P(tensor), P(format));
}
aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
    return Status(ACLNN_ERR_INNER, "aclGetDataType", "(KK)", P(tensor), P(dataType));
}
aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size) {
    return Status(ACLNN_ERR_INNER, "aclGetIntArraySize", "(KK)", P(array), P(size));
}
aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size) {
    return Status(ACLNN_ERR_INNER, "aclGetTensorListSize", "(KK)", P(tensorList), P(size));
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                          uint64_t storageDimsNum, void *tensorDataAddr) {
    return Status(ACLNN_ERR_INNER, "aclInitTensor", "(KKKiKLiKKK)", P(tensor), P(viewDims),
                  (unsigned long long)viewDimsNum, static_cast<int>(dataType), P(stride), (long long)offset,
                  static_cast<int>(format), P(storageDims), (unsigned long long)storageDimsNum, P(tensorDataAddr));
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
    return Status(ACLNN_ERR_INNER, "aclSetAclOpExecutorRepeatable", "(K)", P(executor));
}
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    return Status(ACLNN_ERR_INNER, "aclDestroyAclOpExecutor", "(K)", P(executor));
}
aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr) {
    return Status(ACLNN_ERR_INNER, "aclSetRawTensorAddr", "(KK)", P(tensor), P(addr));
}
aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr) {
    return Status(ACLNN_ERR_INNER, "aclGetRawTensorAddr", "(KK)", P(tensor), P(addr));
}

// ---- operators: both phases of every API in aclnn_py/ops/registry.py (capi/gen_ops.py) --------

#include "aclnn_py_ops.inc"

// ---- the rest of the runtime headers: generated from their prototypes (capi/gen_rt.py) ---------

#include "aclnn_py_rt.inc"

}  // extern "C"
