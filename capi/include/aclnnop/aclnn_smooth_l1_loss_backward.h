/* aclnn_py C ABI: aclnnSmoothL1LossBackward (signatures from the operator document). */
#ifndef ACLNN_PY_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_
#define ACLNN_PY_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(
    const aclTensor *gradOut, const aclTensor *self, const aclTensor *target, int64_t reduction, float beta,
    aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSmoothL1LossBackward(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
