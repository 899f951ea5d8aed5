// The memory chapter's advanced calls, in the style of hicann/runtime's example/ programs: virtual
// memory (reserve, allocate physical memory, map it twice: the two ranges alias), host memory
// registered for the device, an IPC key imported in the same process, a batch copy, a reduction on
// a stream, and a few of CANN's refusals. Every printed value follows from CANN's documentation:
// the granularity of huge pages is 2 MB, unmapped memory is not accessible, ACL_RT_MEMCPY_SDMA_
// AUTOMATIC_SUM adds the source to the destination, a failed batch pair is named by failIndex.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

#define CHECK(expr)                                                                   \
    do {                                                                              \
        aclError _ret = (expr);                                                       \
        if (_ret != ACL_SUCCESS) {                                                    \
            std::printf("[ERROR] %s returned %d\n", #expr, static_cast<int>(_ret));   \
        }                                                                             \
    } while (0)

static void VirtualMemory()
{
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t granularity = 0;
    CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    std::printf("[INFO] granularity: %zu\n", granularity);

    aclrtDrvMemHandle handle = nullptr;
    CHECK(aclrtMallocPhysical(&handle, granularity, &prop, 0));
    void* va = nullptr;
    CHECK(aclrtReserveMemAddress(&va, 3 * granularity, 0, nullptr, 0));
    char* first = static_cast<char*>(va);
    char* second = first + 2 * granularity;
    CHECK(aclrtMapMem(first, granularity, 0, handle, 0));
    CHECK(aclrtMapMem(second, granularity, 0, handle, 0));

    std::vector<int32_t> in = {1, 2, 3, 4}, out(4, 0);
    CHECK(aclrtMemcpy(first, 16, in.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(out.data(), 16, second, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("[INFO] read through the second mapping: %d %d %d %d\n", out[0], out[1], out[2], out[3]);

    // the middle of the reservation was never mapped
    aclError ret = aclrtMemcpy(out.data(), 16, first + granularity, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    std::printf("[INFO] copy from the unmapped middle: %d\n", static_cast<int>(ret));

    void* base = nullptr;
    size_t size = 0;
    CHECK(aclrtMemGetAddressRange(second + 100, &base, &size));
    std::printf("[INFO] range of second+100: offset %td, size %zu\n", static_cast<char*>(base) - first, size);
    aclrtPhysicalMemProp got = {};
    CHECK(aclrtMemGetAllocationPropertiesFromHandle(handle, &got));
    std::printf("[INFO] properties: memAttr %d, location %d/%u\n", static_cast<int>(got.memAttr),
                static_cast<int>(got.location.type), got.location.id);
    aclrtDrvMemHandle retained = nullptr;
    CHECK(aclrtMemRetainAllocationHandle(second + 8, &retained));
    std::printf("[INFO] retained handle is the allocation's: %s\n", retained == handle ? "yes" : "no");

    uint64_t shareable = 0;
    CHECK(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                          &shareable));
    aclrtDrvMemHandle imported = nullptr;
    CHECK(aclrtMemImportFromShareableHandle(shareable, 0, &imported));
    void* va2 = nullptr;
    CHECK(aclrtReserveMemAddress(&va2, granularity, 0, nullptr, 0));
    CHECK(aclrtMapMem(va2, granularity, 0, imported, 0));
    CHECK(aclrtMemcpy(out.data(), 16, va2, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("[INFO] read through the imported handle: %d %d %d %d\n", out[0], out[1], out[2], out[3]);

    ret = aclrtFreePhysical(nullptr);
    std::printf("[INFO] aclrtFreePhysical(nullptr): %d\n", static_cast<int>(ret));
    CHECK(aclrtUnmapMem(va2));
    CHECK(aclrtUnmapMem(first));
    CHECK(aclrtUnmapMem(second));
    CHECK(aclrtReleaseMemAddress(va2));
    CHECK(aclrtReleaseMemAddress(va));
    CHECK(aclrtFreePhysical(imported));
    CHECK(aclrtFreePhysical(handle));
}

static void HostRegistration()
{
    std::vector<float> host(8, 0.0f);
    void* dev = nullptr;
    CHECK(aclrtHostRegisterV2(host.data(), 32, ACL_HOST_REG_MAPPED));
    CHECK(aclrtHostGetDevicePointer(host.data(), &dev, 0));
    CHECK(aclrtMemsetD32(dev, 32, 0x40400000U, 8));  // 3.0f, written by the device into host memory
    std::printf("[INFO] host memory after a device fill: %g %g\n", host[0], host[7]);
    aclError ret = aclrtHostRegisterV2(host.data(), 32, ACL_HOST_REG_MAPPED);
    std::printf("[INFO] registering twice: %d\n", static_cast<int>(ret));
    CHECK(aclrtHostUnregister(host.data()));
    ret = aclrtHostUnregister(host.data());
    std::printf("[INFO] unregistering twice: %d\n", static_cast<int>(ret));
}

static void Ipc()
{
    void* dev = nullptr;
    CHECK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<int32_t> in = {7, 8, 9, 10}, out(4, 0);
    CHECK(aclrtMemcpy(dev, 16, in.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
    char key[65] = {0};
    CHECK(aclrtIpcMemGetExportKey(dev, 64, key, sizeof(key), 0));
    int32_t pid = static_cast<int32_t>(getpid());
    CHECK(aclrtIpcMemSetImportPid(key, &pid, 1));
    void* imported = nullptr;
    CHECK(aclrtIpcMemImportByKey(&imported, key, 0));
    CHECK(aclrtMemcpy(out.data(), 16, imported, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("[INFO] read through the IPC import: %d %d %d %d (a different address: %s)\n", out[0], out[1], out[2],
                out[3], imported != dev ? "yes" : "no");
    CHECK(aclrtIpcMemClose(key));
    CHECK(aclrtFree(dev));
}

static void BatchAndReduce(aclrtStream stream)
{
    void* a = nullptr;
    void* b = nullptr;
    CHECK(aclrtMalloc(&a, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&b, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<float> x = {1, 2, 3, 4}, y = {10, 20, 30, 40}, out(4, 0);
    void* dsts[2] = {a, b};
    void* srcs[2] = {x.data(), y.data()};
    size_t destMaxs[2] = {16, 16}, sizes[2] = {16, 16}, attrsIndexes[1] = {0}, failIndex = 0;
    aclrtMemcpyBatchAttr attr = {};
    attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
    CHECK(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 2, &attr, attrsIndexes, 1, &failIndex));
    std::printf("[INFO] batch copy failIndex: %s\n", failIndex == SIZE_MAX ? "SIZE_MAX" : "a pair");
    CHECK(aclrtReduceAsync(a, b, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, stream, nullptr));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(out.data(), 16, a, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("[INFO] a + b: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
    CHECK(aclrtReduceAsync(a, b, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, stream, nullptr));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(out.data(), 16, a, 16, ACL_MEMCPY_DEVICE_TO_HOST));
    std::printf("[INFO] max(a, b): %g %g %g %g\n", out[0], out[1], out[2], out[3]);

    attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;  // wrong: the destinations are device memory
    aclError ret = aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 2, &attr, attrsIndexes, 1, &failIndex);
    std::printf("[INFO] batch with a wrong attribute: %d, failIndex %zu\n", static_cast<int>(ret), failIndex);
    ret = aclrtReduceAsync(a, b, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_DOUBLE, stream, nullptr);
    std::printf("[INFO] reduce of doubles: %d\n", static_cast<int>(ret));
    CHECK(aclrtFree(a));
    CHECK(aclrtFree(b));
}

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    VirtualMemory();
    HostRegistration();
    Ipc();
    BatchAndReduce(stream);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    std::printf("[INFO] done\n");
    return 0;
}
