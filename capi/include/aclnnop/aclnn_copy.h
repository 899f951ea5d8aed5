// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_COPY_H_
#define ACLNN_PY_ACLNNOP_ACLNN_COPY_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

// aclnnInplaceCopy (docs/operators/aclnnInplaceCopy.md)
ACLNN_API aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceCopy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACLNNOP_ACLNN_COPY_H_
