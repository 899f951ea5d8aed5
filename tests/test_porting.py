"""The porting helpers: printf semantics, host vectors, the samples' CreateAclTensor."""

from __future__ import annotations

import numpy as np
import pytest

from aclnn_py import ACL_BF16, ACL_BOOL, ACL_FLOAT, ACL_FLOAT16, ACL_STRING, Ref, aclDestroyTensor, aclrtFree
from aclnn_py.porting import LOG_PRINT, CreateAclTensor, GetShapeSize, host_vector, printf_format


@pytest.mark.parametrize(
    "fmt,args,expected",
    [
        ("result[%ld] is: %f\n", (3, 0.8333333730697632), "result[3] is: 0.833333\n"),
        ("%d %u %x", (-1, -1, -1), "-1 4294967295 ffffffff"),
        ("%zu items, %lld total, %hhd", (5, 2**40, 7), "5 items, 1099511627776 total, 7"),
        ("%f %f %f", (float("nan"), -float("nan"), float("-inf")), "nan -nan -inf"),
        ("%8.3f|%-6.1e|%g", (3.14159, 12345.0, 1e-5), "   3.142|1.2e+04|1e-05"),
        ("%5s|%c|%p|%%", ("ab", 65, 0x12C0), "   ab|A|0x12c0|%"),
        ("%*d|%.*f", (4, 7, 2, 1.0), "   7|1.00"),
        ("%f", (np.float32(-0.0),), "-0.000000"),
    ],
)
def test_printf_format_matches_glibc(fmt, args, expected):
    assert printf_format(fmt, *args) == expected


def test_log_print_writes_without_a_newline(capsys):
    LOG_PRINT("a%d", 1)
    LOG_PRINT("b\n")
    assert capsys.readouterr().out == "a1b\n"


def test_host_vectors_and_shape_size():
    assert host_vector([1, 2], ACL_FLOAT).dtype == np.float32
    assert host_vector(4, ACL_FLOAT16).tolist() == [0, 0, 0, 0]
    assert host_vector([1, 0], ACL_BOOL).dtype == np.int8  # std::vector<char>
    assert host_vector([1.5], ACL_BF16).dtype.name == "bfloat16"
    with pytest.raises(ValueError):
        host_vector([1], ACL_STRING)
    assert GetShapeSize([4, 2]) == 8 and GetShapeSize([]) == 1


def test_create_acl_tensor_like_the_samples(dev):
    addr, tensor = Ref(), Ref()
    assert CreateAclTensor(host_vector(range(6), ACL_FLOAT), [2, 3], addr, ACL_FLOAT, tensor) == 0
    assert tensor.value.view_shape == (2, 3) and tensor.value.strides == (3, 1)
    assert dev.read(tensor.value).tolist() == [[0, 1, 2], [3, 4, 5]]
    aclDestroyTensor(tensor.value)
    aclrtFree(addr.value)


def test_raii_handles_delete_as_cpp_does():
    """aclnn_py.raii (the ports' std::unique_ptr / std::shared_ptr): reset takes the new pointer, then
    deletes the old one unless None; destruction deletes what is owned (a unique_ptr never None, a
    shared_ptr's deleter always, once); an ExitStack destroys them last first, on every way out."""
    import contextlib

    from aclnn_py.raii import shared_ptr, unique_ptr

    deleted: list[object] = []
    p = unique_ptr(None, deleted.append)
    p.reset("a")
    assert (p.get(), deleted) == ("a", [])
    p.reset("b")
    assert (p.get(), deleted) == ("b", ["a"])
    assert (p.release(), p.get(), deleted) == ("b", None, ["a"])
    deleted.clear()

    def body() -> int:
        with contextlib.ExitStack() as scope:
            scope.enter_context(shared_ptr(None, lambda ptr: deleted.append(("guard", ptr))))
            scope.enter_context(unique_ptr(None, deleted.append))  # owns nothing: nothing deleted
            scope.enter_context(unique_ptr("first", deleted.append))
            scope.enter_context(unique_ptr("second", deleted.append))
            return 3

    assert body() == 3
    assert deleted == ["second", "first", ("guard", None)]
