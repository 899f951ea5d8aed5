/* aclnn_py C ABI: acl_mdl.h is empty, as in a CANN install that has only the runtime package (the
 * aclmdl API comes with another package, which aclnn_py does not emulate). Included by acl/acl.h
 * and acl/acl_base.h for compatibility. */
#ifndef ACLNN_PY_ACL_MDL_H_
#define ACLNN_PY_ACL_MDL_H_
#endif  // ACLNN_PY_ACL_MDL_H_
