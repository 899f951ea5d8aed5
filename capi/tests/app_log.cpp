// aclAppLog through the C ABI (tests/test_capi_services.py): ACL_APP_LOG at each level, a text
// longer than CANN's 1024 bytes, and the calls CANN returns from without a record.
#include <cstdio>
#include <string>
#include "acl/acl.h"

int main() {
    aclInit(nullptr);
    ACL_APP_LOG(ACL_DEBUG, "debug %d", 0);
    ACL_APP_LOG(ACL_INFO, "info %s %d", "value", 1);
    ACL_APP_LOG(ACL_WARNING, "warning %.2f", 2.5);
    ACL_APP_LOG(ACL_ERROR, "error %u", 3u);
    std::string big(2000, 'x');
    ACL_APP_LOG(ACL_ERROR, "%s", big.c_str());
    aclAppLog(ACL_ERROR, nullptr, "file.cpp", 1, "no function");  // no record, as CANN
    aclAppLog(ACL_ERROR, "f", "file.cpp", 1, nullptr);              // no record, as CANN
    std::printf("done\n");
    aclFinalize();
    return 0;
}
