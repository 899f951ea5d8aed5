// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_OPS_NN_H_
#define ACLNN_PY_ACLNNOP_ACLNN_OPS_NN_H_

#include "aclnn_hardswish.h"
#include "aclnn_hardswish_backward.h"
#include "aclnn_index_select.h"
#include "aclnn_scaled_masked_softmax.h"
#include "aclnn_scaled_masked_softmax_backward.h"
#include "aclnn_smooth_l1_loss.h"
#include "aclnn_smooth_l1_loss_backward.h"
#include "aclnn_softmax.h"

#endif  // ACLNN_PY_ACLNNOP_ACLNN_OPS_NN_H_
