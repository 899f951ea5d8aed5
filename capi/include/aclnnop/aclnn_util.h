/* aclnn_py C ABI: the export macro CANN's operator headers put before each function. */
#ifndef ACLNN_PY_ACLNNOP_ACLNN_UTIL_H_
#define ACLNN_PY_ACLNNOP_ACLNN_UTIL_H_

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif
