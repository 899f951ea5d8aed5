/*
 * securec.h -- bounds-checked memory and string functions, as CANN's install provides them
 * (memset_s, memcpy_s, strcpy_s, sprintf_s ...): the prototypes and return codes of Huawei's
 * bounds-checking library, implemented by aclnn_py's C library (capi/src/securec.c).
 *
 * The functions return EOK on success. A bad destination size returns ERANGE and a NULL
 * destination EINVAL, touching nothing; the *_AND_RESET codes say the destination was cleared
 * (memory functions: zeroed, or filled for memset_s; string functions: an empty string) because
 * the source was NULL, did not fit, or overlapped the destination. The printf family returns the
 * number of characters written, or -1 with an empty string (snprintf_s: -1 after writing the
 * first count characters when the output was cut at count).
 */
#ifndef ACLNN_PY_SECUREC_H
#define ACLNN_PY_SECUREC_H

#include "securectype.h"

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET (22 | 128)
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET (34 | 128)
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET (54 | 128)
#endif

#ifdef __cplusplus
extern "C" {
#endif

SECUREC_API errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
SECUREC_API errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
SECUREC_API errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
SECUREC_API errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
SECUREC_API errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
SECUREC_API int sprintf_s(char* strDest, size_t destMax, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
SECUREC_API int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
SECUREC_API int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList)
    __attribute__((format(printf, 3, 0)));
SECUREC_API int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList)
    __attribute__((format(printf, 4, 0)));

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_PY_SECUREC_H */
