// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_SIGN_H_
#define ACLNN_PY_ACLNNOP_ACLNN_SIGN_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

// aclnnSign (docs/operators/aclnnSign.md)
ACLNN_API aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor* self, aclTensor* result, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSign(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACLNNOP_ACLNN_SIGN_H_
