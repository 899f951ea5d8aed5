// Makes each documented error of the three operators (and the runtime calls around them) happen
// through the C ABI and prints, per case, "## <case>", the status code and aclGetRecentErrMsg().
// tests/test_capi.py checks every block against the documented code and message.
// Then a few checks of the ABI itself (accessors' new[] arrays, pinned host memory, stale handles).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "aclnnop/level2/aclnn_scaled_masked_softmax_backward.h"

namespace {

std::vector<void *> g_device;
std::vector<aclTensor *> g_tensors;

void Show(const char *name, int ret) {
    const char *msg = aclGetRecentErrMsg();
    std::printf("## %s\n%d\n%s\n", name, ret, msg != nullptr ? msg : "(null)");
}

// A zero-filled contiguous tensor on the device.
aclTensor *T(std::vector<int64_t> shape, aclDataType dt, aclFormat format = ACL_FORMAT_ND) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    size_t bytes = static_cast<size_t>(n > 0 ? n : 1) * aclDataTypeSize(dt);
    void *addr = nullptr;
    if (aclrtMalloc(&addr, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
    aclrtMemset(addr, bytes, 0, bytes);
    g_device.push_back(addr);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) strides[i] = shape[i + 1] * strides[i + 1];
    aclTensor *t =
        aclCreateTensor(shape.data(), shape.size(), dt, strides.data(), 0, format, shape.data(), shape.size(), addr);
    g_tensors.push_back(t);
    return t;
}

const std::vector<int64_t> k42 = {4, 2};
const std::vector<int64_t> k24 = {2, 4};
const std::vector<int64_t> k9d = {1, 1, 1, 1, 1, 1, 1, 1, 2};
const std::vector<int64_t> kBnsd = {1, 2, 4, 4};

void HardswishBackwardRows() {
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    aclTensor *f = T(k42, ACL_FLOAT), *o = T(k42, ACL_FLOAT);
    Show("hsb.null_workspace_size", aclnnHardswishBackwardGetWorkspaceSize(f, f, o, nullptr, &ex));
    Show("hsb.null_executor", aclnnHardswishBackwardGetWorkspaceSize(f, f, o, &ws, nullptr));
    Show("hsb.null_gradOutput", aclnnHardswishBackwardGetWorkspaceSize(nullptr, f, o, &ws, &ex));
    Show("hsb.null_self", aclnnHardswishBackwardGetWorkspaceSize(f, nullptr, o, &ws, &ex));
    Show("hsb.null_out", aclnnHardswishBackwardGetWorkspaceSize(f, f, nullptr, &ws, &ex));
    Show("hsb.self_int32", aclnnHardswishBackwardGetWorkspaceSize(f, T(k42, ACL_INT32), o, &ws, &ex));
    Show("hsb.gradOutput_int32", aclnnHardswishBackwardGetWorkspaceSize(T(k42, ACL_INT32), f, o, &ws, &ex));
    Show("hsb.gradOutput_fp16", aclnnHardswishBackwardGetWorkspaceSize(T(k42, ACL_FLOAT16), f, o, &ws, &ex));
    Show("hsb.out_fp16", aclnnHardswishBackwardGetWorkspaceSize(f, f, T(k42, ACL_FLOAT16), &ws, &ex));
    Show("hsb.gradOutput_rank9", aclnnHardswishBackwardGetWorkspaceSize(T(k9d, ACL_FLOAT), f, o, &ws, &ex));
    Show("hsb.self_rank9", aclnnHardswishBackwardGetWorkspaceSize(f, T(k9d, ACL_FLOAT), o, &ws, &ex));
    Show("hsb.gradOutput_shape", aclnnHardswishBackwardGetWorkspaceSize(T(k24, ACL_FLOAT), f, o, &ws, &ex));
    Show("hsb.out_shape", aclnnHardswishBackwardGetWorkspaceSize(f, f, T(k24, ACL_FLOAT), &ws, &ex));

    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    Show("hsb.phase1_ok", aclnnHardswishBackwardGetWorkspaceSize(f, f, o, &ws, &ex));
    Show("hsb.phase2_ok", aclnnHardswishBackward(nullptr, ws, ex, stream));
    Show("hsb.phase2_released_executor", aclnnHardswishBackward(nullptr, ws, ex, stream));
    Show("hsb.phase2_null_executor", aclnnHardswishBackward(nullptr, 0, nullptr, stream));
    Show("hsb.synchronize", aclrtSynchronizeStream(stream));
    aclrtDestroyStream(stream);
}

void SmoothL1LossBackwardRows() {
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    aclTensor *f = T(k42, ACL_FLOAT), *o = T(k42, ACL_FLOAT);
    Show("sl1.null_workspace_size", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, f, 0, 1.0f, o, nullptr, &ex));
    Show("sl1.null_executor", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, f, 0, 1.0f, o, &ws, nullptr));
    Show("sl1.null_gradOut", aclnnSmoothL1LossBackwardGetWorkspaceSize(nullptr, f, f, 0, 1.0f, o, &ws, &ex));
    Show("sl1.null_self", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, nullptr, f, 0, 1.0f, o, &ws, &ex));
    Show("sl1.null_target", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, nullptr, 0, 1.0f, o, &ws, &ex));
    Show("sl1.null_gradInput", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, f, 0, 1.0f, nullptr, &ws, &ex));
    Show("sl1.self_int32",
         aclnnSmoothL1LossBackwardGetWorkspaceSize(f, T(k42, ACL_INT32), f, 0, 1.0f, o, &ws, &ex));
    Show("sl1.gradOut_rank9",
         aclnnSmoothL1LossBackwardGetWorkspaceSize(T(k9d, ACL_FLOAT), f, f, 0, 1.0f, o, &ws, &ex));
    Show("sl1.reduction_3", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, f, 3, 1.0f, o, &ws, &ex));
    Show("sl1.beta_negative", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, f, 0, -1.0f, o, &ws, &ex));
    Show("sl1.beta_nan", aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, f, 0, std::nanf(""), o, &ws, &ex));
    Show("sl1.broadcast_self",
         aclnnSmoothL1LossBackwardGetWorkspaceSize(T({3, 2}, ACL_FLOAT), f, f, 0, 1.0f, o, &ws, &ex));
    Show("sl1.broadcast_target",
         aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, T({3, 2}, ACL_FLOAT), 0, 1.0f, o, &ws, &ex));
    Show("sl1.gradInput_shape",
         aclnnSmoothL1LossBackwardGetWorkspaceSize(f, f, f, 0, 1.0f, T(k24, ACL_FLOAT), &ws, &ex));
}

