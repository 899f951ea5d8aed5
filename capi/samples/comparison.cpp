// aclnn_py's sample of the comparisons and of maximum / minimum: aclnnEqTensor, aclnnNeTensor,
// aclnnGtTensor, aclnnGeTensor, aclnnLtTensor, aclnnLeTensor, their scalar forms (aclnnEqScalar ...),
// the in-place forms of all twelve (aclnnInplaceEqTensor ... aclnnInplaceLeScalar), aclnnMaximum and
// aclnnMinimum. A comparison computes a BOOL result and casts it to out's dtype (in place: to the
// dtype of selfRef, which receives the result).
// Every API runs in two phases: XxxGetWorkspaceSize checks the arguments and builds an executor,
// then Xxx runs that executor on a stream with a workspace of the size phase 1 reported.
// Build: g++ -std=c++17 comparison.cpp $(.venv/bin/python capi/build.py --cflags --libs)
// (FLOAT16 host data is held in GCC's _Float16.)
#include <cstdio>
#include <type_traits>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"

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

// Copy hostData over the device memory at deviceAddr again (the same number of bytes).
template <typename T>
int Reload(const std::vector<T>& hostData, void* deviceAddr) {
  auto size = hostData.size() * sizeof(T);
  auto ret = aclrtMemcpy(deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
  return 0;
}

// Copy `size` elements of type T back to the host and print them on one line.
template <typename T>
int PrintResult(const char* label, void* deviceAddr, int64_t size) {
  std::vector<T> resultData(size, 0);
  auto ret = aclrtMemcpy(resultData.data(), size * sizeof(T), deviceAddr, size * sizeof(T),
                         ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
  LOG_PRINT("%-42s", label);
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

  // 2. Host data, then device tensors and scalars (a BOOL element is one byte, 0 or 1)
  std::vector<int64_t> matShape = {2, 3};
  std::vector<int64_t> rowShape = {3};
  std::vector<int64_t> vecShape = {4};
  std::vector<float> aHostData = {1, 2, 3, 4, 5, 6};
  std::vector<int32_t> bHostData = {3, 2, 6};
  std::vector<uint8_t> outBoolHostData(6, 0);
  std::vector<float> outHostData(6, 0);
  std::vector<_Float16> hHostData = {0.1, 0.2, 0.3, 1};
  std::vector<int8_t> smallHostData = {44, 1, -1, 0};
  std::vector<uint8_t> flagsHostData = {1, 0, 1, 0};
  std::vector<uint8_t> outBool4HostData(4, 0);
  void* aDeviceAddr = nullptr;
  void* bDeviceAddr = nullptr;
  void* outBoolDeviceAddr = nullptr;
  void* outDeviceAddr = nullptr;
  void* hDeviceAddr = nullptr;
  void* smallDeviceAddr = nullptr;
  void* flagsDeviceAddr = nullptr;
  void* outBool4DeviceAddr = nullptr;
  void* cDeviceAddr = nullptr;
  aclTensor* a = nullptr;         // FLOAT [2, 3]
  aclTensor* b = nullptr;         // INT32 [3], broadcast over the rows of a
  aclTensor* outBool = nullptr;   // BOOL [2, 3]
  aclTensor* out = nullptr;       // FLOAT [2, 3]
  aclTensor* h = nullptr;         // FLOAT16 [4]
  aclTensor* small = nullptr;     // INT8 [4]
  aclTensor* flags = nullptr;     // BOOL [4]
  aclTensor* outBool4 = nullptr;  // BOOL [4]
  aclTensor* c = nullptr;         // FLOAT [2, 3], a's values: the in-place calls' selfRef
  ret = CreateAclTensor(aHostData, matShape, &aDeviceAddr, aclDataType::ACL_FLOAT, &a);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(bHostData, rowShape, &bDeviceAddr, aclDataType::ACL_INT32, &b);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outBoolHostData, matShape, &outBoolDeviceAddr, aclDataType::ACL_BOOL, &outBool);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outHostData, matShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(hHostData, vecShape, &hDeviceAddr, aclDataType::ACL_FLOAT16, &h);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(smallHostData, vecShape, &smallDeviceAddr, aclDataType::ACL_INT8, &small);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(flagsHostData, vecShape, &flagsDeviceAddr, aclDataType::ACL_BOOL, &flags);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(outBool4HostData, vecShape, &outBool4DeviceAddr, aclDataType::ACL_BOOL, &outBool4);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(aHostData, matShape, &cDeviceAddr, aclDataType::ACL_FLOAT, &c);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  double pointOneValue = 0.1;
  double threeHalvesValue = 3.5;
  int64_t bigValue = 300;
  int64_t threeValue = 3;
  int64_t zeroValue = 0;
  aclScalar* pointOne = aclCreateScalar(&pointOneValue, aclDataType::ACL_DOUBLE);
  aclScalar* threeHalves = aclCreateScalar(&threeHalvesValue, aclDataType::ACL_DOUBLE);
  aclScalar* big = aclCreateScalar(&bigValue, aclDataType::ACL_INT64);
  aclScalar* three = aclCreateScalar(&threeValue, aclDataType::ACL_INT64);
  aclScalar* zero = aclCreateScalar(&zeroValue, aclDataType::ACL_INT64);
  CHECK_RET(pointOne != nullptr && threeHalves != nullptr && big != nullptr && three != nullptr && zero != nullptr,
            LOG_PRINT("aclCreateScalar failed.\n"); return 1);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;

  // 3. Tensor against tensor: a (FLOAT [2, 3]) against b (INT32 [3]) broadcast over its rows.
  //    The pair is promoted to FLOAT and compared; out is BOOL, one byte per element.
  ret = aclnnEqTensorGetWorkspaceSize(a, b, outBool, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnEqTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnEqTensor", aclnnEqTensor, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnEqTensor  a == b", outBoolDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnNeTensorGetWorkspaceSize(a, b, outBool, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnNeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnNeTensor", aclnnNeTensor, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnNeTensor  a != b", outBoolDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnGtTensorGetWorkspaceSize(a, b, outBool, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnGtTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnGtTensor", aclnnGtTensor, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnGtTensor  a > b", outBoolDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnGeTensorGetWorkspaceSize(a, b, outBool, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnGeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnGeTensor", aclnnGeTensor, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnGeTensor  a >= b", outBoolDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnLtTensorGetWorkspaceSize(a, b, outBool, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLtTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnLtTensor", aclnnLtTensor, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnLtTensor  a < b", outBoolDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnLeTensorGetWorkspaceSize(a, b, outBool, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnLeTensor", aclnnLeTensor, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnLeTensor  a <= b", outBoolDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // 4. Elementwise maximum and minimum of the same pair, into a FLOAT out
  ret = aclnnMaximumGetWorkspaceSize(a, b, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnMaximumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnMaximum", aclnnMaximum, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnMaximum   max(a, b)", outDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnMinimumGetWorkspaceSize(a, b, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnMinimumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnMinimum", aclnnMinimum, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnMinimum   min(a, b)", outDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // 5. Tensor against scalar: the scalar is converted to the dtype the comparison runs in.
  // EqScalar compares a FLOAT16 tensor in FLOAT16: 0.1 is rounded like h[0], so they are equal ...
  ret = aclnnEqScalarGetWorkspaceSize(h, pointOne, outBool4, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnEqScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnEqScalar", aclnnEqScalar, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnEqScalar  h == 0.1 (FLOAT16)", outBool4DeviceAddr, 4) == ACL_SUCCESS, return 1);
  // ... GeScalar (on Ascend910B) keeps the DOUBLE 0.1, which FLOAT16 cannot hold: float16(0.1) < 0.1 in DOUBLE
  ret = aclnnGeScalarGetWorkspaceSize(h, pointOne, outBool4, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnGeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnGeScalar", aclnnGeScalar, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnGeScalar  h >= 0.1 (DOUBLE)", outBool4DeviceAddr, 4) == ACL_SUCCESS, return 1);
  // an INT8 tensor keeps its dtype: the INT64 scalar 300 becomes int8 44, so 44 != 300 is false
  ret = aclnnNeScalarGetWorkspaceSize(small, big, outBool4, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnNeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnNeScalar", aclnnNeScalar, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnNeScalar  small != 300 (INT8)", outBool4DeviceAddr, 4) == ACL_SUCCESS, return 1);
  // the BOOL result cast to a FLOAT out: 0.0 or 1.0
  ret = aclnnGtScalarGetWorkspaceSize(a, threeHalves, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnGtScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnGtScalar", aclnnGtScalar, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnGtScalar  a > 3.5 (FLOAT out)", outDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnLtScalarGetWorkspaceSize(a, three, outBool, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLtScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnLtScalar", aclnnLtScalar, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnLtScalar  a < 3", outBoolDeviceAddr, 6) == ACL_SUCCESS, return 1);
  // a BOOL input compares as numbers: true is 1, false is 0
  ret = aclnnLeScalarGetWorkspaceSize(flags, zero, outBool4, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnLeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnLeScalar", aclnnLeScalar, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<uint8_t>("aclnnLeScalar  flags <= 0 (BOOL)", outBool4DeviceAddr, 4) == ACL_SUCCESS, return 1);

  // 6. In place: selfRef = (selfRef OP other). The BOOL result is cast back to selfRef's own dtype
  //    and written into it. c (FLOAT [2, 3]) gets a's values again before each call; b (INT32 [3])
  //    is broadcast into c's shape (other must broadcast to selfRef's shape, never the reverse).
  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceEqTensorGetWorkspaceSize(c, b, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceEqTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceEqTensor", aclnnInplaceEqTensor, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceEqTensor c == b", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceNeTensorGetWorkspaceSize(c, b, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceNeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceNeTensor", aclnnInplaceNeTensor, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceNeTensor c != b", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceGtTensorGetWorkspaceSize(c, b, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceGtTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceGtTensor", aclnnInplaceGtTensor, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceGtTensor c > b", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceGeTensorGetWorkspaceSize(c, b, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceGeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceGeTensor", aclnnInplaceGeTensor, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceGeTensor c >= b", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceLtTensorGetWorkspaceSize(c, b, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceLtTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceLtTensor", aclnnInplaceLtTensor, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceLtTensor c < b", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceLeTensorGetWorkspaceSize(c, b, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceLeTensorGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceLeTensor", aclnnInplaceLeTensor, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceLeTensor c <= b", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // an INT8 selfRef: the scalar 300 becomes int8 44 again, and the result is INT8 1 or 0
  ret = aclnnInplaceEqScalarGetWorkspaceSize(small, big, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceEqScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceEqScalar", aclnnInplaceEqScalar, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<int8_t>("aclnnInplaceEqScalar small == 300 (INT8)", smallDeviceAddr, 4) ==
                ACL_SUCCESS, return 1);

  // a FLOAT selfRef against INT64 scalars compares in FLOAT
  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceNeScalarGetWorkspaceSize(c, three, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceNeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceNeScalar", aclnnInplaceNeScalar, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceNeScalar c != 3", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceGtScalarGetWorkspaceSize(c, threeHalves, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceGtScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceGtScalar", aclnnInplaceGtScalar, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceGtScalar c > 3.5", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // a FLOAT16 selfRef: compared in DOUBLE as above, the result written back as FLOAT16 0.0 or 1.0
  ret = aclnnInplaceGeScalarGetWorkspaceSize(h, pointOne, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceGeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceGeScalar", aclnnInplaceGeScalar, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<_Float16>("aclnnInplaceGeScalar h >= 0.1 (FLOAT16)", hDeviceAddr, 4) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceLtScalarGetWorkspaceSize(c, threeHalves, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceLtScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceLtScalar", aclnnInplaceLtScalar, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceLtScalar c < 3.5", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  CHECK_RET(Reload(aHostData, cDeviceAddr) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceLeScalarGetWorkspaceSize(c, three, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceLeScalarGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceLeScalar", aclnnInplaceLeScalar, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceLeScalar c <= 3", cDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // 7. DELIBERATE ERROR: a [2, 3] and b [3] broadcast to [2, 3], but this out is [4].
  //    Phase 1 refuses the call (no executor is made); the status and the message say why.
  ret = aclnnEqTensorGetWorkspaceSize(a, b, outBool4, &workspaceSize, &executor);
  LOG_PRINT("\ndeliberate error: aclnnEqTensorGetWorkspaceSize into a [4] out returned %d\n%s", ret,
            aclGetRecentErrMsg());

  // 8. Release tensors, scalars, device memory, stream and device
  aclDestroyTensor(a);
  aclDestroyTensor(b);
  aclDestroyTensor(outBool);
  aclDestroyTensor(out);
  aclDestroyTensor(h);
  aclDestroyTensor(small);
  aclDestroyTensor(flags);
  aclDestroyTensor(outBool4);
  aclDestroyTensor(c);
  aclDestroyScalar(pointOne);
  aclDestroyScalar(threeHalves);
  aclDestroyScalar(big);
  aclDestroyScalar(three);
  aclDestroyScalar(zero);
  aclrtFree(aDeviceAddr);
  aclrtFree(bDeviceAddr);
  aclrtFree(outBoolDeviceAddr);
  aclrtFree(outDeviceAddr);
  aclrtFree(hDeviceAddr);
  aclrtFree(smallDeviceAddr);
  aclrtFree(flagsDeviceAddr);
  aclrtFree(outBool4DeviceAddr);
  aclrtFree(cDeviceAddr);
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
