// aclnn_py's sample of the arithmetic family: aclnnAdd, aclnnSub, aclnnMul, aclnnDiv, their
// scalar forms (aclnnAdds ...) and their in-place forms (aclnnInplaceAdd, aclnnInplaceAdds ...).
// Every API runs in two phases: XxxGetWorkspaceSize checks the arguments and builds an executor,
// then Xxx runs that executor on a stream with a workspace of the size phase 1 reported.
// Build: g++ -std=c++17 arithmetic.cpp $(.venv/bin/python capi/build.py --cflags --libs)
// (FLOAT16 host data is held in GCC's _Float16.)
#include <cstdio>
#include <type_traits>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"

#define CHECK_RET(cond, return_expr) do { if (!(cond)) { return_expr; } } while (0)
#define LOG_PRINT(message, ...) do { printf(message, ##__VA_ARGS__); } while (0)

int64_t GetShapeSize(const std::vector<int64_t>& shape) {
  int64_t shapeSize = 1;
  for (auto dim : shape) {
    shapeSize *= dim;
  }
  return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream) {
  auto ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
  ret = aclrtCreateStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
  return 0;
}

// Device memory holding hostData, and a contiguous ND tensor over it.
template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor) {
  auto size = GetShapeSize(shape) * sizeof(T);
  auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
  ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> strides(shape.size(), 1);  // row-major: the last dim varies fastest
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
    strides[i] = shape[i + 1] * strides[i + 1];
  }
  *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                            shape.data(), shape.size(), *deviceAddr);
  return 0;
}

// The second phase of every aclnn API has this signature.
using Phase2Func = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

// Phase 2: allocate the workspace phase 1 asked for, launch, wait for the stream, free the workspace.
int RunPhase2(const char* name, Phase2Func phase2, uint64_t workspaceSize, aclOpExecutor* executor,
              aclrtStream stream) {
  void* workspaceAddr = nullptr;
  if (workspaceSize > 0) {
    auto ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
  }
  auto ret = phase2(workspaceAddr, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("%s failed. ERROR: %d\n", name, ret); return ret);
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);
  if (workspaceSize > 0) {
    aclrtFree(workspaceAddr);
  }
  return 0;
}

