// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_INDEX_SELECT_H_
#define ACLNN_PY_ACLNNOP_ACLNN_INDEX_SELECT_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

// aclnnIndexSelect (docs/operators/aclnnIndexSelect.md)
ACLNN_API aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnIndexSelect(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACLNNOP_ACLNN_INDEX_SELECT_H_
