"""Routes between the shared queues of ``acl/acl_tdt_queue.h``: route query information
(acltdtCreateQueueRouteQueryInfo, acltdtSetQueueRouteQueryInfo ...), and binding, unbinding and
querying routes.

Binding follows hicann/runtime's queue scheduler (``src/queue_schedule/server/router_server.cpp``,
``bind_relation.cpp``): both queues must exist on the current device (else the route's status is
0 and the call fails with the scheduler's code 7), a queue cannot route to itself, a route already
bound binds again without change, and routes do not chain (a destination cannot be a source, nor a
source a destination: code 1); ids from 8192 on fail. Each route's status becomes 1 when bound, 0
when not; any failure makes the call return ACL_ERROR_FAILURE (500001) with CANN's inner report
"send connect qs failed, ret code is <code>", the other routes staying bound and every status left
as it was (CANN copies the statuses back only on success). Unbinding sets 0 (a route not bound
unbinds too). A query lists bound routes with status ACL_TDT_QUEUE_ROUTE_BIND. The
ACL layer's checks are ``src/acl/acl_tdt_queue/queue.cpp``'s and ``queue_process_host.cpp``'s.
A bound route moves data at once: see :mod:`.api_tdt_queue`.
"""

from __future__ import annotations

from .._capi import ApiError, c_api
from ._checks import INTERNAL, PARAM, E, acl_inner, acl_null, acl_reason, acl_value, int_arg, rt_api
from .api_tdt_queue import _CV, _QUEUES, _ROUTES, MAX_QUEUE_ID_NUM, _device, _pump
from .api_tdt_queue_attr import (
    _MODE_DESC,
    QUERY_DST,
    QUERY_SRC,
    QUERY_SRC_AND_DST,
    _copy_in,
    _desc,
    _need,
    acltdtQueueRoute,
    acltdtQueueRouteList,
    acltdtQueueRouteQueryInfo,
    destroy,
    live,
)

ROUTE_BIND = 1  # BindRelationStatus::RelationBind, a queried route's status
_BQS_PARAM_INVALID, _BQS_QUEUE_AUTH_ERROR, _BQS_QUEUE_ID_ERROR = 1, 7, 8
_INFO_MODE, _INFO_SRC, _INFO_DST = 0, 1, 2
_CHECK_QUERY = "Checking the validity of the queue route query operation"

# ---------------------------------------------------------------------------------------------
# route query information
# ---------------------------------------------------------------------------------------------


@c_api(INTERNAL, handle=True)
def acltdtCreateQueueRouteQueryInfo() -> acltdtQueueRouteQueryInfo:
    """Query information with nothing set."""
    return acltdtQueueRouteQueryInfo()


@c_api(INTERNAL)
def acltdtDestroyQueueRouteQueryInfo(info: object) -> int:
    """Free query information."""
    return destroy("acltdtDestroyQueueRouteQueryInfo", info, acltdtQueueRouteQueryInfo, "info")


@c_api(INTERNAL)
def acltdtSetQueueRouteQueryInfo(param: object, type: int, len: int, value: object) -> int:
    """Set the query mode (ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, 4 bytes), the source or the
    destination queue id (uint32): ``len`` bytes of ``value``."""
    api = "acltdtSetQueueRouteQueryInfo"
    _need(api, param=param, value=value)
    live(param, acltdtQueueRouteQueryInfo, api, "param")
    assert isinstance(param, acltdtQueueRouteQueryInfo)
    kind = int_arg(type, "type", -(2**31), 2**31 - 1)
    n = int_arg(len, "len", 0, 2**64 - 1)
    if kind == _INFO_MODE:
        param.mode = _copy_in(param.mode, 4, value, n, api, "value", signed=True)
        param.is_mode = True
    elif kind == _INFO_SRC:
        param.src = _copy_in(param.src, 4, value, n, api, "value")
        param.is_src = True
    elif kind == _INFO_DST:
        param.dst = _copy_in(param.dst, 4, value, n, api, "value")
        param.is_dst = True
    else:
        raise ApiError(
            PARAM,
            acl_value(
                api,
                f"UNKNOWN({kind})",
                "type",
                "[ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32]",
            ),
        )
    return E.ACL_SUCCESS


def check_query(info: acltdtQueueRouteQueryInfo) -> None:
    """CANN's CheckQueueRouteQueryInfo: the mode must be set, and the ids it queries by."""
    if not info.is_mode:
        raise ApiError(
            PARAM,
            acl_reason(
                _CHECK_QUERY,
                "false",
                "queryInfo->isConfigMode",
                "Currently, the query is configured based on queue. The queue must be configured through "
                "acltdtSetQueueRouteQueryInfo",
            ),
        )
    if info.mode == QUERY_SRC and not info.is_src:
        raise ApiError(
            PARAM,
            acl_reason(
                _CHECK_QUERY,
                "false",
                "queryInfo->isConfigSrc",
                "Currently, the query is configured based on the source queue. The source queue must be configured "
                "through acltdtSetQueueRouteQueryInfo",
            ),
        )
    if info.mode == QUERY_DST and not info.is_dst:
        raise ApiError(
            PARAM,
            acl_reason(
                _CHECK_QUERY,
                "false",
                "queryInfo->isConfigDst",
                "Currently, the query is configured based on the destination queue. The destination queue must be "
                "configured through acltdtSetQueueRouteQueryInfo",
            ),
        )
    if info.mode == QUERY_SRC_AND_DST and not (info.is_src and info.is_dst):
        raise ApiError(
            PARAM,
            acl_reason(
                _CHECK_QUERY,
                f"{int(info.is_src)}/{int(info.is_dst)}",
                "queryInfo->isConfigSrc/isConfigDst",
                "Currently, the query is configured based on the source queue and the destination queue. The source "
                "queue and destination queue must be configured through acltdtSetQueueRouteQueryInfo",
            ),
        )
    if info.mode not in _MODE_DESC:
        raise ApiError(
            PARAM,
            acl_value(
                _CHECK_QUERY,
                _desc(_MODE_DESC, info.mode),
                "queryInfo->mode",
                "ACL_TDT_QUEUE_ROUTE_QUERY_SRC or ACL_TDT_QUEUE_ROUTE_QUERY_DST or "
                "ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST or ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL",
            ),
        )


