// The kernel chapter's tail and the data dump (in the style of hicann/runtime's example programs):
// a program that brings its own AscendC kernel looks its function up by symbol, launches it with
// an argument array and reaches its device variables; aclnn_py runs no custom device code, so
// each call fails after CANN's argument checks with the runtime's code for a symbol or handle it
// never registered (CANN's own codes: 107044, 107017, 107043), and a copy of 0 bytes succeeds.
// The dump service takes a configuration file as CANN's does (aclmdlInitDump first, 100009 for a
// configuration its checks refuse), and aclsysGetCANNVersion splits a package version.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include "acl/acl.h"

#define INFO_LOG(fmt, ...) std::printf("[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) std::printf("[ERROR] " fmt "\n", ##__VA_ARGS__)
#define CHECK_RET(call)                                                        \
    do {                                                                       \
        aclError ret_ = (call);                                                \
        if (ret_ != ACL_SUCCESS) {                                             \
            ERROR_LOG("%s failed: ret=%d", #call, static_cast<int32_t>(ret_)); \
            return -1;                                                         \
        }                                                                      \
    } while (0)

namespace {
int g_kernelStub = 0;     // what a <<<>>> program's host stub symbol would be
float g_deviceVar[4] = {};  // and a __gm__ variable's host shadow

bool WriteFile(const std::string &path, const char *text) {
    FILE *f = std::fopen(path.c_str(), "w");
    if (f == nullptr) return false;
    std::fputs(text, f);
    return std::fclose(f) == 0;
}
}  // namespace

int main() {
    unsetenv("ASCEND_HOME_PATH");  // the emulated runtime package answers the version query
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));

    // ---- kernels by symbol ----
    aclrtFuncHandle func = nullptr;
    INFO_LOG("aclrtGetFuncBySymbol: %d, handle written: %s", aclrtGetFuncBySymbol(&g_kernelStub, &func),
             func == nullptr ? "no" : "yes");
    int32_t arg = 7;
    void *args[1] = {&arg};
    INFO_LOG("aclrtLaunchKernelWithArgsArray: %d", aclrtLaunchKernelWithArgsArray(&g_kernelStub, 8, stream, nullptr, args));
    INFO_LOG("... with numBlocks 0: %d", aclrtLaunchKernelWithArgsArray(&g_kernelStub, 0, stream, nullptr, args));
    size_t count = 0;
    INFO_LOG("aclrtFunctionGetParamCount: %d", aclrtFunctionGetParamCount(&g_kernelStub, &count));
    INFO_LOG("aclrtFunctionGetParamInfo with both outputs NULL: %d",
             aclrtFunctionGetParamInfo(&g_kernelStub, 0, nullptr, nullptr));
    void *aic = nullptr;
    void *aiv = nullptr;
    INFO_LOG("aclrtGetFunctionAddr(NULL handle): %d", aclrtGetFunctionAddr(func, &aic, &aiv));

    // ---- device variables ----
    void *devPtr = nullptr;
    size_t size = 0;
    INFO_LOG("aclrtGetSymbolAddress: %d", aclrtGetSymbolAddress(g_deviceVar, &devPtr));
    INFO_LOG("aclrtGetSymbolSize: %d", aclrtGetSymbolSize(g_deviceVar, &size));
    float host[4] = {1, 2, 3, 4};
    INFO_LOG("aclrtMemcpyToSymbol of 0 bytes: %d", aclrtMemcpyToSymbol(g_deviceVar, host, 0, 0, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("aclrtMemcpyToSymbol: %d", aclrtMemcpyToSymbol(g_deviceVar, host, sizeof(host), 0, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("aclrtMemcpyFromSymbol past dstMax: %d",
             aclrtMemcpyFromSymbol(host, 8, g_deviceVar, sizeof(host), 0, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("aclrtMemcpyFromSymbolAsync with kind HOST_TO_DEVICE: %d",
             aclrtMemcpyFromSymbolAsync(host, sizeof(host), g_deviceVar, sizeof(host), 0, ACL_MEMCPY_HOST_TO_DEVICE, stream));

    // ---- the dump service ----
    const std::string cfg = "/tmp/aclnn_py_dump_" + std::to_string(getpid()) + ".json";
    INFO_LOG("aclmdlSetDump before aclmdlInitDump: %d", aclmdlSetDump(cfg.c_str()));
    CHECK_RET(aclmdlInitDump());
    INFO_LOG("aclmdlInitDump again: %d", aclmdlInitDump());
    INFO_LOG("aclmdlSetDump of a missing file: %d", aclmdlSetDump(cfg.c_str()));
    if (!WriteFile(cfg, R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "on", "dump_mode": "both"}})")) return -1;
    INFO_LOG("aclmdlSetDump with dump_mode \"both\": %d", aclmdlSetDump(cfg.c_str()));
    if (!WriteFile(cfg, R"({"dump": {"dump_op_switch": "on"}})")) return -1;
    INFO_LOG("aclmdlSetDump without dump_path: %d", aclmdlSetDump(cfg.c_str()));
    if (!WriteFile(cfg, R"({"dump": {"dump_path": "/tmp", "dump_op_switch": "on", "dump_mode": "all"}})")) return -1;
    INFO_LOG("aclmdlSetDump: %d", aclmdlSetDump(cfg.c_str()));
    INFO_LOG("aclmdlFinalizeDump: %d", aclmdlFinalizeDump());
    INFO_LOG("aclmdlFinalizeDump again: %d", aclmdlFinalizeDump());
    std::remove(cfg.c_str());

    // ---- the package version (deprecated query) ----
    aclCANNPackageVersion version = {};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // CANN marks it deprecated, still exports it
    CHECK_RET(aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME, &version));
    INFO_LOG("runtime %s: major %s, minor %s, release %s, patch %s", version.version, version.majorVersion,
             version.minorVersion, version.releaseVersion, version.patchVersion);
    INFO_LOG("aclsysGetCANNVersion of an unknown package: %d",
             aclsysGetCANNVersion(static_cast<aclCANNPackageName>(42), &version));
#pragma GCC diagnostic pop

    CHECK_RET(aclrtDestroyStream(stream));
    CHECK_RET(aclrtResetDevice(0));
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
