/* aclnn_py C ABI: acl_mdl.h is empty, as in a CANN install that has only the runtime package (the
 * aclmdl API comes with another package, which aclnn_py does not emulate). Included by acl/acl.h
 * and acl/acl_base.h for compatibility. */
#ifndef ACLNN_PY_ACL_MDL_H_
#define ACLNN_PY_ACL_MDL_H_
/* aclmdlRIBindStream's flags, as the graph engine's acl_mdl.h defines them (the runtime's
 * RT_MODEL_HEAD_STREAM and RT_INVALID_FLAG, pkg_inc/runtime/rt_external_base.h): hicann/runtime's
 * example model_ri/2_model_switch uses them. */
#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU
#endif  // ACLNN_PY_ACL_MDL_H_
