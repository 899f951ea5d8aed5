// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_LEVEL2_ACLNN_SMOOTH_L1_LOSS_H_
#define ACLNN_PY_ACLNNOP_LEVEL2_ACLNN_SMOOTH_L1_LOSS_H_
#include "aclnnop/aclnn_smooth_l1_loss.h"
#endif
