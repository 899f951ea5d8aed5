// Devices and contexts (in the style of hicann/runtime example/1_basic_features/device and
// context): what a device reports about itself, per-process resource limits, the current thread's
// share, and a context's own default stream.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "acl/acl.h"

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

static int DeviceQuery(int32_t deviceId) {
    uint32_t count = 0;
    CHECK_RET(aclrtGetDeviceCount(&count));
    INFO_LOG("devices: %u, SoC %s", count, aclrtGetSocName());
    const aclrtDevAttr attrs[] = {ACL_DEV_ATTR_AICORE_CORE_NUM, ACL_DEV_ATTR_CUBE_CORE_NUM,
                                  ACL_DEV_ATTR_VECTOR_CORE_NUM, ACL_DEV_ATTR_L2_CACHE_SIZE, ACL_DEV_ATTR_NPU_ARCH};
    const char *names[] = {"AI Core", "Cube Core", "Vector Core", "L2 cache", "NPU arch"};
    for (int i = 0; i < 5; ++i) {
        int64_t value = -1;
        CHECK_RET(aclrtGetDeviceInfo(static_cast<uint32_t>(deviceId), attrs[i], &value));
        INFO_LOG("  %s: %lld", names[i], static_cast<long long>(value));
    }
    int64_t value = -1;
    INFO_LOG("aclrtGetDeviceInfo(device %u): %d", count, aclrtGetDeviceInfo(count, ACL_DEV_ATTR_AICORE_CORE_NUM, &value));
    aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_ABNORMAL;
    CHECK_RET(aclrtQueryDeviceStatus(deviceId, &status));
    INFO_LOG("device status: %s", status == ACL_RT_DEVICE_STATUS_NORMAL ? "normal" : "abnormal");
    aclrtUuid first, second;
    CHECK_RET(aclrtDeviceGetUuid(deviceId, &first));
    CHECK_RET(aclrtDeviceGetUuid(deviceId, &second));
    INFO_LOG("the device's UUID is stable: %s", std::memcmp(first.bytes, second.bytes, 16) == 0 ? "yes" : "no");
    aclrtUtilizationInfo usage = {0, 0, 0, 0, nullptr};
    CHECK_RET(aclrtGetDeviceUtilizationRate(deviceId, &usage));
    INFO_LOG("utilization (no counters on an emulated device): cube %d, vector %d, AI CPU %d, memory %d",
             usage.cubeUtilization, usage.vectorUtilization, usage.aicpuUtilization, usage.memoryUtilization);
    int32_t least = -1, greatest = -1;
    CHECK_RET(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    INFO_LOG("stream priorities: least %d, greatest %d", least, greatest);
    return 0;
}

static int ResourceLimits(int32_t deviceId) {
    uint32_t cube = 0, vector = 0;
    CHECK_RET(aclrtGetDeviceResLimit(deviceId, ACL_RT_DEV_RES_CUBE_CORE, &cube));
    CHECK_RET(aclrtGetDeviceResLimit(deviceId, ACL_RT_DEV_RES_VECTOR_CORE, &vector));
    INFO_LOG("device limits: cube %u, vector %u", cube, vector);
    CHECK_RET(aclrtSetDeviceResLimit(deviceId, ACL_RT_DEV_RES_CUBE_CORE, 8));
    CHECK_RET(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
    CHECK_RET(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &vector));
    INFO_LOG("after limiting cube cores to 8: this thread has cube %u, vector %u", cube, vector);
    CHECK_RET(aclrtResetDeviceResLimit(deviceId));
    CHECK_RET(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
    INFO_LOG("after aclrtResetDeviceResLimit: cube %u", cube);
    INFO_LOG("aclrtGetResInCurrentThread(2): %d", aclrtGetResInCurrentThread(static_cast<aclrtDevResLimitType>(2), &cube));
    CHECK_RET(aclrtSetOpWaitTimeout(10));
    CHECK_RET(aclrtSetOpExecuteTimeOut(60));
    INFO_LOG("operator wait and execute timeouts set");
    return 0;
}

static int ContextQuery(int32_t deviceId) {
    aclrtContext primary = nullptr, context = nullptr, current = nullptr;
    CHECK_RET(aclrtGetCurrentContext(&primary));
    aclrtStream primaryDefault = nullptr, contextDefault = nullptr;
    CHECK_RET(aclrtCtxGetCurrentDefaultStream(&primaryDefault));
    CHECK_RET(aclrtCreateContext(&context, deviceId));  // also makes it current
    CHECK_RET(aclrtGetCurrentContext(&current));
    INFO_LOG("the created context is current: %s", current == context ? "yes" : "no");
    CHECK_RET(aclrtCtxGetCurrentDefaultStream(&contextDefault));
    INFO_LOG("each context has its own default stream: %s",
             contextDefault != nullptr && contextDefault != primaryDefault ? "yes" : "no");
    aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
    CHECK_RET(aclrtStreamQuery(contextDefault, &status));
    INFO_LOG("the default stream is idle: %s", status == ACL_STREAM_STATUS_COMPLETE ? "yes" : "no");
    CHECK_RET(aclrtSetCurrentContext(primary));
    CHECK_RET(aclrtDestroyContext(context));
    return 0;
}

int main() {
    const int32_t deviceId = 0;
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(deviceId));
    if (DeviceQuery(deviceId) != 0 || ResourceLimits(deviceId) != 0 || ContextQuery(deviceId) != 0) return -1;
    CHECK_RET(aclrtResetDeviceForce(deviceId));
    aclrtStream stream = nullptr;
    aclError ret = aclrtCtxGetCurrentDefaultStream(&stream);
    INFO_LOG("aclrtCtxGetCurrentDefaultStream after the reset: %d", ret);
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
