/* aclnn_py C ABI: aclnn/aclnn_base.h. */
#ifndef ACLNN_PY_ACLNN_BASE_H_
#define ACLNN_PY_ACLNN_BASE_H_

#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"

#endif
