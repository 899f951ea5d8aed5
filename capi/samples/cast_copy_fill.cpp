// aclnn_py's sample of conversion and filling: aclnnCast, aclnnInplaceCopy, aclnnInplaceZero,
// aclnnInplaceOne and aclnnInplaceFillScalar.
// Every API runs in two phases: XxxGetWorkspaceSize checks the arguments and builds an executor,
// then Xxx runs that executor on a stream with a workspace of the size phase 1 reported.
// Build: g++ -std=c++17 cast_copy_fill.cpp $(.venv/bin/python capi/build.py --cflags --libs)
// (FLOAT16 host data is held in GCC's _Float16.)
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_zero.h"

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
  LOG_PRINT("%-40s", label);
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

  // 2. Host data, then device tensors and a scalar
  std::vector<int64_t> matShape = {2, 3};
  std::vector<int64_t> rowShape = {3};
  std::vector<int64_t> vecShape = {4};
  std::vector<float> srcHostData = {1.7f, -1.7f, -0.5f, 3e9f, -3e9f, NAN};
  std::vector<int32_t> asIntHostData(6, 0);
  std::vector<double> dblHostData = {0.1, 65504, 70000, 1.0 / 3};
  std::vector<_Float16> asHalfHostData(4, 0);
  std::vector<int32_t> rowHostData = {7, 8, 9};
  std::vector<float> dstHostData = {-1, -1, -1, -1, -1, -1};
  void* srcDeviceAddr = nullptr;
  void* asIntDeviceAddr = nullptr;
  void* dblDeviceAddr = nullptr;
  void* asHalfDeviceAddr = nullptr;
  void* rowDeviceAddr = nullptr;
  void* dstDeviceAddr = nullptr;
  aclTensor* src = nullptr;     // FLOAT [2, 3]
  aclTensor* asInt = nullptr;   // INT32 [2, 3]
  aclTensor* dbl = nullptr;     // DOUBLE [4]
  aclTensor* asHalf = nullptr;  // FLOAT16 [4]
  aclTensor* row = nullptr;     // INT32 [3]
  aclTensor* dst = nullptr;     // FLOAT [2, 3]
  ret = CreateAclTensor(srcHostData, matShape, &srcDeviceAddr, aclDataType::ACL_FLOAT, &src);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(asIntHostData, matShape, &asIntDeviceAddr, aclDataType::ACL_INT32, &asInt);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(dblHostData, vecShape, &dblDeviceAddr, aclDataType::ACL_DOUBLE, &dbl);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(asHalfHostData, vecShape, &asHalfDeviceAddr, aclDataType::ACL_FLOAT16, &asHalf);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(rowHostData, rowShape, &rowDeviceAddr, aclDataType::ACL_INT32, &row);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(dstHostData, matShape, &dstDeviceAddr, aclDataType::ACL_FLOAT, &dst);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  double fillValue = -2.7;
  aclScalar* fill = aclCreateScalar(&fillValue, aclDataType::ACL_DOUBLE);
  CHECK_RET(fill != nullptr, LOG_PRINT("aclCreateScalar failed.\n"); return 1);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;

  // 3. aclnnCast: the dtype argument must be out's dtype
  // FLOAT to INT32 truncates toward zero, saturates out-of-range values and turns NaN into 0
  ret = aclnnCastGetWorkspaceSize(src, aclDataType::ACL_INT32, asInt, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnCastGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnCast", aclnnCast, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<int32_t>("aclnnCast  FLOAT -> INT32", asIntDeviceAddr, 6) == ACL_SUCCESS, return 1);
  // DOUBLE to FLOAT16 has no AI Core kernel on Ascend910B: it runs on the AI CPU.
  // Rounded to nearest even; 70000 is beyond FLOAT16's largest value 65504 and becomes inf
  ret = aclnnCastGetWorkspaceSize(dbl, aclDataType::ACL_FLOAT16, asHalf, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnCastGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnCast", aclnnCast, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<_Float16>("aclnnCast  DOUBLE -> FLOAT16 (AI CPU)", asHalfDeviceAddr, 4) == ACL_SUCCESS,
            return 1);

  // 4. aclnnInplaceCopy: src is converted to selfRef's dtype and broadcast to its shape
  ret = aclnnInplaceCopyGetWorkspaceSize(dst, row, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceCopyGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceCopy", aclnnInplaceCopy, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceCopy  dst = row (INT32 [3])", dstDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // 5. aclnnInplaceZero, aclnnInplaceOne, aclnnInplaceFillScalar overwrite every element of selfRef
  ret = aclnnInplaceZeroGetWorkspaceSize(dst, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceZeroGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceZero", aclnnInplaceZero, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceZero  dst = 0", dstDeviceAddr, 6) == ACL_SUCCESS, return 1);
  ret = aclnnInplaceOneGetWorkspaceSize(dst, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceOneGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  CHECK_RET(RunPhase2("aclnnInplaceOne", aclnnInplaceOne, workspaceSize, executor, stream) == ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<float>("aclnnInplaceOne   dst = 1", dstDeviceAddr, 6) == ACL_SUCCESS, return 1);
  // the DOUBLE value is converted to selfRef's dtype on the host: -2.7 becomes the INT32 -2
  ret = aclnnInplaceFillScalarGetWorkspaceSize(asInt, fill, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplaceFillScalarGetWorkspaceSize failed. ERROR: %d\n", ret);
            return ret);
  CHECK_RET(RunPhase2("aclnnInplaceFillScalar", aclnnInplaceFillScalar, workspaceSize, executor, stream) ==
                ACL_SUCCESS, return 1);
  CHECK_RET(PrintResult<int32_t>("aclnnInplaceFillScalar  asInt = -2.7", asIntDeviceAddr, 6) == ACL_SUCCESS, return 1);

  // 6. DELIBERATE ERROR: dtype says INT8 but out is an INT32 tensor.
  //    Phase 1 refuses the call (no executor is made); the status and the message say why.
  ret = aclnnCastGetWorkspaceSize(src, aclDataType::ACL_INT8, asInt, &workspaceSize, &executor);
  LOG_PRINT("\ndeliberate error: aclnnCastGetWorkspaceSize(dtype INT8, out INT32) returned %d\n%s", ret,
            aclGetRecentErrMsg());

  // 7. Release tensors, the scalar, device memory, stream and device
  aclDestroyTensor(src);
  aclDestroyTensor(asInt);
  aclDestroyTensor(dbl);
  aclDestroyTensor(asHalf);
  aclDestroyTensor(row);
  aclDestroyTensor(dst);
  aclDestroyScalar(fill);
  aclrtFree(srcDeviceAddr);
  aclrtFree(asIntDeviceAddr);
  aclrtFree(dblDeviceAddr);
  aclrtFree(asHalfDeviceAddr);
  aclrtFree(rowDeviceAddr);
  aclrtFree(dstDeviceAddr);
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
