/* aclnn_py C ABI: acl/acl_rt_allocator.h (included by acl/acl_rt.h). The custom-allocator API
 * (aclrtAllocatorCreateDesc ...) is not emulated, so nothing is declared here. */
#ifndef ACLNN_PY_ACL_RT_ALLOCATOR_H_
#define ACLNN_PY_ACL_RT_ALLOCATOR_H_

#include "acl_base.h"

#endif  // ACLNN_PY_ACL_RT_ALLOCATOR_H_
