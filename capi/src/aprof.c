/*
 * aprof.c -- profiling/aprof_pub.h's model registration, as CANN's libprofapi.so exports it:
 * MsprofSetDeviceIdByGeModelIdx / MsprofUnsetDeviceIdByGeModelIdx. GE's model loader tells the
 * profiler which device a model id runs on; aclprofModelSubscribe accepts only ids it knows
 * (hicann/runtime's profiling/2_subscribe_model calls it to stand in for aclmdlLoadFromFile).
 *
 * Plain C with its own table: a program may call it before aclInit, when the engine's Python is not
 * running yet. aclnn_py's subscription (aclnn_py/runtime/api_prof_sub.py) asks the table through
 * aclnn_py_ge_model_device.
 */
#include <pthread.h>
#include <stdint.h>

#define APROF_API __attribute__((visibility("default")))
#define APROF_MODELS 4096

#ifdef __cplusplus
extern "C" {
#endif

APROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);
APROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);
APROF_API int32_t aclnn_py_ge_model_device(uint32_t geModelIdx, uint32_t* deviceId);

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t g_ids[APROF_MODELS];
static uint32_t g_devices[APROF_MODELS];
static int g_count = 0;

static int Find(uint32_t id)
{
    for (int i = 0; i < g_count; ++i) {
        if (g_ids[i] == id) {
            return i;
        }
    }
    return -1;
}

int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId)
{
    int32_t rc = 0;
    pthread_mutex_lock(&g_lock);
    int at = Find(geModelIdx);
    if (at < 0 && g_count < APROF_MODELS) {
        at = g_count++;
    }
    if (at < 0) {
        rc = -1; /* PROFILING_FAILED: the table is full */
    } else {
        g_ids[at] = geModelIdx;
        g_devices[at] = deviceId;
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId)
{
    (void)deviceId;
    pthread_mutex_lock(&g_lock);
    int at = Find(geModelIdx);
    if (at >= 0) {
        --g_count;
        g_ids[at] = g_ids[g_count];
        g_devices[at] = g_devices[g_count];
    }
    pthread_mutex_unlock(&g_lock);
    return 0;
}

int32_t aclnn_py_ge_model_device(uint32_t geModelIdx, uint32_t* deviceId)
{
    pthread_mutex_lock(&g_lock);
    int at = Find(geModelIdx);
    if (at >= 0 && deviceId != NULL) {
        *deviceId = g_devices[at];
    }
    pthread_mutex_unlock(&g_lock);
    return at >= 0 ? 0 : -1;
}

#ifdef __cplusplus
}
#endif
