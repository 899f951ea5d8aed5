/* aclnn_py C ABI: acl/acl_rt_allocator.h (included by acl/acl_rt.h): the external-allocator
 * callback types of CANN's header. The functions (aclrtAllocatorCreateDesc ... aclrtAllocatorRegister,
 * aclrtAllocatorGetByStream, aclrtAllocatorUnregister) exist in Python (aclnn_py.runtime.api_allocator);
 * they are not declared here yet because the C wrapper generator (capi/gen_rt.py) has no conversion
 * for aclrtAllocatorDesc and these function pointers. docs/runtime.md, "External allocators". */
#ifndef ACLNN_PY_ACL_RT_ALLOCATOR_H_
#define ACLNN_PY_ACL_RT_ALLOCATOR_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* (*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
typedef void* (*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);
typedef void* (*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACL_RT_ALLOCATOR_H_
