// C threads calling the C ABI concurrently: each thread sets its own device, keeps it across calls
// (a context is per thread, as in CANN), and runs aclnnHardswishBackward on its own stream.
// Prints, after joining, one line per thread: its device as aclrtGetDevice reports it at the end,
// the status of the run, and the 16 results.
#include <cstdio>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardswish_backward.h"

namespace {

struct Result {
    int32_t device = -1;
    int status = -1;
    std::vector<float> out;
};

int Run(int32_t deviceId, int round, Result *r) {
    int ret = aclrtSetDevice(deviceId);
    if (ret != ACL_SUCCESS) return ret;
    aclrtStream stream = nullptr;
    if ((ret = aclrtCreateStream(&stream)) != ACL_SUCCESS) return ret;
    std::vector<int64_t> shape = {4, 4};
    std::vector<int64_t> strides = {4, 1};
    std::vector<float> grad(16), self(16);
    for (int i = 0; i < 16; ++i) {
        grad[i] = 0.5f * static_cast<float>(i + round);
        self[i] = -4.0f + 0.5f * static_cast<float>(i);
    }
    size_t bytes = 16 * sizeof(float);
    void *g = nullptr, *s = nullptr, *o = nullptr;
    aclrtMalloc(&g, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&s, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&o, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(g, bytes, grad.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(s, bytes, self.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor *tg = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 2, g);
    aclTensor *ts = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 2, s);
    aclTensor *to = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 2, o);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    ret = aclnnHardswishBackwardGetWorkspaceSize(tg, ts, to, &ws, &ex);
    if (ret == ACL_SUCCESS) ret = aclnnHardswishBackward(nullptr, ws, ex, stream);
    if (ret == ACL_SUCCESS) ret = aclrtSynchronizeStream(stream);
    r->status = ret;
    r->out.assign(16, 0.0f);
    aclrtMemcpy(r->out.data(), bytes, o, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    aclDestroyTensor(tg);
    aclDestroyTensor(ts);
    aclDestroyTensor(to);
    aclrtFree(g);
    aclrtFree(s);
    aclrtFree(o);
    aclrtDestroyStream(stream);
    aclrtGetDevice(&r->device);
    aclrtResetDevice(deviceId);
    return ACL_SUCCESS;
}

}  // namespace

int main() {
    if (aclInit(nullptr) != ACL_SUCCESS) return 1;
    const int kThreads = 4;
    std::vector<Result> results(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) threads.emplace_back(Run, t, t, &results[t]);
    for (auto &th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) {
        std::printf("thread %d device %d status %d:", t, results[t].device, results[t].status);
        for (float v : results[t].out) std::printf(" %a", v);
        std::printf("\n");
    }
    aclFinalize();
    return 0;
}
