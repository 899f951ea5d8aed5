// Host callbacks (in the style of hicann/runtime example/2_advanced_features/callback): a worker
// thread binds itself to the context and processes reports; the main thread subscribes a stream
// to that thread, queues callbacks between device work, and synchronizes. A blocking callback
// holds the stream until it returns; every callback runs on the worker thread, in stream order.
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
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

namespace {
aclrtContext g_context = nullptr;
std::atomic<bool> g_stop(false);
pthread_t g_worker;

struct Record {
    int order[4];
    bool onWorker[4];
    int count;
};

void Callback(void *userData) {
    Record *record = static_cast<Record *>(userData);
    record->order[record->count] = record->count + 1;
    record->onWorker[record->count] = pthread_equal(pthread_self(), g_worker) != 0;
    ++record->count;
}

void *ProcessReports(void *) {
    if (aclrtSetCurrentContext(g_context) != ACL_SUCCESS) return nullptr;
    while (!g_stop.load()) {
        (void)aclrtProcessReport(100);  // 507012 when no callback came within 100 ms
    }
    return nullptr;
}
}  // namespace

int main() {
    const int32_t deviceId = 0;
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(deviceId));
    CHECK_RET(aclrtGetCurrentContext(&g_context));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));
    INFO_LOG("aclrtProcessReport on a thread no stream is bound to: %d", aclrtProcessReport(100));
    Record record = {{0, 0, 0, 0}, {false, false, false, false}, 0};
    INFO_LOG("aclrtLaunchCallback on a stream bound to no thread: %d",
             aclrtLaunchCallback(Callback, &record, ACL_CALLBACK_BLOCK, stream));
    if (pthread_create(&g_worker, nullptr, ProcessReports, nullptr) != 0) return -1;
    const uint64_t threadId = static_cast<uint64_t>(g_worker);
    CHECK_RET(aclrtSubscribeReport(threadId, stream));
    INFO_LOG("subscribing the same stream again: %d", aclrtSubscribeReport(threadId, stream));
    void *dev = nullptr;
    CHECK_RET(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 4; ++i) {
        CHECK_RET(aclrtMemsetAsync(dev, 64, i, 64, stream));
        CHECK_RET(aclrtLaunchCallback(Callback, &record, i % 2 == 0 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK,
                                      stream));
    }
    INFO_LOG("aclrtLaunchCallback(block type 2): %d",
             aclrtLaunchCallback(Callback, &record, static_cast<aclrtCallbackBlockType>(2), stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    // a NO_BLOCK callback may still be running when the stream is done: wait for the last one
    while (record.count < 4) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, nullptr);
    }
    INFO_LOG("callbacks ran in stream order: %d %d %d %d", record.order[0], record.order[1], record.order[2],
             record.order[3]);
    INFO_LOG("all on the worker thread: %s",
             record.onWorker[0] && record.onWorker[1] && record.onWorker[2] && record.onWorker[3] ? "yes" : "no");
    CHECK_RET(aclrtUnSubscribeReport(threadId, stream));
    INFO_LOG("unsubscribing again: %d", aclrtUnSubscribeReport(threadId, stream));
    g_stop.store(true);
    pthread_join(g_worker, nullptr);
    CHECK_RET(aclrtFree(dev));
    CHECK_RET(aclrtDestroyStreamForce(stream));
    CHECK_RET(aclrtResetDeviceForce(deviceId));
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
