"""Process, device and context state of the emulated runtime.

* One :class:`Runtime` per process: init/finalize state, the SoC, the devices, the execution
  policy, the leak registry.
* A :class:`Device` is reference counted by ``aclrtSetDevice``/``aclrtResetDevice``; its
  *primary* context (with its default stream) is shared by every thread that sets the device.
* A :class:`Context` owns a default stream and the streams created while it was current. The
  current context is per thread, as in CANN.
"""

from __future__ import annotations

import os
import re
import threading
import time
from typing import Any

from .. import _settings
from .. import soc as _soc
from .._settings import KERNEL_PATHS, KERNELS_ENV
from .memory import SPACE, Allocation
from .stream import DeferredPolicy, Event, Policy, Stream, policy_from_environment

DEVICE_COUNT_ENV = "ACLNN_PY_DEVICE_COUNT"
DEVICE_MEMORY_ENV = "ACLNN_PY_DEVICE_MEMORY"
DEFAULT_DEVICE_COUNT = 8
DEFAULT_DEVICE_MEMORY = 32 * 1024**3
RT_MAX_DEV_NUM = 64
CONTEXT_POINTER_BASE = 0x5A5A_0000_0000  # where the pseudo-addresses of contexts start (messages only)


def parse_size(text: str) -> int:
    """``"32G"``, ``"512M"``, ``"1048576"`` -> bytes."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)(i?B)?\s*", text, re.IGNORECASE)
    if not m:
        raise ValueError(f"cannot read a memory size from {text!r}")
    scale = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}[m.group(2).upper()]
    return int(m.group(1)) * scale


# The kernel path setting (read at every launch by aclnn_py.kernels.accel): aclInit
# refuses a bad value naming the variable, like the other settings, instead of the first
# synchronize failing with an internal error.
def _check_kernel_path() -> None:
    value = _settings.choice(KERNELS_ENV, KERNEL_PATHS, "auto", "kernel path")
    import importlib.util  # only to check the numba setting

    if value == "numba" and importlib.util.find_spec("numba") is None:
        raise ValueError(f"{KERNELS_ENV}=numba but numba is not installed (pip install numba, or unset {KERNELS_ENV})")


class Context:
    """An ``aclrtContext``."""

    __slots__ = (
        "__weakref__",
        "default_stream",
        "destroyed",
        "device",
        "failure",
        "ident",
        "is_primary",
        "overflow",
        "site",
        "stop_on_failure",
        "streams",
        "sys_params",
    )

    _next = 1

    def __init__(self, device: Device, is_primary: bool, site: str) -> None:
        self.device = device
        self.is_primary = is_primary
        self.site = site
        self.destroyed = False
        self.ident = Context._next
        Context._next += 1
        self.stop_on_failure = False  # aclrtSetStreamFailureMode(ACL_STOP_ON_FAILURE) on any stream
        self.failure: tuple[int, str] | None = None  # the first task failure once stopped
        self.default_stream = Stream(self, True, 0, site)
        self.streams: list[Stream] = []
        self.sys_params: dict[int, int] = {}  # aclrtCtxSetSysParamOpt: option -> value
        self.overflow: Allocation | None = None  # the overflow status area (made on first use)

    def __repr__(self) -> str:
        kind = "primary context" if self.is_primary else "context"
        return f"<aclrtContext #{self.ident} ({kind} of device {self.device.ident})>"

    def all_streams(self) -> list[Stream]:
        return [self.default_stream, *self.streams]

    @property
    def pointer(self) -> str:
        """This context as CANN's ``%p`` shows a context in messages: a pseudo-address made from
        its number, stable from run to run (a real one is a heap address)."""
        return f"0x{CONTEXT_POINTER_BASE + (self.ident << 12):x}"


class Device:
    """One emulated NPU."""

    __slots__ = (
        "capacity",
        "contexts",
        "had_primary",
        "ident",
        "primary",
        "refcount",
        "res_limits",
        "task_abort",
        "used",
    )

    def __init__(self, ident: int, capacity: int) -> None:
        self.ident = ident
        self.capacity = capacity
        self.refcount = 0
        self.primary: Context | None = None
        # the runtime keeps a released primary context in its slot: a later forced reset finds it
        self.had_primary = False
        self.contexts: list[Context] = []  # explicit contexts
        self.used = 0  # bytes of live device allocations
        self.res_limits: dict[int, int] = {}  # aclrtSetDeviceResLimit: resource type -> cores
        self.task_abort = False  # aclrtDeviceTaskAbort is running (GetDeviceStatus: RT_ERROR_DEVICE_TASK_ABORT)

    def stream_count(self) -> int:
        ctxs = ([self.primary] if self.primary else []) + self.contexts
        return sum(1 + len(c.streams) for c in ctxs)

    def live_allocations(self) -> list[Allocation]:
        return [a for a in SPACE.live() if a.kind == "device" and a.device == self.ident]


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.context: Context | None = None
        self.last_error = 0  # aclrtGetLastError / aclrtPeekAtLastError
        self.res_stream: Stream | None = None  # aclrtUseStreamResInCurrentThread


class Runtime:
    """Process-wide runtime state (one instance: :data:`RT`)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.tls = _ThreadState()
        self.initialized = False
        self.told_no_init = False  # the sanitizer said once that aclInit was never called
        self.finalized = False  # CANN starts with the flag false: aclFinalize without aclInit is legal
        self.init_refcount = 0
        self.first_config: str | None = None  # digest of the first successful aclInit's config
        self.first_config_path = ""  # its path ("" when it had none), named by a later mismatch
        self.config_text = ""  # the current aclInit's configuration (what init callbacks receive)
        self.default_device: int | None = None
        self.device_count = DEFAULT_DEVICE_COUNT
        self.capacity = DEFAULT_DEVICE_MEMORY  # per device, and for pinned host memory as a whole
        self.host_used = 0
        self.devices: dict[int, Device] = {}
        self.policy: Policy = DeferredPolicy()  # aclInit applies ACLNN_PY_STREAM
        # Objects handed to the user and not yet released (what the leak check reports).
        # Strong references: a handle the program drops without releasing is a leak, as in C.
        self.tensors: set[Any] = set()
        self.handles: set[Any] = set()  # scalars and arrays made by aclCreateScalar / aclCreate*Array
        self.executors: set[Any] = set()
        self.events: set[Event] = set()
        self.notifies: set[Any] = set()
        self.reports: Any = None  # aclrtSubscribeReport's subscriptions (api_callback)
        self.peer_access: set[tuple[int, int]] = set()  # (device, peer) pairs enabled
        self.exception_callbacks: Any = None  # the exception-info callbacks (api_callback)
        self.start_ns = time.perf_counter_ns()  # "device start": what event timestamps count from
        self.op_wait_timeout = 0  # aclrtSetOpWaitTimeout (seconds; 0: never)
        self.op_execute_timeout = 0  # aclrtSetOpExecuteTimeOut (seconds; 0: the maximum)
        # The operator execution timeout every aclrtSetOpExecuteTimeOut* call sets, in
        # microseconds (None: never set, the chip's default applies; 0: the maximum).
        self.op_timeout_us: int | None = None
        self.sat_mode: int | None = None  # aclrtSetDeviceSatMode (None: the chip's default)
        self.limits: dict[int, int] = {}  # aclrtDeviceSetLimit: runtime limit type -> value
        self.sys_params: dict[int, int] = {}  # aclrtSetSysParamOpt: option -> value (0 unless set)

    def reset(self) -> None:
        """Forget every device, context, stream and setting (test isolation; not a CANN call)."""
        self.__init__()  # type: ignore[misc]

    def configure_from_environment(self) -> _soc.SocProfile:
        """Read ACLNN_PY_SOC / _DEVICE_COUNT / _DEVICE_MEMORY / _STREAM (done by aclInit)."""
        profile = _soc.from_environment()
        count = int(os.environ.get(DEVICE_COUNT_ENV, "") or DEFAULT_DEVICE_COUNT)
        if not 1 <= count <= RT_MAX_DEV_NUM:
            raise ValueError(f"{DEVICE_COUNT_ENV} must be between 1 and {RT_MAX_DEV_NUM}, got {count}")
        capacity = parse_size(os.environ.get(DEVICE_MEMORY_ENV, "") or str(DEFAULT_DEVICE_MEMORY))
        policy = policy_from_environment()
        _check_kernel_path()
        self.device_count = count
        self.capacity = capacity
        self.policy = policy
        for dev in self.devices.values():
            dev.capacity = capacity
        return profile

    def device(self, ident: int) -> Device:
        dev = self.devices.get(ident)
        if dev is None:
            dev = self.devices[ident] = Device(ident, self.capacity)
        return dev

    def thread_context(self) -> Context | None:
        """The calling thread's context, None if unset or destroyed (the runtime's no-argument
        ``Runtime::CurrentContext()``: it never sets the aclInit default device)."""
        ctx = self.tls.context
        if ctx is not None and not ctx.destroyed:
            return ctx
        return None

    def current_context(self) -> Context | None:
        """The calling thread's context (None if unset or destroyed; the default device, made
        current on the spot, if aclInit configured one: ``ApiImpl::CurrentContext()``)."""
        ctx = self.thread_context()
        if ctx is not None:
            return ctx
        if self.default_device is not None and self.initialized:
            with self.lock:
                dev = self.device(self.default_device)
                if dev.primary is None:
                    dev.refcount += 1
                    dev.primary = Context(dev, True, "aclInit(defaultDevice)")
                    dev.had_primary = True
                self.tls.context = dev.primary
                return dev.primary
        return None


RT = Runtime()
