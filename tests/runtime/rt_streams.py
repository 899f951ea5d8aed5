"""What the stream tests share: a stream with flags, the thread's last error, a copy that fails when
it runs, the FAILURE_MODE stream attribute, notifies and their limit, a capture's model stream."""

from __future__ import annotations

import attrs
import numpy as np

from aclnn_py import (
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
    ACL_RT_THREAD_LEVEL,
    Ref,
)
from aclnn_py import soc as _soc
from aclnn_py.runtime import api as A
from aclnn_py.runtime.api_stream_attr import (
    ACL_STREAM_ATTR_FAILURE_MODE,
    aclrtSetStreamAttribute,
    aclrtStreamAttrValue,
)


def new_stream(flags: int = 0) -> object:
    """aclrtCreateStreamWithConfig(priority 0, ``flags``)."""
    s = Ref()
    assert A.aclrtCreateStreamWithConfig(s, 0, flags) == 0
    return s.value


def last_error() -> int:
    """aclrtGetLastError(ACL_RT_THREAD_LEVEL): the thread's last runtime error (taken)."""
    return int(A.aclrtGetLastError(ACL_RT_THREAD_LEVEL))


def failing_copy(stream: object) -> None:
    """A copy whose destination is freed before it runs: it fails (a DMA error) when it runs (under
    the deferred policy: at the next synchronize)."""
    p = Ref()
    assert A.aclrtMalloc(p, 64, 0) == 0
    assert A.aclrtMemcpyAsync(p.value, 64, np.ones(64, np.uint8), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0
    assert A.aclrtFree(p.value) == 0


def set_attr_mode(stream: object, mode: int) -> int:
    """The failure mode through aclrtSetStreamAttribute(ACL_STREAM_ATTR_FAILURE_MODE)."""
    return aclrtSetStreamAttribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, aclrtStreamAttrValue(mode))


def new_notify() -> object:
    """aclrtCreateNotify(flag 0)."""
    n = Ref()
    assert A.aclrtCreateNotify(n, 0) == 0
    return n.value


def limit_notifies(n: int) -> None:
    """The emulated chip's notifies per device (Ascend950 has 65535): a few, to reach the limit quickly."""
    _soc.set_active(attrs.evolve(_soc.current(), max_notifies=n))


def capture_model_stream() -> tuple[object, object, object]:
    """(the origin stream, the model its capture made, the model's stream aclmdlRIGetStreams hands
    out): a relaxed capture of nothing."""
    st = new_stream()
    assert A.aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    m = Ref()
    assert A.aclmdlRICaptureEnd(st, m) == 0
    streams, n = [None], Ref(1)
    assert A.aclmdlRIGetStreams(m.value, streams, n) == 0 and n.value == 1
    return st, m.value, streams[0]


def filled(n: int = 16) -> int:
    """Device memory of ``n`` zero bytes (written, so that a read of it is no initcheck finding)."""
    p = Ref()
    assert A.aclrtMalloc(p, n, 0) == 0
    assert A.aclrtMemset(p.value, n, 0, n) == 0
    return int(p.value)


def read_back(p: int, n: int = 16) -> np.ndarray:
    """``n`` bytes of device memory at ``p``, copied to the host (0xFF where nothing was copied)."""
    host = np.full(n, 0xFF, np.uint8)
    assert A.aclrtMemcpy(host, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return host
