"""The C declarations of the runtime (acl/acl_rt.h, acl/acl_base_rt.h, acl/ops/acl_dvpp.h) and of aclnn/acl_meta.h that
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
typedef void *aclrtNotify;
typedef void *aclrtBinary;
typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;
typedef void (*aclrtHostFunc)(void *args);
typedef void (*aclrtCallback)(void *userData);
typedef struct aclrtPtrAttributes aclrtPtrAttributes;
typedef struct aclrtUuid aclrtUuid;
typedef struct aclrtUtilizationInfo aclrtUtilizationInfo;
typedef struct aclrtMallocConfig aclrtMallocConfig;
typedef void *aclrtDrvMemHandle;
typedef struct aclrtPhysicalMemProp aclrtPhysicalMemProp;
typedef struct aclrtMemLocation aclrtMemLocation;
typedef struct aclrtMemAccessDesc aclrtMemAccessDesc;
typedef struct aclrtMemcpyBatchAttr aclrtMemcpyBatchAttr;
typedef struct aclrtMemUsageInfo aclrtMemUsageInfo;
typedef struct aclrtServerPid aclrtServerPid;
typedef struct aclrtMemManagedLocation aclrtMemManagedLocation;
typedef struct aclrtMemUceInfo aclrtMemUceInfo;
typedef struct aclrtBarrierTaskInfo aclrtBarrierTaskInfo;
typedef struct aclrtExceptionInfo aclrtExceptionInfo;
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclrtStreamConfigHandle aclrtStreamConfigHandle;
typedef struct aclrtErrorInfo aclrtErrorInfo;
typedef struct aclrtBinaryLoadOptions aclrtBinaryLoadOptions;
typedef struct aclrtLaunchKernelCfg aclrtLaunchKernelCfg;
typedef struct aclrtPlaceHolderInfo aclrtPlaceHolderInfo;
typedef int aclrtFuncAttribute;
typedef int aclCANNPackageName;
typedef struct aclCANNPackageVersion aclCANNPackageVersion;
typedef struct dim3 dim3;
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo *exceptionInfo, void *userData);
typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofStepInfo aclprofStepInfo;
typedef int aclprofAicoreMetrics;
typedef int aclprofConfigType;
typedef int aclprofStepTag;
typedef int acldumpType;
typedef struct acldumpChunk acldumpChunk;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofEventAttributes aclprofEventAttributes;
typedef int aclprofSubscribeOpFlag;
typedef int aclprofSubscribeOpAttri;
typedef struct acldumpTensorInfo acldumpTensorInfo;
typedef int acltdtTensorType;
typedef struct acltdtDataItem acltdtDataItem;
typedef struct acltdtDataset acltdtDataset;
typedef struct acltdtChannelHandle acltdtChannelHandle;
typedef void *acltdtBuf;
typedef struct tagMemQueueAttr acltdtQueueAttr;
typedef struct acltdtQueueRouteList acltdtQueueRouteList;
typedef struct acltdtQueueRouteQueryInfo acltdtQueueRouteQueryInfo;
typedef struct acltdtQueueRoute acltdtQueueRoute;
typedef void *aclrtMbuf;
typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);
typedef struct aclrtRandomNumTaskInfo aclrtRandomNumTaskInfo;
typedef struct aclrtTaskUpdateInfo aclrtTaskUpdateInfo;
typedef struct aclrtSnapShotBackupArgs aclrtSnapShotBackupArgs;
typedef struct aclrtSnapShotRestoreArgs aclrtSnapShotRestoreArgs;
typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void *args);
typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;
typedef struct aclScalarList aclScalarList;
typedef void *aclmdlRI;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclmdlRITask;
typedef void *aclmdlRICondHandle;
typedef void *aclrtTaskGrp;
typedef struct aclmdlRITaskParams aclmdlRITaskParams;
typedef struct tagAclmdlRICondTaskParams aclmdlRICondTaskParams;
typedef int aclrtLaunchKernelAttrId;
typedef void *aclrtCntNotify;
typedef struct aclrtGroupInfo aclrtGroupInfo;
typedef struct aclrtStreamAttrValue aclrtStreamAttrValue;
typedef void (*aclrtStreamStateCallback)(aclrtStream stm, int32_t state, void *args);
typedef struct aclrtCntNotifyRecordInfo aclrtCntNotifyRecordInfo;
typedef struct aclrtCntNotifyWaitInfo aclrtCntNotifyWaitInfo;
typedef struct aclrtIpcEventHandle aclrtIpcEventHandle;
typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, int32_t state, void *args);
typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId, int32_t stage, uint32_t timeout, void *args);
typedef aclError (*aclInitCallbackFunc)(const char *configStr, size_t len, void *userData);
typedef aclError (*aclFinalizeCallbackFunc)(void *userData);
typedef struct aclrtLaunchKernelAttrValue aclrtLaunchKernelAttrValue;
"""

