// Shared queues and queue routes (in the style of hicann/runtime example/2_advanced_features/tdt_queue):
// queue attributes read back, a bounded queue that fills, times out and empties, data and user data
// through a queue, a producer thread waking a blocked consumer, a route that forwards from a source
// queue to two destinations until it is unbound, the route query, and the host side's refusals
// (mbuf queues, grant, attach).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <thread>
#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"

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

static std::string FirstLine(const char *msg) {
    if (msg == nullptr) {
        return "<null>";
    }
    return std::string(msg, std::strcspn(msg, "\n"));
}

static int CreateQueue(const char *name, uint32_t depth, uint32_t *qid) {
    acltdtQueueAttr *attr = acltdtCreateQueueAttr();
    if (attr == nullptr) {
        return -1;
    }
    const char *namePtr = name;
    CHECK_RET(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(namePtr), &namePtr));
    CHECK_RET(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth));
    const char *readName = nullptr;
    uint32_t readDepth = 0;
    size_t len = 0;
    CHECK_RET(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(readName), &len, &readName));
    CHECK_RET(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(readDepth), &len, &readDepth));
    INFO_LOG("attr name=%s depth=%u (the name lives in the attr: %s)", readName, readDepth,
             readName != name ? "yes" : "no");
    CHECK_RET(acltdtCreateQueue(attr, qid));
    CHECK_RET(acltdtDestroyQueueAttr(attr));
    return 0;
}

static int Fifo(uint32_t qid) {
    const int32_t values[3] = {7, 8, 9};
    const char tag[] = "meta";
    CHECK_RET(acltdtEnqueueData(qid, &values[0], sizeof(int32_t), tag, sizeof(tag), 0, 0));
    CHECK_RET(acltdtEnqueueData(qid, &values[1], sizeof(int32_t), nullptr, 0, 0, 0));
    auto start = std::chrono::steady_clock::now();
    aclError full = acltdtEnqueueData(qid, &values[2], sizeof(int32_t), nullptr, 0, 20, 0);
    auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    INFO_LOG("third enqueue into a depth-2 queue: %d after waiting at least 20 ms: %s", full,
             waited.count() >= 19 ? "yes" : "no");
    int32_t out = 0;
    size_t size = 0;
    char user[8] = {0};
    CHECK_RET(acltdtDequeueData(qid, &out, sizeof(out), &size, user, sizeof(user), 0));
    INFO_LOG("dequeued %d (%zu bytes) with user data \"%s\"", out, size, user);
    CHECK_RET(acltdtDequeueData(qid, &out, sizeof(out), &size, nullptr, 0, 0));
    INFO_LOG("dequeued %d", out);
    INFO_LOG("dequeue from the empty queue: %d", acltdtDequeueData(qid, &out, sizeof(out), &size, nullptr, 0, 0));
    return 0;
}

static int Blocking(uint32_t qid) {
    std::thread producer([qid] {
        (void)aclrtSetDevice(0);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const double value = 2.5;
        (void)acltdtEnqueueData(qid, &value, sizeof(value), nullptr, 0, -1, 0);
        (void)aclrtResetDevice(0);
    });
    double got = 0;
    size_t size = 0;
    CHECK_RET(acltdtDequeueData(qid, &got, sizeof(got), &size, nullptr, 0, -1));
    producer.join();
    INFO_LOG("a blocked dequeue woke with %.1f from another thread", got);
    return 0;
}

