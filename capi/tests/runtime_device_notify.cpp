// Device settings, identity and callbacks, IPC notifies and events (in the style of hicann/runtime
// example/1_basic_features/device and event): device limits, the overflow mode and status, system
// parameters, the operator timeout in kernel credits, device ids and PCI bus ids, a notify exported
// and imported within the process, the device-state, task-abort and init callbacks, and a forced
// reset that releases the primary context only.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include "acl/acl.h"

#define INFO_LOG(fmt, ...) std::printf("[INFO]  " fmt "\n", ##__VA_ARGS__)
#define ERROR_LOG(fmt, ...) std::printf("[ERROR] " fmt "\n", ##__VA_ARGS__)
#define CHECK_RET(call)                                                        \
    do {                                                                       \
        aclError ret_ = (call);                                                \
        if (ret_ != ACL_SUCCESS) {                                             \
            ERROR_LOG("%s failed: ret=%d", #call, static_cast<int32_t>(ret_)); \
            return -1;                                                         \
        }                                                                      \
    } while (0)

static int g_states[16];
static int g_stateCount = 0;
static void OnDeviceState(int32_t deviceId, aclrtDeviceState state, void *args) {
    (void)args;
    if (g_stateCount < 16) {
        g_states[g_stateCount++] = deviceId * 10 + static_cast<int>(state);
    }
}

static int g_aborts = 0;
static int32_t OnTaskAbort(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args) {
    (void)deviceId;
    (void)timeout;
    (void)args;
    g_aborts += (stage == ACL_RT_DEVICE_TASK_ABORT_PRE) ? 1 : 10;
    return 0;
}

static int g_inits = 0;
static aclError OnInit(const char *configStr, size_t len, void *userData) {
    (void)configStr;
    (void)len;
    g_inits += *static_cast<int *>(userData);
    return ACL_SUCCESS;
}

static int Limits() {
    size_t value = 0;
    CHECK_RET(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
    INFO_LOG("SIMD stack size: %zu bytes", value);
    CHECK_RET(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, 40000));
    CHECK_RET(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &value));
    INFO_LOG("after asking for 40000 bytes: %zu (a multiple of 16 KiB)", value);
    INFO_LOG("SIMT stack size off Ascend950: %d", aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, &value));
    aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
    CHECK_RET(aclrtGetDeviceSatMode(&mode));
    INFO_LOG("overflow mode: %d (Inf/NaN)", static_cast<int>(mode));
    int64_t param = -1;
    CHECK_RET(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
    CHECK_RET(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &param));
    INFO_LOG("ACL_OPT_DETERMINISTIC: %ld", static_cast<long>(param));
    INFO_LOG("context ACL_OPT_ENABLE_DEBUG_KERNEL never set: %d",
             aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &param));
    uint64_t interval = 0, actual = 0;
    uint32_t timeoutMs = 0;
    CHECK_RET(aclrtGetOpTimeOutInterval(&interval));
    CHECK_RET(aclrtGetOpExecuteTimeout(&timeoutMs));
    INFO_LOG("timeout interval %lu us, default timeout %u ms", static_cast<unsigned long>(interval), timeoutMs);
    CHECK_RET(aclrtSetOpExecuteTimeOutV2(10000000, &actual));
    INFO_LOG("10 s asked, %lu us applied", static_cast<unsigned long>(actual));
    return 0;
}