# ---------------------------------------------------------------------------------------------
# routes
# ---------------------------------------------------------------------------------------------


def _route_list(obj: object, api: str) -> acltdtQueueRouteList:
    if obj is None:
        raise ApiError(PARAM, acl_null(api, "qRouteList"))
    live(obj, acltdtQueueRouteList, api, "qRouteList")
    assert isinstance(obj, acltdtQueueRouteList)
    return obj


def _bind_one(device: int, route: acltdtQueueRoute) -> int:
    """Bind one route as the queue scheduler does: its status (1 bound, 0 not) and its code."""
    routes = _ROUTES.setdefault(device, {})
    src, dst = route.src, route.dst
    if src >= MAX_QUEUE_ID_NUM or dst >= MAX_QUEUE_ID_NUM:
        return _BQS_QUEUE_AUTH_ERROR  # the id check fails the parse: ProcessBindQueue reports AUTH
    if (device, src) not in _QUEUES or (device, dst) not in _QUEUES:
        return _BQS_QUEUE_AUTH_ERROR  # AttachAndCheckQueue: no such queue to attach
    if src == dst:
        return _BQS_PARAM_INVALID  # "can't bind to self"
    if (src, dst) in routes:
        return 0  # "already exists, no need bind"
    if any(s == dst for s, _ in routes) or any(d == src for _, d in routes):
        return _BQS_PARAM_INVALID  # CheckMultiLayerBind: no chains of routes
    routes[(src, dst)] = None
    return 0


@rt_api
def acltdtBindQueueRoutes(qRouteList: object) -> int:
    """Bind every route of the list (each route's status: 1 bound, 0 not); 500001 if any failed,
    the others stay bound. A bound route forwards at once what its source holds."""
    api = "acltdtBindQueueRoutes"
    routes = _route_list(qRouteList, api)
    device = _device()
    failed = 0
    with _CV:
        statuses = []
        for route in routes.routes:
            code = _bind_one(device, route)
            statuses.append(1 if code == 0 else 0)
            failed = code or failed
        _pump(device)
    if failed:
        # SendBindUnbindMsg returns on the scheduler's retCode before it copies the statuses back
        # (queue_process_host.cpp:204-210): the caller's statuses stay as they were
        raise ApiError(E.ACL_ERROR_FAILURE, acl_inner(f"send connect qs failed, ret code is {failed}"))
    for route, status in zip(routes.routes, statuses, strict=True):
        route.status = status
    return E.ACL_SUCCESS


@rt_api
def acltdtUnbindQueueRoutes(qRouteList: object) -> int:
    """Unbind every route of the list (status 0 unbound, 1 not; a route not bound unbinds)."""
    api = "acltdtUnbindQueueRoutes"
    routes = _route_list(qRouteList, api)
    device = _device()
    failed = 0
    with _CV:
        bound = _ROUTES.setdefault(device, {})
        for route in routes.routes:
            if route.src >= MAX_QUEUE_ID_NUM or route.dst >= MAX_QUEUE_ID_NUM:
                failed = _BQS_QUEUE_ID_ERROR
                continue
            bound.pop((route.src, route.dst), None)
    if failed:
        # as for a bind: no status is copied back after a failure (queue_process_host.cpp:204-210)
        raise ApiError(E.ACL_ERROR_FAILURE, acl_inner(f"send connect qs failed, ret code is {failed}"))
    for route in routes.routes:
        route.status = 0
    return E.ACL_SUCCESS


@rt_api
def acltdtQueryQueueRoutes(queryInfo: object, qRouteList: object) -> int:
    """Fill ``qRouteList`` (emptied first) with the bound routes of a source, a destination or
    both (status ACL_TDT_QUEUE_ROUTE_BIND); the abnormal mode finds none (no queue fails here)."""
    api = "acltdtQueryQueueRoutes"
    if qRouteList is None:
        raise ApiError(PARAM, acl_null(api, "qRouteList"))
    if queryInfo is None:
        raise ApiError(PARAM, acl_null(api, "queryInfo"))
    out = _route_list(qRouteList, api)
    live(queryInfo, acltdtQueueRouteQueryInfo, api, "queryInfo")
    assert isinstance(queryInfo, acltdtQueueRouteQueryInfo)
    out.routes.clear()
    check_query(queryInfo)
    device = _device()
    mode, src, dst = queryInfo.mode, queryInfo.src, queryInfo.dst
    with _CV:
        for s, d in _ROUTES.get(device, {}):
            if (
                (mode == QUERY_SRC and s == src)
                or (mode == QUERY_DST and d == dst)
                or (mode == QUERY_SRC_AND_DST and (s, d) == (src, dst))
            ):
                out.routes.append(acltdtQueueRoute(s, d, ROUTE_BIND))
    return E.ACL_SUCCESS


__all__ = [
    "acltdtBindQueueRoutes",
    "acltdtCreateQueueRouteQueryInfo",
    "acltdtDestroyQueueRouteQueryInfo",
    "acltdtQueryQueueRoutes",
    "acltdtSetQueueRouteQueryInfo",
    "acltdtUnbindQueueRoutes",
]
