"""``python -m aclnn_py.port prog.cpp [-o prog.py]``."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())
