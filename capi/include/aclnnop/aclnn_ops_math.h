// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_ACLNN_OPS_MATH_H_
#define ACLNN_PY_ACLNNOP_ACLNN_OPS_MATH_H_

#include "aclnn_add.h"
#include "aclnn_all.h"
#include "aclnn_any.h"
#include "aclnn_cast.h"
#include "aclnn_clamp.h"
#include "aclnn_copy.h"
#include "aclnn_div.h"
#include "aclnn_eq_scalar.h"
#include "aclnn_eq_tensor.h"
#include "aclnn_fill_scalar.h"
#include "aclnn_ge_scalar.h"
#include "aclnn_ge_tensor.h"
#include "aclnn_gt_scalar.h"
#include "aclnn_gt_tensor.h"
#include "aclnn_le_scalar.h"
#include "aclnn_le_tensor.h"
#include "aclnn_lt_scalar.h"
#include "aclnn_lt_tensor.h"
#include "aclnn_maximum.h"
#include "aclnn_minimum.h"
#include "aclnn_mul.h"
#include "aclnn_ne_scalar.h"
#include "aclnn_ne_tensor.h"
#include "aclnn_ones.h"
#include "aclnn_reduce_sum.h"
#include "aclnn_sign.h"
#include "aclnn_sub.h"
#include "aclnn_zero.h"

#endif  // ACLNN_PY_ACLNNOP_ACLNN_OPS_MATH_H_
