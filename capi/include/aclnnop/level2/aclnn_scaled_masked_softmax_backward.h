// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_LEVEL2_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_
#define ACLNN_PY_ACLNNOP_LEVEL2_ACLNN_SCALED_MASKED_SOFTMAX_BACKWARD_H_
#include "aclnnop/aclnn_scaled_masked_softmax_backward.h"
#endif
