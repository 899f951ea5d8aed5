// An IPC event exported and opened within the process (in the style of hicann/runtime
// example/1_basic_features/event): aclrtIpcOpenEventHandle takes its 64-byte handle by value; a
// stream waits on the opened event for the work recorded on another stream.
#include <cstdint>
#include <cstdio>
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

int main() {
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream producer = nullptr;
    aclrtStream consumer = nullptr;
    CHECK_RET(aclrtCreateStream(&producer));
    CHECK_RET(aclrtCreateStream(&consumer));
    aclrtEvent exported = nullptr;
    CHECK_RET(aclrtCreateEventExWithFlag(&exported, ACL_EVENT_IPC));
    aclrtIpcEventHandle handle;
    CHECK_RET(aclrtIpcGetEventHandle(exported, &handle));
    aclrtEvent opened = nullptr;
    CHECK_RET(aclrtIpcOpenEventHandle(handle, &opened));
    INFO_LOG("opened the exported event: %s", opened != nullptr ? "yes" : "no");

    int32_t *dev = nullptr;
    int32_t host = 0;
    CHECK_RET(aclrtMalloc(reinterpret_cast<void **>(&dev), sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMemsetAsync(dev, sizeof(int32_t), 0x7, sizeof(int32_t), producer));
    CHECK_RET(aclrtRecordEvent(exported, producer));
    CHECK_RET(aclrtStreamWaitEvent(consumer, opened));  // the opened event shares the record
    CHECK_RET(aclrtMemcpyAsync(&host, sizeof(host), dev, sizeof(int32_t), ACL_MEMCPY_DEVICE_TO_HOST, consumer));
    CHECK_RET(aclrtSynchronizeStream(consumer));
    INFO_LOG("the consumer read 0x%08x after waiting on the opened event", static_cast<uint32_t>(host));

    aclrtIpcEventHandle unknown = {};
    aclrtEvent none = nullptr;
    INFO_LOG("an unknown handle: aclrtIpcOpenEventHandle returns %d", static_cast<int32_t>(aclrtIpcOpenEventHandle(unknown, &none)));

    CHECK_RET(aclrtFree(dev));
    CHECK_RET(aclrtDestroyEvent(opened));
    CHECK_RET(aclrtDestroyEvent(exported));
    CHECK_RET(aclrtSynchronizeStream(producer));
    CHECK_RET(aclrtDestroyStream(consumer));
    CHECK_RET(aclrtDestroyStream(producer));
    CHECK_RET(aclrtResetDevice(0));
    CHECK_RET(aclFinalize());
    INFO_LOG("Run the ipc_event sample successfully.");
    return 0;
}
