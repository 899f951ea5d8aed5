// Generated from aclnn_py/ops/registry.py by `python capi/build.py --headers`: do not edit.
#ifndef ACLNN_PY_ACLNNOP_LEVEL2_ACLNN_OPS_MATH_H_
#define ACLNN_PY_ACLNNOP_LEVEL2_ACLNN_OPS_MATH_H_
#include "aclnnop/aclnn_ops_math.h"
#warning "This file is scheduled to be deprecated. Please use the file with the same name under include/aclnnop in the CANN package installation path instead."
#endif