# as capi/include declares them (ACL_FUNC_VISIBILITY and ACL_DEPRECATED_MESSAGE dropped), header order
HEADERS = """
float aclFloat16ToFloat(aclFloat16 value);
aclFloat16 aclFloatToFloat16(float value);
aclDataBuffer* aclCreateDataBuffer(void* data, size_t size);
aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer);
aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size);
void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer);
uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer);
size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer);
size_t aclDataTypeSize(aclDataType dataType);
const char* aclrtGetSocName();
aclError aclGetCannAttributeList(const aclCannAttr** cannAttrList, size_t* num);
aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value);
aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value);
aclError aclInit(const char* configPath);
aclError aclFinalize();
aclError aclFinalizeReference(uint64_t* refCount);
const char* aclGetRecentErrMsg();
aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
aclError aclrtGetLastError(aclrtLastErrLevel level);
aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo);
aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo* errorInfo);
aclError aclsysGetVersionStr(char* pkgName, char* versionStr);
aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum);
aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion);
aclError aclrtCheckArchCompatibility(const char* socVersion, int32_t* canCompatible);
aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);
aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);
aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);
uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info);
uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtResetDeviceForce(int32_t deviceId);
aclError aclrtGetDevice(int32_t* deviceId);
aclError aclrtGetDeviceCount(uint32_t* count);
aclError aclrtSynchronizeDevice(void);
aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);
aclError aclrtGetRunMode(aclrtRunMode* runMode);
aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value);
aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType, int32_t* value);
aclError aclrtDeviceGetStreamPriorityRange(int32_t* leastPriority, int32_t* greatestPriority);
aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value);
aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);
aclError aclrtResetDeviceResLimit(int32_t deviceId);
aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value);
aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus* deviceStatus);
aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo* utilizationInfo);
aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid* uuid);
aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId);
aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);
aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);
aclError aclrtSetOpWaitTimeout(uint32_t timeout);
aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtGetCurrentContext(aclrtContext* context);
aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtDestroyStreamForce(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus* status);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout);
aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag);
aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);
aclError aclrtStreamAbort(aclrtStream stream);
aclError aclrtStreamStop(aclrtStream stream);
aclError aclrtGetThreadLastTaskId(uint32_t* taskId);
aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId);
aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t* priority);
aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags);
aclError aclrtGetStreamAvailableNum(uint32_t* streamCount);
aclrtStreamConfigHandle* aclrtCreateStreamConfigHandle(void);
aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle* handle);
aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle* handle, aclrtStreamConfigAttr attr,
    const void* attrValue, size_t valueSize);
aclError aclrtCreateStreamV2(aclrtStream* stream, const aclrtStreamConfigHandle* handle);
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args);
aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
    aclrtStream stream);
aclError aclrtProcessReport(int32_t timeout);
aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);
aclError aclrtCreateEvent(aclrtEvent* event);
aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag);
aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status);
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status);
aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status);
aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent);
aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp);
aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId);
aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag);
aclError aclrtDestroyNotify(aclrtNotify notify);
aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);
aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);
aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId);
aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num);
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg);
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtMallocHostWithCfg(void** ptr, uint64_t size, aclrtMallocConfig* cfg);
aclError aclrtFree(void* devPtr);
aclError aclrtFreeHost(void* hostPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
    aclrtStream stream);
aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
    size_t height, aclrtMemcpyKind kind);
aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
    size_t height, aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);
aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value, size_t N);
aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream);
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total);
aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes);
aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
aclError aclrtMallocForTaskScheduler(void** devPtr, size_t size, aclrtMemMallocPolicy policy,
    aclrtMallocConfig* cfg);
aclError aclrtFreeWithDevSync(void* devPtr);
aclError aclrtFreeHostWithDevSync(void* hostPtr);
aclError aclrtMemFlush(void* devPtr, size_t size);
aclError aclrtMemInvalidate(void* devPtr, size_t size);
aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr);
aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag);
aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag);
aclError aclrtHostUnregister(void* ptr);
aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType, aclrtHostMemMapCapability*
    capabilities);
aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag);
aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
    aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs, size_t numPrefetchLocs, uint64_t flags,
    aclrtStream stream);
aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size, void*
    data, size_t dataSize);
aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes, const void*
    ptr, size_t size, void** data, size_t* dataSizes);
aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo* memUsageInfo, size_t inputNum, size_t*
    outputNum);
aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult, uint32_t
    reserve);
aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags);
aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax, const void* src, size_t count,
    aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
    aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex);
aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
    aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs);
aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
    aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, size_t* failIndex, aclrtStream
    stream);
aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs, size_t* sizes, size_t numBatches,
    aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes, size_t numAttrs, aclrtStream stream);
aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset, const void** src, size_t
    count, size_t srcDataOffset, aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize);
aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr, size_t count,
    void* config);
aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type,
    aclrtStream stream, void* reserve);
aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream);
aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t
    flags);
aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment, void* expectPtr,
    uint64_t flags);
aclError aclrtReleaseMemAddress(void* virPtr);
aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop,
    uint64_t flags);
aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags);
aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags);
aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc, uint32_t linkIdx);
aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);
aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream, void* reserve);
aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo* info,
    aclrtStream execStream);
aclError aclrtPersistentTaskClean(aclrtStream stream);
aclError aclrtCacheLastTaskOpInfo(const void* const infoPtr, const size_t infoSize);
aclError aclrtCacheLastTaskExtendInfo(const char* const extendInfoPtr, const size_t infoSize);
aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream);
aclError aclrtSnapShotProcessLock(int pid, void* reserve);
aclError aclrtSnapShotProcessUnlock(int pid, void* reserve);
aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs* args);
aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs* args);
aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback, void* args);
aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback);
aclError aclrtUnmapMem(void* virPtr);
aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
    size_t* granularity);
aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count);
aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag);
aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize);
aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop);
aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle);
aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t
    flags, uint64_t* shareableHandle);
aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType
    shareType, void* shareableHandle);
aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle*
    handle);
aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle, aclrtMemSharedHandleType shareType,
    uint64_t flags, aclrtDrvMemHandle* handle);
aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum);
aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle, aclrtMemSharedHandleType shareType, int32_t*
    pid, size_t pidNum);
aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags);
aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num);
aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num);
aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr);
aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags);
aclError aclrtIpcMemClose(const char* key);
aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize,
    size_t* retSize);
aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo* memUceInfoArray, size_t arraySize);
aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
    aclrtStream stream);
aclError aclrtCmoGetDescSize(size_t* size);
aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size);
aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void* reserve);
aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag);
aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
    aclrtBinHandle* binHandle);
aclError aclrtBinaryLoadFromData(const void* data, size_t length, const aclrtBinaryLoadOptions* options,
    aclrtBinHandle* binHandle);
aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen);
aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle);
aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
    aclrtFuncHandle* funcHandle);
aclError aclrtDestroyBinary(aclrtBinary binary);
aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
    aclrtFuncHandle* funcHandle);
aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);
aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
    size_t argsSize, aclrtStream stream);
aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
    aclrtLaunchKernelCfg* cfg, aclrtArgsHandle argsHandle, void* reserve);
aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData, size_t argsSize,
    aclrtLaunchKernelCfg* cfg, aclrtStream stream);
aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
    aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize, aclrtPlaceHolderInfo* placeHolderArray,
    size_t placeHolderNum);
aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle);
aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t* memSize);
aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize, size_t* actualArgsSize);
aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void* userHostMem,
    size_t actualArgsSize);
aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
    aclrtParamHandle* paramHandle);
aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle* paramHandle);
aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize,
    void** bufferAddr);
aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void* param,
    size_t paramSize);
aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);
aclError aclrtGetHardwareSyncAddr(void** addr);
aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);
aclError aclmdlRICaptureGetInfo(
    aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI);
aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI);
aclError aclmdlRIDebugPrint(aclmdlRI modelRI);
aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags);
aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode);
aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);
aclError aclmdlRIDestroy(aclmdlRI modelRI);
aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);
aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle);
aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);
aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);
aclError aclmdlRIBuildBegin(aclmdlRI* modelRI, uint32_t flag);
aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);
aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void* reserve);
aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);
aclError aclmdlRISetName(aclmdlRI modelRI, const char* name);
aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char* name);
aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t* modelRIId);
aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void* userData);
aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);
aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream* streams, uint32_t* numStreams);
aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask* tasks, uint32_t* numTasks);
aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType* type);
aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t* id);
aclError aclmdlRIAbort(aclmdlRI modelRI);
aclError aclmdlRICondHandleCreate(
    aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag, aclmdlRICondHandle* handle);
aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr);
aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);
aclError aclmdlRICaptureToModelRIBegin(
    aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode);
aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams* params);
aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams* params);
aclError aclmdlRIKernelTaskGetAttribute(
    aclmdlRITask task, aclrtLaunchKernelAttrId attrId, aclrtLaunchKernelAttrValue* attrValue);
aclError aclmdlRIUpdate(aclmdlRI modelRI);
aclError aclmdlRITaskDisable(aclmdlRITask task);
aclError aclrtCreateLabel(aclrtLabel* label);
aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);
aclError aclrtDestroyLabel(aclrtLabel label);
aclError aclrtCreateLabelList(aclrtLabel* labels, size_t num, aclrtLabelList* labelList);
aclError aclrtDestroyLabelList(aclrtLabelList labelList);
aclError aclrtSwitchLabelByIndex(
    void* ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream);
aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);
aclError aclrtSwitchStream(
    void* leftValue, aclrtCondition cond, void* rightValue, aclrtCompareDataType dataType, aclrtStream trueStream,
    aclrtStream falseStream, aclrtStream stream);
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
aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size);
aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size);
aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size);
aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size);
aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum,
    aclDataType dataType, const int64_t *stride, int64_t offset, aclFormat format,
    const int64_t *storageDims, uint64_t storageDimsNum, void *tensorDataAddr);
aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);
aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr);
aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr);
aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr);
aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor,
    void *addr);
aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr);
aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);
aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t* value);
aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode);
aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream);
aclError aclrtResetOverflowStatus(aclrtStream stream);
aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream);
aclError aclrtResetFloatOverflowStatus(aclrtStream stream);
aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode, aclrtStream stream);
aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);
aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr);
aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);
aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value);
aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);
aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t* value);
aclError aclrtSetTsDevice(aclrtTsId tsId);
aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs);
aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout);
aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);
aclError aclrtGetOpTimeOutInterval(uint64_t* interval);
aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value);
aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char* pciBusId, int32_t len);
aclError aclrtDeviceGetByPCIBusId(const char* pciBusId, int32_t* deviceId);
aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
    const uint32_t count, int32_t deviceId);
aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t* capabilities, const aclrtAtomicOperation* operations,
    const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId);
aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t* const logicDevId);
aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId);
aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId);
aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t* const userDevid);
aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t* const userDevId);
aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t* const phyDevId);
aclError aclrtDeviceGetBareTgid(int32_t* pid);
aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active);
aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t* status);
aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback, void* args);
aclError aclrtSetDeviceTaskAbortCallback(const char* regName, aclrtDeviceTaskAbortCallback callback, void* args);
aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout);
aclError aclrtDeviceL2CacheFlush(void* rsv);
aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void* userData);
aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);
aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc, void* userData);
aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc);
aclError aclrtGetEventAvailNum(uint32_t* eventCount);
aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle);
aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags);
aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags);
aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num);
aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid* serverPids, size_t num);
aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag);
aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);
aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyRecordInfo* info);
aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyWaitInfo* info);
aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);
aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId);
aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version);
aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr, uint32_t* devArgsLen);
aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func);
aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg* cfg,
    void** args);
aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle);
aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr);
aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name);
aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize);
aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType, int64_t* attrValue);
aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle);
aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount);
aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset, size_t* paramSize);
aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags, size_t* dynamicUbufSize);
aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr, size_t* binSize);
aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name, void** dptr, size_t* size);
aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char* funcName, const char* kernelName,
    aclrtFuncHandle* funcHandle);
aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr);
aclError aclrtGetSymbolSize(const void* symbol, size_t* size);
aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, aclrtMemcpyKind kind);
aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
    aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
    aclrtMemcpyKind kind);
aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count, size_t offset,
    aclrtMemcpyKind kind, aclrtStream stream);
aclError aclmdlInitDump();
aclError aclmdlSetDump(const char* dumpCfgPath);
aclError aclmdlFinalizeDump();
aclError aclprofInit(const char* profilerResultPath, size_t length);
aclError aclprofFinalize();
aclError aclprofStart(const aclprofConfig* profilerConfig);
aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
    const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig);
aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig);
aclError aclprofStop(const aclprofConfig* profilerConfig);
aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength);
aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream);
aclprofStepInfo* aclprofCreateStepInfo();
void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo);
void* aclprofCreateStamp();
void aclprofDestroyStamp(void* stamp);
aclError aclprofPush(void* stamp);
aclError aclprofPop();
aclError aclprofRangeStart(void* stamp, uint32_t* rangeId);
aclError aclprofRangeStop(uint32_t rangeId);
aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen);
aclError aclprofMark(void* stamp);
aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream);
uint64_t aclprofStr2Id(const char* message);
aclError aclprofRangePushEx(aclprofEventAttributes* attr);
aclError aclprofRangePop();
aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig* profSubscribeConfig);
aclError aclprofModelUnSubscribe(uint32_t modelId);
aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics,
    void* fd);
aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig* profSubscribeConfig);
aclError aclprofGetOpDescSize(size_t* opDescSize);
aclError aclprofGetOpNum(const void* opInfo, size_t opInfoLen, uint32_t* opNumber);
aclError aclprofGetOpTypeLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opTypeLen);
aclError aclprofGetOpType(const void* opInfo, size_t opInfoLen, uint32_t index, char* opType, size_t opTypeLen);
aclError aclprofGetOpNameLen(const void* opInfo, size_t opInfoLen, uint32_t index, size_t* opNameLen);
aclError aclprofGetOpName(const void* opInfo, size_t opInfoLen, uint32_t index, char* opName, size_t opNameLen);
uint64_t aclprofGetOpStart(const void* opInfo, size_t opInfoLen, uint32_t index);
uint64_t aclprofGetOpEnd(const void* opInfo, size_t opInfoLen, uint32_t index);
uint64_t aclprofGetOpDuration(const void* opInfo, size_t opInfoLen, uint32_t index);
size_t aclprofGetModelId(const void* opInfo, size_t opInfoLen, uint32_t index);
aclprofSubscribeOpFlag aclprofGetOpFlag(const void* opInfo, size_t opInfoLen, uint32_t index);
const char* aclprofGetOpAttriValue(const void* opInfo, size_t opInfoLen, uint32_t index, aclprofSubscribeOpAttri attri);
void acldumpUnregCallback();
const char* acldumpGetPath(acldumpType dumpType);
aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag, const acldumpTensorInfo* tensors,
    size_t tensorCount);
aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen);
acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem* dataItem);
aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem* dataItem);
void* acltdtGetDataAddrFromItem(const acltdtDataItem* dataItem);
size_t acltdtGetDataSizeFromItem(const acltdtDataItem* dataItem);
size_t acltdtGetDimNumFromItem(const acltdtDataItem* dataItem);
aclError acltdtGetSliceInfoFromItem(const acltdtDataItem* dataItem, size_t* sliceNum, size_t* sliceId);
aclError acltdtGetDimsFromItem(const acltdtDataItem* dataItem, int64_t* dims, size_t dimNum);
acltdtDataItem* acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t* dims, size_t dimNum,
    aclDataType dataType, void* data, size_t size);
aclError acltdtDestroyDataItem(acltdtDataItem* dataItem);
acltdtDataset* acltdtCreateDataset();
aclError acltdtDestroyDataset(acltdtDataset* dataset);
acltdtDataItem* acltdtGetDataItem(const acltdtDataset* dataset, size_t index);
aclError acltdtAddDataItem(acltdtDataset* dataset, acltdtDataItem* dataItem);
size_t acltdtGetDatasetSize(const acltdtDataset* dataset);
const char* acltdtGetDatasetName(const acltdtDataset* dataset);
aclError acltdtStopChannel(acltdtChannelHandle* handle);
acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name);
acltdtChannelHandle* acltdtCreateChannelWithCapacity(uint32_t deviceId, const char* name, size_t capacity);
aclError acltdtDestroyChannel(acltdtChannelHandle* handle);
aclError acltdtCleanChannel(acltdtChannelHandle* handle);
aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset, int32_t timeout);
aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset, int32_t timeout);
aclError acltdtQueryChannelSize(const acltdtChannelHandle* handle, size_t* size);
aclError acltdtCreateQueue(const acltdtQueueAttr* attr, uint32_t* qid);
aclError acltdtDestroyQueue(uint32_t qid);
aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout);
aclError acltdtDequeue(uint32_t qid, acltdtBuf* buf, int32_t timeout);
aclError acltdtEnqueueData(uint32_t qid, const void* data, size_t dataSize, const void* userData,
    size_t userDataSize, int32_t timeout, uint32_t rsv);
aclError acltdtDequeueData(uint32_t qid, void* data, size_t dataSize, size_t* retDataSize, void* userData,
    size_t userDataSize, int32_t timeout);
aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout);
aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t* permission);
aclError acltdtBindQueueRoutes(acltdtQueueRouteList* qRouteList);
aclError acltdtUnbindQueueRoutes(acltdtQueueRouteList* qRouteList);
aclError acltdtQueryQueueRoutes(const acltdtQueueRouteQueryInfo* queryInfo, acltdtQueueRouteList* qRouteList);
aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf* buf);
aclError acltdtFreeBuf(acltdtBuf buf);
aclError acltdtGetBufData(const acltdtBuf buf, void** dataPtr, size_t* size);
aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len);
aclError acltdtGetBufDataLen(acltdtBuf buf, size_t* len);
aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf);
aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t* num);
aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf* buf);
aclError acltdtGetBufUserData(const acltdtBuf buf, void* dataPtr, size_t size, size_t offset);
aclError acltdtSetBufUserData(acltdtBuf buf, const void* dataPtr, size_t size, size_t offset);
aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf* newBuf);
acltdtQueueAttr* acltdtCreateQueueAttr();
aclError acltdtDestroyQueueAttr(const acltdtQueueAttr* attr);
aclError acltdtSetQueueAttr(acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, const void* param);
aclError acltdtGetQueueAttr(const acltdtQueueAttr* attr, acltdtQueueAttrType type, size_t len, size_t* paramRetSize,
    void* param);
acltdtQueueRoute* acltdtCreateQueueRoute(uint32_t srcId, uint32_t dstId);
aclError acltdtDestroyQueueRoute(const acltdtQueueRoute* route);
aclError acltdtGetQueueRouteParam(const acltdtQueueRoute* route, acltdtQueueRouteParamType type, size_t len,
    size_t* paramRetSize, void* param);
acltdtQueueRouteList* acltdtCreateQueueRouteList();
aclError acltdtDestroyQueueRouteList(const acltdtQueueRouteList* routeList);
aclError acltdtAddQueueRoute(acltdtQueueRouteList* routeList, const acltdtQueueRoute* route);
aclError acltdtGetQueueRoute(const acltdtQueueRouteList* routeList, size_t index, acltdtQueueRoute* route);
size_t acltdtGetQueueRouteNum(const acltdtQueueRouteList* routeList);
acltdtQueueRouteQueryInfo* acltdtCreateQueueRouteQueryInfo();
aclError acltdtDestroyQueueRouteQueryInfo(const acltdtQueueRouteQueryInfo* info);
aclError acltdtSetQueueRouteQueryInfo(acltdtQueueRouteQueryInfo* param, acltdtQueueRouteQueryInfoParamType type,
    size_t len, const void* value);
aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);
aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value);
aclError aclrtResetStreamResLimit(aclrtStream stream);
aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);
aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);
aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);
aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag);
aclError aclrtSetGroup(int32_t groupId);
aclError aclrtGetGroupCount(uint32_t* count);
aclrtGroupInfo* aclrtCreateGroupInfo();
aclError aclrtDestroyGroupInfo(aclrtGroupInfo* groupInfo);
aclError aclrtGetAllGroupInfo(aclrtGroupInfo* groupInfo);
aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo* groupInfo, int32_t groupIndex, aclrtGroupAttr attr,
    void* attrValue, size_t valueLen, size_t* paramRetSize);
aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback, void* args);
aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
    aclrtStreamAttrValue* value);
aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
    aclrtStreamAttrValue* value);
"""

