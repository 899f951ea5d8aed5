/* aclnn_py C ABI: AscendCL's umbrella header. */
#ifndef ACLNN_PY_ACL_H_
#define ACLNN_PY_ACL_H_

#include "acl_base.h"
#include "acl_rt.h"

#endif
