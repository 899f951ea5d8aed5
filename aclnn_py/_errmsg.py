"""The error-message buffer behind ``aclGetRecentErrMsg()``.

CANN keeps the reported errors of the calling thread (or of the process, with
``"err_msg_mode": "1"`` in the aclInit config) and hands them out once: the fetch clears
them and an empty buffer gives NULL. One fetch shows the first report as the headline,
``<Title>(<code>): <text>``, and every later one under ``TraceBack (most recent call last):``.

Only *reported* errors land here (``OP_LOGE`` and friends); plain log lines never do.
"""

from __future__ import annotations

import threading

# Titles of the error-manager templates that CANN registers (opbase op_error_manager.cpp).
_TITLES = {
    "EZ1001": "AclNN_Parameter_Error",
    "EZ1002": "Config_Error_Invalid_Environment_Variable",
    "EZ1003": "File_Operation_Error_Open",
    "EZ1004": "File_Operation_Error_Parse",
    "EZ1005": "File_Operation_Error_Parse",
    "EZ1006": "Not_Supported_Data_Type",
    "EZ1007": "Invalid_Argument_Tensor_Input_Shape",
    "EZ1008": "Execution_Error",
    "EZ1009": "Execution_Error",
    "EZ1010": "Invalid_Argument",
    "EZ1011": "Invalid_Argument_Null_Pointer",
    "EZ1012": "Invalid_Argument",
    "EZ1013": "Config_Error",
    "EZ1014": "Execution_Error",
    "EZ9903": "AclNN_Runtime_Error",
    "EZ9999": "AclNN_Inner_Error",
}

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

    The headline title defaults to the template CANN registers for the id (EZ1001, EZ9903,
    EZ9999 of aclnn); pass ``None`` for messages that come from elsewhere (device errors)."""
    item: Item = (eid, text[:_MAX_TEXT], _TITLES.get(eid) if title == _UNSET else title)
    if _process_mode:
        with _process_lock:
            _process_items.append(item)
    else:
        _thread_buffer.items.append(item)


def report_code(code: int, text: str) -> None:
    """``OP_LOGE(code, text)``: report under the error id derived from the code."""
    report(eid_for_code(code), text)


def _render(items: list[Item]) -> str:
    lines = []
    for i, (eid, text, title) in enumerate(items):
        if i == 0:
            lines.append(f"{title}({eid}): {text}" if title else f"{eid}: {text}")
            if len(items) > 1:
                lines.append(f"{_INDENT}TraceBack (most recent call last):")
        else:
            lines.append(f"{_INDENT}{text}")
    return "\n".join(lines)


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


def clear() -> None:
    """Drop the pending messages of the current buffer."""
    fetch()
