"""Pieces of the runtime's aclGetRecentErrMsg() texts that many tests compare (CANN runtime
master, ACL 1.17): whole expected strings are built from these, so a test reads as the printout."""

from __future__ import annotations

INDENT = " " * 8
RANGE_SOLUTION = (
    INDENT
    + "Solution: 1. Check the input parameter range of the function. 2. Check the function invocation relationship.\n"
)
POINTER_SOLUTION = INDENT + "Solution: Try again with a correct pointer argument.\n"
TRACEBACK = "TraceBack (most recent call last):\n"
FUNC_ERROR_REASON = "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]"
ACL_INNER = "[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:133]"
ACL_CALL = "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:150]"
NO_CONTEXT = (
    "Context validation failed. Reason: No valid context is bound to the current thread. Call aclrtSetDevice or "
    "aclrtSetCurrentContext to bind a valid context to the current thread before calling this API."
)
NO_CONTEXT_HEADLINE = f"Invalid_Argument_API_Call_Sequence(EE1018): {NO_CONTEXT}\n"
# What aclGetRecentErrMsg() itself adds in a thread without a context (its rtGetDevMsg call).
GET_DEV_MSG = "The argument is invalid. Reason: rtGetDevMsg execution failed, the context is a null pointer."
GET_DEV_MSG_LINES = f"{INDENT}{NO_CONTEXT}\n{INDENT}{GET_DEV_MSG}\n"
# ... and what it returns when nothing else was reported.
ONLY_GET_DEV_MSG = NO_CONTEXT_HEADLINE + TRACEBACK + f"{INDENT}{GET_DEV_MSG}\n"


def null(func: str, param: str) -> str:
    """The headline of EH0008 (100000)."""
    return f"Invalid_Argument_Null_Pointer(EH0008): {func} failed because {param} cannot be a NULL pointer.\n" + (
        POINTER_SOLUTION
    )


def no_context(rt_fn: str) -> str:
    """107002 of a function whose rt wrapper adds EE1001, read in a thread with a context bound later."""
    return (
        NO_CONTEXT_HEADLINE
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: {rt_fn} execution failed, the context is a null pointer.\n"
    )


def no_context_unbound(rt_fn: str) -> str:
    """The same, read in the thread that still has no context (aclGetRecentErrMsg adds its own two:
    the EE1018 equal to the headline is kept once, so only its EE1001 follows)."""
    return no_context(rt_fn) + f"{INDENT}{GET_DEV_MSG}\n"


def bad_handle(kind: str, rt_fn: str) -> str:
    """107017: the handle guard's EE1017 and the rt wrapper's."""
    return (
        f"Invalid_Argument(EE1017): Object validation failed. Parameter {kind} is invalid. Reason: 1. The {kind} "
        f"handle has been destroyed. 2. The handle type must be {kind}.\n"
        + TRACEBACK
        + f"{INDENT}{rt_fn} failed. Parameter handle is invalid. Reason: 1. The handle has been destroyed. 2. The "
        "handle type is not the expected one.\n"
    )


def rt_invalid(text: str, rt_fn: str) -> str:
    """An EE1003 of the runtime and the rt wrapper's EE1001."""
    return (
        f"Invalid_Argument(EE1003): {text}\n"
        + RANGE_SOLUTION
        + TRACEBACK
        + f"{INDENT}The argument is invalid. Reason: {rt_fn} execution failed.\n"
    )


def emulator(text: str) -> str:
    """One report of the emulator's own (id aclnn_py, no title)."""
    return f"aclnn_py: {text}\n"