void ScaledMaskedSoftmaxBackwardRows() {
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    aclTensor *g = T(kBnsd, ACL_FLOAT), *y = T(kBnsd, ACL_FLOAT), *m = T(kBnsd, ACL_BOOL), *o = T(kBnsd, ACL_FLOAT);
    Show("smsb.null_mask", aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, nullptr, 1.0, false, o, &ws, &ex));
    Show("smsb.mask_fp16",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, T(kBnsd, ACL_FLOAT16), 1.0, false, o, &ws, &ex));
    Show("smsb.gradOutput_nz", aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(
                                   T(kBnsd, ACL_FLOAT, ACL_FORMAT_FRACTAL_NZ), y, m, 1.0, false, o, &ws, &ex));
    Show("smsb.mask_nz", aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(
                             g, y, T(kBnsd, ACL_BOOL, ACL_FORMAT_FRACTAL_NZ), 1.0, false, o, &ws, &ex));
    Show("smsb.gradOutput_3d",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(T({2, 4, 4}, ACL_FLOAT), y, m, 1.0, false, o, &ws, &ex));
    Show("smsb.d_4097", aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(T({1, 2, 4, 4097}, ACL_FLOAT), y, m, 1.0,
                                                                         false, o, &ws, &ex));
    Show("smsb.y_shape",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, T({1, 2, 4, 8}, ACL_FLOAT), m, 1.0, false, o, &ws, &ex));
    Show("smsb.out_shape",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, m, 1.0, false, T({1, 2, 4, 8}, ACL_FLOAT), &ws, &ex));
    Show("smsb.mask_3d",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, T({2, 4, 4}, ACL_BOOL), 1.0, false, o, &ws, &ex));
    Show("smsb.mask_s",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, T({1, 2, 8, 4}, ACL_BOOL), 1.0, false, o, &ws, &ex));
    Show("smsb.mask_broadcast",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, T({1, 3, 4, 4}, ACL_BOOL), 1.0, false, o, &ws, &ex));
    Show("smsb.fixTriuMask", aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, m, 1.0, true, o, &ws, &ex));
    Show("smsb.null_executor", aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, m, 1.0, false, o, &ws, nullptr));
    Show("smsb.null_workspace_size",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, m, 1.0, false, o, nullptr, &ex));
    Show("smsb.y_fp16",
         aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, T(kBnsd, ACL_FLOAT16), m, 1.0, false, o, &ws, &ex));

    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    Show("smsb.phase1_ok", aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(g, y, m, 1.0, false, o, &ws, &ex));
    void *workspace = nullptr;
    if (ws > 0) aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    Show("smsb.phase2_null_workspace", aclnnScaledMaskedSoftmaxBackward(nullptr, ws, ex, stream));
    Show("smsb.phase2_short_workspace", aclnnScaledMaskedSoftmaxBackward(workspace, ws - 32, ex, stream));
    Show("smsb.phase2_ok", aclnnScaledMaskedSoftmaxBackward(workspace, ws, ex, stream));
    Show("smsb.synchronize", aclrtSynchronizeStream(stream));
    if (workspace != nullptr) aclrtFree(workspace);
    aclrtDestroyStream(stream);
}