# aclnn_py implements these too: acl/ops/acl_dvpp.h's memory calls (the C ABI exports them, from a
# header outside acl/*.h); aclAppLog (variadic: its C side formats, then calls the engine),
# aclopStartDumpArgs/StopDumpArgs, the managed-memory advice and prefetch (structs by value, written
# by hand in C); acl_dump.h's callback registration, the SIMT launches,
# aclrtBinarySetExceptionCallback, acl_rt_allocator.h's functions and the mbuf family (declared in
# capi/include since the wrapper generator and aclnn_py/_cabi_services.py convert their function
# pointers, dim3 by value, aclrtAllocatorDesc and aclrtMbuf)
MORE = """
aclError acldvppMalloc(void **devPtr, size_t size);
aclError acldvppFree(void *devPtr);
aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk*, int32_t), int32_t flag);
aclError aclrtLaunchSIMTKernelWithArgsArray(void* func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
    aclrtStream stream, aclrtLaunchKernelCfg* cfg, void** args);
aclError aclrtLaunchSIMTKernelWithHostArgs(void* func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
    aclrtStream stream, aclrtLaunchKernelCfg* cfg, void* hostArgs, size_t argsSize,
    aclrtPlaceHolderInfo* placeHolderArray, size_t placeHolderNum);
aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle, aclrtOpExceptionCallback callback, void* userData);
aclrtAllocatorDesc aclrtAllocatorCreateDesc();
aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);
aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);
aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocFunc func);
aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorFreeFunc func);
aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocatorAllocAdviseFunc func);
aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
    aclrtAllocatorGetAddrFromBlockFunc func);
aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);
aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc, aclrtAllocator* allocator,
    aclrtAllocatorAllocFunc* allocFunc, aclrtAllocatorFreeFunc* freeFunc,
    aclrtAllocatorAllocAdviseFunc* allocAdviseFunc, aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc);
aclError aclrtAllocatorUnregister(aclrtStream stream);
aclError aclrtAllocBuf(aclrtMbuf* buf, size_t size);
aclError aclrtFreeBuf(aclrtMbuf buf);
aclError aclrtGetBufData(const aclrtMbuf buf, void** dataPtr, size_t* size);
aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t* len);
aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);
aclError aclrtGetBufUserData(const aclrtMbuf buf, void* dataPtr, size_t size, size_t offset);
aclError aclrtSetBufUserData(aclrtMbuf buf, const void* dataPtr, size_t size, size_t offset);
aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf* newBuf);
aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);
aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t* num);
aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf* buf);
void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line, const char* fmt, ...);
aclError aclopStartDumpArgs(uint32_t dumpType, const char* path);
aclError aclopStopDumpArgs(uint32_t dumpType);
aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event);
aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
    aclrtMemManagedLocation location);
aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
    aclrtStream stream);
"""
