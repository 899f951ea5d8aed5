#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_add.h"
#include "securec.h"
// The model subscription and the exception dump (in the style of hicann/runtime's example programs
// profiling/2_subscribe_model and adump/3_save_exception_info): a captured model of one aclnnAdd is
// subscribed with a pipe; each execution writes one 80-byte op record per kernel, which the program
// reads back and decodes (op type "Add", op name "aclnnAdd_Add_0", the model's id, end - start as
// the duration); unsubscribing closes the write end, so the read ends. The exception dump root is
// <dump_path>/extra-info/data-dump/0, tensors saved there are read from device memory (a freed one
// is refused with ACL_ERROR_FAILURE), and securec.h's functions return the library's codes.

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

namespace {
aclTensor *Tensor(void *addr, int64_t n) {
    std::vector<int64_t> shape{n}, strides{1};
    return aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, addr);
}

void SecurecCalls() {
    char buf[8];
    errno_t fits = memset_s(buf, sizeof(buf), 'x', 4);
    errno_t tooLong = memset_s(buf, sizeof(buf), 0, 9);  // fills the 8 bytes, then reports
    INFO_LOG("memset_s fits: %d, too long: %d, destMax 0: %d", fits, tooLong, memset_s(buf, 0, 0, 1));
    errno_t overlap = memcpy_s(buf, sizeof(buf), buf + 1, 4);
    INFO_LOG("memcpy_s overlap: %d, NULL src: %d", overlap, memcpy_s(buf, sizeof(buf), nullptr, 1));
    fits = strcpy_s(buf, sizeof(buf), "acl");
    INFO_LOG("strcpy_s fits: %d (\"%s\")", fits, buf);
    tooLong = strcpy_s(buf, sizeof(buf), "aclnn_py!");
    INFO_LOG("strcpy_s too long: %d (\"%s\")", tooLong, buf);
    int n = snprintf_s(buf, sizeof(buf), 3, "%d", 12345);
    INFO_LOG("snprintf_s cut at 3: %d (\"%s\")", n, buf);
    n = sprintf_s(buf, sizeof(buf), "%s-%d", "op", 7);
    INFO_LOG("sprintf_s: %d (\"%s\")", n, buf);
    n = sprintf_s(buf, 4, "%s", "long");
    INFO_LOG("sprintf_s too long: %d (\"%s\")", n, buf);
}
}  // namespace

