// Memory (in the style of hicann/runtime example/1_basic_features/memory and Ascend/samples'
// memory-management programs): the allocation calls, pinned host memory and asynchronous copies,
// DVPP memory, values written and waited for on streams, the memory figures, and the kernel loads
// an emulator must refuse (there is no AscendC device to run a custom kernel on).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

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

static int Allocations() {
    void *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
    CHECK_RET(aclrtMalloc(&a, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMallocAlign32(&b, 100, ACL_MEM_MALLOC_NORMAL_ONLY));
    CHECK_RET(aclrtMallocCached(&c, 100, ACL_MEM_MALLOC_HUGE_ONLY));
    CHECK_RET(acldvppMalloc(&d, 100));
    aclrtMallocAttribute attr;
    attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attr.value.moduleId = 1;
    aclrtMallocConfig cfg = {&attr, 1};
    void *e = nullptr, *h = nullptr;
    CHECK_RET(aclrtMallocWithCfg(&e, 100, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    CHECK_RET(aclrtMallocHostWithCfg(&h, 100, nullptr));
    static_cast<unsigned char *>(h)[99] = 42;  // pinned host memory: the program's to write
    CHECK_RET(aclrtMemcpy(e, 100, h, 100, ACL_MEMCPY_HOST_TO_DEVICE));
    aclrtMallocConfig broken = {nullptr, 1};
    INFO_LOG("aclrtMallocWithCfg(numAttrs 1, no attrs): %d", aclrtMallocWithCfg(&e, 100, ACL_MEM_MALLOC_HUGE_FIRST, &broken));
    CHECK_RET(aclrtFree(e));
    CHECK_RET(aclrtFreeHost(h));
    void *ptrs[4] = {a, b, c, d};
    bool aligned = true;
    for (void *p : ptrs) aligned = aligned && reinterpret_cast<uintptr_t>(p) % 32 == 0;
    INFO_LOG("aclrtMalloc, aclrtMallocAlign32, aclrtMallocCached, acldvppMalloc: 32-byte aligned: %s",
             aligned ? "yes" : "no");
    CHECK_RET(aclrtMemset(d, 100, 7, 100));
    unsigned char host[100];
    CHECK_RET(aclrtMemcpy(host, sizeof host, d, 100, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("DVPP memory is device memory: %u %u", host[0], host[99]);
    CHECK_RET(aclrtFree(a));
    CHECK_RET(aclrtFree(b));
    CHECK_RET(aclrtFree(c));
    CHECK_RET(acldvppFree(d));
    INFO_LOG("acldvppMalloc(nullptr): %d", acldvppMalloc(nullptr, 100));
    INFO_LOG("acldvppFree(nullptr): %d", acldvppFree(nullptr));
    return 0;
}

static int PinnedAsync(aclrtStream stream) {
    const size_t n = 256;
    void *host = nullptr, *dev = nullptr;
    CHECK_RET(aclrtMallocHost(&host, n));
    CHECK_RET(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_HUGE_FIRST));
    unsigned char *bytes = static_cast<unsigned char *>(host);
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>(i);
    CHECK_RET(aclrtMemcpyAsync(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    std::memset(host, 0, n);
    CHECK_RET(aclrtMemcpyAsync(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("round trip through pinned memory: %u %u %u", bytes[0], bytes[128], bytes[255]);
    CHECK_RET(aclrtFree(dev));
    CHECK_RET(aclrtFreeHost(host));
    return 0;
}

static int Values(aclrtStream stream) {
    // one stream waits for a value the other writes: a flag in device memory
    aclrtStream producer = nullptr;
    CHECK_RET(aclrtCreateStream(&producer));
    void *flag = nullptr, *data = nullptr;
    CHECK_RET(aclrtMalloc(&flag, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(&data, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMemset(flag, 8, 0, 8));
    CHECK_RET(aclrtMemset(data, 4, 0, 4));
    CHECK_RET(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, stream));
    void *seen = nullptr;  // pinned: an asynchronous copy's host side
    CHECK_RET(aclrtMallocHost(&seen, 4));
    CHECK_RET(aclrtMemcpyAsync(seen, 4, data, 4, ACL_MEMCPY_DEVICE_TO_HOST, stream));  // queued behind the wait
    CHECK_RET(aclrtMemset(data, 4, 0x11, 4));
    CHECK_RET(aclrtValueWrite(flag, 1, 0, producer));
    CHECK_RET(aclrtSynchronizeStream(producer));
    CHECK_RET(aclrtSynchronizeStream(stream));
    uint64_t value = 0;
    CHECK_RET(aclrtMemcpy(&value, 8, flag, 8, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("flag written: %llu; the waiting stream copied the data after it: 0x%08x",
             static_cast<unsigned long long>(value), *static_cast<uint32_t *>(seen));
    CHECK_RET(aclrtFreeHost(seen));
    CHECK_RET(aclrtValueWait(flag, 0, ACL_STREAM_WAIT_VALUE_GEQ, stream));
    CHECK_RET(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_AND, stream));
    CHECK_RET(aclrtValueWait(flag, 2, ACL_STREAM_WAIT_VALUE_NOR, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("GEQ 0, AND 1, NOR 2 all satisfied by 1");
    INFO_LOG("aclrtValueWait(bad condition 4): %d", aclrtValueWait(flag, 1, 4, stream));
    CHECK_RET(aclrtFree(flag));
    CHECK_RET(aclrtFree(data));
    CHECK_RET(aclrtDestroyStreamForce(producer));
    return 0;
}

static int TwoDimensions(aclrtStream stream) {
    // a 3 x 4 block of a 3 x 6 host matrix into a packed 3 x 4 device matrix, and back with a pitch of 5
    float host[18];
    for (int i = 0; i < 18; ++i) host[i] = static_cast<float>(i);
    void *dev = nullptr;
    CHECK_RET(aclrtMalloc(&dev, 3 * 4 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMemcpy2d(dev, 4 * sizeof(float), host, 6 * sizeof(float), 4 * sizeof(float), 3,
                            ACL_MEMCPY_HOST_TO_DEVICE));
    void *pinned = nullptr;
    CHECK_RET(aclrtMallocHost(&pinned, 15 * sizeof(float)));
    std::memset(pinned, 0, 15 * sizeof(float));
    CHECK_RET(aclrtMemcpy2dAsync(pinned, 5 * sizeof(float), dev, 4 * sizeof(float), 4 * sizeof(float), 3,
                                 ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    const float *back = static_cast<const float *>(pinned);
    INFO_LOG("rows: %g %g %g %g | %g %g %g %g | %g %g %g %g; pitch padding stays %g", back[0], back[1], back[2],
             back[3], back[5], back[6], back[7], back[8], back[10], back[11], back[12], back[13], back[4]);
    INFO_LOG("aclrtMemcpy2d(width > spitch): %d",
             aclrtMemcpy2d(dev, 16, host, 8, 12, 1, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemsetD32(dev, 3 * 4 * sizeof(float), 0x3F800000u, 12));  // twelve 1.0f
    float ones[12] = {0};
    CHECK_RET(aclrtMemcpy(ones, sizeof ones, dev, sizeof ones, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_RET(aclrtMemsetD32Async(dev, 3 * 4 * sizeof(float), 0x40000000u, 4, stream));  // four 2.0f
    CHECK_RET(aclrtSynchronizeStream(stream));
    float mixed[12] = {0};
    CHECK_RET(aclrtMemcpy(mixed, sizeof mixed, dev, sizeof mixed, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("aclrtMemsetD32: %g %g, then the async one: %g %g %g", ones[0], ones[11], mixed[0], mixed[3], mixed[4]);
    aclrtPtrAttributes attrs;
    CHECK_RET(aclrtPointerGetAttributes(dev, &attrs));
    INFO_LOG("device pointer: %s of device %u",
             attrs.location.type == ACL_MEM_LOCATION_TYPE_DEVICE ? "device memory" : "other", attrs.location.id);
    CHECK_RET(aclrtPointerGetAttributes(pinned, &attrs));
    INFO_LOG("aclrtMallocHost pointer: %s", attrs.location.type == ACL_MEM_LOCATION_TYPE_HOST ? "host memory" : "other");
    CHECK_RET(aclrtPointerGetAttributes(host, &attrs));
    INFO_LOG("stack pointer: %s",
             attrs.location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED ? "unregistered" : "registered");
    CHECK_RET(aclrtFreeHost(pinned));
    CHECK_RET(aclrtFree(dev));
    return 0;
}

static int Peers() {
    int32_t can = -1;
    CHECK_RET(aclrtDeviceCanAccessPeer(&can, 0, 1));
    INFO_LOG("device 0 can access device 1: %d", can);
    CHECK_RET(aclrtDeviceEnablePeerAccess(1, 0));
    INFO_LOG("aclrtDeviceEnablePeerAccess(flags 1): %d", aclrtDeviceEnablePeerAccess(1, 1));
    INFO_LOG("aclrtDeviceCanAccessPeer(0, 0): %d", aclrtDeviceCanAccessPeer(&can, 0, 0));
    CHECK_RET(aclrtDeviceDisablePeerAccess(1));
    return 0;
}

static int Figures() {
    size_t freeHbm = 0, totalHbm = 0;
    CHECK_RET(aclrtGetMemInfo(ACL_HBM_MEM, &freeHbm, &totalHbm));
    INFO_LOG("HBM: free <= total: %s", freeHbm <= totalHbm ? "yes" : "no");
    void *p = nullptr;
    CHECK_RET(aclrtMalloc(&p, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t after = 0;
    CHECK_RET(aclrtGetMemInfo(ACL_HBM_MEM, &after, &totalHbm));
    INFO_LOG("a 64 MiB allocation takes at least 64 MiB: %s", freeHbm - after >= (size_t(64) << 20) ? "yes" : "no");
    CHECK_RET(aclrtFree(p));
    return 0;
}

static int Kernels(aclrtStream stream) {
    aclrtBinHandle bin = nullptr;
    aclError ret = aclrtBinaryLoadFromFile("./out/fatbin/add_custom/add_custom.o", nullptr, &bin);
    INFO_LOG("aclrtBinaryLoadFromFile: %d, handle %s", ret, bin == nullptr ? "null" : "set");
    const char *msg = aclGetRecentErrMsg();
    INFO_LOG("says why: %s", msg != nullptr && std::strstr(msg, "cannot be accessed") != nullptr ? "yes" : "no");
    static const unsigned char elf[64] = {0x7F, 'E', 'L', 'F'};
    ret = aclrtBinaryLoadFromData(elf, sizeof elf, nullptr, &bin);
    INFO_LOG("aclrtBinaryLoadFromData: %d", ret);
    INFO_LOG("aclrtLaunchKernel(null function): %d", aclrtLaunchKernel(nullptr, 1, elf, sizeof elf, stream));
    return 0;
}

int main() {
    const int32_t deviceId = 0;
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));
    if (Allocations() != 0 || PinnedAsync(stream) != 0 || Values(stream) != 0 || TwoDimensions(stream) != 0 ||
        Peers() != 0 || Figures() != 0 || Kernels(stream) != 0) {
        return -1;
    }
    CHECK_RET(aclrtDestroyStreamForce(stream));
    CHECK_RET(aclrtResetDeviceForce(deviceId));
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
