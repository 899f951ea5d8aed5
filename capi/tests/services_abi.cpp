// The mbuf family, the managed-memory advice, the SIMT launches and the allocator, tdt and
// profiling calls through the C ABI (tests/test_capi_services.py): values and codes printed.
#include <cstdio>
#include <cstring>
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "acl/acl_tdt.h"

int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);

    // mbufs: the data block is host memory the program writes and reads back
    aclrtMbuf buf = nullptr;
    std::printf("aclrtAllocBuf: %d\n", aclrtAllocBuf(&buf, 64));
    void *data = nullptr;
    size_t size = 0;
    int rc = aclrtGetBufData(buf, &data, &size);  // each call before its printf: argument order is unspecified
    std::printf("aclrtGetBufData: %d size=%zu\n", rc, size);
    std::memset(data, 0x5A, size);
    std::printf("aclrtSetBufDataLen: %d\n", aclrtSetBufDataLen(buf, 16));
    size_t len = 0;
    rc = aclrtGetBufDataLen(buf, &len);
    std::printf("aclrtGetBufDataLen: %d len=%zu\n", rc, len);
    const char user[8] = "user!";
    char back[8] = {};
    std::printf("aclrtSetBufUserData: %d\n", aclrtSetBufUserData(buf, user, sizeof user, 8));
    rc = aclrtGetBufUserData(buf, back, sizeof back, 8);
    std::printf("aclrtGetBufUserData: %d %s\n", rc, back);
    std::printf("aclrtGetBufUserData beyond 96 bytes: %d\n", aclrtGetBufUserData(buf, back, sizeof back, 92));
    aclrtMbuf copy = nullptr;
    std::printf("aclrtCopyBufRef: %d\n", aclrtCopyBufRef(buf, &copy));
    void *copyData = nullptr;
    size_t copySize = 0;
    aclrtGetBufData(copy, &copyData, &copySize);
    std::printf("copy shares the data: %d first=0x%02x\n", copyData == data,
                static_cast<unsigned char *>(copyData)[0]);
    aclrtMbuf second = nullptr;
    aclrtAllocBuf(&second, 32);
    std::printf("aclrtAppendBufChain: %d\n", aclrtAppendBufChain(buf, second));
    uint32_t num = 0;
    rc = aclrtGetBufChainNum(buf, &num);
    std::printf("aclrtGetBufChainNum: %d num=%u\n", rc, num);
    aclrtMbuf member = nullptr;
    rc = aclrtGetBufFromChain(buf, 1, &member);
    std::printf("aclrtGetBufFromChain: %d same=%d\n", rc, member == second);
    rc = aclrtFreeBuf(copy);
    std::printf("aclrtFreeBuf: %d %d\n", rc, aclrtFreeBuf(buf));
    std::printf("aclrtFreeBuf(chained member): %d\n", aclrtFreeBuf(second));  // the head's free keeps it

    // managed memory: none exists (207000 after CANN's checks), 107000-class checks first
    aclrtMemManagedLocation loc = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    std::printf("aclrtMemManagedAdvise(nullptr): %d\n",
                aclrtMemManagedAdvise(nullptr, 64, ACL_MEM_ADVISE_SET_READ_MOSTLY, loc));
    std::printf("aclrtMemManagedPrefetchAsync(size 0): %d\n", aclrtMemManagedPrefetchAsync(data, 0, loc, 0, stream));

    // SIMT launches: no custom kernel exists
    int fake = 0;
    std::printf("aclrtLaunchSIMTKernelWithArgsArray(nullptr): %d\n",
                aclrtLaunchSIMTKernelWithArgsArray(nullptr, dim3(1, 1, 1), dim3(32), 0, stream, nullptr, nullptr));
    std::printf("aclrtLaunchSIMTKernelWithHostArgs: %d\n",
                aclrtLaunchSIMTKernelWithHostArgs(&fake, dim3(2), dim3(64), 0, stream, nullptr, &fake, sizeof fake,
                                                  nullptr, 0));

    // tdt: an item made from host memory hands back the same address
    float values[4] = {1, 2, 3, 4};
    int64_t dims[2] = {2, 2};
    acltdtDataItem *item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, values, sizeof values);
    int64_t got[2] = {};
    rc = acltdtGetDimsFromItem(item, got, 2);
    std::printf("acltdtGetDimsFromItem: %d (%lld, %lld) same data=%d type=%d\n", rc,
                static_cast<long long>(got[0]), static_cast<long long>(got[1]),
                acltdtGetDataAddrFromItem(item) == values, static_cast<int>(acltdtGetDataTypeFromItem(item)));
    std::printf("acltdtDestroyDataItem: %d\n", acltdtDestroyDataItem(item));

    // profiling: a stamp's range id comes back through the uint32_t*
    std::printf("aclprofStr2Id equal for equal text: %d\n", aclprofStr2Id("a") == aclprofStr2Id("a"));

    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
