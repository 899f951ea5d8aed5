"""The C names and CANN's numbers: enums, status codes, module constants."""

from __future__ import annotations

import aclnn_py
from aclnn_py import (
    aclDataType,
    aclError,
    aclFormat,
    aclnnStatus,
    aclrtEventRecordedStatus,
    aclrtMemAttr,
    aclrtMemcpyKind,
    aclrtMemMallocPolicy,
    aclrtStreamStatus,
)

DATA_TYPES = {
    "ACL_DT_UNDEFINED": -1, "ACL_FLOAT": 0, "ACL_FLOAT16": 1, "ACL_INT8": 2, "ACL_INT32": 3, "ACL_UINT8": 4,
    "ACL_INT16": 6, "ACL_UINT16": 7, "ACL_UINT32": 8, "ACL_INT64": 9, "ACL_UINT64": 10, "ACL_DOUBLE": 11,
    "ACL_BOOL": 12, "ACL_STRING": 13, "ACL_COMPLEX64": 16, "ACL_COMPLEX128": 17, "ACL_BF16": 27,
    "ACL_INT4": 29, "ACL_UINT1": 30, "ACL_COMPLEX32": 33, "ACL_HIFLOAT8": 34, "ACL_FLOAT8_E5M2": 35,
    "ACL_FLOAT8_E4M3FN": 36, "ACL_FLOAT8_E8M0": 37, "ACL_FLOAT6_E3M2": 38, "ACL_FLOAT6_E2M3": 39,
    "ACL_FLOAT4_E2M1": 40, "ACL_FLOAT4_E1M2": 41,
}  # fmt: skip
FORMATS = {
    "ACL_FORMAT_UNDEFINED": -1, "ACL_FORMAT_NCHW": 0, "ACL_FORMAT_NHWC": 1, "ACL_FORMAT_ND": 2,
    "ACL_FORMAT_NC1HWC0": 3, "ACL_FORMAT_FRACTAL_Z": 4, "ACL_FORMAT_NC1HWC0_C04": 12, "ACL_FORMAT_HWCN": 16,
    "ACL_FORMAT_NDHWC": 27, "ACL_FORMAT_FRACTAL_NZ": 29, "ACL_FORMAT_NCDHW": 30, "ACL_FORMAT_NDC1HWC0": 32,
    "ACL_FRACTAL_Z_3D": 33, "ACL_FORMAT_NC": 35, "ACL_FORMAT_NCL": 47, "ACL_FORMAT_FRACTAL_NZ_C0_16": 50,
    "ACL_FORMAT_FRACTAL_NZ_C0_32": 51, "ACL_FORMAT_FRACTAL_NZ_C0_2": 52, "ACL_FORMAT_FRACTAL_NZ_C0_4": 53,
    "ACL_FORMAT_FRACTAL_NZ_C0_8": 54,
}  # fmt: skip
ACLNN_STATUS = {
    "ACLNN_SUCCESS": 0, "ACLNN_ERR_PARAM_NULLPTR": 161001, "ACLNN_ERR_PARAM_INVALID": 161002,
    "ACLNN_ERR_RUNTIME_ERROR": 361001, "ACLNN_ERR_INNER": 561000, "ACLNN_ERR_INNER_INFERSHAPE_ERROR": 561001,
    "ACLNN_ERR_INNER_TILING_ERROR": 561002, "ACLNN_ERR_INNER_FIND_KERNEL_ERROR": 561003,
    "ACLNN_ERR_INNER_CREATE_EXECUTOR": 561101, "ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR": 561102,
    "ACLNN_ERR_INNER_NULLPTR": 561103, "ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE": 561104,
    "ACLNN_ERR_INNER_KEY_CONFLICT": 561105, "ACLNN_ERR_INNER_INVALID_IMPL_MODE": 561106,
    "ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND": 561107, "ACLNN_ERR_INNER_LOAD_JSON_FAILED": 561108,
    "ACLNN_ERR_INNER_JSON_VALUE_NOT_FOUND": 561109, "ACLNN_ERR_INNER_JSON_FORMAT_INVALID": 561110,
    "ACLNN_ERR_INNER_JSON_DTYPE_INVALID": 561111, "ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND": 561112,
    "ACLNN_ERR_INNER_OP_FILE_INVALID": 561113, "ACLNN_ERR_INNER_ATTR_NUM_OUT_OF_BOUND": 561114,
    "ACLNN_ERR_INNER_ATTR_LEN_NOT_ENOUGH": 561115, "ACLNN_ERR_INNER_INPUT_NUM_IN_JSON_TOO_LARGE": 561116,
    "ACLNN_ERR_INNER_INPUT_JSON_IS_NULL": 561117, "ACLNN_ERR_INNER_STATIC_WORKSPACE_INVALID": 561118,
    "ACLNN_ERR_INNER_STATIC_BLOCK_DIM_INVALID": 561119,
}  # fmt: skip
ACL_ERRORS = {
    "ACL_SUCCESS": 0, "ACL_ERROR_INVALID_PARAM": 100000, "ACL_ERROR_UNINITIALIZE": 100001,
    "ACL_ERROR_REPEAT_INITIALIZE": 100002, "ACL_ERROR_INVALID_FILE": 100003, "ACL_ERROR_PARSE_FILE": 100006,
    "ACL_ERROR_UNSUPPORTED_DATA_TYPE": 100026, "ACL_ERROR_REPEAT_FINALIZE": 100037,
    "ACL_ERROR_DUMP_NOT_RUN": 100045, "ACL_ERROR_PROF_REPEAT_SUBSCRIBE": 148046,
    "ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED": 148051, "ACL_ERROR_INVALID_BUNDLE_MODEL_ID": 148053,
    "ACL_ERROR_BAD_ALLOC": 200000, "ACL_ERROR_PROF_MODULES_UNSUPPORTED": 200007,
    "ACL_ERROR_STORAGE_OVER_LIMIT": 300000, "ACL_ERROR_INTERNAL_ERROR": 500000,
    "ACL_ERROR_PROFILING_FAILURE": 500005, "ACL_ERROR_RT_PARAM_INVALID": 107000,
    "ACL_ERROR_RT_INVALID_DEVICEID": 107001, "ACL_ERROR_RT_CONTEXT_NULL": 107002,
    "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID": 107006, "ACL_ERROR_RT_INVALID_HANDLE": 107017,
    "ACL_ERROR_STREAM_CAPTURE_CONFLICT": 107032, "ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING": 107045,
    "ACL_ERROR_RT_FEATURE_NOT_SUPPORT": 207000, "ACL_ERROR_RT_MEMORY_ALLOCATION": 207001,
    "ACL_ERROR_RT_NO_DEVICE": 207004, "ACL_ERROR_RT_NO_STREAM_RESOURCE": 207008,
    "ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED": 207021, "ACL_ERROR_RT_INTERNAL_ERROR": 507000,
    "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR": 507007, "ACL_ERROR_RT_SYS_DMA": 507013,
    "ACL_ERROR_RT_AICORE_EXCEPTION": 507015, "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION": 507035,
    "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT": 507046, "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT": 507047,
    "ACL_ERROR_RT_DRV_INTERNAL_ERROR": 507899, "ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT": 507905,
    "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED": 507911, "ACL_ERROR_RT_CCU_EXCEPTION": 507916,
}  # fmt: skip


