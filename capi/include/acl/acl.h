/* aclnn_py C ABI: AscendCL's umbrella header, laid out as CANN installs it. */
#ifndef ACLNN_PY_ACL_H_
#define ACLNN_PY_ACL_H_

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif  // ACLNN_PY_ACL_H_
