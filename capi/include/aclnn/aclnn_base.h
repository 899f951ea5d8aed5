/* aclnn_py C ABI: aclnn/aclnn_base.h, which every operator header includes: as in CANN (opbase),
 * it brings acl_meta.h (tensors, scalars, executors, and through acl/acl_base.h the base types,
 * aclrtStream included) but not the runtime's functions -- a program includes acl/acl.h for those. */
#ifndef ACLNN_PY_ACLNN_BASE_H_
#define ACLNN_PY_ACLNN_BASE_H_

#include <stdint.h>
#include <stdlib.h>
#include "aclnn/acl_meta.h"

#endif
