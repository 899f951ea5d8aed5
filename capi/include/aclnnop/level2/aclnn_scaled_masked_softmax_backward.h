/* aclnn_py C ABI: aclnnScaledMaskedSoftmaxBackward (signatures from the operator document). */
#ifndef ACLNN_PY_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_
#define ACLNN_PY_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScaledMaskedSoftmaxBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *y, const aclTensor *mask, double scale, bool fixTriuMask,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScaledMaskedSoftmaxBackward(void *workspace, uint64_t workspaceSize,
                                                                 aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
