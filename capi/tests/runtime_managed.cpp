// Managed (unified) memory, in the style of hicann/runtime's example/3_memory_advanced/managed_memory
// program without its AscendC kernel: one pointer from aclrtMemAllocManaged is written with plain
// C++ stores, filled by aclrtMemset, copied into by aclrtMemcpy, used as the tensors of an aclnnAdd,
// and read back with plain loads; then its advice and prefetch attributes and aclrtFree. Every
// printed value follows from CANN's documentation: the size is rounded up to 2 MB, the attributes
// answer what aclrtMemManagedAdvise and a completed prefetch set, and aclrtFree releases the memory.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(expr)                                                                 \
    do {                                                                            \
        aclError _ret = (expr);                                                     \
        if (_ret != ACL_SUCCESS) {                                                  \
            std::printf("[ERROR] %s returned %d\n", #expr, static_cast<int>(_ret)); \
        }                                                                           \
    } while (0)

static const size_t MB2 = 2 * 1024 * 1024;

static void AddOnManagedMemory(float* x, aclrtStream stream)
{
    // three vectors of 8 floats in one managed allocation, 32-byte aligned as kernels want them
    float* y = x + 8;
    float* z = x + 16;
    for (int i = 0; i < 8; ++i) {
        x[i] = static_cast<float>(i);  // plain host stores
    }
    CHECK(aclrtMemset(z, 8 * sizeof(float), 0, 8 * sizeof(float)));
    float tens[8];
    for (float& v : tens) {
        v = 10.0f;
    }
    CHECK(aclrtMemcpy(y, 8 * sizeof(float), tens, sizeof tens, ACL_MEMCPY_HOST_TO_DEVICE));  // managed = device side

    int64_t shape[1] = {8};
    int64_t strides[1] = {1};
    aclTensor* tx = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, x);
    aclTensor* ty = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, y);
    aclTensor* tz = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, z);
    float two = 2.0f;
    aclScalar* alpha = aclCreateScalar(&two, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    CHECK(aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &workspaceSize, &executor));
    CHECK(aclnnAdd(nullptr, workspaceSize, executor, stream));
    CHECK(aclrtSynchronizeStream(stream));
    std::printf("[INFO] x + 2 * y, read with plain loads:");
    for (int i = 0; i < 8; ++i) {
        std::printf(" %g", z[i]);  // the kernel's output, read where it wrote it
    }
    std::printf("\n");
    aclDestroyTensor(tx);
    aclDestroyTensor(ty);
    aclDestroyTensor(tz);
    aclDestroyScalar(alpha);
}

static void Attributes(void* ptr, aclrtStream stream)
{
    aclrtMemManagedLocation device0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    aclrtMemManagedLocation host = {ACL_MEM_LOCATIONTYPE_HOST, 0};
    CHECK(aclrtMemManagedAdvise(ptr, MB2, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0));
    CHECK(aclrtMemManagedAdvise(ptr, 2 * MB2, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, device0));
    CHECK(aclrtMemManagedAdvise(ptr, 2 * MB2, ACL_MEM_ADVISE_SET_ACCESSED_BY, device0));
    int32_t readMostly = -1;
    CHECK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, MB2, &readMostly, sizeof readMostly));
    std::printf("[INFO] read mostly (first 2 MB): %d\n", readMostly);
    CHECK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, ptr, 2 * MB2, &readMostly, sizeof readMostly));
    std::printf("[INFO] read mostly (whole range): %d\n", readMostly);

    aclrtMemManagedRangeAttribute attrs[3] = {ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
                                              ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
                                              ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY};
    int32_t prefType = -1, prefId = -1, accessedBy[2] = {0, 0};
    void* data[3] = {&prefType, &prefId, accessedBy};
    size_t dataSizes[3] = {sizeof prefType, sizeof prefId, sizeof accessedBy};
    CHECK(aclrtMemManagedGetAttrs(attrs, 3, ptr, 2 * MB2, data, dataSizes));
    std::printf("[INFO] preferred location: type %d id %d; accessed by: %d %d\n", prefType, prefId,
                accessedBy[0], accessedBy[1]);

    char* second = static_cast<char*>(ptr) + MB2;
    CHECK(aclrtMemManagedPrefetchAsync(ptr, MB2, device0, 0, stream));
    const void* ptrs[1] = {second};
    size_t sizes[1] = {MB2};
    size_t idxs[1] = {0};
    CHECK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 1, &host, idxs, 1, 0, stream));
    CHECK(aclrtSynchronizeStream(stream));
    int32_t last0 = 0, last1 = 0, whole = 0;
    CHECK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, ptr, MB2, &last0, 4));
    CHECK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, second, MB2, &last1, 4));
    CHECK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, ptr, 2 * MB2, &whole, 4));
    std::printf("[INFO] last prefetch: first 2 MB %d, second 2 MB %d, both %d\n", last0, last1, whole);
    std::printf("[INFO] aclrtMemManagedPrefetchAsync(flags 1): %d\n",
                aclrtMemManagedPrefetchAsync(ptr, MB2, device0, 1, stream));
}

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    void* ptr = nullptr;
    CHECK(aclrtMemAllocManaged(&ptr, 3 * MB2 / 2, ACL_RT_MEM_ATTACH_GLOBAL));
    aclrtPtrAttributes pa = {};
    CHECK(aclrtPointerGetAttributes(ptr, &pa));
    std::printf("[INFO] location type: %d (managed), page size: %u, device: %u\n", static_cast<int>(pa.location.type), pa.pageSize, pa.location.id);
    char* bytes = static_cast<char*>(ptr);
    std::memcpy(bytes + 2 * MB2 - 4, "end", 4);  // the size was rounded up to 4 MB: the last bytes exist
    std::printf("[INFO] last bytes: %s\n", bytes + 2 * MB2 - 4);

    AddOnManagedMemory(static_cast<float*>(ptr), stream);
    Attributes(ptr, stream);

    CHECK(aclrtFree(ptr));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    std::printf("[INFO] done\n");
    return 0;
}
