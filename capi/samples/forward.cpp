/*
 * aclnn_py's own sample of the forward twins of the backward samples:
 *   aclnnSmoothL1Loss         with beta 0.5, reduction none (one loss per element) and mean (one value)
 *   aclnnHardswish            out of place: self is left as it was
 *   aclnnInplaceHardswish     the same function written over self itself
 *   aclnnScaledMaskedSoftmax  softmax(scale * x) over the last dim, masked positions (mask true)
 *                             taking no share; the mask [1, 1, S, D] broadcasts over B and N
 * and, at the end, one deliberate error: reduction none with a result of the wrong shape.
 */
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_scaled_masked_softmax.h"

#define CHECK_RET(cond, return_expr) \
  do {                               \
    if (!(cond)) {                   \
      return_expr;                   \
    }                                \
  } while (0)

#define LOG_PRINT(message, ...)     \
  do {                              \
    printf(message, ##__VA_ARGS__); \
  } while (0)

int64_t GetShapeSize(const std::vector<int64_t>& shape) {
  int64_t shapeSize = 1;
  for (auto i : shape) {
    shapeSize *= i;
  }
  return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream) {
  // Boilerplate: initialise AscendCL, take the device, make a stream.
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
  return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor) {
  auto size = GetShapeSize(shape) * sizeof(T);
  // Device memory for the data, filled from the host.
  auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);

  // Row-major (contiguous) strides.
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = shape.size() - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }

  *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                            shape.data(), shape.size(), *deviceAddr);
  return 0;
}

// The second phase of every aclnn API has this signature.
typedef aclnnStatus (*Phase2Func)(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

// Allocates the workspace phase 1 asked for, runs phase 2, waits for the stream, frees the workspace.
int RunPhase2(const char* name, Phase2Func phase2, uint64_t workspaceSize, aclOpExecutor* executor,
              aclrtStream stream) {
  int ret = ACL_SUCCESS;
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
  }
  ret = phase2(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("%s failed. ERROR: %d\n", name, ret); return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);
  if (workspaceSize > 0) {
    aclrtFree(workspaceAddr);
  }
  return 0;
}

