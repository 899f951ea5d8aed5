// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_ALL_H_
#define ACLNN_PY_ACLNNOP_ACLNN_ALL_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

// aclnnAll (docs/operators/aclnnAll.md)
ACLNN_API aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnAll(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACLNNOP_ACLNN_ALL_H_
