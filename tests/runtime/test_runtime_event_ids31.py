"""Which events hold an event id, as aclrtGetEventAvailNum counts them (stop 31).

``ApiImpl::EventCreate`` (api_impl.cc:2041-2069) takes a driver event id at creation only for a
flag other than RT_EVENT_DEFAULT (``Event::GenEventId``, event.cc:457-481, whose
``InitEventAllocFlag``, event.cc:429-455, skips the stream-mark and timeline flags on a STARS
chip and RT_EVENT_TIME_LINE alone elsewhere); an RT_EVENT_DEFAULT event (aclrtCreateEvent) and an
event of aclrtCreateEventExWithFlag (``EventCreateEx``, api_impl.cc:2072-2090) take one at each
record (``Event::Record``, event.cc:536-546). An aclrtCreateEvent event keeps its latest id until
its next record frees it (``RefreshEventId`` / ``TryFreeLastEventId``) or it is destroyed; a
new-mode event gives it back once the record and the waits sent against it are done
(``TryFreeEventIdAndCheckCanBeDelete``, event.cc:191-231). IPC events hold no id (memory:
ipc_event.cc:152-194).

Ascend950 (RT_FEATURE_DEVICE_NOTIFY_ONLY) answers its notify ids (npu_driver_res.cc:620-640): an
event whose flag is neither RT_EVENT_DEFAULT nor without a wait task takes one at creation
(``DavidEvent::GenEventId``, event_david.cc:89-116); the others count on their stream's count
notify, another resource. With the notify ids exhausted such a creation is 207007 with EE1023.
"""

from __future__ import annotations

import os
import threading

import pytest
from rt_streams import limit_notifies, new_notify
from rt_texts import FUNC_ERROR_REASON, INDENT, TRACEBACK

from aclnn_py import aclGetRecentErrMsg
from aclnn_py._ref import Ref
from aclnn_py.runtime import api as A

NO_EVENT = 207007  # ACL_ERROR_RT_NO_EVENT_RESOURCE
NO_NOTIFY = 207009  # ACL_ERROR_RT_NO_NOTIFY_RESOURCE
DEFAULT = 0x0E  # RT_EVENT_DEFAULT: aclrtCreateEvent's flag
ME = threading.get_ident()


def _avail() -> int:
    n = Ref()
    assert A.aclrtGetEventAvailNum(n) == 0
    return int(n.value)


def _stream() -> object:
    s = Ref()
    assert A.aclrtCreateStream(s) == 0
    return s.value


def _event(flag: int | None = None, ex: bool = False) -> object:
    ev = Ref()
    if flag is None:
        assert A.aclrtCreateEvent(ev) == 0
    elif ex:
        assert A.aclrtCreateEventExWithFlag(ev, flag) == 0
    else:
        assert A.aclrtCreateEventWithFlag(ev, flag) == 0
    return ev.value


# -- Ascend910B/910_93, Ascend910, Ascend310P: driver event ids ---------------------------------


@pytest.mark.parametrize("family", ["Ascend910B", "Ascend910_93", "Ascend910", "Ascend310P"])
@pytest.mark.parametrize("make", [lambda: _event(), lambda: _event(DEFAULT)])
def test_a_default_event_takes_its_id_at_its_first_record(chip, family, make):
    chip(family)
    s = _stream()
    before = _avail()
    ev = make()
    assert _avail() == before  # "does not actually apply for the Event resource" until a record
    assert A.aclrtRecordEvent(ev, s) == 0
    assert A.aclrtSynchronizeStream(s) == 0
    assert _avail() == before - 1  # kept after the record completed: its latest id
    assert A.aclrtRecordEvent(ev, s) == 0  # a new id; the old one goes back
    assert A.aclrtSynchronizeStream(s) == 0
    assert _avail() == before - 1
    assert A.aclrtDestroyEvent(ev) == 0
    assert _avail() == before
    assert A.aclrtDestroyStream(s) == 0