static int Overflow(aclrtStream stream) {
    void *area = nullptr;
    CHECK_RET(aclrtCtxGetFloatOverflowAddr(&area));
    uint8_t status[64] = {0};
    status[0] = 1;  // what an overflowing kernel would leave there
    CHECK_RET(aclrtMemcpy(area, 64, status, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    void *out = nullptr;
    CHECK_RET(aclrtMalloc(&out, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_RET(aclrtGetOverflowStatus(out, 64, stream));
    CHECK_RET(aclrtResetOverflowStatus(stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    uint8_t host[64] = {0};
    CHECK_RET(aclrtMemcpy(host, 64, out, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("overflow status read before the reset: %u", host[0]);
    CHECK_RET(aclrtGetFloatOverflowStatus(out, 64, stream));
    CHECK_RET(aclrtSynchronizeStream(stream));
    CHECK_RET(aclrtMemcpy(host, 64, out, 64, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("and after it: %u", host[0]);
    INFO_LOG("a 32-byte status buffer: %d", aclrtGetOverflowStatus(out, 32, stream));
    CHECK_RET(aclrtFree(out));
    return 0;
}

static int Identity() {
    int32_t logic = -1, phy = -1, user = -1;
    CHECK_RET(aclrtGetLogicDevIdByPhyDevId(2, &logic));
    CHECK_RET(aclrtGetPhyDevIdByLogicDevId(logic, &phy));
    CHECK_RET(aclrtGetUserDevIdByLogicDevId(logic, &user));
    INFO_LOG("physical 2 -> logical %d -> physical %d, user %d", logic, phy, user);
    INFO_LOG("a negative id: %d", aclrtGetLogicDevIdByPhyDevId(-1, &logic));
    char bus[16] = {0};
    CHECK_RET(aclrtDeviceGetPCIBusId(1, bus, sizeof(bus)));
    int32_t back = -1;
    CHECK_RET(aclrtDeviceGetByPCIBusId(bus, &back));
    INFO_LOG("device 1 is at %s, which is device %d", bus, back);
    uint64_t topo = 0;
    CHECK_RET(aclrtGetDevicesTopo(0, 1, &topo));
    INFO_LOG("devices 0 and 1 are linked by HCCS: %s", topo == ACL_RT_DEVS_TOPOLOGY_HCCS ? "yes" : "no");
    int32_t active = -1;
    CHECK_RET(aclrtGetPrimaryCtxState(0, nullptr, &active));
    INFO_LOG("primary context of device 0 active: %d", active);
    uint32_t events = 0;
    CHECK_RET(aclrtGetEventAvailNum(&events));
    INFO_LOG("events available: %u", events);
    // atomics between devices: the chip's table (Ascend910B: DMA atomics, signed, 8 to 32 bits);
    // with the host: none over PCIe
    const aclrtAtomicOperation ops[2] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_DMA_ADD};
    uint32_t caps[2] = {7, 7};
    CHECK_RET(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 2, 0, 1));
    INFO_LOG("p2p atomics 0 -> 1: integer add %#x, DMA add %#x", caps[0], caps[1]);
    CHECK_RET(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 2, 0));
    INFO_LOG("host atomics of device 0: integer add %#x, DMA add %#x", caps[0], caps[1]);
    INFO_LOG("p2p atomics of a device with itself: %d", aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 2, 0, 0));
    // the device's fault report (none), handed back for repair: refused until tryRepair is 1
    aclrtErrorInfo fault;
    CHECK_RET(aclrtGetErrorVerbose(0, &fault));
    INFO_LOG("repair without tryRepair: %d", aclrtRepairError(0, &fault));
    fault.tryRepair = 1;
    INFO_LOG("repair of error type %d: %d", static_cast<int>(fault.errorType), aclrtRepairError(0, &fault));
    return 0;
}

static int Notifies(aclrtStream recorder, aclrtStream waiter) {
    aclrtNotify notify = nullptr;
    CHECK_RET(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
    char key[128] = {0};
    CHECK_RET(aclrtNotifyGetExportKey(notify, key, sizeof(key), ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
    aclrtNotify imported = nullptr;
    INFO_LOG("import before the pid is trusted: %d", aclrtNotifyImportByKey(&imported, key, 0));
    int32_t pid = 0;
    CHECK_RET(aclrtDeviceGetBareTgid(&pid));
    CHECK_RET(aclrtNotifySetImportPid(notify, &pid, 1));
    CHECK_RET(aclrtNotifyImportByKey(&imported, key, 0));
    CHECK_RET(aclrtWaitAndResetNotify(imported, waiter, 0));  // waits for the exporter's record
    CHECK_RET(aclrtRecordNotify(notify, recorder));
    CHECK_RET(aclrtSynchronizeStream(waiter));
    INFO_LOG("the imported notify saw the exporter's record");
    CHECK_RET(aclrtDestroyNotify(imported));
    CHECK_RET(aclrtDestroyNotify(notify));
    aclrtEvent ipcEvent = nullptr;
    CHECK_RET(aclrtCreateEventExWithFlag(&ipcEvent, ACL_EVENT_IPC));
    aclrtIpcEventHandle handle;
    std::memset(&handle, 0, sizeof(handle));
    CHECK_RET(aclrtIpcGetEventHandle(ipcEvent, &handle));
    INFO_LOG("IPC event handle exported: %s", handle.reserved[0] != 0 ? "yes" : "no");
    CHECK_RET(aclrtDestroyEvent(ipcEvent));
    aclrtCntNotify counter = nullptr;
    INFO_LOG("aclrtCntNotifyCreate off Ascend950: %d", aclrtCntNotifyCreate(&counter, 0));
    return 0;
}

int main() {
    int32_t deviceId = 1;
    CHECK_RET(aclrtRegDeviceStateCallback("sample", OnDeviceState, nullptr));
    CHECK_RET(aclInit(nullptr));
    int weight = 5;
    CHECK_RET(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, OnInit, &weight));  // after aclInit: runs now
    INFO_LOG("init callback ran at registration: %d", g_inits);
    CHECK_RET(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, OnInit));
    INFO_LOG("unregistered twice: %d", aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, OnInit));
    CHECK_RET(aclrtSetDevice(deviceId));
    CHECK_RET(aclrtSetDevice(0));
    aclrtStream streams[2] = {nullptr, nullptr};
    CHECK_RET(aclrtSetDevice(deviceId));
    CHECK_RET(aclrtCreateStream(&streams[0]));
    CHECK_RET(aclrtCreateStream(&streams[1]));
    if (Limits() != 0 || Overflow(streams[0]) != 0 || Identity() != 0 || Notifies(streams[0], streams[1]) != 0) {
        return -1;
    }
    CHECK_RET(aclrtSetDeviceTaskAbortCallback("sample", OnTaskAbort, nullptr));
    CHECK_RET(aclrtDeviceTaskAbort(deviceId, 1000));
    INFO_LOG("task abort callbacks (PRE + POST): %d", g_aborts);
    CHECK_RET(aclrtDestroyStream(streams[0]));
    CHECK_RET(aclrtDestroyStream(streams[1]));
    aclrtContext own = nullptr;
    CHECK_RET(aclrtCreateContext(&own, deviceId));
    CHECK_RET(aclrtResetDeviceForce(deviceId));  // the primary context goes, the explicit one stays
    int32_t active = -1;
    CHECK_RET(aclrtGetPrimaryCtxState(deviceId, nullptr, &active));
    INFO_LOG("after aclrtResetDeviceForce: primary context active %d, own context usable: %d", active,
             aclrtSetCurrentContext(own));
    CHECK_RET(aclrtDestroyContext(own));
    CHECK_RET(aclrtResetDevice(0));
    CHECK_RET(aclFinalize());
    // SET_PRE when a device opens, SET_POST after every aclrtSetDevice, RESET_PRE/POST around a primary
    // context's teardown (aclrtResetDeviceForce included)
    INFO_LOG("device state callbacks (device*10 + state):");
    for (int i = 0; i < g_stateCount; ++i) {
        INFO_LOG("  %d", g_states[i]);
    }
    return 0;
}
