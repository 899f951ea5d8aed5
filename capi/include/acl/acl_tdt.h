/* aclnn_py C ABI: acl/acl_tdt.h (tensor data transport), as a CANN install lays it out (not
 * included by acl/acl.h). The enum and prototypes are CANN's (hicann/runtime
 * include/external/acl/acl_tdt.h). aclnn_py.runtime.api_tdt
 * implements them (data items, datasets, queue channels within the process); docs/runtime.md,
 * "Tensor data transport". */
#ifndef ACLNN_PY_ACL_TDT_H_
#define ACLNN_PY_ACL_TDT_H_

#include "acl/acl_base.h"

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

ACL_FUNC_VISIBILITY acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum, size_t* sliceId);
ACL_FUNC_VISIBILITY aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum);
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
    aclDataType dataType, void* data, size_t size);
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataItem(acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY acltdtDataset* acltdtCreateDataset();
ACL_FUNC_VISIBILITY aclError acltdtDestroyDataset(acltdtDataset* dataset);
ACL_FUNC_VISIBILITY acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index);
ACL_FUNC_VISIBILITY aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem);
ACL_FUNC_VISIBILITY size_t acltdtGetDatasetSize(const acltdtDataset* dataset);
ACL_FUNC_VISIBILITY const char* acltdtGetDatasetName(const acltdtDataset* dataset);
ACL_FUNC_VISIBILITY aclError acltdtStopChannel(acltdtChannelHandle* handle);
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name);
ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name, size_t capacity);
ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle* handle);
ACL_FUNC_VISIBILITY aclError acltdtCleanChannel(acltdtChannelHandle* handle);
ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset, int32_t timeout);
ACL_FUNC_VISIBILITY aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACL_TDT_H_