void RuntimeRows() {
    std::vector<float> host(4, 1.0f);
    void *dev = nullptr;
    aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    Show("rt.set_device_99", aclrtSetDevice(99));
    Show("rt.malloc_null_out", aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    Show("rt.memcpy_count_over_destmax", aclrtMemcpy(dev, 16, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE));
    Show("rt.memcpy_wrong_kind", aclrtMemcpy(dev, 16, host.data(), 16, ACL_MEMCPY_DEVICE_TO_HOST));
    Show("rt.create_stream_null_out", aclrtCreateStream(nullptr));
    Show("rt.memset_host_address", aclrtMemset(host.data(), 16, 0, 16));
    Show("rt.memcpy_async_host_to_host",
         aclrtMemcpyAsync(host.data(), 16, host.data() + 2, 8, ACL_MEMCPY_HOST_TO_HOST, nullptr));
    size_t freeBytes = 0, totalBytes = 0;
    Show("rt.mem_info_bad_attr", aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &freeBytes, &totalBytes));
    Show("rt.free", aclrtFree(dev));
    Show("rt.free_twice", aclrtFree(dev));
}

// The ABI's own duties: out-arrays the caller delete[]s, pinned memory C can touch, handles.
void AbiChecks() {
    aclTensor *t = T({2, 3, 4}, ACL_FLOAT16);
    int64_t *dims = nullptr;
    uint64_t num = 0;
    int ret = aclGetViewShape(t, &dims, &num);
    std::printf("## abi.view_shape\n%d\n%llu:", ret, static_cast<unsigned long long>(num));
    for (uint64_t i = 0; i < num; ++i) std::printf(" %lld", static_cast<long long>(dims[i]));
    std::printf("\n");
    delete[] dims;
    int64_t *strides = nullptr;
    ret = aclGetViewStrides(t, &strides, &num);
    std::printf("## abi.view_strides\n%d\n%llu:", ret, static_cast<unsigned long long>(num));
    for (uint64_t i = 0; i < num; ++i) std::printf(" %lld", static_cast<long long>(strides[i]));
    std::printf("\n");
    delete[] strides;
    aclDataType dt = ACL_DT_UNDEFINED;
    aclFormat fmt = ACL_FORMAT_UNDEFINED;
    int64_t offset = -1;
    aclGetDataType(t, &dt);
    aclGetFormat(t, &fmt);
    aclGetViewOffset(t, &offset);
    std::printf("## abi.accessors\n0\n%d %d %lld\n", static_cast<int>(dt), static_cast<int>(fmt),
                static_cast<long long>(offset));
    Show("abi.view_shape_null_tensor", aclGetViewShape(nullptr, &dims, &num));

    // Pinned host memory: written by C directly, copied to the device and back.
    void *pinned = nullptr, *dev = nullptr;
    ret = aclrtMallocHost(&pinned, 64);
    aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(dev, 256, 0, 256);
    for (int i = 0; i < 64; ++i) static_cast<unsigned char *>(pinned)[i] = static_cast<unsigned char>(i);
    aclrtMemcpy(dev, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE);
    std::memset(pinned, 0, 64);
    aclrtMemcpy(static_cast<unsigned char *>(pinned) + 8, 56, static_cast<unsigned char *>(dev) + 8, 56,
                ACL_MEMCPY_DEVICE_TO_HOST);
    int sum = 0;
    for (int i = 0; i < 64; ++i) sum += static_cast<unsigned char *>(pinned)[i];
    std::printf("## abi.pinned_round_trip\n%d\nsum %d\n", ret, sum);
    Show("abi.pinned_overflow", aclrtMemcpy(pinned, 128, dev, 128, ACL_MEMCPY_DEVICE_TO_HOST));
    Show("abi.free_host", aclrtFreeHost(pinned));
    aclrtFree(dev);

    // Scalars, arrays and lists cross as values and handles.
    float alpha = 2.5f;
    aclScalar *s = aclCreateScalar(&alpha, ACL_FLOAT);
    int64_t values[3] = {7, 8, 9};
    aclIntArray *arr = aclCreateIntArray(values, 3);
    uint64_t size = 0;
    aclGetIntArraySize(arr, &size);
    aclTensor *members[2] = {T(k42, ACL_FLOAT), T(k24, ACL_FLOAT)};
    aclTensorList *list = aclCreateTensorList(members, 2);
    uint64_t list_size = 0;
    aclGetTensorListSize(list, &list_size);
    std::printf("## abi.objects\n0\n%d %llu %llu\n", s != nullptr, static_cast<unsigned long long>(size),
                static_cast<unsigned long long>(list_size));
    aclDestroyScalar(s);
    aclDestroyIntArray(arr);
    aclDestroyTensorList(list);  // owns (and destroys) its two tensors
    g_tensors.pop_back();
    g_tensors.pop_back();

    // A destroyed tensor and a forged handle are refused, not dereferenced.
    aclTensor *gone = T(k42, ACL_FLOAT);
    g_tensors.pop_back();
    aclDestroyTensor(gone);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    aclTensor *f = T(k42, ACL_FLOAT);
    Show("abi.destroyed_tensor", aclnnHardswishBackwardGetWorkspaceSize(f, gone, f, &ws, &ex));
    Show("abi.forged_handle",
         aclnnHardswishBackwardGetWorkspaceSize(f, reinterpret_cast<aclTensor *>(0x1234560), f, &ws, &ex));
    Show("abi.forged_stream", aclrtSynchronizeStream(reinterpret_cast<aclrtStream>(0x7777770)));
}

}  // namespace

int main() {
    int32_t deviceId = 0;
    int ret = aclInit(nullptr);
    if (ret != ACL_SUCCESS) return ret;
    ret = aclrtSetDevice(deviceId);
    if (ret != ACL_SUCCESS) return ret;
    std::printf("## soc\n0\n%s\n", aclrtGetSocName());

    HardswishBackwardRows();
    SmoothL1LossBackwardRows();
    ScaledMaskedSoftmaxBackwardRows();
    RuntimeRows();
    AbiChecks();

    for (aclTensor *t : g_tensors) aclDestroyTensor(t);
    for (void *p : g_device) aclrtFree(p);
    aclrtResetDevice(deviceId);
    Show("finalize", aclFinalize());
    return 0;
}