@pytest.mark.parametrize(
    ("family", "flag", "held"),
    [
        ("Ascend910B", 0x1, 1),  # ACL_EVENT_SYNC: a wait task
        ("Ascend910B", 0x4, 1),  # RT_EVENT_DDSYNC
        ("Ascend910B", 0x9, 1),
        ("Ascend910B", 0x10, 1),  # ACL_EVENT_DEVICE_USE_ONLY (RT_EVENT_MC2)
        ("Ascend910B", 0x20, 1),  # ACL_EVENT_EXTERNAL
        ("Ascend910B", 0x2, 0),  # stream mark: no id on a STARS chip
        ("Ascend910B", 0x8, 0),  # ACL_EVENT_TIME_LINE
        ("Ascend910B", 0xA, 0),
        ("Ascend910_93", 0x8, 0),
        ("Ascend910", 0x2, 1),  # no STARS: a stream-mark event takes one
        ("Ascend910", 0xA, 1),
        ("Ascend910", 0x8, 0),  # RT_EVENT_TIME_LINE alone: the fixed TIMELINE_EVENT_ID
        ("Ascend310P", 0x1, 1),
        ("Ascend310P", 0x2, 1),
        ("Ascend310P", 0x8, 0),
    ],
)
def test_other_flags_take_an_id_at_creation_if_any(chip, family, flag, held):
    chip(family)
    s = _stream()
    before = _avail()
    ev = _event(flag)
    assert _avail() == before - held
    if flag & 0x3F != 0x10:  # a device-only event cannot be recorded from the host
        assert A.aclrtRecordEvent(ev, s) == 0
        assert A.aclrtSynchronizeStream(s) == 0
        assert _avail() == before - held  # its records use the same id
    assert A.aclrtDestroyEvent(ev) == 0
    assert _avail() == before
    assert A.aclrtDestroyStream(s) == 0


def test_an_ex_event_holds_an_id_while_its_record_is_pending(chip, monkeypatch):
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")  # the record runs at the synchronize
    chip("Ascend910B")
    a, b = _stream(), _stream()
    before = _avail()
    ev = _event(0x1, ex=True)
    assert _avail() == before  # EventCreateEx takes none
    assert A.aclrtRecordEvent(ev, a) == 0
    assert _avail() == before - 1  # the record's id
    assert A.aclrtStreamWaitEvent(b, ev) == 0  # sent while the record is pending: counts on its id
    assert A.aclrtSynchronizeStream(a) == 0
    assert _avail() == before - 1  # the wait still holds it
    assert A.aclrtSynchronizeStream(b) == 0
    assert _avail() == before  # record and wait done: given back
    assert A.aclrtRecordEvent(ev, a) == 0
    assert A.aclrtSynchronizeStream(a) == 0
    assert _avail() == before
    assert A.aclrtDestroyEvent(ev) == 0
    for s in (a, b):
        assert A.aclrtDestroyStream(s) == 0


def test_a_pending_record_of_a_default_event_keeps_its_old_id(chip, monkeypatch):
    """A new record takes a new id; the previous one goes back once its record is done."""
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    chip("Ascend910B")
    s = _stream()
    before = _avail()
    ev = _event()
    assert A.aclrtRecordEvent(ev, s) == 0
    assert A.aclrtRecordEvent(ev, s) == 0  # the first record is still queued
    assert _avail() == before - 2
    assert A.aclrtSynchronizeStream(s) == 0
    assert _avail() == before - 1
    assert A.aclrtDestroyEvent(ev) == 0
    assert A.aclrtDestroyStream(s) == 0


@pytest.mark.parametrize("flag", [0x2, 0x8])
def test_an_ex_event_without_a_wait_task_takes_none_on_stars(chip, monkeypatch, flag):
    monkeypatch.setenv("ACLNN_PY_STREAM", "deferred")
    chip("Ascend910B")
    s = _stream()
    before = _avail()
    ev = _event(flag, ex=True)
    assert A.aclrtRecordEvent(ev, s) == 0
    assert _avail() == before
    assert A.aclrtSynchronizeStream(s) == 0
    assert A.aclrtDestroyEvent(ev) == 0
    assert A.aclrtDestroyStream(s) == 0


def test_ipc_events_hold_no_event_id(chip):
    chip("Ascend910B")
    before = _avail()
    ev = _event(0x40, ex=True)  # ACL_EVENT_IPC
    handle = A.aclrtIpcEventHandle()
    assert A.aclrtIpcGetEventHandle(ev, handle) == 0
    opened = Ref()
    assert A.aclrtIpcOpenEventHandle(handle, opened) == 0
    assert _avail() == before
    for e in (opened.value, ev):
        assert A.aclrtDestroyEvent(e) == 0


# -- Ascend950: notify ids ----------------------------------------------------------------------


