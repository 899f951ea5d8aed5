// The last calls of acl_rt.h: the built-in random number task (Philox4_32_10 on a 16-byte counter),
// a virtual memory mapping without access rights, the process snapshot steps with a C callback,
// a profiling trace point, and the link calls (Atlas A3 only: 207000 on the default Ascend910B).
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include "acl/acl.h"

#define CHECK(call)                                                  \
    do {                                                             \
        aclError ret_ = (call);                                      \
        if (ret_ != ACL_SUCCESS) {                                   \
            printf("%s failed: %d\n", #call, static_cast<int>(ret_)); \
            return 1;                                                \
        }                                                            \
    } while (0)

static int g_calls = 0;

static uint32_t OnBackup(int32_t deviceId, void* args)
{
    ++g_calls;
    printf("backup callback: device %d, args %s\n", deviceId, static_cast<const char*>(args));
    return 0;
}

static void SetPara(aclrtRandomParaInfo& p, const void* value, uint8_t size)
{
    p.isAddr = 0;
    memcpy(p.valueOrAddr, value, size);
    p.size = size;
}

int main()
{
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));

    // uniform floats in [0, 1) from seed 5, counter 0: (word >> 8) / 2^24 of Philox4x32-10's words
    void* out = nullptr;
    void* counter = nullptr;
    CHECK(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&counter, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemset(counter, 16, 0, 16));
    aclrtRandomNumTaskInfo info = {};
    info.dataType = ACL_FLOAT;
    info.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
    float lo = 0.0f, hi = 1.0f;
    SetPara(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, sizeof(float));
    SetPara(info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, sizeof(float));
    uint64_t seed = 5, num = 8;
    SetPara(info.randomSeed, &seed, sizeof(seed));
    SetPara(info.randomNum, &num, sizeof(num));
    info.randomResultAddr = out;
    info.randomCounterAddr = counter;
    CHECK(aclrtRandomNumAsync(&info, stream, nullptr));
    CHECK(aclrtSynchronizeStream(stream));
    float values[8];
    uint64_t state[2];
    CHECK(aclrtMemcpy(values, sizeof(values), out, sizeof(values), ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtMemcpy(state, sizeof(state), counter, sizeof(state), ACL_MEMCPY_DEVICE_TO_HOST));
    printf("uniform[0..3] = %.6f %.6f %.6f %.6f\n", values[0], values[1], values[2], values[3]);
    printf("counter after 8 values = %llu\n", static_cast<unsigned long long>(state[0]));
    info.dataType = ACL_INT8;
    printf("INT8 random task: %d\n", static_cast<int>(aclrtRandomNumAsync(&info, stream, nullptr)));
    printf("%s\n", aclGetRecentErrMsg());

    // a mapping without access: a copy through it fails until aclrtMemSetAccess grants read-write
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t granularity = 0;
    CHECK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    void* va = nullptr;
    aclrtDrvMemHandle handle = nullptr;
    CHECK(aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0));
    CHECK(aclrtMallocPhysical(&handle, granularity, &prop, 0));
    CHECK(aclrtMemMapNoAccess(va, granularity, 0, handle, 0));
    int data[4] = {1, 2, 3, 4};
    printf("copy into a no-access mapping: %d\n",
           static_cast<int>(aclrtMemcpy(va, sizeof(data), data, sizeof(data), ACL_MEMCPY_HOST_TO_DEVICE)));
    (void)aclGetRecentErrMsg();
    aclrtMemAccessDesc desc = {};
    desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = 0;
    CHECK(aclrtMemSetAccess(va, granularity, &desc, 1));
    printf("after aclrtMemSetAccess: %d\n",
           static_cast<int>(aclrtMemcpy(va, sizeof(data), data, sizeof(data), ACL_MEMCPY_HOST_TO_DEVICE)));
    printf("aclrtMemMapSelectedLink on Ascend910B: %d\n",
           static_cast<int>(aclrtMemMapSelectedLink(va, granularity, va, ACL_RT_MEM_LINK_IDX_1)));
    printf("aclrtMemMapSetLink on Ascend910B: %d\n",
           static_cast<int>(aclrtMemMapSetLink(handle, ACL_RT_MEM_ACCESS_LINK_HCCS)));

    // a snapshot: lock, back up, restore, unlock (no call that changes device resources while locked: CANN holds those)
    char name[] = "ckpt";
    CHECK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_PRE, OnBackup, name));
    printf("register twice: %d\n",
           static_cast<int>(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_PRE, OnBackup, name)));
    (void)aclGetRecentErrMsg();
    int pid = static_cast<int>(getpid());
    printf("backup before lock: %d\n", static_cast<int>(aclrtSnapShotProcessBackup(pid, nullptr)));
    CHECK(aclrtSnapShotProcessLock(pid, nullptr));
    CHECK(aclrtSnapShotProcessBackup(pid, nullptr));
    CHECK(aclrtSnapShotProcessRestore(pid, nullptr));
    CHECK(aclrtSnapShotProcessUnlock(pid, nullptr));
    int back[4] = {0, 0, 0, 0};
    CHECK(aclrtMemcpy(back, sizeof(back), va, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
    printf("restored: %d %d %d %d (callbacks: %d)\n", back[0], back[1], back[2], back[3], g_calls);
    CHECK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_PRE, OnBackup));
    printf("lock for another pid: %d\n", static_cast<int>(aclrtSnapShotProcessLock(pid + 1, nullptr)));
    (void)aclGetRecentErrMsg();  // EH0009 naming the pid

    // a profiling trace point: 18 bytes at most
    unsigned char trace[18] = {1};
    CHECK(aclrtProfTrace(trace, 18, stream));
    printf("aclrtProfTrace of 19 bytes: %d\n", static_cast<int>(aclrtProfTrace(trace, 19, stream)));
    printf("%s\n", aclGetRecentErrMsg());
    CHECK(aclrtSynchronizeStream(stream));

    CHECK(aclrtUnmapMem(va));
    CHECK(aclrtFreePhysical(handle));
    CHECK(aclrtReleaseMemAddress(va));
    CHECK(aclrtFree(out));
    CHECK(aclrtFree(counter));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("done\n");
    return 0;
}
