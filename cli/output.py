"""Printing that outlives its reader: `dominoes saves | head -3` ends quietly, and a table host whose
log went away (`dominoes host ... | head -2`) goes on serving its players without one."""

from __future__ import annotations

import contextlib
import os
import sys

CLOSED_PIPE_STATUS = 141  # 128 + SIGPIPE: what a shell shows for a command whose reader stopped reading


def discard_output() -> None:
    """Send standard output, and whatever is still buffered for it, to the null device: a closed
    pipe then costs nothing more, not even the flush at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def say(line: str) -> None:
    """Print one line at once; if standard output is gone (a closed pipe, a hung-up terminal), drop
    it and every line after it, and go on."""
    try:
        print(line, flush=True)
    except OSError:
        discard_output()
