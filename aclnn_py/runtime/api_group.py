"""Computing-power groups of ``acl_rt.h`` (aclrtSetGroup, aclrtGetGroupCount, aclrtCreateGroupInfo,
aclrtDestroyGroupInfo, aclrtGetAllGroupInfo, aclrtGetGroupInfoDetail).

Groups exist only on the chips with RT_FEATURE_DEVICE_GROUP (of those emulated, Ascend310P), and
only when the card's driver was configured with TS groups (an offline-mode setting). The emulated
Ascend310P card has none: the count is 0, no group information can be made, and a group id is
refused as CANN refuses one that was not created (107014). The other chips refuse the family
with 207000 (EE1005).
"""

from __future__ import annotations

from .._capi import ApiError, c_api, describe
from .._ref import store
from . import _rt_features
from ._checks import (
    INTERNAL,
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_value,
    emu,
    fb_inner,
    fb_invalid,
    fb_unsupported,
    int_arg,
    need_context,
    out_arg,
    rt_api,
    rt_inner,
    rt_value,
    set_last_error,
)

MIN_GROUP_ID, MAX_GROUP_ID = 0, 3  # device.cc:36, device_properties.h:36


_SET_DESC = "Specifying the group used for the current operation"
_GET_INFO_AT = ("GetGroupInfo", "device.cc", 156)


class aclrtGroupInfo:
    """``aclrtGroupInfo``: the group records aclrtGetAllGroupInfo fills (never made here: no
    emulated card has groups)."""

    __slots__ = ("count", "destroyed")

    def __init__(self, count: int) -> None:
        self.count = count
        self.destroyed = False


def _unsupported(desc: str, rt_fn: str) -> ApiError:
    return ApiError(
        E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
        ("EE1005", f"The current system or device does not support {desc}."),
        fb_unsupported(rt_fn),
    )


def _group_count(rt_fn: str = "rtGetGroupCount") -> int:
    """``ApiImpl::GetGroupCount``: the chip's feature, the current context, the card's groups."""
    if not _rt_features.has("RT_FEATURE_DEVICE_GROUP"):
        raise _unsupported("obtaining the number of available computing power groups", rt_fn)
    need_context(rt_fn)
    return 0  # the emulated card's driver has no TS groups configured


@rt_api
def aclrtSetGroup(groupId: int) -> int:
    """Choose the group later work runs in: an id in [0, 3] that the card's driver created
    (none on the emulated card: 107014)."""
    rt_fn = "rtSetGroup"
    g = int_arg(groupId, "groupId", -(2**31), 2**31 - 1)
    if not _rt_features.has("RT_FEATURE_DEVICE_GROUP"):
        raise _unsupported(_SET_DESC[0].lower() + _SET_DESC[1:], rt_fn)
    need_context(rt_fn)
    if not MIN_GROUP_ID <= g <= MAX_GROUP_ID:
        raise ApiError(
            RT_PARAM,
            rt_value(_SET_DESC, g, "grpId", f"[{MIN_GROUP_ID}, {MAX_GROUP_ID}]"),
            fb_invalid(rt_fn),
        )
    raise ApiError(
        E.ACL_ERROR_RT_GROUP_NOT_CREATE,
        rt_inner(f"The group id {g} does not exist.", "SetGroup", "device.cc", 201),
        fb_inner(rt_fn, "group not create"),
    )


@rt_api
def aclrtGetGroupCount(count: object) -> int:
    """How many groups the current device's card has (Ascend310P: 0 on the emulated card)."""
    out = out_arg(count, "aclrtGetGroupCount", "count")
    store(out, _group_count())
    return E.ACL_SUCCESS


@c_api(INTERNAL, handle=True)
def aclrtCreateGroupInfo() -> aclrtGroupInfo | None:
    """Room for every group's information; NULL when the device has no group (CANN warns only)
    or does not support groups, or has no context (rtGetGroupCount's report stays, and its
    ERROR_RETURN_WITH_EXT_ERRCODE (api_c.cc:2411) sets the thread's last error)."""
    try:
        n = _group_count()
    except ApiError as e:
        e.report()
        set_last_error(e.code)
        return None
    return aclrtGroupInfo(n) if n else None


def _info_arg(groupInfo: object, api: str) -> aclrtGroupInfo:
    if groupInfo is None:
        raise ApiError(PARAM, acl_null(api, "groupInfo"))
    if not isinstance(groupInfo, aclrtGroupInfo) or groupInfo.destroyed:
        raise ApiError(PARAM, emu(f"{api}: groupInfo is {describe(groupInfo)}, not a live aclrtGroupInfo."))
    return groupInfo


@rt_api
def aclrtDestroyGroupInfo(groupInfo: object) -> int:
    """Free what aclrtCreateGroupInfo made."""
    _info_arg(groupInfo, "aclrtDestroyGroupInfo").destroyed = True
    return E.ACL_SUCCESS


@rt_api
def aclrtGetAllGroupInfo(groupInfo: object) -> int:
    """Fill ``groupInfo`` with every group's information (no group was created: 107014)."""
    rt_fn = "rtGetGroupInfo"
    _info_arg(groupInfo, "aclrtGetAllGroupInfo")
    n = _group_count()
    raise ApiError(
        E.ACL_ERROR_RT_GROUP_NOT_CREATE,
        rt_inner(f"Failed to get group info, groupId=-1, count={n}, groupInfo size=0(bytes).", *_GET_INFO_AT),
        fb_inner(rt_fn, "group not create"),
    )


@rt_api
def aclrtGetGroupInfoDetail(
    groupInfo: object, groupIndex: int, attr: int, attrValue: object, valueLen: int, paramRetSize: object
) -> int:
    """One attribute of one group (the index must be below the group count: with none, every
    index is refused, EH0007)."""
    api = "aclrtGetGroupInfoDetail"
    _info_arg(groupInfo, api)
    if attrValue is None:
        raise ApiError(PARAM, acl_null(api, "attrValue"))
    out_arg(paramRetSize, api, "paramRetSize")
    idx = int_arg(groupIndex, "groupIndex", -(2**31), 2**31 - 1)
    int_arg(attr, "attr", -(2**31), 2**31 - 1)
    int_arg(valueLen, "valueLen", 0, 2**64 - 1)
    n = _group_count()
    raise ApiError(PARAM, acl_value(api, idx, "groupIndex", f"[0, {n}]"))  # no index is below a count of 0


__all__ = [
    "aclrtCreateGroupInfo",
    "aclrtDestroyGroupInfo",
    "aclrtGetAllGroupInfo",
    "aclrtGetGroupCount",
    "aclrtGetGroupInfoDetail",
    "aclrtGroupInfo",
    "aclrtSetGroup",
]
