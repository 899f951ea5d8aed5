"""aclrtRandomNumAsync of ``acl_rt.h``: the built-in random number task (the DSA engine's on
hardware), queued on a stream.

The checks are CANN's, in its order: the ACL layer (``src/acl/aclrt_impl/kernel.cpp``: taskInfo
not null, its dataType one of the seven the runtime maps), ``rtsLaunchRandomNumTask`` (the chip's
RT_FEATURE_TASK_RAND_GENERATOR, Ascend910B and Ascend910_93 only; the stream handle), the error
decorator (``reserve`` must be nullptr), the current context and the stream's context, then
``CheckRandomNumTaskInfo`` (``random_num_task.cc``: the dataType the distribution takes, counter
and result addresses, seed and count, the distribution's parameters).

What the task computes: CANN states the algorithm, Philox4_32_10 with a 128-bit counter kept in
16 bytes of device memory (the example's README, random_num_task.cc); the engine's distribution
transforms are not in the public sources. So the generator below is Philox4x32-10 (Salmon et al.,
"Parallel random numbers: as easy as 1, 2, 3", SC'11) keyed by the 64-bit seed (low word first)
and counted from the 128-bit little-endian counter at ``randomCounterAddr``, which the task
advances by the Philox blocks it used; the transforms are documented conventions of our own
(see :func:`_generate`), so the numbers have CANN's dtype, count, bounds and distribution
parameters, not necessarily the device's bits.
"""

from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from .._capi import ApiError, as_pointer, describe
from ..dtypes import aclDataType
from . import _rt_features, sanitizer
from ._checks import (
    PARAM,
    RT_PARAM,
    E,
    acl_null,
    acl_reason,
    check_stopped,
    emu,
    fb_invalid,
    need_context,
    own_stream,
    rt_api,
    rt_value,
    stream_handle,
)
from .device import RT
from .memory import SPACE, MemoryFault, called_from_c
from .stream import Stream, Task, TaskFault

# ---------------------------------------------------------------------------------------------
# the structs of acl_rt.h (ctypes: the Python API and the C layout are one)
# ---------------------------------------------------------------------------------------------


class aclrtRandomParaInfo(ctypes.Structure):
    """``aclrtRandomParaInfo``: a value (``isAddr`` 0, ``size`` bytes of ``valueOrAddr``) or the
    device address of one (``isAddr`` 1)."""

    _fields_ = [
        ("isAddr", ctypes.c_uint8),
        ("valueOrAddr", ctypes.c_uint8 * 8),
        ("size", ctypes.c_uint8),
        ("rsv", ctypes.c_uint8 * 6),
    ]


class aclrtDropoutBitmaskInfo(ctypes.Structure):
    _fields_ = [("dropoutRation", aclrtRandomParaInfo)]


class aclrtUniformDisInfo(ctypes.Structure):
    _fields_ = [("min", aclrtRandomParaInfo), ("max", aclrtRandomParaInfo)]


class aclrtNormalDisInfo(ctypes.Structure):
    _fields_ = [("mean", aclrtRandomParaInfo), ("stddev", aclrtRandomParaInfo)]


class _ParamInfo(ctypes.Union):
    _fields_ = [
        ("dropoutBitmaskInfo", aclrtDropoutBitmaskInfo),
        ("uniformDisInfo", aclrtUniformDisInfo),
        ("normalDisInfo", aclrtNormalDisInfo),
    ]


class aclrtRandomNumFuncParaInfo(ctypes.Structure):
    _fields_ = [("funcType", ctypes.c_int32), ("paramInfo", _ParamInfo)]


class aclrtRandomNumTaskInfo(ctypes.Structure):
    """``aclrtRandomNumTaskInfo`` (104 bytes, as acl_rt.h lays it out)."""

    _fields_ = [
        ("dataType", ctypes.c_int32),
        ("randomNumFuncParaInfo", aclrtRandomNumFuncParaInfo),
        ("randomParaAddr", ctypes.c_void_p),
        ("randomResultAddr", ctypes.c_void_p),
        ("randomCounterAddr", ctypes.c_void_p),
        ("randomSeed", aclrtRandomParaInfo),
        ("randomNum", aclrtRandomParaInfo),
        ("rsv", ctypes.c_uint8 * 8),
    ]


