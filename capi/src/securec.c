/*
 * securec.c -- aclnn_py's implementation of the bounds-checked functions declared in securec.h,
 * written from their documented behaviour (see securec.h for the codes). Compiled into the C ABI
 * library by capi/build.py; valid C and C++ (the build compiles it with the C++ compiler, and
 * securec.h gives the functions C linkage).
 */
#include <stdio.h>
#include <string.h>

#include "securec.h"

/* Whether [a, a + na) and [b, b + nb) share a byte. */
static int Overlaps(const void* a, size_t na, const void* b, size_t nb)
{
    const char* pa = (const char*)a;
    const char* pb = (const char*)b;
    return (pa < pb + nb) && (pb < pa + na);
}

static int BadDestMax(size_t destMax, size_t limit)
{
    return destMax == 0 || destMax > limit;
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count)
{
    if (BadDestMax(destMax, SECUREC_MEM_MAX_LEN)) {
        return ERANGE;
    }
    if (dest == NULL) {
        return EINVAL;
    }
    if (count > destMax) {
        memset(dest, c, destMax); /* fills what fits, then reports the overflow */
        return ERANGE_AND_RESET;
    }
    memset(dest, c, count);
    return EOK;
}

static errno_t CopyChecks(void* dest, size_t destMax, const void* src, size_t count)
{
    if (BadDestMax(destMax, SECUREC_MEM_MAX_LEN)) {
        return ERANGE;
    }
    if (dest == NULL) {
        return EINVAL;
    }
    if (src == NULL) {
        memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    return EOK;
}

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count)
{
    errno_t rc = CopyChecks(dest, destMax, src, count);
    if (rc != EOK || count == 0 || dest == src) {
        return rc;
    }
    if (Overlaps(dest, count, src, count)) {
        memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    memcpy(dest, src, count);
    return EOK;
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count)
{
    errno_t rc = CopyChecks(dest, destMax, src, count);
    if (rc != EOK || count == 0) {
        return rc;
    }
    memmove(dest, src, count);
    return EOK;
}

/* strnlen without relying on POSIX: the length of s, at most limit. */
static size_t BoundedLength(const char* s, size_t limit)
{
    size_t n = 0;
    while (n < limit && s[n] != '\0') {
        ++n;
    }
    return n;
}

static errno_t StringChecks(char* strDest, size_t destMax, const char* strSrc)
{
    if (BadDestMax(destMax, SECUREC_STRING_MAX_LEN)) {
        return ERANGE;
    }
    if (strDest == NULL) {
        return EINVAL;
    }
    if (strSrc == NULL) {
        strDest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    return EOK;
}

/* Copy n characters of src to dest + at and terminate; dest holds destMax characters. */
static errno_t PutString(char* strDest, size_t destMax, size_t at, const char* strSrc, size_t n)
{
    if (at + n >= destMax) {
        strDest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    if (strDest + at != strSrc && Overlaps(strDest, destMax, strSrc, n + 1)) {
        strDest[0] = '\0';
        return EOVERLAP_AND_RESET;
    }
    if (strDest + at != strSrc) {
        memcpy(strDest + at, strSrc, n);
    }
    strDest[at + n] = '\0';
    return EOK;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc)
{
    errno_t rc = StringChecks(strDest, destMax, strSrc);
    if (rc != EOK) {
        return rc;
    }
    return PutString(strDest, destMax, 0, strSrc, BoundedLength(strSrc, destMax));
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count)
{
    errno_t rc = StringChecks(strDest, destMax, strSrc);
    if (rc != EOK) {
        return rc;
    }
    if (count > SECUREC_STRING_MAX_LEN) {
        strDest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    if (count == 0) {
        strDest[0] = '\0';
        return EOK;
    }
    return PutString(strDest, destMax, 0, strSrc, BoundedLength(strSrc, count < destMax ? count : destMax));
}

static errno_t Append(char* strDest, size_t destMax, const char* strSrc, size_t limit)
{
    size_t have = BoundedLength(strDest, destMax);
    if (have == destMax) { /* the destination is not a string within destMax */
        strDest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    return PutString(strDest, destMax, have, strSrc, BoundedLength(strSrc, limit < destMax ? limit : destMax));
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc)
{
    errno_t rc = StringChecks(strDest, destMax, strSrc);
    if (rc != EOK) {
        return rc;
    }
    return Append(strDest, destMax, strSrc, destMax);
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count)
{
    errno_t rc = StringChecks(strDest, destMax, strSrc);
    if (rc != EOK) {
        return rc;
    }
    if (count > SECUREC_STRING_MAX_LEN) {
        strDest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    return Append(strDest, destMax, strSrc, count);
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList)
{
    if (BadDestMax(destMax, SECUREC_STRING_MAX_LEN) || strDest == NULL) {
        return -1;
    }
    if (format == NULL || count > SECUREC_STRING_MAX_LEN) {
        strDest[0] = '\0';
        return -1;
    }
    va_list again;
    va_copy(again, argList);
    int need = vsnprintf(NULL, 0, format, again);
    va_end(again);
    if (need < 0) {
        strDest[0] = '\0';
        return -1;
    }
    size_t length = (size_t)need;
    if (count < destMax) {
        /* at most count characters: a longer output is cut there and reported with -1 */
        (void)vsnprintf(strDest, count + 1, format, argList);
        return length <= count ? need : -1;
    }
    if (length >= destMax) {
        strDest[0] = '\0';
        return -1;
    }
    (void)vsnprintf(strDest, destMax, format, argList);
    return need;
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList)
{
    if (BadDestMax(destMax, SECUREC_STRING_MAX_LEN) || strDest == NULL) {
        return -1;
    }
    if (format == NULL) {
        strDest[0] = '\0';
        return -1;
    }
    va_list again;
    va_copy(again, argList);
    int need = vsnprintf(NULL, 0, format, again);
    va_end(again);
    if (need < 0 || (size_t)need >= destMax) {
        strDest[0] = '\0';
        return -1;
    }
    (void)vsnprintf(strDest, destMax, format, argList);
    return need;
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    int n = vsprintf_s(strDest, destMax, format, args);
    va_end(args);
    return n;
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    int n = vsnprintf_s(strDest, destMax, count, format, args);
    va_end(args);
    return n;
}
