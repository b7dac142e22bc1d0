"""Reading a small JSON file written by this program (preferences, a table's sidecar), within a
size bound, so a damaged or hostile file costs nothing to refuse."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any


def load_json_file(path: Path, limit: int) -> Any:
    """The JSON value in `path`; OSError if it cannot be read or is not a regular file, ValueError
    if it is larger than `limit` bytes, not UTF-8, not JSON, or nested too deeply to decode."""
    # O_NONBLOCK: a named pipe left where the file should be must not wait for a writer.
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(0, "not a regular file")
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise ValueError(f"larger than {limit} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deeply") from None
