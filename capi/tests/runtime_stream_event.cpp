// Streams, events and notifies (in the style of hicann/runtime example/1_basic_features/stream and
// event): stream queries and configuration (the stream-config handle calls looked up by name), the failure mode, host functions in stream order,
// event timestamps and resets, notifies between two streams, and forced cleanup.
#include <dlfcn.h>

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

struct Trace {
    int order[4];
    int count;
};

static void Step(void *args) {
    Trace *trace = static_cast<Trace *>(args);
    trace->order[trace->count] = trace->count + 1;
    ++trace->count;
}

static int g_exceptions = 0;
static void OnException(aclrtExceptionInfo *info) {
    ++g_exceptions;
    (void)aclrtGetTaskIdFromExceptionInfo(info);
}

static int Exceptions() {
    CHECK_RET(aclrtExceptionInfoCallbackRegister(OnException));
    CHECK_RET(aclrtExceptionInfoCallbackUnregister(OnException));
    INFO_LOG("aclrtGetTaskIdFromExceptionInfo(nullptr): 0x%x, aclrtGetDeviceIdFromExceptionInfo(nullptr): 0x%x",
             aclrtGetTaskIdFromExceptionInfo(nullptr), aclrtGetDeviceIdFromExceptionInfo(nullptr));
    INFO_LOG("no task failed, no exception callback ran: %s", g_exceptions == 0 ? "yes" : "no");
    return 0;
}

static int StopAndAbort() {
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));
    CHECK_RET(aclrtStreamStop(stream));
    CHECK_RET(aclrtStreamAbort(stream));
    CHECK_RET(aclrtDestroyStreamForce(stream));
    INFO_LOG("aclrtStreamStop, aclrtStreamAbort on an idle stream: ok");
    return 0;
}

