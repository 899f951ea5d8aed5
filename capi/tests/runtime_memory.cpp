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

static int Figures() {
    size_t freeHbm = 0, totalHbm = 0;
    CHECK_RET(aclrtGetMemInfo(ACL_HBM_MEM, &freeHbm, &totalHbm));
    INFO_LOG("HBM: free <= total: %s", freeHbm <= totalHbm ? "yes" : "no");
    void *p = nullptr;
    CHECK_RET(aclrtMalloc(&p, 1 << 30, ACL_MEM_MALLOC_HUGE_FIRST));
    size_t after = 0;
    CHECK_RET(aclrtGetMemInfo(ACL_HBM_MEM, &after, &totalHbm));
    INFO_LOG("a 1 GiB allocation takes at least 1 GiB: %s", freeHbm - after >= (size_t(1) << 30) ? "yes" : "no");
    CHECK_RET(aclrtFree(p));
    return 0;
}

static int Kernels(aclrtStream stream) {
    aclrtBinHandle bin = nullptr;
    aclError ret = aclrtBinaryLoadFromFile("./out/fatbin/add_custom/add_custom.o", nullptr, &bin);
    INFO_LOG("aclrtBinaryLoadFromFile: %d, handle %s", ret, bin == nullptr ? "null" : "set");
    const char *msg = aclGetRecentErrMsg();
    INFO_LOG("says why: %s", msg != nullptr && std::strstr(msg, "aclrtBinaryLoadFromFile") != nullptr ? "yes" : "no");
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
    if (Allocations() != 0 || PinnedAsync(stream) != 0 || Values(stream) != 0 || Figures() != 0 || Kernels(stream) != 0) {
        return -1;
    }
    CHECK_RET(aclrtDestroyStreamForce(stream));
    CHECK_RET(aclrtResetDeviceForce(deviceId));
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
