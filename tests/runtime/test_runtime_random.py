"""aclrtRandomNumAsync: CANN's checks in CANN's order (ACL layer, rtsLaunchRandomNumTask, the error
decorator, CheckRandomNumTaskInfo), the Philox4x32-10 generator against Random123's known-answer
vectors, the counter the task advances, and the distributions' dtype, count, bounds and moments."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from rt_texts import INDENT, RANGE_SOLUTION, TRACEBACK, null

from aclnn_py import (
    ACL_BF16,
    ACL_DOUBLE,
    ACL_FLOAT,
    ACL_FLOAT16,
    ACL_INT32,
    ACL_INT64,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_UINT64,
    Ref,
    aclFinalize,
    aclGetRecentErrMsg,
    aclInit,
    aclrtCreateStream,
    aclrtDestroyStream,
    aclrtFree,
    aclrtGetLastError,
    aclrtMalloc,
    aclrtMemcpy,
    aclrtMemset,
    aclrtResetDevice,
    aclrtSetDevice,
    aclrtSynchronizeStream,
)
from aclnn_py.runtime import api_random as R


@pytest.fixture
def rig(dev0):
    """A stream, a 16-byte counter set to 0 and a 64 KB result buffer on device 0."""
    s, out, cnt = Ref(), Ref(), Ref()
    assert aclrtCreateStream(s) == 0
    assert aclrtMalloc(out, 65536, 0) == 0 and aclrtMalloc(cnt, 16, 0) == 0
    assert aclrtMemset(cnt.value, 16, 0, 16) == 0
    yield s.value, out.value, cnt.value
    aclrtFree(out.value)
    aclrtFree(cnt.value)
    aclrtDestroyStream(s.value)


def task(dtype, func, first, second, num, out, cnt, seed=0, size=None, np_type=None):
    """An aclrtRandomNumTaskInfo with its two parameters given as values of ``np_type``."""
    t = R.aclrtRandomNumTaskInfo()
    t.dataType, t.randomNumFuncParaInfo.funcType = dtype, func
    np_type = np_type or np.float32
    size = size or np.dtype(np_type).itemsize
    p = t.randomNumFuncParaInfo.paramInfo
    if func == R.DROPOUT_BITMASK:
        p.dropoutBitmaskInfo.dropoutRation = R.para(first, size, dtype=np_type)
    elif func == R.UNIFORM_DIS:
        p.uniformDisInfo.min = R.para(first, size, dtype=np_type)
        p.uniformDisInfo.max = R.para(second, size, dtype=np_type)
    else:
        p.normalDisInfo.mean = R.para(first, size, dtype=np_type)
        p.normalDisInfo.stddev = R.para(second, size, dtype=np_type)
    t.randomResultAddr, t.randomCounterAddr = out, cnt
    t.randomSeed, t.randomNum = R.para(seed, 8), R.para(num, 8)
    return t


def run(t, s, out, nbytes, np_type):
    assert R.aclrtRandomNumAsync(t, s, None) == 0, aclGetRecentErrMsg()
    assert aclrtSynchronizeStream(s) == 0
    host = np.zeros(nbytes, dtype=np.uint8)
    assert aclrtMemcpy(host, nbytes, out, nbytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return host.view(np_type)


def counter(cnt):
    host = np.zeros(16, dtype=np.uint8)
    assert aclrtMemcpy(host, 16, cnt, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    return int.from_bytes(host.tobytes(), "little")


@pytest.mark.parametrize(
    ("ctr", "key", "expected"),
    [
        (0, 0, (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        ((1 << 128) - 1, (1 << 64) - 1, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
        (
            0x03707344_13198A2E_85A308D3_243F6A88,
            0x299F31D0_A4093822,
            (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
        ),
    ],
)
def test_philox_matches_random123_known_answers(ctr, key, expected):
    assert tuple(int(w) for w in R.philox4x32_10(ctr, key, 1)) == expected


def test_philox_blocks_count_up_with_carry():
    blocks = R.philox4x32_10((1 << 64) - 1, 7, 2)
    assert tuple(blocks[4:]) == tuple(R.philox4x32_10(1 << 64, 7, 1))


def test_normal_float_has_its_mean_and_stddev_and_advances_the_counter(rig):
    s, out, cnt = rig
    vals = run(task(ACL_FLOAT, R.NORMAL_DIS, 3.0, 2.0, 4096, out, cnt), s, out, 4 * 4096, np.float32)
    assert abs(vals.mean() - 3.0) < 0.1 and abs(vals.std() - 2.0) < 0.1
    assert counter(cnt) == 1024  # 4096 values: 2048 Box-Muller pairs, 4096 words, 1024 Philox blocks
    again = run(task(ACL_FLOAT, R.NORMAL_DIS, 3.0, 2.0, 4096, out, cnt), s, out, 4 * 4096, np.float32)
    assert not np.array_equal(vals, again) and counter(cnt) == 2048


def test_the_acl_layer_leaves_the_runtime_type_in_the_callers_struct(rig):
    s, out, cnt = rig
    t = task(ACL_FLOAT, R.UNIFORM_DIS, 0.0, 1.0, 4, out, cnt)
    run(t, s, out, 16, np.float32)
    assert t.dataType == 6  # RT_RANDOM_NUM_DATATYPE_FP32 (kernel.cpp writes through the const pointer)
    assert R.aclrtRandomNumAsync(t, s, None) == 100000  # 6 is ACL_INT16: not a type the task takes
    assert "Value INT16(6) for parameter taskInfo->dataType is invalid." in aclGetRecentErrMsg()


def test_same_seed_and_counter_give_the_same_numbers_another_seed_others(rig):
    s, out, cnt = rig
    first = run(task(ACL_FLOAT, R.UNIFORM_DIS, 0.0, 1.0, 64, out, cnt, seed=5), s, out, 256, np.float32).copy()
    assert aclrtMemset(cnt, 16, 0, 16) == 0
    second = run(task(ACL_FLOAT, R.UNIFORM_DIS, 0.0, 1.0, 64, out, cnt, seed=5), s, out, 256, np.float32).copy()
    assert aclrtMemset(cnt, 16, 0, 16) == 0
    other = run(task(ACL_FLOAT, R.UNIFORM_DIS, 0.0, 1.0, 64, out, cnt, seed=6), s, out, 256, np.float32)
    assert np.array_equal(first, second) and not np.array_equal(first, other)
    words = R.philox4x32_10(0, 5, 16)
    assert np.array_equal(first, (words >> 8).astype(np.float32) / np.float32(2**24))


def test_uniform_types_stay_in_their_range(rig):
    s, out, cnt = rig
    ints = run(task(ACL_INT32, R.UNIFORM_DIS, 1, 100, 2000, out, cnt, np_type=np.int32), s, out, 8000, np.int32)
    assert ints.min() >= 1 and ints.max() < 100 and len(set(ints.tolist())) == 99
    big = run(task(ACL_INT64, R.UNIFORM_DIS, -(2**40), 2**40, 500, out, cnt, np_type=np.int64), s, out, 4000, np.int64)
    assert big.min() >= -(2**40) and big.max() < 2**40 and (big < 0).any() and (big > 2**39).any()
    u64 = run(task(ACL_UINT64, R.UNIFORM_DIS, 7, 7, 10, out, cnt, np_type=np.uint64), s, out, 80, np.uint64)
    assert (u64 == 7).all()  # an empty range gives min
    half = run(task(ACL_FLOAT16, R.UNIFORM_DIS, 1.0, 2.0, 1000, out, cnt, np_type=np.float16), s, out, 2000, np.float16)
    assert half.min() >= 1.0 and half.max() <= 2.0 and half.std() > 0.2


def test_truncated_normal_bf16_stays_within_two_stddev(rig):
    s, out, cnt = rig
    t = task(ACL_BF16, R.TRUNCATED_NORMAL_DIS, 1.0, 2.0, 3000, out, cnt, np_type=ml_dtypes.bfloat16)
    vals = run(t, s, out, 6000, ml_dtypes.bfloat16).astype(np.float32)
    assert vals.min() >= -3.0 and vals.max() <= 5.0 and abs(vals.mean() - 1.0) < 0.15
    assert counter(cnt) > 750  # rejected draws use more words than values


def test_dropout_bitmask_keeps_one_minus_the_ratio(rig):
    s, out, cnt = rig
    assert aclrtMemset(out, 65536, 0xAB, 65536) == 0
    mask = run(task(ACL_FLOAT, R.DROPOUT_BITMASK, 0.4, 0, 8000, out, cnt), s, out, 1001, np.uint8)
    bits = np.unpackbits(mask[:1000], bitorder="little")
    assert abs(bits.mean() - 0.6) < 0.03
    assert mask[1000] == 0xAB  # ceil(8000 / 8) bytes written, not one more


def test_parameters_given_by_address_are_read_when_the_task_runs(rig):
    s, out, cnt = rig
    par = Ref()
    assert aclrtMalloc(par, 16, 0) == 0
    t = task(ACL_FLOAT, R.UNIFORM_DIS, 0.0, 0.0, 256, out, cnt)
    t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min = R.para(par.value, 8, is_addr=1)
    t.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max = R.para(par.value + 4, 8, is_addr=1)
    bounds = np.array([10.0, 11.0], dtype=np.float32)
    assert aclrtMemcpy(par.value, 8, bounds, 8, ACL_MEMCPY_HOST_TO_DEVICE) == 0
    vals = run(t, s, out, 1024, np.float32)
    assert vals.min() >= 10.0 and vals.max() < 11.0
    aclrtFree(par.value)


def test_the_parameter_block_goes_to_random_para_addr(rig):
    s, out, cnt = rig
    par = Ref()
    assert aclrtMalloc(par, 16, 0) == 0
    t = task(ACL_FLOAT, R.NORMAL_DIS, 3.0, 2.0, 8, out, cnt)
    t.randomParaAddr = par.value
    run(t, s, out, 32, np.float32)
    block = np.zeros(16, dtype=np.uint8)
    assert aclrtMemcpy(block, 16, par.value, 16, ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert block[:4].view(np.float32)[0] == 3.0 and block[8:12].view(np.float32)[0] == 2.0
    aclrtFree(par.value)


def _rt(headline: str, rt_fn: str = "rtsLaunchRandomNumTask") -> str:
    return (
        headline + RANGE_SOLUTION + TRACEBACK + f"{INDENT}The argument is invalid. Reason: {rt_fn} execution failed.\n"
    )


def test_checks_in_cann_order(rig):
    s, out, cnt = rig
    assert R.aclrtRandomNumAsync(None, s, None) == 100000
    assert aclGetRecentErrMsg() == null("aclrtRandomNumAsync", "taskInfo")
    t = task(ACL_DOUBLE, R.NORMAL_DIS, 0.0, 1.0, 8, out, cnt)
    assert R.aclrtRandomNumAsync(t, s, None) == 100000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument(EH0009): aclrtRandomNumAsync failed. Value DOUBLE(11) for parameter taskInfo->dataType is "
        "invalid. Reason: The data type is currently not supported."
    )
    t = task(ACL_INT32, R.NORMAL_DIS, 0, 1, 8, out, cnt, np_type=np.int32)
    assert R.aclrtRandomNumAsync(t, s, None) == 107000
    assert aclGetRecentErrMsg() == _rt(
        "Invalid_Argument(EE1003): Verifying the validity of the random number generation type failed because value "
        "RANDOM_NUM_DATATYPE_INT32(0) for parameter dataType is invalid. Expected value: bf16,fp16,fp32.\n"
    )
    assert aclrtGetLastError(0) == 107000
    t = task(ACL_FLOAT, 9, 0.0, 1.0, 8, out, cnt)
    assert R.aclrtRandomNumAsync(t, s, None) == 107000 and "value UNKNOWN(9) for parameter funcType" in (
        aclGetRecentErrMsg()
    )
    t = task(ACL_FLOAT, R.NORMAL_DIS, 0.0, 1.0, 8, out, 0)
    assert R.aclrtRandomNumAsync(t, s, None) == 107000
    assert aclGetRecentErrMsg().startswith(
        "Invalid_Argument_Null_Pointer(EE1004): Checking the validity of random number generation task parameters failed because "
        "taskInfo->randomCounterAddr cannot be a NULL pointer."
    )
    t = task(ACL_FLOAT, R.NORMAL_DIS, 0.0, 1.0, 8, out, cnt)
    t.randomSeed.isAddr = 2
    assert R.aclrtRandomNumAsync(t, s, None) == 107000
    assert "value 2 for parameter paramInfo.isAddr is invalid. Expected value: 0 or 1." in aclGetRecentErrMsg()
    t = task(ACL_FLOAT16, R.NORMAL_DIS, 0.0, 1.0, 8, out, cnt, np_type=np.float32)  # 4-byte values for fp16
    assert R.aclrtRandomNumAsync(t, s, None) == 107000
    assert "value 4 for parameter paramInfo.size is invalid. Expected value: [1, 2]." in aclGetRecentErrMsg()
    t = task(ACL_FLOAT, R.NORMAL_DIS, 0.0, 1.0, 8, out, cnt)
    assert R.aclrtRandomNumAsync(t, s, 0x1000) == 107000
    assert aclGetRecentErrMsg() == _rt(
        "Invalid_Argument(EE1003): Starting the random number generation task failed because value 0x1000 for "
        "parameter reserve is invalid. Expected value: nullptr.\n"
    )
    assert counter(cnt) == 0  # nothing ran


def test_chips_without_the_generator_refuse_silently(monkeypatch):
    monkeypatch.setenv("ACLNN_PY_SOC", "Ascend950")
    assert aclInit(None) == 0 and aclrtSetDevice(0) == 0
    try:
        t = R.aclrtRandomNumTaskInfo()
        t.dataType = ACL_FLOAT
        assert R.aclrtRandomNumAsync(t, None, None) == 207000
        assert aclrtGetLastError(0) == 0  # COND_RETURN_WARN: no last error
    finally:
        aclrtResetDevice(0)
        aclFinalize()


def test_a_result_outside_device_memory_fails_the_task(rig):
    s, out, cnt = rig
    t = task(ACL_FLOAT, R.NORMAL_DIS, 0.0, 1.0, 65536, out, cnt)  # 256 KB into 64 KB
    assert R.aclrtRandomNumAsync(t, s, None) == 0
    assert aclrtSynchronizeStream(s) == 507013
