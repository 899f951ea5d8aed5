"""The C declarations of the runtime (acl/acl_rt.h, acl/acl_base.h) and of aclnn/acl_meta.h that
aclnn_py implements: the types and prototypes a port needs to know which pointer arguments are
out-parameters (``Ref``) and what each call returns.

The operators' prototypes come from :mod:`aclnn_py.ops.registry` instead, so a new operator needs no
change here. tests/test_port.py checks this text against the C ABI's headers (capi/include) and
against the Python signatures of the functions aclnn_py exports.
"""

from __future__ import annotations

TYPEDEFS = """
typedef int aclError;
typedef uint16_t aclFloat16;
typedef int32_t aclnnStatus;
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
"""

# as capi/include declares them (ACL_FUNC_VISIBILITY dropped)
HEADERS = """
aclError aclInit(const char *configPath);
aclError aclFinalize(void);
const char *aclGetRecentErrMsg(void);
size_t aclDataTypeSize(aclDataType dataType);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDevice(int32_t *deviceId);
aclError aclrtGetDeviceCount(uint32_t *count);
aclError aclrtSynchronizeDevice(void);
aclError aclrtGetRunMode(aclrtRunMode *runMode);
const char *aclrtGetSocName(void);
aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtGetCurrentContext(aclrtContext *context);
aclError aclrtCreateStream(aclrtStream *stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtCreateEvent(aclrtEvent *event);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocHost(void **hostPtr, size_t size);
aclError aclrtFree(void *devPtr);
aclError aclrtFreeHost(void *hostPtr);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
    aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);
aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
    const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
    uint64_t storageDimsNum, void *tensorData);
aclScalar *aclCreateScalar(void *value, aclDataType dataType);
aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size);
aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size);
aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size);
aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);
aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size);
aclnnStatus aclDestroyTensor(const aclTensor *tensor);
aclnnStatus aclDestroyScalar(const aclScalar *scalar);
aclnnStatus aclDestroyIntArray(const aclIntArray *array);
aclnnStatus aclDestroyFloatArray(const aclFloatArray *array);
aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);
aclnnStatus aclDestroyTensorList(const aclTensorList *array);
aclnnStatus aclDestroyScalarList(const aclScalarList *array);
aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum);
aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum);
aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum);
aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);
aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size);
aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size);
aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);
aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr);
aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr);
"""

# aclnn_py implements these too; the C ABI does not export them (CANN's documented prototypes)
MORE = """
aclError aclFinalizeReference(uint64_t *refCount);
aclError aclrtResetDeviceForce(int32_t deviceId);
aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);
aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);
aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size);
aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size);
aclnnStatus aclGetScalarListSize(const aclScalarList *array, uint64_t *size);
aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum,
    aclDataType dataType, const int64_t *stride, int64_t offset, aclFormat format,
    const int64_t *storageDims, uint64_t storageDimsNum, void *tensorDataAddr);
aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr);
aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
    void *addr);
aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr);
"""