def test_ascend950_answers_its_notify_ids(chip):
    chip("Ascend950")
    assert _avail() == 65535  # the device's notifies, none in use
    s = _stream()
    n = new_notify()
    assert _avail() == 65534
    held = [_event(0x1), _event(0x10), _event(0x20), _event(0x4)]  # each takes a notify id
    assert _avail() == 65530
    free = [_event(), _event(DEFAULT), _event(0x8), _event(0x2), _event(0x1, ex=True)]  # none
    assert A.aclrtRecordEvent(free[0], s) == 0
    assert A.aclrtRecordEvent(free[-1], s) == 0
    assert A.aclrtSynchronizeStream(s) == 0
    assert _avail() == 65530
    assert A.aclrtSubscribeReport(ME, s) == 0  # ApiImplDavid::SubscribeReport's notify
    assert _avail() == 65529
    assert A.aclrtUnSubscribeReport(ME, s) == 0
    cn = Ref()
    assert A.aclrtCntNotifyCreate(cn, 0) == 0  # a count notify: another resource
    assert _avail() == 65530
    for ev in held + free:
        assert A.aclrtDestroyEvent(ev) == 0
    assert _avail() == 65534
    assert A.aclrtCntNotifyDestroy(cn.value) == 0
    assert A.aclrtDestroyNotify(n) == 0
    assert _avail() == 65535
    assert A.aclrtDestroyStream(s) == 0


def test_ascend950_events_and_notifies_share_the_notify_ids(chip):
    chip("Ascend950")
    limit_notifies(2)
    ev = _event(0x1)
    n = new_notify()
    assert _avail() == 0
    assert A.aclrtCreateNotify(Ref(), 0) == NO_NOTIFY  # the event holds the other
    assert "Alloc Notify resource failed. Reason: Too many Notify objects are created." in aclGetRecentErrMsg()
    assert A.aclrtDestroyEvent(ev) == 0
    m = new_notify()
    for x in (n, m):
        assert A.aclrtDestroyNotify(x) == 0


def test_ascend950_event_creation_fails_without_a_free_notify_id(chip):
    chip("Ascend950")
    limit_notifies(1)
    n = new_notify()
    for flag in (0x1, 0x20, 0x10):
        assert A.aclrtCreateEventWithFlag(Ref(), flag) == NO_EVENT
        assert aclGetRecentErrMsg() == (
            "Resource_Error(EE1023): Alloc Event resource failed. Reason: Too many events are created.\n"
            + f'{INDENT}Solution: For details about the troubleshooting method, search for the keyword "EE1023" on '
            "https://www.hiascend.com/document/.\n"
            + TRACEBACK
            + f"{INDENT}rtEventCreateWithFlag execution failed, reason=driver error:no event resource"
            f"{FUNC_ERROR_REASON}\n"
        )
    made = [_event(), _event(0x8), _event(0x1, ex=True)]  # these take no notify id
    for ev in made:
        assert A.aclrtDestroyEvent(ev) == 0
    assert A.aclrtDestroyNotify(n) == 0
    ev = _event(0x1)
    assert A.aclrtDestroyEvent(ev) == 0


@pytest.mark.parametrize("family", ["Ascend910B", "Ascend310P"])
def test_event_creation_elsewhere_is_not_limited_by_notifies(chip, family):
    chip(family)
    limit_notifies(1)
    n = new_notify()
    ev = _event(0x1)  # an event id, not a notify id
    assert A.aclrtDestroyEvent(ev) == 0
    assert A.aclrtDestroyNotify(n) == 0


def test_an_imported_notify_takes_no_notify_id(chip):
    chip("Ascend910B")
    limit_notifies(2)
    n = new_notify()
    key = Ref()
    assert A.aclrtNotifyGetExportKey(n, key, 64, 0) == 0
    assert A.aclrtNotifySetImportPid(n, [os.getpid()], 1) == 0
    imported = Ref()
    assert A.aclrtNotifyImportByKey(imported, key.value, 0) == 0  # Notify::OpenIpcNotify: no NotifyIdAlloc
    m = new_notify()
    assert A.aclrtCreateNotify(Ref(), 0) == NO_NOTIFY
    aclGetRecentErrMsg()
    for x in (imported.value, m, n):
        assert A.aclrtDestroyNotify(x) == 0


def test_ascend950_count_notifies_take_no_notify_id(chip):
    chip("Ascend950")
    limit_notifies(1)
    cn = Ref()
    assert A.aclrtCntNotifyCreate(cn, 0) == 0  # a DRV_CNT_NOTIFY_ID
    n = new_notify()
    assert A.aclrtDestroyNotify(n) == 0
    assert A.aclrtCntNotifyDestroy(cn.value) == 0
