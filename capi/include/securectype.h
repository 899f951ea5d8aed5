/*
 * securectype.h -- the types and limits of aclnn_py's bounds-checked C functions (securec.h).
 *
 * CANN installs Huawei's bounds-checking library headers (securec.h, securectype.h) in its include
 * directory (hicann/runtime cmake/package.cmake) and ships the library as libc_sec.so; programs
 * written for CANN (hicann/runtime's examples) include "securec.h" and call memset_s and friends.
 * aclnn_py provides the functions those programs use, written from their documented behaviour, in
 * its own C library (every CANN library name, libc_sec.so included, resolves to it).
 */
#ifndef ACLNN_PY_SECURECTYPE_H
#define ACLNN_PY_SECURECTYPE_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

#ifndef SECUREC_API
#define SECUREC_API __attribute__((visibility("default")))
#endif

#ifndef __errno_t_defined
typedef int errno_t;
#define __errno_t_defined 1
#endif

/* the largest destMax / count the functions accept (2 GiB - 1) */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

#endif /* ACLNN_PY_SECURECTYPE_H */