// Copy `size` elements of type T back to the host and print them on one line.
template <typename T>
int PrintResult(const char* label, void* deviceAddr, int64_t size) {
  std::vector<T> resultData(size, 0);
  auto ret = aclrtMemcpy(resultData.data(), size * sizeof(T), deviceAddr, size * sizeof(T),
                         ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
  LOG_PRINT("%-34s", label);
  for (int64_t i = 0; i < size; i++) {
    if (std::is_integral<T>::value) {
      LOG_PRINT(" %ld", static_cast<int64_t>(resultData[i]));
    } else {
      LOG_PRINT(" %f", static_cast<double>(resultData[i]));
    }
  }
  LOG_PRINT("\n");
  return 0;
}

int main() {
  // 1. Device and stream
  int32_t deviceId = 0;
  aclrtStream stream;
  auto ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

  // 2. Host data, then device tensors and scalars
  std::vector<int64_t> matShape = {2, 3};
  std::vector<int64_t> rowShape = {3};
  std::vector<int64_t> vecShape = {4};
  std::vector<int64_t> oneShape = {1};
  std::vector<float> xHostData = {0, 1, 2, 3, 4, 5};
  std::vector<float> rowHostData = {10, 20, 30};
  std::vector<float> accHostData = {1, 2, 3, 4, 5, 6};
  std::vector<float> outHostData(6, 0);
  std::vector<int32_t> numHostData = {7, -7, 1, 0};
  std::vector<int32_t> denHostData = {2, 2, 0, 0};
  std::vector<int32_t> outI32HostData(4, 0);
  std::vector<int8_t> smallHostData = {1, 2, 3, 100};
  std::vector<int8_t> outI8HostData(4, 0);
  std::vector<_Float16> halfHostData = {935, 1, -2.5, 100};
  std::vector<_Float16> outHalfHostData(4, 0);
  std::vector<float> factorHostData = {1.1f};
  std::vector<float> out4HostData(4, 0);
  void* xDeviceAddr = nullptr;
  void* rowDeviceAddr = nullptr;
  void* accDeviceAddr = nullptr;
  void* outDeviceAddr = nullptr;
  void* numDeviceAddr = nullptr;
  void* denDeviceAddr = nullptr;
  void* outI32DeviceAddr = nullptr;
  void* smallDeviceAddr = nullptr;
  void* outI8DeviceAddr = nullptr;
  void* halfDeviceAddr = nullptr;
  void* outHalfDeviceAddr = nullptr;
  void* factorDeviceAddr = nullptr;
  void* out4DeviceAddr = nullptr;
  aclTensor* x = nullptr;       // FLOAT [2, 3]
  aclTensor* row = nullptr;     // FLOAT [3], broadcast over the rows of x
  aclTensor* acc = nullptr;     // FLOAT [2, 3], updated in place
  aclTensor* out = nullptr;     // FLOAT [2, 3]
  aclTensor* num = nullptr;     // INT32 [4]
  aclTensor* den = nullptr;     // INT32 [4]
  aclTensor* outI32 = nullptr;  // INT32 [4]
  aclTensor* small = nullptr;   // INT8 [4]
  aclTensor* outI8 = nullptr;   // INT8 [4]
  aclTensor* half = nullptr;    // FLOAT16 [4]
  aclTensor* outHalf = nullptr; // FLOAT16 [4]
  aclTensor* factor = nullptr;  // FLOAT [1], broadcast over [4]
  aclTensor* out4 = nullptr;    // FLOAT [4]
  ret = CreateAclTensor(xHostData, matShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(rowHostData, rowShape, &rowDeviceAddr, aclDataType::ACL_FLOAT, &row);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(accHostData, matShape, &accDeviceAddr, aclDataType::ACL_FLOAT, &acc);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outHostData, matShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(numHostData, vecShape, &numDeviceAddr, aclDataType::ACL_INT32, &num);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(denHostData, vecShape, &denDeviceAddr, aclDataType::ACL_INT32, &den);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outI32HostData, vecShape, &outI32DeviceAddr, aclDataType::ACL_INT32, &outI32);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(smallHostData, vecShape, &smallDeviceAddr, aclDataType::ACL_INT8, &small);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outI8HostData, vecShape, &outI8DeviceAddr, aclDataType::ACL_INT8, &outI8);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(halfHostData, vecShape, &halfDeviceAddr, aclDataType::ACL_FLOAT16, &half);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outHalfHostData, vecShape, &outHalfDeviceAddr, aclDataType::ACL_FLOAT16, &outHalf);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(factorHostData, oneShape, &factorDeviceAddr, aclDataType::ACL_FLOAT, &factor);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(out4HostData, vecShape, &out4DeviceAddr, aclDataType::ACL_FLOAT, &out4);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  // aclCreateScalar copies the value its pointer points to, in the given dtype
  float alphaValue = 2.5f;
  float halfValue = 0.5f;
  float elevenValue = 1.1f;
  double divisorValue = 3.0;
  int64_t oneValue = 1;
  int64_t threeValue = 3;
  int64_t bigValue = 300;
  aclScalar* alpha = aclCreateScalar(&alphaValue, aclDataType::ACL_FLOAT);
  aclScalar* halfScalar = aclCreateScalar(&halfValue, aclDataType::ACL_FLOAT);
  aclScalar* eleven = aclCreateScalar(&elevenValue, aclDataType::ACL_FLOAT);
  aclScalar* divisor = aclCreateScalar(&divisorValue, aclDataType::ACL_DOUBLE);
  aclScalar* one = aclCreateScalar(&oneValue, aclDataType::ACL_INT64);
  aclScalar* three = aclCreateScalar(&threeValue, aclDataType::ACL_INT64);
  aclScalar* big = aclCreateScalar(&bigValue, aclDataType::ACL_INT64);
  CHECK_RET(alpha != nullptr && halfScalar != nullptr && eleven != nullptr && divisor != nullptr && one != nullptr &&
                three != nullptr && big != nullptr,
            LOG_PRINT("aclCreateScalar failed.\n"); return 1);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;

  // 3. Out of place: out = f(inputs), the inputs unchanged
  // broadcasting and a non-default alpha: x [2, 3] + 2.5 * row [3]
  ret = aclnnAddGetWorkspaceSize(x, row, alpha, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnAddGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnAdd", aclnnAdd, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnAdd     x + 2.5 * row", outDeviceAddr, 6) == ACL_SUCCESS, return 1);
  // an INT8 tensor keeps its dtype: the INT64 scalar 300 becomes int8 44, and 100 + 44 wraps
  ret = aclnnAddsGetWorkspaceSize(small, big, one, outI8, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnAddsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnAdds", aclnnAdds, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<int8_t>("aclnnAdds    small + 300 (INT8)", outI8DeviceAddr, 4) == ACL_SUCCESS, return 1);
  // integers stay exact: num - 3 * den in INT32
  ret = aclnnSubGetWorkspaceSize(num, den, three, outI32, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSubGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnSub", aclnnSub, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<int32_t>("aclnnSub     num - 3 * den", outI32DeviceAddr, 4) == ACL_SUCCESS, return 1);
  // a scalar other and an alpha: x - 3 * 0.5
  ret = aclnnSubsGetWorkspaceSize(x, halfScalar, three, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSubsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnSubs", aclnnSubs, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnSubs    x - 3 * 0.5", outDeviceAddr, 6) == ACL_SUCCESS, return 1);
  // mixed dtypes: FLOAT16 times FLOAT is computed in FLOAT (factor [1] broadcast over [4])
  ret = aclnnMulGetWorkspaceSize(half, factor, out4, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnMulGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnMul", aclnnMul, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnMul     half * factor (FLOAT)", out4DeviceAddr, 4) == ACL_SUCCESS, return 1);
  // the same 1.1 as a scalar: on Ascend910B a FLOAT16 tensor keeps its dtype, 1.1 becomes float16 1.099609375
  ret = aclnnMulsGetWorkspaceSize(half, eleven, outHalf, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnMulsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnMuls", aclnnMuls, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<_Float16>("aclnnMuls    half * 1.1 (FLOAT16)", outHalfDeviceAddr, 4) == ACL_SUCCESS, return 1);
  // true division: INT32 / INT32 gives FLOAT, and x / 0 gives inf or nan
  ret = aclnnDivGetWorkspaceSize(num, den, out4, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnDivGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnDiv", aclnnDiv, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnDiv     num / den", out4DeviceAddr, 4) == ACL_SUCCESS, return 1);
  // a DOUBLE scalar divides a FLOAT tensor in FLOAT
  ret = aclnnDivsGetWorkspaceSize(x, divisor, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnDivsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnDivs", aclnnDivs, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnDivs    x / 3.0", outDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // 4. In place: each call updates acc (FLOAT [2, 3], initially 1..6) and the next one reads it
  // selfRef and other may be the same tensor: acc += 1 * acc
  ret = aclnnInplaceAddGetWorkspaceSize(acc, acc, one, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceAddGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceAdd", aclnnInplaceAdd, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceAdd   acc += acc", accDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceAddsGetWorkspaceSize(acc, three, halfScalar, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceAddsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceAdds", aclnnInplaceAdds, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceAdds  acc += 0.5 * 3", accDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceSubGetWorkspaceSize(acc, x, alpha, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceSubGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceSub", aclnnInplaceSub, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceSub   acc -= 2.5 * x", accDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceSubsGetWorkspaceSize(acc, halfScalar, one, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceSubsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceSubs", aclnnInplaceSubs, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceSubs  acc -= 0.5", accDeviceAddr, 6) == ACL_SUCCESS, return 1);
  // other broadcasts to selfRef's shape [2, 3]
  ret = aclnnInplaceMulGetWorkspaceSize(acc, row, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceMulGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceMul", aclnnInplaceMul, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceMul   acc *= row", accDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceMulsGetWorkspaceSize(acc, halfScalar, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceMulsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceMuls", aclnnInplaceMuls, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceMuls  acc *= 0.5", accDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceDivGetWorkspaceSize(acc, row, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceDivGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceDiv", aclnnInplaceDiv, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceDiv   acc /= row", accDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceDivsGetWorkspaceSize(acc, divisor, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceDivsGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceDivs", aclnnInplaceDivs, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceDivs  acc /= 3.0", accDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // 5. DELIBERATE ERROR: FLOAT16 + FLOAT promotes to FLOAT, which an INT32 out cannot hold.
  //    Phase 1 refuses the call (no executor is made); the status and the message say why.
  ret = aclnnAddGetWorkspaceSize(half, factor, one, outI32, &workspaceSize, &executor);
  LOG_PRINT("\ndeliberate error: aclnnAddGetWorkspaceSize into an INT32 out returned %d\n%s", ret,
            aclGetRecentErrMsg());

  // 6. Release tensors, scalars, device memory, stream and device
  aclDestroyTensor(x);
  aclDestroyTensor(row);
  aclDestroyTensor(acc);
  aclDestroyTensor(out);
  aclDestroyTensor(num);
  aclDestroyTensor(den);
  aclDestroyTensor(outI32);
  aclDestroyTensor(small);
  aclDestroyTensor(outI8);
  aclDestroyTensor(half);
  aclDestroyTensor(outHalf);
  aclDestroyTensor(factor);
  aclDestroyTensor(out4);
  aclDestroyScalar(alpha);
  aclDestroyScalar(halfScalar);
  aclDestroyScalar(eleven);
  aclDestroyScalar(divisor);
  aclDestroyScalar(one);
  aclDestroyScalar(three);
  aclDestroyScalar(big);
  aclrtFree(xDeviceAddr);
  aclrtFree(rowDeviceAddr);
  aclrtFree(accDeviceAddr);
  aclrtFree(outDeviceAddr);
  aclrtFree(numDeviceAddr);
  aclrtFree(denDeviceAddr);
  aclrtFree(outI32DeviceAddr);
  aclrtFree(smallDeviceAddr);
  aclrtFree(outI8DeviceAddr);
  aclrtFree(halfDeviceAddr);
  aclrtFree(outHalfDeviceAddr);
  aclrtFree(factorDeviceAddr);
  aclrtFree(out4DeviceAddr);
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
