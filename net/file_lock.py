"""A critical section shared by processes: an exclusive `flock` on a lock file, held for the block.

Counting the sessions or tables of the server and then adding one must be one step, or two front
doors (or two sessions of one player) could both see room for the last one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold the lock at `path` (made, 0600, if missing) for the block. OSError if it cannot be opened."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)  # released when the descriptor closes, or the process dies
        yield
    finally:
        os.close(descriptor)
