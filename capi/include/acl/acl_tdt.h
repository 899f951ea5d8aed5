/* aclnn_py C ABI: acl/acl_tdt.h (tensor data transport), as a CANN install lays it out (not
 * included by acl/acl.h). The enum and prototypes are CANN's (hicann/runtime
 * include/external/acl/acl_tdt.h; CANN marks each with ACL_FUNC_VISIBILITY). The Python functions
 * exist (aclnn_py.runtime.api_tdt: data items, datasets, queue channels within the process); the C
 * library does not define them yet: the wrapper generator (capi/gen_rt.py) has no conversion for
 * the acltdt handle types, so they are declared under ACL_TDT_API, which it does not read, and a
 * C program compiles and then fails to link. docs/runtime.md, "Tensor data transport". */
#ifndef ACLNN_PY_ACL_TDT_H_
#define ACLNN_PY_ACL_TDT_H_

#include "acl/acl_base.h"

#define ACL_TDT_API __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

enum acltdtTensorType {
    ACL_TENSOR_DATA_UNDEFINED = -1,
    ACL_TENSOR_DATA_TENSOR,
    ACL_TENSOR_DATA_END_OF_SEQUENCE,
    ACL_TENSOR_DATA_ABNORMAL,
    ACL_TENSOR_DATA_SLICE_TENSOR,
    ACL_TENSOR_DATA_END_TENSOR
};
#ifndef __cplusplus
typedef enum acltdtTensorType acltdtTensorType;
#endif

typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;

ACL_TDT_API
acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem);
ACL_TDT_API
aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem);
ACL_TDT_API
void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem);
ACL_TDT_API
size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem);
ACL_TDT_API
size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem);
ACL_TDT_API
aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum, size_t* sliceId);
ACL_TDT_API
aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum);
ACL_TDT_API
acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
    aclDataType dataType, void* data, size_t size);
ACL_TDT_API
aclError acltdtDestroyDataItem(acltdtDataItem* dataItem);
ACL_TDT_API
acltdtDataset* acltdtCreateDataset();
ACL_TDT_API
aclError acltdtDestroyDataset(acltdtDataset* dataset);
ACL_TDT_API
acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index);
ACL_TDT_API
aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem);
ACL_TDT_API
size_t acltdtGetDatasetSize(const acltdtDataset* dataset);
ACL_TDT_API
const char* acltdtGetDatasetName(const acltdtDataset* dataset);
ACL_TDT_API
aclError acltdtStopChannel(acltdtChannelHandle* handle);
ACL_TDT_API
acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name);
ACL_TDT_API
acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name, size_t capacity);
ACL_TDT_API
aclError acltdtDestroyChannel(acltdtChannelHandle* handle);
ACL_TDT_API
aclError acltdtCleanChannel(acltdtChannelHandle* handle);
ACL_TDT_API
aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset, int32_t timeout);
ACL_TDT_API
aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset, int32_t timeout);
ACL_TDT_API
aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACL_TDT_H_