static int StreamQueries() {
    aclrtStream fast = nullptr;
    CHECK_RET(aclrtCreateStreamWithConfig(&fast, 9, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
    uint32_t priority = 0, flags = 0;
    CHECK_RET(aclrtStreamGetPriority(fast, &priority));
    CHECK_RET(aclrtStreamGetFlags(fast, &flags));
    INFO_LOG("aclrtCreateStreamWithConfig(priority 9, FAST_LAUNCH|FAST_SYNC): priority %u, flags 0x%x", priority, flags);
    int32_t id = -1;
    CHECK_RET(aclrtStreamGetId(fast, &id));
    INFO_LOG("stream id is a number: %s", id >= 0 ? "yes" : "no");
    CHECK_RET(aclrtDestroyStream(fast));

    // The stream-config handle calls are declared by acl_rt.h but exported only by the lite library
    // of the chips that support them (IPV350): look them up, as hicann/runtime's example does.
    const char *configCalls[] = {"aclrtCreateStreamConfigHandle", "aclrtSetStreamConfigOpt", "aclrtCreateStreamV2",
                                 "aclrtDestroyStreamConfigHandle"};
    for (const char *name : configCalls) {
        INFO_LOG("%s: %s", name, dlsym(RTLD_DEFAULT, name) == nullptr ? "not exported on this SoC" : "exported");
    }
    uint32_t available = 0;
    CHECK_RET(aclrtGetStreamAvailableNum(&available));
    INFO_LOG("streams still available: %s", available > 0 ? "some" : "none");
    return 0;
}

static int HostFunctions(aclrtStream stream) {
    CHECK_RET(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    Trace trace = {{0, 0, 0, 0}, 0};
    for (int i = 0; i < 4; ++i) CHECK_RET(aclrtLaunchHostFunc(stream, Step, &trace));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("host functions ran in stream order: %d %d %d %d", trace.order[0], trace.order[1], trace.order[2],
             trace.order[3]);
    INFO_LOG("aclrtSetStreamFailureMode(stop -> continue): %d", aclrtSetStreamFailureMode(stream, ACL_CONTINUE_ON_FAILURE));
    return 0;
}

static int Events(aclrtStream stream) {
    aclrtEvent start = nullptr, end = nullptr;
    CHECK_RET(aclrtCreateEventWithFlag(&start, ACL_EVENT_TIME_LINE));
    CHECK_RET(aclrtCreateEventExWithFlag(&end, ACL_EVENT_TIME_LINE));
    aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    // an event of aclrtCreateEventExWithFlag holds no task before its first record: COMPLETE (aclrtRecordEvent's doc)
    CHECK_RET(aclrtQueryEventStatus(end, &recorded));
    INFO_LOG("before any record: %s", recorded == ACL_EVENT_RECORDED_STATUS_NOT_READY ? "not ready" : "complete");
    void *dev = nullptr;
    CHECK_RET(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtRecordEvent(start, stream));
    CHECK_RET(aclrtMemsetAsync(dev, 1 << 20, 0x5A, 1 << 20, stream));
    CHECK_RET(aclrtRecordEvent(end, stream));
    CHECK_RET(aclrtSynchronizeEventWithTimeout(end, 5000));
    CHECK_RET(aclrtQueryEventStatus(end, &recorded));
    INFO_LOG("after synchronizing: %s", recorded == ACL_EVENT_RECORDED_STATUS_COMPLETE ? "complete" : "not ready");
    uint64_t t0 = 0, t1 = 0;
    CHECK_RET(aclrtEventGetTimestamp(start, &t0));
    CHECK_RET(aclrtEventGetTimestamp(end, &t1));
    float ms = -1.0f;
    CHECK_RET(aclrtEventElapsedTime(&ms, start, end));
    INFO_LOG("timestamps in order: %s, elapsed time not negative: %s", t1 >= t0 ? "yes" : "no", ms >= 0.0f ? "yes" : "no");
    uint32_t eventId = 0;
    CHECK_RET(aclrtGetEventId(end, &eventId));
    aclrtEventWaitStatus waited = ACL_EVENT_WAIT_STATUS_RESERVED;
    CHECK_RET(aclrtQueryEventWaitStatus(start, &waited));
    INFO_LOG("aclrtQueryEventWaitStatus: %s", waited == ACL_EVENT_WAIT_STATUS_COMPLETE ? "complete" : "not ready");
    // events of aclrtCreateEventExWithFlag: aclrtQueryEvent and aclrtQueryEventWaitStatus are not supported
    INFO_LOG("aclrtQueryEventWaitStatus(Ex event): %d", aclrtQueryEventWaitStatus(end, &waited));
    // only events that a stream can wait for can be reset (an ACL_EVENT_SYNC event; not a timeline one)
    INFO_LOG("aclrtResetEvent(timeline event): %d", aclrtResetEvent(end, stream));
    aclrtEvent sync = nullptr;
    CHECK_RET(aclrtCreateEventWithFlag(&sync, ACL_EVENT_SYNC));
    CHECK_RET(aclrtRecordEvent(sync, stream));
    CHECK_RET(aclrtSynchronizeEvent(sync));
    CHECK_RET(aclrtQueryEventStatus(sync, &recorded));
    INFO_LOG("sync event recorded: %s", recorded == ACL_EVENT_RECORDED_STATUS_COMPLETE ? "complete" : "not ready");
    CHECK_RET(aclrtResetEvent(sync, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    CHECK_RET(aclrtQueryEventStatus(sync, &recorded));
    INFO_LOG("after aclrtResetEvent: %s", recorded == ACL_EVENT_RECORDED_STATUS_NOT_READY ? "not ready" : "complete");
    CHECK_RET(aclrtDestroyEvent(sync));
    INFO_LOG("aclrtEventGetTimestamp(nullptr out): %d", aclrtEventGetTimestamp(end, nullptr));
    CHECK_RET(aclrtFree(dev));
    CHECK_RET(aclrtDestroyEvent(start));
    CHECK_RET(aclrtDestroyEvent(end));
    return 0;
}

static int Notifies(aclrtStream stream) {
    aclrtStream waiter = nullptr;
    CHECK_RET(aclrtCreateStream(&waiter));
    aclrtNotify notify = nullptr, spare = nullptr;
    CHECK_RET(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
    CHECK_RET(aclrtCreateNotify(&spare, ACL_NOTIFY_DEFAULT));
    uint32_t a = 0, b = 0;
    CHECK_RET(aclrtGetNotifyId(notify, &a));
    CHECK_RET(aclrtGetNotifyId(spare, &b));
    INFO_LOG("two notifies, two ids: %s", a != b ? "yes" : "no");
    Trace trace = {{0, 0, 0, 0}, 0};
    // the waiter's host function runs only after the other stream's record
    CHECK_RET(aclrtWaitAndResetNotify(notify, waiter, 5000));
    CHECK_RET(aclrtLaunchHostFunc(waiter, Step, &trace));
    CHECK_RET(aclrtLaunchHostFunc(stream, Step, &trace));
    CHECK_RET(aclrtRecordNotify(notify, stream));
    CHECK_RET(aclrtSynchronizeStream(waiter));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("host functions: %d ran before the record, %d after the wait", trace.order[0], trace.order[1]);
    aclrtNotify both[2] = {notify, spare};
    CHECK_RET(aclrtNotifyBatchReset(both, 2));
    CHECK_RET(aclrtDestroyNotify(notify));
    CHECK_RET(aclrtDestroyNotify(spare));
    CHECK_RET(aclrtDestroyStreamForce(waiter));
    return 0;
}

int main() {
    const int32_t deviceId = 0;
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));
    if (Exceptions() != 0 || StopAndAbort() != 0 || StreamQueries() != 0 || HostFunctions(stream) != 0 || Events(stream) != 0 || Notifies(stream) != 0) return -1;
    CHECK_RET(aclrtDestroyStreamForce(stream));
    INFO_LOG("aclrtDestroyStreamForce(destroyed stream): %d", aclrtDestroyStreamForce(stream));
    CHECK_RET(aclrtResetDeviceForce(deviceId));
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