def para(value: int | float | bytes, size: int, is_addr: int = 0, dtype: Any = None) -> aclrtRandomParaInfo:
    """An ``aclrtRandomParaInfo`` holding ``value``: an int/float stored as ``dtype`` (default: an
    unsigned integer of ``size`` bytes), raw bytes, or (``is_addr`` 1) a device address."""
    p = aclrtRandomParaInfo()
    p.isAddr, p.size = is_addr, size
    if isinstance(value, bytes):
        raw = value
    elif is_addr:
        raw = int(value).to_bytes(8, "little")
    else:
        dt = np.dtype(dtype) if dtype is not None else np.dtype(f"<u{size}")
        raw = np.array([value]).astype(dt).tobytes()
    ctypes.memmove(p.valueOrAddr, raw[:8], min(len(raw), 8))
    return p


# aclrtRandomNumFuncType, and the ACL type -> the runtime's rtRandomNumDataType (kernel.cpp kMapDataType)
DROPOUT_BITMASK, UNIFORM_DIS, NORMAL_DIS, TRUNCATED_NORMAL_DIS = 0, 1, 2, 3
_RT_TYPE = {
    int(aclDataType.ACL_INT32): 0, int(aclDataType.ACL_INT64): 1, int(aclDataType.ACL_UINT32): 2,
    int(aclDataType.ACL_UINT64): 3, int(aclDataType.ACL_BF16): 4, int(aclDataType.ACL_FLOAT16): 5,
    int(aclDataType.ACL_FLOAT): 6,
}  # fmt: skip
_RT_TYPE_NAMES = ("INT32", "INT64", "UINT32", "UINT64", "BF16", "FP16", "FP32")
_RT_NP: tuple[type, ...] = (np.int32, np.int64, np.uint32, np.uint64, ml_dtypes.bfloat16, np.float16, np.float32)
_FUNC_NAMES = ("DROPOUT_BITMASK", "UNIFORM_DIS", "NORMAL_DIS", "TRUNCATED_NORMAL_DIS")
_FLOATS = {4, 5, 6}
_FUNC_TYPES = {DROPOUT_BITMASK: (_FLOATS, "bf16,fp16,fp32"), UNIFORM_DIS: (set(range(7)),
               "bf16,fp16,fp32,int32,int64,uint32,uint64"), NORMAL_DIS: (_FLOATS, "bf16,fp16,fp32"),
               TRUNCATED_NORMAL_DIS: (_FLOATS, "bf16,fp16,fp32")}  # fmt: skip


def _acl_type_desc(t: int) -> str:
    try:
        return f"{aclDataType(t).name[4:]}({t})"
    except ValueError:
        return f"UNKNOWN({t})"


def _func_desc(f: int) -> str:
    if 0 <= f < len(_FUNC_NAMES):
        return f"RANDOM_NUM_FUNC_TYPE_{_FUNC_NAMES[f]}({f})"
    return "RANDOM_NUM_FUNC_TYPE_MAX(4)" if f == 4 else f"UNKNOWN({f})"


def _type_desc(rt: int) -> str:
    """RandomNumDataTypeToString."""
    if 0 <= rt < len(_RT_TYPE_NAMES):
        return f"RANDOM_NUM_DATATYPE_{_RT_TYPE_NAMES[rt]}({rt})"
    return "RANDOM_NUM_DATATYPE_MAX(7)" if rt == 7 else f"UNKNOWN({rt})"


# ---------------------------------------------------------------------------------------------
# Philox4x32-10
# ---------------------------------------------------------------------------------------------

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_MASK32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)


