/* aclnn_py C ABI: acl/acl_base.h as CANN installs it -- the base types, the (empty) model base
 * header and the error codes. */
#ifndef ACLNN_PY_ACL_BASE_H_
#define ACLNN_PY_ACL_BASE_H_

#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif  // ACLNN_PY_ACL_BASE_H_
