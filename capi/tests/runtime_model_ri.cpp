// Model runtime instances (in the style of hicann/runtime example/2_advanced_features/model_ri):
// capture an async copy and an aclnnAdd into a model, look at its streams and tasks, replay it
// after changing the input, replace its kernel through a task group, build a model from bound
// streams that switches on a device value, and run a conditional SWITCH captured into sub-models.
// Every printed value is the documented result of the calls (codes from acl/error_codes).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define INFO_LOG(fmt, ...) std::printf("[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) std::printf("[ERROR] " fmt "\n", ##__VA_ARGS__)
#define CHECK_RET(call)                                                        \
    do {                                                                       \
        int32_t ret_ = static_cast<int32_t>(call);                             \
        if (ret_ != 0) {                                                       \
            ERROR_LOG("%s failed: ret=%d", #call, ret_);                       \
            return -1;                                                         \
        }                                                                      \
    } while (0)

namespace {
constexpr int64_t kN = 4;
constexpr size_t kBytes = kN * sizeof(float);

struct Buf {
    void *dev = nullptr;
    aclTensor *tensor = nullptr;
};

int MakeBuf(Buf &b, float fill) {
    CHECK_RET(aclrtMalloc(&b.dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<float> host(kN, fill);
    CHECK_RET(aclrtMemcpy(b.dev, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    int64_t shape[1] = {kN};
    int64_t strides[1] = {1};
    b.tensor = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, b.dev);
    return b.tensor == nullptr ? -1 : 0;
}

float First(const Buf &b) {
    float host[kN] = {};
    if (aclrtMemcpy(host, kBytes, b.dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return -1.0f;
    return host[0];
}

// phase 1 of out = a + alpha * b
aclOpExecutor *Add(const Buf &a, const Buf &b, const Buf &out, aclScalar *alpha) {
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    if (aclnnAddGetWorkspaceSize(a.tensor, b.tensor, alpha, out.tensor, &ws, &ex) != 0 || ws != 0) return nullptr;
    return ex;
}

void OnDestroy(void *userData) { *static_cast<int *>(userData) += 1; }
}  // namespace

int main() {
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    aclrtStream other = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));
    CHECK_RET(aclrtCreateStream(&other));
    Buf a, b, out, tmp;
    CHECK_RET(MakeBuf(a, 1.0f));
    CHECK_RET(MakeBuf(b, 2.0f));
    CHECK_RET(MakeBuf(out, 0.0f));
    CHECK_RET(MakeBuf(tmp, 0.0f));
    float one = 1.0f, three = 3.0f;
    aclScalar *alphaOne = aclCreateScalar(&one, ACL_FLOAT);
    aclScalar *alphaThree = aclCreateScalar(&three, ACL_FLOAT);
    float *pinned = nullptr;
    CHECK_RET(aclrtMallocHost(reinterpret_cast<void **>(&pinned), kBytes));

    // -- capture: a copy from pinned memory and two adds; nothing runs yet ----------------------
    INFO_LOG("aclmdlRICaptureEnd on a stream that does not capture: %d", aclmdlRICaptureEnd(stream, nullptr));
    aclOpExecutor *first = Add(a, b, tmp, alphaOne);     // tmp = a + b
    aclOpExecutor *second = Add(tmp, b, out, alphaOne);  // out = tmp + b
    aclOpExecutor *updated = Add(tmp, b, out, alphaThree);
    if (first == nullptr || second == nullptr || updated == nullptr) return -1;
    for (int i = 0; i < kN; ++i) pinned[i] = 10.0f;
    CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_RET(aclrtMemcpyAsync(a.dev, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK_RET(aclnnAdd(nullptr, 0, first, stream));
    CHECK_RET(aclmdlRICaptureTaskGrpBegin(stream));
    CHECK_RET(aclnnAdd(nullptr, 0, second, stream));
    aclrtTaskGrp group = nullptr;
    CHECK_RET(aclmdlRICaptureTaskGrpEnd(stream, &group));
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI model = nullptr;
    CHECK_RET(aclmdlRICaptureGetInfo(stream, &status, &model));
    INFO_LOG("capture status while capturing: %d", static_cast<int>(status));
    INFO_LOG("aclmdlRIExecuteAsync on the capturing stream: %d", aclmdlRIExecuteAsync(model, stream));
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    CHECK_RET(aclmdlRICaptureThreadExchangeMode(&mode));
    INFO_LOG("the thread's previous capture mode: %d", static_cast<int>(mode));
    CHECK_RET(aclmdlRICaptureThreadExchangeMode(&mode));
    aclmdlRI ended = nullptr;
    CHECK_RET(aclmdlRICaptureEnd(stream, &ended));
    INFO_LOG("the model ended is the one captured into: %s", ended == model ? "yes" : "no");
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("out after the capture (nothing ran): %.1f", First(out));

    // -- its streams and tasks ---------------------------------------------------------------------
    aclrtStream streams[4] = {};
    uint32_t numStreams = 4;
    CHECK_RET(aclmdlRIGetStreams(model, streams, &numStreams));
    aclmdlRITask tasks[8] = {};
    uint32_t numTasks = 8;
    CHECK_RET(aclmdlRIGetTasksByStream(streams[0], tasks, &numTasks));
    INFO_LOG("streams: %u, tasks on the first: %u", numStreams, numTasks);
    for (uint32_t i = 0; i < numTasks; ++i) {
        aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
        uint32_t seq = 99;
        CHECK_RET(aclmdlRITaskGetType(tasks[i], &type));
        CHECK_RET(aclmdlRITaskGetSeqId(tasks[i], &seq));
        aclmdlRITaskParams params;
        std::memset(&params, 0xff, sizeof(params));
        CHECK_RET(aclmdlRITaskGetParams(tasks[i], &params));
        INFO_LOG("task %u: type %d (params.type %d)", seq, static_cast<int>(type), static_cast<int>(params.type));
    }
    uint32_t tooFew = 1;
    INFO_LOG("an array too small for the tasks: %d", aclmdlRIGetTasksByStream(streams[0], tasks, &tooFew));
    aclmdlRITaskParams params = {};
    INFO_LOG("aclmdlRITaskSetParams: %d", aclmdlRITaskSetParams(tasks[1], &params));
    CHECK_RET(aclmdlRISetName(model, "add_twice"));
    char name[16] = {};
    CHECK_RET(aclmdlRIGetName(model, sizeof(name), name));
    INFO_LOG("name: %s", name);

    // -- replay: each execution reads the pinned buffer and the device buffers anew ------------------
    CHECK_RET(aclmdlRIExecuteAsync(model, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("out after the first execution: %.1f", First(out));  // 10 + 2 + 2
    for (int i = 0; i < kN; ++i) pinned[i] = 20.0f;
    // the synchronous run refuses a captured model (ModelExecuteSync: ACL Graph mode is not supported)
    INFO_LOG("aclmdlRIExecute of a captured model: %d", aclmdlRIExecute(model, -1));
    CHECK_RET(aclmdlRIExecuteAsync(model, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("out after a second execution with new input: %.1f", First(out));  // 20 + 2 + 2

    // -- the task group's kernel replaced: out = tmp + 3 * b ---------------------------------------
    CHECK_RET(aclmdlRICaptureTaskUpdateBegin(other, group));
    CHECK_RET(aclnnAdd(nullptr, 0, updated, other));
    CHECK_RET(aclmdlRICaptureTaskUpdateEnd(other));
    CHECK_RET(aclmdlRIUpdate(model));
    CHECK_RET(aclmdlRIExecuteAsync(model, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("out after the update: %.1f", First(out));  // 20 + 2 + 6
    CHECK_RET(aclmdlRITaskDisable(tasks[2]));
    for (int i = 0; i < kN; ++i) pinned[i] = 30.0f;
    CHECK_RET(aclmdlRIExecuteAsync(model, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("out with its last task disabled: %.1f, tmp: %.1f", First(out), First(tmp));  // 28, 32
    int destroyed = 0;
    CHECK_RET(aclmdlRIDestroyRegisterCallback(model, OnDestroy, &destroyed));
    CHECK_RET(aclmdlRIDestroy(model));
    INFO_LOG("destroy callbacks run: %d", destroyed);
    INFO_LOG("aclmdlRIDestroy again: %d", aclmdlRIDestroy(model));

    // -- a built model: the head stream switches to s2 when *flag == 1 ------------------------------
    aclrtStream s1 = nullptr, s2 = nullptr;
    CHECK_RET(aclrtCreateStreamWithConfig(&s1, 0, ACL_STREAM_PERSISTENT));
    CHECK_RET(aclrtCreateStreamWithConfig(&s2, 0, ACL_STREAM_PERSISTENT));
    int32_t *flag = nullptr, *target = nullptr;
    CHECK_RET(aclrtMalloc(reinterpret_cast<void **>(&flag), sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtMalloc(reinterpret_cast<void **>(&target), sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    int32_t zero = 0, oneInt = 1;
    CHECK_RET(aclrtMemcpy(flag, sizeof(int32_t), &zero, sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclrtMemcpy(target, sizeof(int32_t), &oneInt, sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE));
    aclOpExecutor *branch = Add(a, b, out, alphaThree);  // out = a + 3 * b
    if (branch == nullptr) return -1;
    aclmdlRI built = nullptr;
    CHECK_RET(aclmdlRIBuildBegin(&built, 0));
    CHECK_RET(aclmdlRIBindStream(built, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_RET(aclmdlRIBindStream(built, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_RET(aclrtSwitchStream(flag, ACL_RT_EQUAL, target, ACL_RT_SWITCH_INT32, s2, nullptr, s1));
    CHECK_RET(aclnnAdd(nullptr, 0, branch, s2));
    CHECK_RET(aclrtActiveStream(s2, s1));
    CHECK_RET(aclmdlRIEndTask(built, s1));
    CHECK_RET(aclmdlRIBuildEnd(built, nullptr));
    INFO_LOG("executing a built model on its own stream: %d", aclmdlRIExecuteAsync(built, s1));
    CHECK_RET(aclrtMemcpy(out.dev, kBytes, std::vector<float>(kN, 0.0f).data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_RET(aclmdlRIExecuteAsync(built, stream));  // *flag == 0: only the activation runs s2
    CHECK_RET(aclrtSynchronizeStream(stream));
    INFO_LOG("built model, flag 0: out = %.1f", First(out));  // 30 + 6, once
    CHECK_RET(aclmdlRIUnbindStream(built, s1));
    CHECK_RET(aclmdlRIUnbindStream(built, s2));
    CHECK_RET(aclmdlRIDestroy(built));

    // -- a conditional SWITCH over three sub-models ----------------------------------------------------
    aclrtStream sub = nullptr;
    CHECK_RET(aclrtCreateStream(&sub));
    CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    aclmdlRI parent = nullptr;
    CHECK_RET(aclmdlRICaptureGetInfo(stream, nullptr, &parent));
    aclmdlRICondHandle cond = nullptr;
    CHECK_RET(aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(0), &cond));
    uint64_t *condPtr = nullptr;
    CHECK_RET(aclmdlRICondHandleGetCondPtr(cond, &condPtr));
    aclmdlRI cases[3] = {};
    aclmdlRICondTaskParams condParams;
    condParams.handle = cond;
    condParams.type = ACL_MODEL_RI_COND_TYPE_SWITCH;
    condParams.size = 3;
    condParams.modelRIArray = cases;
    CHECK_RET(aclmdlRIAddCondTask(condParams, stream, 0));
    float alphas[3] = {1.0f, 2.0f, 4.0f};
    aclScalar *caseAlpha[3] = {};
    for (int i = 0; i < 3; ++i) {
        caseAlpha[i] = aclCreateScalar(&alphas[i], ACL_FLOAT);
        aclOpExecutor *ex = Add(a, b, out, caseAlpha[i]);
        if (ex == nullptr) return -1;
        CHECK_RET(aclmdlRICaptureToModelRIBegin(sub, cases[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
        CHECK_RET(aclnnAdd(nullptr, 0, ex, sub));
        CHECK_RET(aclmdlRICaptureEnd(sub, &cases[i]));
    }
    CHECK_RET(aclmdlRICaptureEnd(stream, &parent));
    for (uint64_t value : {2ULL, 0ULL, 7ULL}) {
        CHECK_RET(aclrtMemcpy(out.dev, kBytes, std::vector<float>(kN, -1.0f).data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_RET(aclrtMemcpy(condPtr, sizeof(uint64_t), &value, sizeof(uint64_t), ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_RET(aclmdlRIExecuteAsync(parent, stream));
        CHECK_RET(aclrtSynchronizeStream(stream));
        INFO_LOG("SWITCH on %llu: out = %.1f", static_cast<unsigned long long>(value), First(out));
    }
    INFO_LOG("a sub-model executed alone: %d", aclmdlRIExecuteAsync(cases[0], stream));
    CHECK_RET(aclmdlRIDestroy(parent));

    for (aclScalar *s : caseAlpha) CHECK_RET(aclDestroyScalar(s));
    for (aclrtStream s : {sub, s1, s2, other, stream}) CHECK_RET(aclrtDestroyStream(s));
    for (Buf *x : {&a, &b, &out, &tmp}) {
        CHECK_RET(aclDestroyTensor(x->tensor));
        CHECK_RET(aclrtFree(x->dev));
    }
    CHECK_RET(aclrtFree(flag));
    CHECK_RET(aclrtFree(target));
    CHECK_RET(aclrtFreeHost(pinned));
    CHECK_RET(aclDestroyScalar(alphaOne));
    CHECK_RET(aclDestroyScalar(alphaThree));
    CHECK_RET(aclrtResetDevice(0));
    CHECK_RET(aclFinalize());
    INFO_LOG("done");
    return 0;
}
