/*
 * aclnn_py's own sample of the index / reduce / softmax family:
 *   aclnnIndexSelect  rows picked by an INT64 index along dim 0 (a row may repeat), then columns
 *                     picked by an INT32 index along dim -1
 *   aclnnReduceSum    over dims [-1] with keepDims on FLOAT; then on INT8 with dtype INT32, which
 *                     casts before summing, so a row adding up to 300 does not wrap around
 *   aclnnSoftmax      along dim -1
 * and, at the end, one deliberate error: aclnnIndexSelect along a dim the tensor does not have.
 */
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_softmax.h"

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

  // 2. Inputs and outputs. table[i][j] = 10 * i + j, so each value names its row and column.
  std::vector<int64_t> tableShape = {3, 4};
  std::vector<int64_t> rowIndexShape = {3};
  std::vector<int64_t> colIndexShape = {2};
  std::vector<int64_t> rowsShape = {3, 4};    // table along dim 0 with 3 indices
  std::vector<int64_t> colsShape = {3, 2};    // table along dim -1 with 2 indices
  std::vector<int64_t> rowSumShape = {3, 1};  // table summed over dim -1, keepDims = true
  std::vector<int64_t> countsShape = {2, 3};
  std::vector<int64_t> countsSumShape = {2};   // counts summed over dim -1, keepDims = false
  std::vector<int64_t> logitsShape = {2, 3};
  std::vector<float> tableHostData = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
  std::vector<int64_t> rowIndexHostData = {2, 0, 2};
  std::vector<int32_t> colIndexHostData = {3, 1};
  std::vector<int8_t> countsHostData = {100, 100, 100, -128, -1, 5};
  std::vector<float> logitsHostData = {0, 1, 2, 5, 5, 5};
  std::vector<float> rowsHostData(12, 0);
  std::vector<float> colsHostData(6, 0);
  std::vector<float> rowSumHostData(3, 0);
  std::vector<int32_t> countsSumHostData(2, 0);
  std::vector<float> probsHostData(6, 0);
  void* tableDeviceAddr = nullptr;
  void* rowIndexDeviceAddr = nullptr;
  void* colIndexDeviceAddr = nullptr;
  void* countsDeviceAddr = nullptr;
  void* logitsDeviceAddr = nullptr;
  void* rowsDeviceAddr = nullptr;
  void* colsDeviceAddr = nullptr;
  void* rowSumDeviceAddr = nullptr;
  void* countsSumDeviceAddr = nullptr;
  void* probsDeviceAddr = nullptr;
  aclTensor* table = nullptr;
  aclTensor* rowIndex = nullptr;
  aclTensor* colIndex = nullptr;
  aclTensor* counts = nullptr;
  aclTensor* logits = nullptr;
  aclTensor* rows = nullptr;
  aclTensor* cols = nullptr;
  aclTensor* rowSum = nullptr;
  aclTensor* countsSum = nullptr;
  aclTensor* probs = nullptr;
  ret = CreateAclTensor(tableHostData, tableShape, &tableDeviceAddr, aclDataType::ACL_FLOAT, &table);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(rowIndexHostData, rowIndexShape, &rowIndexDeviceAddr, aclDataType::ACL_INT64, &rowIndex);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(colIndexHostData, colIndexShape, &colIndexDeviceAddr, aclDataType::ACL_INT32, &colIndex);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(countsHostData, countsShape, &countsDeviceAddr, aclDataType::ACL_INT8, &counts);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(logitsHostData, logitsShape, &logitsDeviceAddr, aclDataType::ACL_FLOAT, &logits);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(rowsHostData, rowsShape, &rowsDeviceAddr, aclDataType::ACL_FLOAT, &rows);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(colsHostData, colsShape, &colsDeviceAddr, aclDataType::ACL_FLOAT, &cols);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(rowSumHostData, rowSumShape, &rowSumDeviceAddr, aclDataType::ACL_FLOAT, &rowSum);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(countsSumHostData, countsSumShape, &countsSumDeviceAddr, aclDataType::ACL_INT32, &countsSum);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = CreateAclTensor(probsHostData, logitsShape, &probsDeviceAddr, aclDataType::ACL_FLOAT, &probs);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // The reduced dims of ReduceSum: -1 is the last dim.
  std::vector<int64_t> dimsData = {-1};
  aclIntArray* dims = aclCreateIntArray(dimsData.data(), dimsData.size());
  CHECK_RET(dims != nullptr, return ret);

  // 3. Each API: phase 1 sizes the workspace and builds the executor, phase 2 runs it.
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor = nullptr;

  // 3.1 aclnnIndexSelect along dim 0 with an INT64 index: rows 2, 0, 2.
  ret = aclnnIndexSelectGetWorkspaceSize(table, 0, rowIndex, rows, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnIndexSelectGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnIndexSelect", aclnnIndexSelect, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnIndexSelect(table, 0, [2, 0, 2])", rowsDeviceAddr, GetShapeSize(rowsShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.2 aclnnIndexSelect along dim -1 with an INT32 index: columns 3, 1 of every row.
  ret = aclnnIndexSelectGetWorkspaceSize(table, -1, colIndex, cols, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnIndexSelectGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnIndexSelect", aclnnIndexSelect, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnIndexSelect(table, -1, [3, 1])", colsDeviceAddr, GetShapeSize(colsShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.3 aclnnReduceSum over dims [-1], keepDims = true, dtype FLOAT: one sum per row, out is [3, 1].
  ret = aclnnReduceSumGetWorkspaceSize(table, dims, true, aclDataType::ACL_FLOAT, rowSum, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnReduceSumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnReduceSum", aclnnReduceSum, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnReduceSum(table, [-1], keepDims=true)", rowSumDeviceAddr, GetShapeSize(rowSumShape),
                           " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.4 aclnnReduceSum of INT8 with dtype INT32 (out must be INT32 too), keepDims = false: out is [2].
  ret = aclnnReduceSumGetWorkspaceSize(counts, dims, false, aclDataType::ACL_INT32, countsSum, &workspaceSize,
                                       &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnReduceSumGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnReduceSum", aclnnReduceSum, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<int32_t>("aclnnReduceSum(counts, [-1], dtype=INT32)", countsSumDeviceAddr,
                             GetShapeSize(countsSumShape), " %d");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 3.5 aclnnSoftmax along dim -1: every row of probs adds up to 1; a constant row is uniform.
  ret = aclnnSoftmaxGetWorkspaceSize(logits, -1, probs, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnSoftmaxGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  ret = RunPhase2("aclnnSoftmax", aclnnSoftmax, workspaceSize, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  ret = PrintResult<float>("aclnnSoftmax(logits, -1)", probsDeviceAddr, GetShapeSize(logitsShape), " %f");
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // 4. DELIBERATE ERROR: table has 2 dims, so dim 2 is out of range [-2, 1]. Phase 1 refuses it,
  //    makes no executor, and aclGetRecentErrMsg() tells why.
  ret = aclnnIndexSelectGetWorkspaceSize(table, 2, rowIndex, rows, &workspaceSize, &executor);
  LOG_PRINT("deliberate error: aclnnIndexSelectGetWorkspaceSize(dim=2) returned %d\n", ret);
  LOG_PRINT("[ERROR msg]%s\n", aclGetRecentErrMsg());

  // 5. Release the tensors and the array, then the device memory and the runtime.
  aclDestroyTensor(table);
  aclDestroyTensor(rowIndex);
  aclDestroyTensor(colIndex);
  aclDestroyTensor(counts);
  aclDestroyTensor(logits);
  aclDestroyTensor(rows);
  aclDestroyTensor(cols);
  aclDestroyTensor(rowSum);
  aclDestroyTensor(countsSum);
  aclDestroyTensor(probs);
  aclDestroyIntArray(dims);
  aclrtFree(tableDeviceAddr);
  aclrtFree(rowIndexDeviceAddr);
  aclrtFree(colIndexDeviceAddr);
  aclrtFree(countsDeviceAddr);
  aclrtFree(logitsDeviceAddr);
  aclrtFree(rowsDeviceAddr);
  aclrtFree(colsDeviceAddr);
  aclrtFree(rowSumDeviceAddr);
  aclrtFree(countsSumDeviceAddr);
  aclrtFree(probsDeviceAddr);
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
  return 0;
}
