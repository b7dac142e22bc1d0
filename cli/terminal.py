"""Whether the interface can run here: it reads keys from standard input and draws on the terminal,
so without one (`dominoes < /dev/null`, `dominoes new ... | head`) or on a terminal that cannot draw
(TERM=dumb) it says so in one line rather than drawing into a file or spinning on a closed input."""

from __future__ import annotations

import os
import sys
from typing import Any

from cli.usage import PROG, UsageError

STREAMS = (("standard input", "stdin"), ("standard output", "stdout"), ("standard error", "stderr"))
DUMB_TERMINALS = frozenset({"dumb"})


def require_terminal(command: str = PROG, hint: str = "") -> None:
    """UsageError (one line, exit status 2) unless standard input, output and error are a terminal
    that can draw the interface; `hint` ends the line."""
    for words, name in STREAMS:
        stream = getattr(sys, name)
        if stream is None or not _is_terminal(stream):
            raise UsageError(f"{command}: the interface needs a terminal, and {words} is not one{hint}")
    term = os.environ.get("TERM", "")
    if term in DUMB_TERMINALS:
        raise UsageError(
            f"{command}: this terminal (TERM={term}) cannot draw the interface; "
            "run it in one that can (TERM=xterm-256color, for example)"
        )


def interface_status(app: Any) -> int:
    """The exit status of an interface that has stopped: 1 if it stopped on an error (Textual has
    shown what went wrong), else 0."""
    return 1 if app.return_code else 0


def _is_terminal(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):  # closed, or not a file at all
        return False