def _assert_enum(enum, expected):
    for name, value in expected.items():
        assert enum[name] == value, name
        assert getattr(aclnn_py, name) == value, name


def test_data_types_match_acl_base_rt_h():
    _assert_enum(aclDataType, DATA_TYPES)
    assert len(aclDataType) == len(DATA_TYPES)


def test_formats_match_acl_base_rt_h():
    _assert_enum(aclFormat, FORMATS)
    assert len(aclFormat) == len(FORMATS)


def test_aclnn_status_codes():
    _assert_enum(aclnnStatus, ACLNN_STATUS)
    assert aclnn_py.OK == 0
    assert aclnn_py.ACLNN_ERR_INNER_KEY_CONFILICT == 561105


def test_acl_error_codes():
    _assert_enum(aclError, ACL_ERRORS)
    assert aclnn_py.ACL_ERROR_NONE == 0 and aclnn_py.ACL_RT_SUCCESS == 0
    # every 107000..107045 and 507000..507057 runtime code exists
    for code in list(range(107000, 107046)) + list(range(507000, 507058)) + list(range(207000, 207022)):
        assert aclError(code).name.startswith("ACL_ERROR_")


def test_runtime_enums():
    assert [m.value for m in aclrtMemMallocPolicy][:8] == list(range(8))
    assert aclrtMemMallocPolicy.ACL_MEM_TYPE_LOW_BAND_WIDTH == 0x100
    assert aclrtMemMallocPolicy.ACL_MEM_TYPE_HIGH_BAND_WIDTH == 0x1000
    assert aclrtMemMallocPolicy.ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000
    assert [m.value for m in aclrtMemcpyKind] == list(range(8))
    assert aclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE == 1 and aclnn_py.ACL_MEMCPY_DEVICE_TO_HOST == 2
    assert [m.value for m in aclrtMemAttr] == list(range(18))
    assert aclrtStreamStatus.ACL_STREAM_STATUS_NOT_READY == 1
    assert aclrtEventRecordedStatus.ACL_EVENT_RECORDED_STATUS_COMPLETE == 1
    assert aclnn_py.ACL_EVENT_TIME_LINE == 0x8 and aclnn_py.ACL_STREAM_DEVICE_USE_ONLY == 0x20


def test_codes_print_their_name_and_format_as_numbers():
    code = aclnnStatus.ACLNN_ERR_PARAM_NULLPTR
    assert str(code) == "ACLNN_ERR_PARAM_NULLPTR"
    assert f"{code}" == "ACLNN_ERR_PARAM_NULLPTR"
    assert "%d" % code == "161001"  # noqa: UP031 - printf-style is how the C samples print codes
    assert f"{code:d}" == "161001"
    assert code == 161001 and isinstance(code, int)


def test_star_import_reads_like_the_c_headers():
    ns: dict = {}
    exec("from aclnn_py import *", ns)
    for name in ("aclInit", "aclrtMalloc", "aclCreateTensor", "aclnnHardswishBackwardGetWorkspaceSize",
                 "ACL_FLOAT", "ACL_FORMAT_ND", "ACL_MEM_MALLOC_HUGE_FIRST", "ACL_MEMCPY_HOST_TO_DEVICE",
                 "ACL_SUCCESS", "ACLNN_SUCCESS", "ACLNN_ERR_PARAM_NULLPTR", "Ref", "aclDataType", "aclFormat",
                 "aclGetRecentErrMsg", "aclrtSynchronizeStream", "aclDestroyAclOpExecutor"):  # fmt: skip
        assert name in ns, name
    assert not any(name.startswith("_") for name in aclnn_py.__all__)
