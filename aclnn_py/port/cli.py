"""The ``aclnn-port`` command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import ParserUnavailable, PortError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="aclnn-port",
        description="Translate a C++ aclnn program (or the sample of an operator document) into its "
        "line-by-line Python port on aclnn_py. Refuses, naming file, line and construct, what it "
        "cannot translate faithfully.",
    )
    ap.add_argument("source", type=Path, help="the C++ program (.cpp), or a document holding one (.md, .txt)")
    ap.add_argument("-o", "--output", type=Path, help="where to write the port (default: standard output)")
    ap.add_argument("--name", help="the source's name in the port's header (default: the file's name)")
    ap.add_argument(
        "--partial",
        action="store_true",
        help="on refusal, still write the port, with each refused line as a marked comment and a first "
        "statement that stops it from running (the exit status stays 1)",
    )
    args = ap.parse_args(argv)
    from . import translate
    from .source import read_program

    try:
        program = read_program(args.source)
        port = translate(program, str(args.source), args.name or args.source.name)
    except (OSError, ValueError, UnicodeDecodeError) as e:
        print(f"aclnn-port: {e}", file=sys.stderr)
        return 2
    except ParserUnavailable as e:
        print(f"aclnn-port: {e}", file=sys.stderr)
        return 2
    except PortError as e:
        for r in e.refusals:
            print(f"{r}", file=sys.stderr)
        print(f"aclnn-port: {args.source} cannot be read as C++; nothing written", file=sys.stderr)
        return 1
    for r in port.refusals:
        print(f"{r}", file=sys.stderr)
    if port.refusals and not args.partial:
        print(
            f"aclnn-port: {len(port.refusals)} construct(s) of {args.source} cannot be translated faithfully; "
            "nothing written (--partial writes the port with them marked)",
            file=sys.stderr,
        )
        return 1
    if args.output is None:
        sys.stdout.write(port.python)
    else:
        try:
            args.output.write_text(port.python, encoding="utf-8")
        except OSError as e:
            print(f"aclnn-port: {e}", file=sys.stderr)
            return 2
    return 1 if port.refusals else 0
