// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_ONES_H_
#define ACLNN_PY_ACLNNOP_ACLNN_ONES_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

// aclnnInplaceOne (docs/operators/aclnnInplaceOne.md)
ACLNN_API aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceOne(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACLNNOP_ACLNN_ONES_H_
