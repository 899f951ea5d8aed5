"""XML text escaping for the pictures (SVG) and the timeline."""

from __future__ import annotations


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities: what ``xml.sax.saxutils.escape`` does, without
    importing it (it pulls in ``urllib.request``, a third of ``import aclnn_py``'s own cost)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
