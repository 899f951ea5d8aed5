"""The error-message buffer behind ``aclGetRecentErrMsg()``.

CANN keeps the reported errors of the calling thread (or of the process, with
``"err_msg_mode": "1"`` in the aclInit config) and hands them out once: the fetch clears
them and an empty buffer gives NULL. The error manager (CANN 9.1 and later) renders them as:

* the headline: the first *predefined* report (an id that does not end in 9999 or 8888) as
  ``<Title>(<id>): <text>``, then the template's ``Possible Cause:`` / ``Solution:`` lines;
* ``TraceBack (most recent call last):`` and every other report, indented 8 spaces (a report
  equal to the first one of the list is not repeated);
* when every report is an inner one (``...9999``): ``<id>: Internal error!``, the first report,
  ``TraceBack (most recent call last):`` and the others.

Each line ends with a newline. CANN prefixes each headline with ``[PID: <pid>] <time> ``;
aclnn_py leaves that prefix out, so printouts are reproducible. An identical report (same id
and text) is stored once. Only *reported* errors land here (``OP_LOGE`` and friends); plain log
lines never do.
"""

from __future__ import annotations

import threading

from ._errtemplates import TEMPLATES

_INDENT = " " * 8
# CANN truncates each reported text to 1023 bytes (LIMIT_PREDEFINED_MESSAGE).
_MAX_TEXT = 1023


Item = tuple[str, str, "str | None"]  # (error id, text, title shown in a headline)
_UNSET = "\0"


class _Buffer(threading.local):
    def __init__(self) -> None:
        self.items: list[Item] = []


_thread_buffer = _Buffer()
_process_items: list[Item] = []
_process_lock = threading.Lock()
_process_mode = False


def set_process_mode(enabled: bool) -> None:
    """Switch between per-thread (default) and per-process message buffers."""
    global _process_mode
    _process_mode = enabled


def eid_for_code(code: int) -> str:
    """The error id OP_LOGE reports for an aclnn code: chosen by its first decimal digit."""
    first = str(int(code))[:1]
    if first == "1":
        return "EZ1001"
    if first == "3":
        return "EZ9903"
    return "EZ9999"


def report(eid: str, text: str, title: str | None = _UNSET) -> None:
    """Record one reported error (an error id such as ``EZ1001`` and its text).

    The headline title defaults to the template CANN registers for the id; pass ``None`` for
    reports without one (inner reports, device errors). An identical report is kept once."""
    if title == _UNSET:
        template = TEMPLATES.get(eid)
        title = template[0] if template is not None else None
    item: Item = (eid, text[:_MAX_TEXT], title)
    if _process_mode:
        with _process_lock:
            if item not in _process_items:
                _process_items.append(item)
    else:
        items = _thread_buffer.items
        if item not in items:
            items.append(item)


def report_code(code: int, text: str) -> None:
    """``OP_LOGE(code, text)``: report under the error id derived from the code."""
    report(eid_for_code(code), text)


def _inner(eid: str) -> bool:
    """``IsInnerErrorCode``: ids ending in 9999 (inner) or 8888 (parameter check)."""
    return eid[2:6] in ("9999", "8888")


def _render(items: list[Item]) -> str:
    lines: list[str] = []
    head = next((item for item in items if not _inner(item[0])), None)
    if head is not None:
        eid, text, title = head
        lines.append(f"{title}({eid}): {text}" if title else f"{eid}: {text}")
        _, cause, solution = TEMPLATES.get(eid, ("", "", ""))
        if cause:
            lines.append(f"{_INDENT}Possible Cause: {cause}")
        if solution:
            lines.append(f"{_INDENT}Solution: {solution}")
        first_text = items[0][1]
        rest = [t for e, t, _ in items if not (e == eid and t == first_text)]
        if rest:
            lines.append("TraceBack (most recent call last):")
            lines.extend(_INDENT + t for t in rest)
    else:  # every report is an inner one
        code = next((e for e, _, _ in items if e[2:6] != "8888"), items[0][0])
        param_first = items[0][0][2:6] == "8888"
        lines.append(f"{code}: Internal error!")
        prefix = code
        for eid, text, title in items:
            if eid[2:6] == "8888" and param_first:
                lines.append(_INDENT + text)
                continue
            if prefix == "      ":
                lines.append(f"{prefix} {text}")
            else:
                lines.append(f"{prefix}{title or ''}({eid}):  {text}")
                prefix = "      "
                lines.append("TraceBack (most recent call last):")
    return "".join(line + "\n" for line in lines)


def fetch() -> str | None:
    """Return the pending messages rendered as one string and clear them (None if empty)."""
    items: list[Item]
    if _process_mode:
        with _process_lock:
            items = list(_process_items)
            _process_items.clear()
    else:
        items = _thread_buffer.items
        _thread_buffer.items = []
    if not items:
        return None
    return _render(items)


def peek() -> list[tuple[str, str]]:
    """The pending (error id, text) pairs of the current buffer, without clearing them."""
    if _process_mode:
        with _process_lock:
            return [(eid, text) for eid, text, _ in _process_items]
    return [(eid, text) for eid, text, _ in _thread_buffer.items]


def take() -> list[Item]:
    """Remove and return the current thread's pending reports (a stream worker hands them on)."""
    if _process_mode:
        return []  # one buffer for the process: every thread already sees them
    items, _thread_buffer.items = _thread_buffer.items, []
    return items


def give(items: list[Item]) -> None:
    """Add reports taken from another thread to the current thread's (each identical one once)."""
    for eid, text, title in items:
        report(eid, text, title)


def clear() -> None:
    """Drop the pending messages of the current buffer."""
    fetch()