static int Routes(uint32_t src, uint32_t dst1, uint32_t dst2) {
    acltdtQueueRouteList *list = acltdtCreateQueueRouteList();
    acltdtQueueRoute *r1 = acltdtCreateQueueRoute(src, dst1);
    acltdtQueueRoute *r2 = acltdtCreateQueueRoute(src, dst2);
    CHECK_RET(acltdtAddQueueRoute(list, r1));
    CHECK_RET(acltdtAddQueueRoute(list, r2));
    CHECK_RET(acltdtBindQueueRoutes(list));
    acltdtQueueRoute *view = acltdtCreateQueueRoute(0, 0);
    int32_t status = -1;
    size_t len = 0;
    CHECK_RET(acltdtGetQueueRoute(list, 1, view));
    CHECK_RET(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof(status), &len, &status));
    INFO_LOG("bound %zu routes, the second one's status: %d", acltdtGetQueueRouteNum(list), status);

    const uint16_t sample = 0x1234;
    CHECK_RET(acltdtEnqueueData(src, &sample, sizeof(sample), nullptr, 0, 0, 0));
    uint16_t a = 0, b = 0;
    size_t size = 0;
    CHECK_RET(acltdtDequeueData(dst1, &a, sizeof(a), &size, nullptr, 0, 0));
    CHECK_RET(acltdtDequeueData(dst2, &b, sizeof(b), &size, nullptr, 0, 0));
    INFO_LOG("one enqueue into the source reached both destinations: 0x%x 0x%x", a, b);

    acltdtQueueRouteQueryInfo *info = acltdtCreateQueueRouteQueryInfo();
    acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_DST;
    CHECK_RET(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode));
    CHECK_RET(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof(dst2), &dst2));
    acltdtQueueRouteList *found = acltdtCreateQueueRouteList();
    CHECK_RET(acltdtQueryQueueRoutes(info, found));
    uint32_t qsrc = 0, qdst = 0;
    CHECK_RET(acltdtGetQueueRoute(found, 0, view));
    CHECK_RET(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, sizeof(qsrc), &len, &qsrc));
    CHECK_RET(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_DST_UINT32, sizeof(qdst), &len, &qdst));
    CHECK_RET(acltdtGetQueueRouteParam(view, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof(status), &len, &status));
    INFO_LOG("routes into the second destination: %zu, src is the source: %s, dst: %s, status %d (bound)",
             acltdtGetQueueRouteNum(found), qsrc == src ? "yes" : "no", qdst == dst2 ? "yes" : "no", status);

    INFO_LOG("destroying a routed queue: %d", acltdtDestroyQueue(src));
    INFO_LOG("%s", FirstLine(aclGetRecentErrMsg()).c_str());
    CHECK_RET(acltdtUnbindQueueRoutes(list));
    CHECK_RET(acltdtEnqueueData(src, &sample, sizeof(sample), nullptr, 0, 0, 0));
    INFO_LOG("after the unbind the destination stays empty: %d",
             acltdtDequeueData(dst1, &a, sizeof(a), &size, nullptr, 0, 0));
    CHECK_RET(acltdtDequeueData(src, &a, sizeof(a), &size, nullptr, 0, 0));
    INFO_LOG("and the source keeps the data: 0x%x", a);
    CHECK_RET(acltdtQueryQueueRoutes(info, found));
    INFO_LOG("routes into the second destination now: %zu", acltdtGetQueueRouteNum(found));

    CHECK_RET(acltdtDestroyQueueRouteList(found));
    CHECK_RET(acltdtDestroyQueueRouteQueryInfo(info));
    CHECK_RET(acltdtDestroyQueueRoute(view));
    CHECK_RET(acltdtDestroyQueueRoute(r1));
    CHECK_RET(acltdtDestroyQueueRoute(r2));
    CHECK_RET(acltdtDestroyQueueRouteList(list));
    return 0;
}

static void Refusals(uint32_t qid) {
    acltdtBuf buf = nullptr;
    uint32_t permission = 0;
    INFO_LOG("acltdtAllocBuf on the host: %d", acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &buf));
    INFO_LOG("acltdtEnqueue on the host: %d", acltdtEnqueue(qid, buf, 0));
    INFO_LOG("acltdtGrantQueue: %d", acltdtGrantQueue(qid, 4242, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0));
    INFO_LOG("acltdtAttachQueue: %d", acltdtAttachQueue(qid, 0, &permission));
    INFO_LOG("%s", FirstLine(aclGetRecentErrMsg()).c_str());
}

int main() {
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    uint32_t q = 0, src = 0, dst1 = 0, dst2 = 0;
    if (CreateQueue("fifo", 2, &q) != 0 || Fifo(q) != 0 || Blocking(q) != 0) {
        return -1;
    }
    if (CreateQueue("source", 4, &src) != 0 || CreateQueue("first", 4, &dst1) != 0 ||
        CreateQueue("second", 4, &dst2) != 0 || Routes(src, dst1, dst2) != 0) {
        return -1;
    }
    Refusals(q);
    for (uint32_t id : {q, src, dst1, dst2}) {
        CHECK_RET(acltdtDestroyQueue(id));
    }
    CHECK_RET(aclrtResetDeviceForce(0));
    CHECK_RET(aclFinalize());
    INFO_LOG("Run the tdt_queue sample successfully.");
    return 0;
}
