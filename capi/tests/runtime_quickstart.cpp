// Quick start with the runtime (in the style of hicann/runtime example/0_quickstart): errors and
// their diagnostics, system information, cross-version checks and a first aclnn call whose
// buffers are described by aclDataBuffer. Every value printed is fixed by CANN's documentation for
// the emulated package (CANN 9.1.0, ACL 1.17.0) on an Ascend910B device.
#include <cstdint>
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define INFO_LOG(fmt, ...) std::printf("[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) std::printf("[ERROR] " fmt "\n", ##__VA_ARGS__)
#define CHECK_RET(call)                                                      \
    do {                                                                     \
        aclError ret_ = (call);                                              \
        if (ret_ != ACL_SUCCESS) {                                           \
            ERROR_LOG("%s failed: ret=%d", #call, static_cast<int32_t>(ret_)); \
            return -1;                                                       \
        }                                                                    \
    } while (0)

static int ErrorHandling(int32_t deviceId) {
    aclrtRunMode runMode = ACL_DEVICE;
    CHECK_RET(aclrtGetRunMode(&runMode));
    INFO_LOG("run mode: %s", runMode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE");
    // An ACL-layer refusal: reported to aclGetRecentErrMsg, never to the runtime's last error.
    aclError ret = aclrtGetRunMode(nullptr);
    aclError peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    aclError last = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    const char *msg = aclGetRecentErrMsg();
    ERROR_LOG("aclrtGetRunMode(nullptr): ret=%d peek=%d last=%d", ret, peek, last);
    ERROR_LOG("recent message: %s", msg ? msg : "<null>");
    // A runtime refusal (a device that does not exist) is the thread's last error until read.
    ret = aclrtSetDevice(64);
    peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    aclError again = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    last = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    aclError cleared = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    ERROR_LOG("aclrtSetDevice(64): ret=%d peek=%d peek again=%d last=%d then=%d", ret, peek, again, last, cleared);
    INFO_LOG("aclrtGetLastError(1): %d", aclrtGetLastError(static_cast<aclrtLastErrLevel>(1)));
    aclrtErrorInfo info = {};
    ret = aclrtGetErrorVerbose(deviceId, &info);
    INFO_LOG("aclrtGetErrorVerbose: ret=%d errorType=%d tryRepair=%u hasDetail=%u", ret,
             static_cast<int32_t>(info.errorType), info.tryRepair, info.hasDetail);
    return 0;
}

static int SystemInfo() {
    INFO_LOG("aclDataTypeSize: FLOAT16 %zu, FLOAT %zu, INT64 %zu, BOOL %zu", aclDataTypeSize(ACL_FLOAT16),
             aclDataTypeSize(ACL_FLOAT), aclDataTypeSize(ACL_INT64), aclDataTypeSize(ACL_BOOL));
    const float values[] = {1.0f, 0.1f, -2.5f, 65504.0f, 70000.0f, 1e-8f};
    for (float v : values) {
        aclFloat16 h = aclFloatToFloat16(v);
        INFO_LOG("aclFloatToFloat16(%g) = 0x%04x -> aclFloat16ToFloat = %.8g", v, h, aclFloat16ToFloat(h));
    }
    char version[ACL_PKG_VERSION_MAX_SIZE] = {0};
    CHECK_RET(aclsysGetVersionStr(const_cast<char *>("runtime"), version));
    int32_t versionNum = 0;
    CHECK_RET(aclsysGetVersionNum(const_cast<char *>("runtime"), &versionNum));
    INFO_LOG("runtime package: %s (%d)", version, versionNum);
    INFO_LOG("ACL version %d.%d.%d", ACL_MAJOR_VERSION, ACL_MINOR_VERSION, ACL_PATCH_VERSION);
    return 0;
}

static int CrossVersion(int32_t deviceId) {
    const aclCannAttr *attrs = nullptr;
    size_t num = 0;
    CHECK_RET(aclGetCannAttributeList(&attrs, &num));
    INFO_LOG("CANN attributes: %zu", num);
    for (size_t i = 0; i < num; ++i) {
        int32_t value = -1;
        CHECK_RET(aclGetCannAttribute(attrs[i], &value));
        INFO_LOG("  attribute %d: %d", static_cast<int32_t>(attrs[i]), value);
    }
    const char *soc = aclrtGetSocName();
    int32_t compatible = -1;
    CHECK_RET(aclrtCheckArchCompatibility(soc, &compatible));
    INFO_LOG("aclrtCheckArchCompatibility(own SoC): %d", compatible);
    CHECK_RET(aclrtCheckArchCompatibility("Ascend310P3", &compatible));
    INFO_LOG("aclrtCheckArchCompatibility(Ascend310P3): %d", compatible);
    int32_t supported = -1;
    CHECK_RET(aclrtGetDeviceCapability(deviceId, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &supported));
    INFO_LOG("task update of AI Core and Vector kernels: %s",
             supported == ACL_DEV_FEATURE_SUPPORT ? "supported" : "not supported");
    return 0;
}

static int HelloCann(aclrtStream stream) {
    std::vector<float> x = {1, 2, 3, 4}, y = {0.5f, 0.25f, 0.125f, 0.0625f}, z(4, 0.0f);
    std::vector<int64_t> shape = {2, 2}, strides = {2, 1};
    const size_t bytes = x.size() * sizeof(float);
    aclDataBuffer *buffers[3] = {nullptr, nullptr, nullptr};
    for (auto &buffer : buffers) {
        void *dev = nullptr;
        CHECK_RET(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        buffer = aclCreateDataBuffer(dev, bytes);
    }
    CHECK_RET(aclrtMemcpy(aclGetDataBufferAddr(buffers[0]), aclGetDataBufferSizeV2(buffers[0]), x.data(), bytes,
                          ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(aclGetDataBufferAddr(buffers[1]), aclGetDataBufferSizeV2(buffers[1]), y.data(), bytes,
                          ACL_MEMCPY_HOST_TO_DEVICE));
    aclTensor *tensors[3];
    for (int i = 0; i < 3; ++i) {
        tensors[i] = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 2,
                                     aclGetDataBufferAddr(buffers[i]));
    }
    float two = 2.0f;
    aclScalar *alpha = aclCreateScalar(&two, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], &workspaceSize, &executor));
    CHECK_RET(aclnnAdd(nullptr, workspaceSize, executor, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    CHECK_RET(aclrtMemcpy(z.data(), bytes, aclGetDataBufferAddr(buffers[2]), bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("x + 2 * y = %g %g %g %g", z[0], z[1], z[2], z[3]);
    INFO_LOG("aclGetDataBufferSizeV2: %zu", aclGetDataBufferSizeV2(buffers[2]));
    // aclUpdateDataBuffer re-points a descriptor; the memory it pointed to is untouched
    void *old = aclGetDataBufferAddr(buffers[2]);
    CHECK_RET(aclUpdateDataBuffer(buffers[2], nullptr, 0));
    INFO_LOG("updated: addr %s, size %zu", aclGetDataBufferAddr(buffers[2]) == nullptr ? "null" : "set",
             aclGetDataBufferSizeV2(buffers[2]));
    CHECK_RET(aclrtFree(old));
    for (auto tensor : tensors) aclDestroyTensor(tensor);
    aclDestroyScalar(alpha);
    for (int i = 0; i < 2; ++i) CHECK_RET(aclrtFree(aclGetDataBufferAddr(buffers[i])));
    for (auto buffer : buffers) CHECK_RET(aclDestroyDataBuffer(buffer));
    INFO_LOG("aclDestroyDataBuffer(nullptr): %d", aclDestroyDataBuffer(nullptr));
    return 0;
}

int main() {
    const int32_t deviceId = 0;
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));
    if (ErrorHandling(deviceId) != 0 || SystemInfo() != 0 || CrossVersion(deviceId) != 0 || HelloCann(stream) != 0) {
        return -1;
    }
    CHECK_RET(aclrtDestroyStreamForce(stream));
    CHECK_RET(aclrtResetDeviceForce(deviceId));
    aclError again = aclrtResetDeviceForce(deviceId);  // nothing left to release
    INFO_LOG("aclrtResetDeviceForce again: %d", again);
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
