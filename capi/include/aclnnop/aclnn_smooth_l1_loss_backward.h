// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_
#define ACLNN_PY_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

// aclnnSmoothL1LossBackward (docs/operators/aclnnSmoothL1LossBackward.md)
ACLNN_API aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self, const aclTensor* target, int64_t reduction, float beta, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_PY_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_
