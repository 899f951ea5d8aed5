/* aclnn_py C ABI: acl/ops/acl_dvpp.h, the media-processing (DVPP) header. Only its memory calls are
 * emulated: DVPP memory is device memory (the size rounded up to 32 bytes, plus 32), freed with
 * acldvppFree. As with CANN, a program must define ENABLE_DVPP_INTERFACE to include it. */
#if !defined(ENABLE_DVPP_INTERFACE)
#error "if you want to use dvpp funtions ,please use the macro definition (ENABLE_DVPP_INTERFACE)."
#endif

#ifndef ACLNN_PY_ACL_OPS_ACL_DVPP_H_
#define ACLNN_PY_ACL_OPS_ACL_DVPP_H_

#include <stddef.h>
#include <stdint.h>
#include "../acl.h"
#include "../acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclError acldvppMalloc(void** devPtr, size_t size);
ACL_FUNC_VISIBILITY aclError acldvppFree(void* devPtr);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACL_OPS_ACL_DVPP_H_
