/*
 * aclnn_py's own sample of the sign / clamp / all / any family:
 *   aclnnSign      on a FLOAT and on an INT32 tensor (the result keeps the input's dtype)
 *   aclnnClamp     with both bounds, then with the upper bound left out (nullptr)
 *   aclnnClampMin  and aclnnClampMax on INT32 with INT32 scalar bounds
 *   aclnnAll       and aclnnAny on INT32 (non-zero counts as true), dim -1, with and without keepdim
 * and, at the end, one deliberate error: aclnnAll asked for a dim the tensor does not have.
 */
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_any.h"

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

  // 2. Inputs and outputs: x is FLOAT [2, 3] (no zero, no NaN), n is INT32 [3, 2].
  std::vector<int64_t> xShape = {2, 3};
  std::vector<int64_t> nShape = {3, 2};
  std::vector<int64_t> allShape = {3, 1};  // n reduced over dim -1, keepdim = true
  std::vector<int64_t> anyShape = {3};     // n reduced over dim -1, keepdim = false
  std::vector<float> xHostData = {-2.5, -0.5, 0.25, 1.0, 3.0, -7.0};
  std::vector<int32_t> nHostData = {-5, 9, 0, 3, 0, 0};
  std::vector<float> xOutHostData(6, 0);
  std::vector<int32_t> nOutHostData(6, 0);
  std::vector<uint8_t> allHostData(3, 0);  // BOOL results: one byte each
  std::vector<uint8_t> anyHostData(3, 0);
  void* xDeviceAddr = nullptr;
  void* nDeviceAddr = nullptr;
  void* xOutDeviceAddr = nullptr;
  void* nOutDeviceAddr = nullptr;
  void* allDeviceAddr = nullptr;
  void* anyDeviceAddr = nullptr;
  aclTensor* x = nullptr;
  aclTensor* n = nullptr;
  aclTensor* xOut = nullptr;
  aclTensor* nOut = nullptr;
  aclTensor* allOut = nullptr;
  aclTensor* anyOut = nullptr;
  ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(nHostData, nShape, &nDeviceAddr, aclDataType::ACL_INT32, &n);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(xOutHostData, xShape, &xOutDeviceAddr, aclDataType::ACL_FLOAT, &xOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(nOutHostData, nShape, &nOutDeviceAddr, aclDataType::ACL_INT32, &nOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(allHostData, allShape, &allDeviceAddr, aclDataType::ACL_BOOL, &allOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(anyHostData, anyShape, &anyDeviceAddr, aclDataType::ACL_BOOL, &anyOut);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // Scalar bounds: the scalar copies the value its pointer points to.
  float lowValue = -1.0f;
  float highValue = 2.0f;
  int32_t intLowValue = 0;
  int32_t intHighValue = 5;
  aclScalar* low = aclCreateScalar(&lowValue, aclDataType::ACL_FLOAT);
  CHECK_RET(low != nullptr, return ret);
  aclScalar* high = aclCreateScalar(&highValue, aclDataType::ACL_FLOAT);
  CHECK_RET(high != nullptr, return ret);
  aclScalar* intLow = aclCreateScalar(&intLowValue, aclDataType::ACL_INT32);
  CHECK_RET(intLow != nullptr, return ret);
  aclScalar* intHigh = aclCreateScalar(&intHighValue, aclDataType::ACL_INT32);
  CHECK_RET(intHigh != nullptr, return ret);

  // The reduced dims of All and Any: -1 is the last dim.
  std::vector<int64_t> dimData = {-1};
  aclIntArray* dim = aclCreateIntArray(dimData.data(), dimData.size());
  CHECK_RET(dim != nullptr, return ret);

  // 3. Each API: phase 1 sizes the workspace and builds the executor, phase 2 runs it.
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;

  // 3.1 aclnnSign, FLOAT: -1 or 1, as floats.
  ret = aclnnSignGetWorkspaceSize(x, xOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSignGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnSign", aclnnSign, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnSign(x)", xOutDeviceAddr, GetShapeSize(xShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.2 aclnnSign, INT32: 0 stays 0.
  ret = aclnnSignGetWorkspaceSize(n, nOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSignGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnSign", aclnnSign, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<int32_t>("aclnnSign(n)", nOutDeviceAddr, GetShapeSize(nShape), " %d");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.3 aclnnClamp with both bounds: min(max(x, -1), 2).
  ret = aclnnClampGetWorkspaceSize(x, low, high, xOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnClampGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnClamp", aclnnClamp, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnClamp(x, -1, 2)", xOutDeviceAddr, GetShapeSize(xShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.4 aclnnClamp with one bound: a null clipValueMax means no upper bound (3 stays 3).
  ret = aclnnClampGetWorkspaceSize(x, low, nullptr, xOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnClampGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnClamp", aclnnClamp, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnClamp(x, -1, nullptr)", xOutDeviceAddr, GetShapeSize(xShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.5 aclnnClampMin on INT32: max(n, 0).
  ret = aclnnClampMinGetWorkspaceSize(n, intLow, nOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnClampMinGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnClampMin", aclnnClampMin, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<int32_t>("aclnnClampMin(n, 0)", nOutDeviceAddr, GetShapeSize(nShape), " %d");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.6 aclnnClampMax on INT32: min(n, 5).
  ret = aclnnClampMaxGetWorkspaceSize(n, intHigh, nOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnClampMaxGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnClampMax", aclnnClampMax, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<int32_t>("aclnnClampMax(n, 5)", nOutDeviceAddr, GetShapeSize(nShape), " %d");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.7 aclnnAll over dim -1 with keepdim: is every element of the row non-zero? out is [3, 1].
  ret = aclnnAllGetWorkspaceSize(n, dim, true, allOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnAllGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnAll", aclnnAll, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<uint8_t>("aclnnAll(n, [-1], keepdim=true)", allDeviceAddr, GetShapeSize(allShape), " %d");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.8 aclnnAny over dim -1 without keepdim: is some element of the row non-zero? out is [3].
  ret = aclnnAnyGetWorkspaceSize(n, dim, false, anyOut, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnAnyGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnAny", aclnnAny, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<uint8_t>("aclnnAny(n, [-1], keepdim=false)", anyDeviceAddr, GetShapeSize(anyShape), " %d");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 4. DELIBERATE ERROR: n has 2 dims, so dim 2 is out of range [-2, 1]. Phase 1 refuses it,
  //    makes no executor, and aclGetRecentErrMsg() tells why.
  std::vector<int64_t> badDimData = {2};
  aclIntArray* badDim = aclCreateIntArray(badDimData.data(), badDimData.size());
  CHECK_RET(badDim != nullptr, return ret);
  ret = aclnnAllGetWorkspaceSize(n, badDim, true, allOut, &workspaceSize, &executor);
  LOG_PRINT("deliberate error: aclnnAllGetWorkspaceSize(dim=[2]) returned %d\n", ret);
  LOG_PRINT("[ERROR msg]%s\n", aclGetRecentErrMsg());

  // 5. Release the tensors, scalars and arrays, then the device memory and the runtime.
  aclDestroyTensor(x);
  aclDestroyTensor(n);
  aclDestroyTensor(xOut);
  aclDestroyTensor(nOut);
  aclDestroyTensor(allOut);
  aclDestroyTensor(anyOut);
  aclDestroyScalar(low);
  aclDestroyScalar(high);
  aclDestroyScalar(intLow);
  aclDestroyScalar(intHigh);
  aclDestroyIntArray(dim);
  aclDestroyIntArray(badDim);
  aclrtFree(xDeviceAddr);
  aclrtFree(nDeviceAddr);
  aclrtFree(xOutDeviceAddr);
  aclrtFree(nOutDeviceAddr);
  aclrtFree(allDeviceAddr);
  aclrtFree(anyDeviceAddr);
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