def philox4x32_10(counter: int, key: int, blocks: int) -> np.ndarray:
    """``blocks`` Philox4x32-10 blocks from the 128-bit ``counter`` on (block i is counter + i),
    keyed by the 64-bit ``key``: ``4 * blocks`` uint32 words, block by block, word 0 first."""
    i = np.arange(blocks, dtype=np.uint64)
    lo0 = np.uint64(counter & 0xFFFF_FFFF_FFFF_FFFF)
    lo = lo0 + i  # wraps modulo 2**64: the carry goes to the high half
    hi = np.uint64((counter >> 64) & 0xFFFF_FFFF_FFFF_FFFF) + (lo < lo0).astype(np.uint64)
    c0, c1, c2, c3 = lo & _MASK32, lo >> _SHIFT32, hi & _MASK32, hi >> _SHIFT32
    k0, k1 = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = (
            (p1 >> _SHIFT32) ^ c1 ^ np.uint64(k0),
            p1 & _MASK32,
            (p0 >> _SHIFT32) ^ c3 ^ np.uint64(k1),
            p0 & _MASK32,
        )
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], axis=1).reshape(-1).astype(np.uint32)


class _Words:
    """The Philox stream of one task: words handed out in order, blocks counted."""

    def __init__(self, counter: int, key: int) -> None:
        self.counter, self.key, self.blocks = counter, key, 0

    def take(self, n: int) -> np.ndarray:
        blocks = -(-n // 4)
        out = philox4x32_10((self.counter + self.blocks) % (1 << 128), self.key, blocks)[:n]
        self.blocks += blocks
        return out


def _unit(words: np.ndarray) -> np.ndarray:
    """Uniform float64 in (0, 1]: ``(w + 1) / 2**32`` (never 0, so the logarithm is finite)."""
    return (words.astype(np.float64) + 1.0) / 4294967296.0


def _normal(src: _Words, n: int) -> np.ndarray:
    """Standard normal values by Box-Muller: one word pair gives two values."""
    pairs = -(-n // 2)
    w = src.take(2 * pairs).reshape(pairs, 2)
    r = np.sqrt(-2.0 * np.log(_unit(w[:, 0])))
    theta = 2.0 * np.pi * _unit(w[:, 1])
    return np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1).reshape(-1)[:n]


@dataclass(frozen=True)
class _Spec:
    func: int
    rt_type: int
    num: int
    first: bytes  # the 8-byte parameter fields (min/mean/ratio, max/stddev), value bytes
    second: bytes


def _value(raw: bytes, rt_type: int) -> float | int:
    """A parameter's value: the dtype's bytes at the start of its 8-byte field."""
    dt = np.dtype(_RT_NP[rt_type])
    return np.frombuffer(raw[: dt.itemsize], dtype=dt)[0].item()  # type: ignore[no-any-return]


def _generate(spec: _Spec, src: _Words) -> np.ndarray:
    """The task's output bytes. Conventions (the device's transforms are not public):

    * uniform, floating types: ``min + u * (max - min)`` with ``u = (w >> 8) / 2**24`` in [0, 1),
      computed in float32 and rounded to the type (so a bf16/fp16 result may round up to max);
    * uniform, integer types: ``min + w mod (max - min)`` in [min, max) (min when max <= min), ``w``
      one word (32-bit types) or two (64-bit types, low word first);
    * normal: ``mean + stddev * z``, z by Box-Muller; truncated normal: z outside [-2, 2] drawn
      again (TensorFlow's convention), so the task may use more words than values;
    * dropout bitmask: one bit per element, LSB first within each byte, 1 (kept) where
      ``u >= ratio``, ``ceil(num / 8)`` bytes.
    """
    n, t = spec.num, spec.rt_type
    np_type = _RT_NP[t]
    if spec.func == DROPOUT_BITMASK:
        ratio = float(_value(spec.first, t))
        keep = (src.take(n) >> np.uint32(8)).astype(np.float64) / 16777216.0 >= ratio
        return np.packbits(keep, bitorder="little")
    if spec.func == UNIFORM_DIS:
        lo, hi = _value(spec.first, t), _value(spec.second, t)
        if t in _FLOATS:
            u = (src.take(n) >> np.uint32(8)).astype(np.float32) / np.float32(16777216.0)
            out: np.ndarray = np.float32(lo) + u * (np.float32(hi) - np.float32(lo))
            return out.astype(np_type).view(np.uint8)
        span = int(hi) - int(lo)
        if t in (1, 3):
            w = src.take(2 * n).reshape(n, 2).astype(np.uint64)
            words = [int(v) for v in (w[:, 0] | (w[:, 1] << _SHIFT32))]
        else:
            words = [int(v) for v in src.take(n)]
        vals = [int(lo) + (v % span if span > 0 else 0) for v in words]
        return np.array(vals, dtype=object).astype(np_type).view(np.uint8)
    mean, std = float(_value(spec.first, t)), float(_value(spec.second, t))
    if spec.func == NORMAL_DIS:
        z = _normal(src, n)
    else:
        kept: list[np.ndarray] = []
        have = 0
        while have < n:
            draw = _normal(src, max(n - have, 2))
            draw = draw[np.abs(draw) <= 2.0]
            kept.append(draw)
            have += draw.size
        z = np.concatenate(kept)[:n] if kept else np.zeros(0)
    return (mean + std * z).astype(np.float32).astype(np_type).view(np.uint8)


# ---------------------------------------------------------------------------------------------
# aclrtRandomNumAsync
# ---------------------------------------------------------------------------------------------

_LAUNCH = "Starting the random number generation task"
_VERIFY = "Verifying the parameters for generating a random number"


def _task_info(api: str, obj: object) -> aclrtRandomNumTaskInfo:
    if isinstance(obj, aclrtRandomNumTaskInfo):
        return obj
    if isinstance(obj, ctypes.Structure):
        raise ApiError(PARAM, emu(f"{api}: taskInfo must be an aclrtRandomNumTaskInfo, got {describe(obj)}."))
    addr = as_pointer(obj)
    if addr is not None and addr > 0 and called_from_c():
        return aclrtRandomNumTaskInfo.from_address(addr)
    raise ApiError(PARAM, emu(f"{api}: taskInfo must be an aclrtRandomNumTaskInfo, got {describe(obj)}."))


def _check_param(p: aclrtRandomParaInfo, data_size: int, rt_fn: str) -> None:
    """CheckRandomParam: isAddr 0 or 1, size in [1, the type's size] (8 for an address)."""
    is_addr, size = int(p.isAddr), int(p.size)
    if is_addr not in (0, 1):
        raise ApiError(RT_PARAM, rt_value(_VERIFY, is_addr, "paramInfo.isAddr", "0 or 1"), fb_invalid(rt_fn))
    limit = 8 if is_addr == 1 else data_size
    if size == 0 or size > limit:
        raise ApiError(RT_PARAM, rt_value(_VERIFY, size, "paramInfo.size", f"[1, {limit}]"), fb_invalid(rt_fn))


def _device_range(api: str, name: str, addr: int, n: int, access: str) -> None:
    """The emulator's check that a task's address is device memory it may touch."""
    alloc = SPACE.find(addr) if addr > 0 else None
    if alloc is None or alloc.kind not in ("device", "mapped"):
        raise ApiError(RT_PARAM, emu(f"{api}: {name} {describe(addr)} is not device memory."))
    try:
        SPACE.check(addr, n, access, api)
    except MemoryFault as fault:
        raise ApiError(RT_PARAM, emu(f"{api}: {fault.message}.")) from None


def _field(p: aclrtRandomParaInfo) -> bytes:
    return bytes(p.valueOrAddr)


@dataclass
class Launch:
    """What a queued random number task does: its checked taskInfo, taken at launch (the parameters
    given as addresses are read when it runs). aclrtTaskUpdateAsync replaces it in place."""

    func: int
    rt_type: int
    fields: list[tuple[int, bytes, int]]  # (isAddr, valueOrAddr, size): the parameters, seed, count
    counter: int
    result: int

    def run(self, api: str) -> int:
        """Generate into the result memory and advance the counter; the bytes written."""
        size = np.dtype(_RT_NP[self.rt_type]).itemsize

        def resolve(is_addr: int, raw: bytes, n: int, width: int) -> bytes:
            if not is_addr:
                return raw[:n] + bytes(8 - n)
            return SPACE.read(int.from_bytes(raw, "little"), width, api).tobytes() + bytes(8 - width)

        values = [resolve(a, raw, n, size) for a, raw, n in self.fields[:-2]]
        seed = int.from_bytes(resolve(*self.fields[-2], 8), "little")
        num = int.from_bytes(resolve(*self.fields[-1], 8), "little")
        state = int.from_bytes(SPACE.read(self.counter, 16, api).tobytes(), "little")
        spec = _Spec(self.func, self.rt_type, num, values[0], values[1] if len(values) > 1 else bytes(8))
        src = _Words(state, seed)
        out = _generate(spec, src) if num else np.zeros(0, dtype=np.uint8)
        if out.size:
            SPACE.write(self.result, out, api)
        new = (state + src.blocks) % (1 << 128)
        SPACE.write(self.counter, np.frombuffer(new.to_bytes(16, "little"), dtype=np.uint8), api)
        return int(out.size)


# the random number tasks submitted, by stream and task id (aclrtGetThreadLastTaskId's number):
# where aclrtTaskUpdateAsync finds the task it updates (a captured task keeps the same holder)
TASKS: weakref.WeakKeyDictionary[Stream, dict[int, list[Launch]]] = weakref.WeakKeyDictionary()


def check_task_info(api: str, info: aclrtRandomNumTaskInfo, rt_fn: str) -> Launch:
    """CheckRandomNumTaskInfo (random_num_task.cc) on a taskInfo whose dataType is the runtime's
    rtRandomNumDataType (the ACL layer mapped it in place): the dataType the distribution takes,
    the counter and result addresses, seed and count, then the distribution's parameters."""
    rt_type = int(info.dataType)
    func = int(info.randomNumFuncParaInfo.funcType)
    verify = "Verifying the validity of the random number generation type"
    if func not in _FUNC_TYPES:
        raise ApiError(RT_PARAM, rt_value(verify, _func_desc(func), "funcType", "[0, 4)"), fb_invalid(rt_fn))
    types, names = _FUNC_TYPES[func]
    if rt_type not in types:
        raise ApiError(RT_PARAM, rt_value(verify, _type_desc(rt_type), "dataType", names), fb_invalid(rt_fn))
    size = np.dtype(_RT_NP[rt_type]).itemsize
    checking = "Checking the validity of random number generation task parameters"
    for name, addr in (("randomCounterAddr", info.randomCounterAddr), ("randomResultAddr", info.randomResultAddr)):
        if not addr:
            raise ApiError(
                RT_PARAM, ("EE1004", f"{checking} failed because taskInfo->{name} cannot be a NULL pointer."),
                fb_invalid(rt_fn),
            )  # fmt: skip
    _check_param(info.randomSeed, 8, rt_fn)
    _check_param(info.randomNum, 8, rt_fn)
    pinfo = info.randomNumFuncParaInfo.paramInfo
    params = (
        [pinfo.dropoutBitmaskInfo.dropoutRation]
        if func == DROPOUT_BITMASK
        else [pinfo.uniformDisInfo.min, pinfo.uniformDisInfo.max]
        if func == UNIFORM_DIS
        else [pinfo.normalDisInfo.mean, pinfo.normalDisInfo.stddev]
    )
    for p in params:
        _check_param(p, size, rt_fn)
    counter = int(info.randomCounterAddr)
    _device_range(api, "taskInfo->randomCounterAddr", counter, 16, "write")
    fields = [(int(p.isAddr), _field(p), int(p.size)) for p in (*params, info.randomSeed, info.randomNum)]
    return Launch(func, rt_type, fields, counter, int(info.randomResultAddr))


@rt_api
def aclrtRandomNumAsync(taskInfo: object, stream: object, reserve: object) -> int:
    """Queue the random number task ``taskInfo`` describes on ``stream``: ``randomNum`` values of
    ``dataType`` (a dropout bitmask: ``ceil(randomNum / 8)`` bytes) at ``randomResultAddr``, from
    the Philox counter at ``randomCounterAddr`` (16 bytes, advanced by the task)."""
    api, rt_fn = "aclrtRandomNumAsync", "rtsLaunchRandomNumTask"
    if taskInfo is None or (isinstance(taskInfo, int) and as_pointer(taskInfo) is None):
        raise ApiError(PARAM, acl_null(api, "taskInfo"))
    info = _task_info(api, taskInfo)
    acl_type = int(info.dataType)
    if acl_type not in _RT_TYPE:
        raise ApiError(
            PARAM,
            acl_reason(api, _acl_type_desc(acl_type), "taskInfo->dataType", "The data type is currently not supported"),
        )
    # CANN's ACL layer writes the runtime's type number into the caller's (const) taskInfo before it
    # calls the runtime (kernel.cpp): the struct keeps it whatever the runtime then returns
    info.dataType = _RT_TYPE[acl_type]
    if not _rt_features.has("RT_FEATURE_TASK_RAND_GENERATOR"):
        return E.ACL_ERROR_RT_FEATURE_NOT_SUPPORT  # COND_RETURN_WARN: a WARN log, no last error
    st = stream_handle(stream, rt_fn)
    res = as_pointer(reserve) if reserve is not None else None
    if res is not None and res != 0:
        raise ApiError(RT_PARAM, rt_value(_LAUNCH, f"0x{res:x}", "reserve", "nullptr"), fb_invalid(rt_fn))
    ctx = need_context(rt_fn)
    target = st or ctx.default_stream
    own_stream(target, ctx, _LAUNCH, rt_fn)
    check_stopped(ctx)
    launch = check_task_info(api, info, rt_fn)
    # the 16-byte parameter block goes to randomParaAddr (or the runtime's own device memory) by a
    # synchronous copy at launch, as SetRandomSqeCommonInfo does
    block = bytearray(16)
    for i, (_, raw, n) in enumerate(launch.fields[:-2]):
        block[8 * i : 8 * i + n] = raw[:n]
    para_addr = int(info.randomParaAddr or 0)
    if para_addr:
        _device_range(api, "taskInfo->randomParaAddr", para_addr, 16, "write")
        SPACE.write(para_addr, np.frombuffer(bytes(block), dtype=np.uint8), api)
        sanitizer.after_write(para_addr, 16, api)
    holder = [launch]

    def run() -> None:
        current = holder[0]
        try:
            written = current.run(api)
        except MemoryFault as fault:
            raise TaskFault(E.ACL_ERROR_RT_SYS_DMA, f"{api} task failed: {fault.message}") from None
        if written:
            sanitizer.after_write(current.result, written, api)
        sanitizer.after_write(current.counter, 16, api)

    label = f"{api}({_func_desc(launch.func)}, {_type_desc(launch.rt_type)})"
    task = Task(target, label, run)
    TASKS.setdefault(target, {})[task.seq & 0xFFFFFFFF] = holder
    expected = _result_bytes(launch)
    counter, result = launch.counter, launch.result
    sanitizer.track(task, [(counter, counter + 16)], [(counter, counter + 16), (result, result + expected)])
    RT.policy.submit(target, task)
    return E.ACL_SUCCESS


def _result_bytes(launch: Launch) -> int:
    """The bytes the task writes, when its count is a value (a count at an address is read later)."""
    is_addr, raw, n = launch.fields[-1]
    if is_addr:
        return 0
    num = int.from_bytes(raw[:n], "little")
    size = np.dtype(_RT_NP[launch.rt_type]).itemsize
    return -(-num // 8) if launch.func == DROPOUT_BITMASK else num * size


__all__ = [
    "aclrtDropoutBitmaskInfo",
    "aclrtNormalDisInfo",
    "aclrtRandomNumAsync",
    "aclrtRandomNumFuncParaInfo",
    "aclrtRandomNumTaskInfo",
    "aclrtRandomParaInfo",
    "aclrtUniformDisInfo",
]