int main() {
    CHECK_RET(aclInit(nullptr));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream));
    SecurecCalls();

    // ---- a model of one add, subscribed ----
    const int64_t n = 8;
    std::vector<float> ones(n, 1.0f), result(n);
    void *x = nullptr, *y = nullptr, *z = nullptr;
    for (void **p : {&x, &y, &z}) {
        CHECK_RET(aclrtMalloc(p, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_RET(aclrtMemcpy(*p, n * sizeof(float), ones.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    aclTensor *tx = Tensor(x, n), *ty = Tensor(y, n), *tz = Tensor(z, n);
    float one = 1.0f;
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnAddGetWorkspaceSize(tx, ty, alpha, tz, &ws, &executor));
    CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_RET(aclnnAdd(nullptr, ws, executor, stream));
    aclmdlRI model = nullptr;
    CHECK_RET(aclmdlRICaptureEnd(stream, &model));
    uint32_t modelId = 0;
    CHECK_RET(aclmdlRIGetId(model, &modelId));

    int fds[2];
    if (pipe(fds) != 0) return -1;
    aclprofSubscribeConfig *config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
    INFO_LOG("aclprofModelSubscribe(unknown model): %d", aclprofModelSubscribe(modelId + 100, config));
    CHECK_RET(aclprofModelSubscribe(modelId, config));
    INFO_LOG("aclprofModelSubscribe again: %d", aclprofModelSubscribe(modelId, config));
    for (int i = 0; i < 2; ++i) CHECK_RET(aclmdlRIExecuteAsync(model, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    CHECK_RET(aclprofModelUnSubscribe(modelId));
    INFO_LOG("write end after unsubscribe: %d", fds[1]);

    size_t descSize = 0;
    CHECK_RET(aclprofGetOpDescSize(&descSize));
    std::vector<char> data(descSize * 10);
    ssize_t got = 0, len = 0;
    while ((got = read(fds[0], data.data() + len, data.size() - len)) > 0) len += got;
    close(fds[0]);
    uint32_t ops = 0;
    CHECK_RET(aclprofGetOpNum(data.data(), len, &ops));
    INFO_LOG("op record size %zu, %zd bytes read, %u records", descSize, len, ops);
    for (uint32_t i = 0; i < ops; ++i) {
        size_t typeLen = 0, nameLen = 0;
        CHECK_RET(aclprofGetOpTypeLen(data.data(), len, i, &typeLen));
        std::vector<char> type(typeLen), name(ACL_PROF_MAX_OP_NAME_LEN);
        CHECK_RET(aclprofGetOpType(data.data(), len, i, type.data(), typeLen));
        CHECK_RET(aclprofGetOpNameLen(data.data(), len, i, &nameLen));
        CHECK_RET(aclprofGetOpName(data.data(), len, i, name.data(), nameLen));
        uint64_t start = aclprofGetOpStart(data.data(), len, i), end = aclprofGetOpEnd(data.data(), len, i);
        INFO_LOG("record %u: type %s, name %s, model id is ours: %s, flag %d, duration = end - start: %s", i,
                 type.data(), name.data(), aclprofGetModelId(data.data(), len, i) == modelId ? "yes" : "no",
                 static_cast<int>(aclprofGetOpFlag(data.data(), len, i)),
                 aclprofGetOpDuration(data.data(), len, i) == end - start ? "yes" : "no");
    }
    INFO_LOG("the type again: %d", aclprofGetOpType(data.data(), len, 0, data.data(), 8));
    INFO_LOG("a length of 79: %d", aclprofGetOpNum(data.data(), 79, &ops));
    CHECK_RET(aclprofDestroySubscribeConfig(config));
    CHECK_RET(aclmdlRIDestroy(model));

    // ---- a tensor-info range: one slot, reported at the pop (no session: nowhere) ----
    aclprofTensor tensor;
    (void)memset_s(&tensor, sizeof(tensor), 0, sizeof(tensor));
    tensor.format = ACL_FORMAT_ND;
    tensor.dataType = ACL_FLOAT;
    tensor.shapeDim = 1;
    tensor.shape[0] = n;
    aclprofTensorInfo tensorInfo = {aclprofStr2Id("add"), aclprofStr2Id("Add"), 0, 1, 0, 1, stream, &tensor};
    aclprofEventAttributes attr = {ACL_PROF_EVENT_ATTR_VERSION, sizeof(aclprofEventAttributes), 0, {&tensorInfo}};
    INFO_LOG("aclprofRangePop before a push: %d", aclprofRangePop());
    attr.messageType = 1;
    INFO_LOG("aclprofRangePushEx(message type 1): %d", aclprofRangePushEx(&attr));
    attr.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO;
    CHECK_RET(aclprofRangePushEx(&attr));
    CHECK_RET(aclprofRangePop());
    INFO_LOG("aclprofRangePop again (the slot is kept): %d", aclprofRangePop());

    // ---- the exception dump ----
    char root[] = "/tmp/aclnn_py_exception_XXXXXX";
    if (mkdtemp(root) == nullptr) return -1;
    std::string cfg = std::string(root) + "/acl.json";
    FILE *f = std::fopen(cfg.c_str(), "w");
    if (f == nullptr) return -1;
    std::fprintf(f, "{\"dump\": {\"dump_path\": \"%s\", \"dump_scene\": \"aic_err_brief_dump\"}}", root);
    std::fclose(f);
    char path[ACL_DUMP_MAX_FILE_PATH_LENGTH] = {0};
    INFO_LOG("acldumpGetExceptionInfoPath before the scene: %d", acldumpGetExceptionInfoPath(path, sizeof(path)));
    CHECK_RET(aclmdlInitDump());
    CHECK_RET(aclmdlSetDump(cfg.c_str()));
    CHECK_RET(acldumpGetExceptionInfoPath(path, sizeof(path)));
    std::string want = std::string(root) + "/extra-info/data-dump/0";
    INFO_LOG("exception root is <dump_path>/extra-info/data-dump/0: %s", want == path ? "yes" : "no");
    acldumpTensorInfo info;
    (void)memset_s(&info, sizeof(info), 0, sizeof(info));
    info.type = ACL_DUMP_TENSOR_OUTPUT;
    info.tensorSize = n * sizeof(float);
    info.format = ACL_FORMAT_ND;
    info.dataType = ACL_FLOAT;
    info.tensorAddr = static_cast<int64_t *>(z);
    info.addrType = ACL_DUMP_ADDR_RAW;
    info.placement = ACL_DUMP_PLACEMENT_DEVICE;
    info.shapeNum = 1;
    info.shape[0] = n;
    INFO_LOG("acldumpSaveExceptionInfo: %d", acldumpSaveExceptionInfo("out", "tag=demo", &info, 1));
    INFO_LOG("... tensorCount 0: %d", acldumpSaveExceptionInfo("out", nullptr, &info, 0));
    INFO_LOG("... fileName with '..': %d", acldumpSaveExceptionInfo("../out", nullptr, &info, 1));
    CHECK_RET(aclrtMemcpy(result.data(), n * sizeof(float), z, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("the model's result: %.1f", result[0]);

    aclDestroyTensor(tx);
    aclDestroyTensor(ty);
    aclDestroyTensor(tz);
    aclDestroyScalar(alpha);
    CHECK_RET(aclrtFree(x));
    CHECK_RET(aclrtFree(y));
    CHECK_RET(aclrtFree(z));
    INFO_LOG("... a freed tensor: %d", acldumpSaveExceptionInfo("freed", nullptr, &info, 1));
    CHECK_RET(aclmdlFinalizeDump());
    std::string clean = std::string("chmod -R u+w ") + root + " && rm -rf " + root;
    if (std::system(clean.c_str()) != 0) ERROR_LOG("cannot remove %s", root);
    CHECK_RET(aclrtDestroyStream(stream));
    CHECK_RET(aclrtResetDeviceForce(0));
    CHECK_RET(aclFinalize());
    INFO_LOG("Run the prof_dump sample successfully.");
    return 0;
}