// Copies `size` elements of type T back to the host and prints them on one line.
template <typename T>
int PrintResult(const char* title, void* deviceAddr, int64_t size, const char* fmt) {
  std::vector<T> resultData(size, 0);
  auto ret = aclrtMemcpy(resultData.data(), size * sizeof(T), deviceAddr, size * sizeof(T),
                         ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
  LOG_PRINT("%s:", title);
  for (int64_t i = 0; i < size; i++) {
    LOG_PRINT(fmt, resultData[i]);
  }
  LOG_PRINT("\n");
  return 0;
}

int main() {
  // 1. Device and stream.
  int32_t deviceId = 0;
  aclrtStream stream;
  auto ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

  // 2. Inputs and outputs.
  std::vector<int64_t> lossShape = {2, 3};      // pred, target and the loss of reduction none
  std::vector<int64_t> meanShape = {};          // the loss of reduction mean: a 0-d tensor
  std::vector<int64_t> actShape = {2, 4};       // Hardswish
  std::vector<int64_t> xShape = {1, 2, 2, 4};   // ScaledMaskedSoftmax: [B, N, S, D]
  std::vector<int64_t> maskShape = {1, 1, 2, 4};
  std::vector<float> predHostData = {0.1, 0.9, -1.0, 2.0, 3.0, 0.0};
  std::vector<float> targetHostData = {0, 0, 0, 1, 1, 1};
  std::vector<float> actHostData = {-4, -1.5, 0, 0.5, 1.5, 2, 3, 5};
  std::vector<float> xHostData = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  std::vector<uint8_t> maskHostData = {0, 0, 0, 1, 0, 1, 1, 0};  // BOOL: 1 masks the position out
  std::vector<float> lossNoneHostData(6, 0);
  std::vector<float> lossMeanHostData(1, 0);
  std::vector<float> actOutHostData(8, 0);
  std::vector<float> yHostData(16, 0);
  void* predDeviceAddr = nullptr;
  void* targetDeviceAddr = nullptr;
  void* actDeviceAddr = nullptr;
  void* xDeviceAddr = nullptr;
  void* maskDeviceAddr = nullptr;
  void* lossNoneDeviceAddr = nullptr;
  void* lossMeanDeviceAddr = nullptr;
  void* actOutDeviceAddr = nullptr;
  void* yDeviceAddr = nullptr;
  aclTensor* pred = nullptr;
  aclTensor* target = nullptr;
  aclTensor* act = nullptr;
  aclTensor* x = nullptr;
  aclTensor* mask = nullptr;
  aclTensor* lossNone = nullptr;
  aclTensor* lossMean = nullptr;
  aclTensor* actOut = nullptr;
  aclTensor* y = nullptr;
  ret = CreateAclTensor(predHostData, lossShape, &predDeviceAddr, aclDataType::ACL_FLOAT, &pred);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(targetHostData, lossShape, &targetDeviceAddr, aclDataType::ACL_FLOAT, &target);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(actHostData, actShape, &actDeviceAddr, aclDataType::ACL_FLOAT, &act);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(maskHostData, maskShape, &maskDeviceAddr, aclDataType::ACL_BOOL, &mask);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(lossNoneHostData, lossShape, &lossNoneDeviceAddr, aclDataType::ACL_FLOAT, &lossNone);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(lossMeanHostData, meanShape, &lossMeanDeviceAddr, aclDataType::ACL_FLOAT, &lossMean);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(actOutHostData, actShape, &actOutDeviceAddr, aclDataType::ACL_FLOAT, &actOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(yHostData, xShape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // The plain arguments: reduction 0 = none, 1 = mean, 2 = sum; beta is where the loss turns linear.
  int64_t reductionNone = 0;
  int64_t reductionMean = 1;
  float beta = 0.5f;
  double scale = 0.5;
  bool fixedTriuMask = false;  // must be false: the mask comes from the tensor

  // 3. Each API: phase 1 sizes the workspace and builds the executor, phase 2 runs it.
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;

  // 3.1 aclnnSmoothL1Loss, reduction none: d = pred - target; d * d / (2 * beta) if |d| < beta, else |d| - beta / 2.
  ret = aclnnSmoothL1LossGetWorkspaceSize(pred, target, reductionNone, beta, lossNone, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSmoothL1LossGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnSmoothL1Loss", aclnnSmoothL1Loss, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnSmoothL1Loss(none, beta=0.5)", lossNoneDeviceAddr, GetShapeSize(lossShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.2 aclnnSmoothL1Loss, reduction mean: the average of the six losses above, into the 0-d result.
  ret = aclnnSmoothL1LossGetWorkspaceSize(pred, target, reductionMean, beta, lossMean, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSmoothL1LossGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnSmoothL1Loss", aclnnSmoothL1Loss, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnSmoothL1Loss(mean, beta=0.5)", lossMeanDeviceAddr, GetShapeSize(meanShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.3 aclnnHardswish out of place: actOut = act * clamp(act + 3, 0, 6) / 6, act untouched.
  ret = aclnnHardswishGetWorkspaceSize(act, actOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnHardswishGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnHardswish", aclnnHardswish, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("actOut after aclnnHardswish", actOutDeviceAddr, GetShapeSize(actShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("act after aclnnHardswish", actDeviceAddr, GetShapeSize(actShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.4 aclnnInplaceHardswish: no out tensor, the result replaces act's data on the device.
  ret = aclnnInplaceHardswishGetWorkspaceSize(act, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceHardswishGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnInplaceHardswish", aclnnInplaceHardswish, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("act after aclnnInplaceHardswish", actDeviceAddr, GetShapeSize(actShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.5 aclnnScaledMaskedSoftmax with scale 0.5: each row of 4 is softmax(0.5 * x) over its unmasked positions.
  ret = aclnnScaledMaskedSoftmaxGetWorkspaceSize(x, mask, scale, fixedTriuMask, y, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnScaledMaskedSoftmaxGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnScaledMaskedSoftmax", aclnnScaledMaskedSoftmax, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnScaledMaskedSoftmax(scale=0.5)", yDeviceAddr, GetShapeSize(xShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 4. DELIBERATE ERROR: reduction none needs a result of pred's shape [2, 3], not the 0-d lossMean.
  //    Phase 1 refuses it, makes no executor, and aclGetRecentErrMsg() tells why.
  ret = aclnnSmoothL1LossGetWorkspaceSize(pred, target, reductionNone, beta, lossMean, &workspaceSize, &executor);
  LOG_PRINT("deliberate error: aclnnSmoothL1LossGetWorkspaceSize(none, 0-d result) returned %d\n", ret);
  LOG_PRINT("[ERROR msg]%s\n", aclGetRecentErrMsg());

  // 5. Release the tensors, then the device memory and the runtime.
  aclDestroyTensor(pred);
  aclDestroyTensor(target);
  aclDestroyTensor(act);
  aclDestroyTensor(x);
  aclDestroyTensor(mask);
  aclDestroyTensor(lossNone);
  aclDestroyTensor(lossMean);
  aclDestroyTensor(actOut);
  aclDestroyTensor(y);
  aclrtFree(predDeviceAddr);
  aclrtFree(targetDeviceAddr);
  aclrtFree(actDeviceAddr);
  aclrtFree(xDeviceAddr);
  aclrtFree(maskDeviceAddr);
  aclrtFree(lossNoneDeviceAddr);
  aclrtFree(lossMeanDeviceAddr);
  aclrtFree(actOutDeviceAddr);
  aclrtFree(yDeviceAddr);
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
