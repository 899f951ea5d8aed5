/* aclnn_py C ABI: aclnnHardswishBackward (signatures from the operator document). */
#ifndef ACLNN_PY_ACLNN_HARDSWISH_BACKWARD_H_
#define ACLNN_PY_ACLNN_HARDSWISH_BACKWARD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(const aclTensor *gradOutput,
                                                                       const aclTensor *self, aclTensor *out,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnHardswishBackward(void *workspace, uint64_t workspaceSize,
                                                       aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
