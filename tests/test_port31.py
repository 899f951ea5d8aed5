"""aclnn-port: comparing pointers into host memory compares the addresses they hold, as C++ does.

A pointer into a std::vector is a numpy array in the port (``&v[i]`` and ``v.data() + i`` are the
view ``v[i:]``): ``==`` between two of them would compare their elements, one by one. The port
compares their addresses instead (``address(p)``, a function it writes into the program), and
refuses the comparisons it cannot make faithful.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from port_support import runs_as_the_program

pytest.importorskip("tree_sitter", reason="needs the C++ parser: pip install -e '.[port]'")
pytest.importorskip("tree_sitter_cpp", reason="needs the C++ parser: pip install -e '.[port]'")

from aclnn_py.port import PortError, translate

PRELUDE = '#include <cstdio>\n#include <vector>\n#include "acl/acl.h"\n'


POINTERS = r"""// Pointers into host memory compared: each line prints what C++ computes from the addresses.
#include <cstdio>
#include <vector>
#include "acl/acl.h"

bool Same(const float* a, const float* b) { return a == b; }
bool Copied(std::vector<float> c, const float* p) { return c.data() == p; }  // c is a copy: other memory

int main() {
  std::vector<float> v = {1.0f, 2.0f, 3.0f};
  std::vector<float> w = {1.0f, 2.0f, 3.0f};  // equal elements, other memory
  std::vector<int64_t> shape = {2, 3};
  float* p = v.data() + 1;
  float* q = &v[1];
  float* end = v.data() + v.size();
  float* none = nullptr;
  printf("%d %d %d\n", &v[1] == v.data() + 1, &v[0] == &v[1], &v[0] != &v[1]);
  printf("%d %d %d %d\n", p == q, p != q, &v[1] == p, q == &w[1]);
  printf("%d %d %d %d\n", &v[0] < &v[1], p <= q, p > v.data(), end >= p);
  printf("%d %d %d\n", end == v.data(), end == v.data() + 3, end == &v[2] + 1);
  printf("%d %d %d %d\n", v.data() == w.data(), Same(v.data(), &v[0]), Same(p, &v[2]), Copied(v, v.data()));
  printf("%d %d %d %d\n", none == nullptr, p != nullptr, none == p, none != q);
  int64_t* dims = shape.data();
  int64_t* second = &shape[1];
  *second = 7;  // shape is host memory now: the view writes into it
  printf("%d %d %ld\n", dims == &shape[0], &shape[1] == dims, shape[1]);
  void* h = v.data();
  void* g = w.data();
  printf("%d %d %d\n", h == g, h == v.data(), h != static_cast<void*>(p));
  q = end;
  printf("%d %g\n", q == p, v[1]);
  return 0;
}
"""
POINTERS_OUT = """1 0 1
1 0 1 0
1 1 1 1
0 1 1
0 1 0 0
1 1 0 1
1 0 7
0 1 1
0 2
"""


def test_host_pointers_compare_their_addresses(tmp_path: Path) -> None:
    """``&v[1] == v.data() + 1`` is true and ``&v[0] == &v[1]`` false, though ``v[1:]`` and ``v[0:]``
    would be compared element by element; equal elements in other memory are not the same address;
    one past the end (an empty view in numpy) is still its own address; null pointers are 0; a
    ``std::vector<int64_t>`` whose address is kept in a pointer is a numpy array (a list has no
    addresses, and a list slice would be a copy); a vector passed by value is a copy, at another
    address."""
    port = translate(POINTERS, "pointers.cpp")
    assert port.ok, port.refusals
    assert "def Same(a, b):\n    return address(a) == address(b)\n" in port.python
    assert "def Copied(c, p):\n    c = c.copy()  # passed by value\n" in port.python
    assert "address(v[1:]) == address(v[1:]), address(v) == address(v[1:])" in port.python
    assert "none is None, p is not None, address(none) == address(p)" in port.python
    assert "    shape = np.array([2, 3], dtype=np.int64)\n" in port.python
    runs_as_the_program(tmp_path, "pointers", POINTERS, port.python, POINTERS_OUT)


def test_a_port_without_pointer_comparisons_has_no_address_function() -> None:
    src = PRELUDE + 'int main() {\n  float* p = nullptr;\n  printf("%d\\n", p == nullptr);\n  return 0;\n}\n'
    port = translate(src, "null.cpp")
    assert port.ok, port.refusals
    assert "p is None" in port.python and "address" not in port.python


def test_the_address_function_takes_a_name_the_program_does_not_use() -> None:
    src = PRELUDE + (
        "int main() {\n  std::vector<float> address = {1.0f, 2.0f};\n"
        '  printf("%d\\n", &address[0] == address.data());\n  return 0;\n}\n'
    )
    port = translate(src, "named.cpp")
    assert port.ok, port.refusals
    assert "address_(address) == address_(address)" in port.python
    assert "\ndef address_(p):" in port.python


def _refusals(source: str) -> list[tuple[int, str, str]]:
    try:
        port = translate(source, "prog.cpp")
    except PortError as e:
        return [(r.line, r.construct, r.reason) for r in e.refusals]
    return [(r.line, r.construct, r.reason) for r in port.refusals]


REFUSED = [
    (
        "char pointers",
        'int main() {\n  const char* s = "a";\n  const char* t = "a";\n  return s == t;\n}',
        "s == t",
        "comparing char pointers",
    ),
    (
        "ordered against nullptr",
        "int main() {\n  std::vector<float> v(2);\n  float* p = v.data();\n  return p < nullptr;\n}",
        "p < nullptr",
        "against nullptr",
    ),
    (
        "a vector's address against nullptr",
        "int main() {\n  std::vector<float> v(2);\n  return v.data() == nullptr;\n}",
        "v.data()",
        "an empty vector",
    ),
    (
        "addresses of scalars",
        "int main() {\n  int x = 1;\n  int y = 2;\n  return &x == &y;\n}",
        "&x",
        "the address of a variable compared",
    ),
    (
        "&variable for a pointer a callee compares",
        "bool Same(const float* a, const float* b) { return a == b; }\n"
        "bool Outer(const float* a) { return Same(a, a); }\n"
        "int main() {\n  float x = 1.0f;\n  return Outer(&x);\n}",
        "&x",
        "a pointer Outer compares",
    ),
    (
        "pointers into a vector of handles",
        "int main() {\n  std::vector<aclTensor*> ts(2);\n  return &ts[0] == ts.data();\n}",
        "&ts[0]",
        "keeps as a Python list (it has no addresses)",
    ),
    (
        "handles ordered",
        "int main() {\n  aclrtStream a = nullptr;\n  aclrtStream b = nullptr;\n  return a < b;\n}",
        "a < b",
        "ordering handles",
    ),
]


@pytest.mark.parametrize(("name", "body", "construct", "reason"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_comparison_the_port_cannot_make_faithful_is_refused(
    name: str, body: str, construct: str, reason: str
) -> None:
    refusals = _refusals(PRELUDE + body)
    assert refusals, f"{name}: translated without a refusal"
    assert construct in refusals[0][1], refusals
    assert reason in refusals[0][2], refusals


def test_a_smart_pointers_refusals_name_the_same_translated_members() -> None:
    """One place lists what of a smart pointer is translated: the refusal of a use as a value and
    the refusal of another member function name the same ones."""
    using = "using P = std::unique_ptr<void, decltype(&aclrtFree)>;\n"
    as_value = _refusals(PRELUDE + using + "int main() {\n  P p(nullptr, &aclrtFree);\n  return p ? 1 : 0;\n}")
    swapped = _refusals(PRELUDE + using + "int main() {\n  P p(nullptr, &aclrtFree);\n  p.swap(p);\n  return 0;\n}")
    assert "only its get(), reset() and release(), and passing it by reference" in as_value[0][2], as_value
    assert swapped[0][2] == "std::unique_ptr's .swap is not translated (only get(), reset() and release())", swapped
