"""The embedded engine leaves the host C program alone (issue 17, bugs 1 and 2).

CANN's libraries are plain C++: calling them does not change the program's locale, the buffering of
its C stdio streams, its environment or its signals, and ``aclrtGetSocName`` may be the first ACL
call of a program (CANN documents it as callable before ``aclInit``). The C ABI starts an embedded
Python on the first call; these programs check that it starts isolated: any ACL function may come
first, in any thread; a ``printf`` followed by ``_exit`` loses its line as a C program's does; the
locale and the environment children see are the program's; ``PYTHONHOME``/``PYTHONPATH`` of another
Python and ``PYTHONUNBUFFERED`` have no effect on it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from capi_support import compile_cpp, missing_toolchain, run
from capi_support import env as _env

if (why := missing_toolchain()) is not None:
    pytest.skip(why, allow_module_level=True)

FIRST_CALL = r"""#include <cstdio>
#include <cstring>
#include <thread>
#include "acl/acl.h"

// argv[1] names the first ACL call of the process; a thread then makes the same call first too.
static void First(const char *which) {
    if (std::strcmp(which, "soc") == 0) {
        const char *soc = aclrtGetSocName();
        std::printf("soc %s\n", soc ? soc : "(null)");
    } else {
        const char *msg = aclGetRecentErrMsg();
        std::printf("msg %s\n", msg ? "text" : "(null)");
    }
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    First(argv[1]);
    std::thread t(First, argv[1]);
    t.join();
    std::printf("aclInit %d\n", aclInit(nullptr));
    First(argv[1]);
    std::printf("aclFinalize %d\n", aclFinalize());
    return 0;
}
"""

EXIT_AFTER_PRINTF = r"""#include <cstdio>
#include <unistd.h>
#include "acl/acl.h"

// The lines sit in C's stdout buffer (a pipe: fully buffered) when _exit ends the process:
// they are lost, as in any C program, unless something changed the buffering behind its back.
int main(int argc, char **) {
    std::printf("before aclInit\n");
    std::printf("aclInit %d\n", aclInit(nullptr));
    if (argc > 1) std::fflush(stdout);
    _exit(0);
}
"""

LOCALE = r"""#include <clocale>
#include <cstdio>
#include <cstdlib>
#include "acl/acl.h"

static const char *Env(const char *name) {
    const char *v = std::getenv(name);
    return v ? v : "-";
}

int main(int argc, char **) {
    if (argc > 1) std::setlocale(LC_ALL, "");  // a program that takes the user's locale itself
    std::printf("before LC_CTYPE=%s env=%s\n", std::setlocale(LC_CTYPE, nullptr), Env("LC_CTYPE"));
    int rc = aclInit(nullptr);
    const char *soc = aclrtGetSocName();
    std::printf("aclInit %d soc %s\n", rc, soc ? soc : "(null)");
    std::printf("after LC_CTYPE=%s env=%s\n", std::setlocale(LC_CTYPE, nullptr), Env("LC_CTYPE"));
    std::fflush(stdout);
    // what a child process inherits: the same environment, no LC_* added
    return std::system("env | grep '^LC_' || echo 'child: no LC_ variables'");
}
"""


@pytest.fixture(scope="module")
def programs(tmp_path_factory, capi_flags) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("embedding")
    return {
        "first_call": compile_cpp(FIRST_CALL, out / "first_call", [*capi_flags, "-pthread"]),
        "exit_after_printf": compile_cpp(EXIT_AFTER_PRINTF, out / "exit_after_printf", capi_flags),
        "locale": compile_cpp(LOCALE, out / "locale", capi_flags),
    }


def _bare_env(**extra: str) -> dict[str, str]:
    """The test environment with no locale variable at all (LANG, LANGUAGE, LC_*)."""
    out = {k: v for k, v in _env().items() if not k.startswith(("LC_", "LANG", "PYTHON"))}
    out.update(extra)
    return out


def test_aclrtGetSocName_may_be_the_first_acl_call_of_the_program_and_of_a_thread(programs) -> None:
    from aclnn_py import aclrtGetSocName

    done = run(programs["first_call"], "soc")
    assert done.returncode == 0, done.stderr
    soc = aclrtGetSocName()
    assert done.stdout == f"soc {soc}\nsoc {soc}\naclInit 0\nsoc {soc}\naclFinalize 0\n"
    assert done.stderr == ""


PYTHON_TWIN = """
import threading
from aclnn_py import aclFinalize, aclGetRecentErrMsg, aclInit

def first():
    print("msg", "text" if aclGetRecentErrMsg() is not None else "(null)")

first()
t = threading.Thread(target=first)
t.start()
t.join()
print("aclInit", int(aclInit(None)))
first()
print("aclFinalize", int(aclFinalize()))
"""


def test_aclGetRecentErrMsg_may_be_the_first_acl_call_of_the_program_and_of_a_thread(programs) -> None:
    done = run(programs["first_call"], "msg")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    twin = subprocess.run([sys.executable, "-c", PYTHON_TWIN], capture_output=True, text=True, env=_env())
    assert twin.returncode == 0, twin.stderr
    assert done.stdout == twin.stdout


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_printf_then__exit_loses_its_lines_as_in_any_c_program(programs, unbuffered) -> None:
    exe = programs["exit_after_printf"]
    done = run(exe, PYTHONUNBUFFERED=unbuffered) if unbuffered else run(exe)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # C's stdout buffer was never flushed: the engine left it buffered
    assert done.stderr == ""
    if unbuffered:  # the same run for both parameters: once
        flushed = subprocess.run(
            [str(exe), "flush"], capture_output=True, text=True, env=_env(PYTHONUNBUFFERED="1"), timeout=300
        )
        assert flushed.stdout == "before aclInit\naclInit 0\n"


@pytest.mark.parametrize(
    "home", ["/usr", "/nonexistent/python-home"], ids=["system-python-home", "missing-python-home"]
)
def test_a_foreign_python_home_and_no_locale_change_nothing(programs, home) -> None:
    from aclnn_py import aclrtGetSocName

    environment = _bare_env(PYTHONHOME=home, PYTHONPATH="/nonexistent/site", PYTHONUNBUFFERED="1")
    done = subprocess.run([str(programs["locale"])], capture_output=True, text=True, env=environment, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"before LC_CTYPE=C env=-\naclInit 0 soc {aclrtGetSocName()}\nafter LC_CTYPE=C env=-\nchild: no LC_ variables\n"
    )
    assert done.stderr == ""


def test_the_program_keeps_the_locale_it_chose(programs) -> None:
    """A program that calls setlocale itself keeps what it chose, and children get only what the
    program's environment holds."""
    done = subprocess.run(
        [str(programs["locale"]), "setlocale"],
        capture_output=True,
        text=True,
        env=_bare_env(LANG="C.UTF-8"),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "before LC_CTYPE=C.UTF-8 env=-"
    assert lines[2] == "after LC_CTYPE=C.UTF-8 env=-"
    assert lines[3] == "child: no LC_ variables"
