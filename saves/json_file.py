"""Small JSON files of this program (preferences, a table's sidecar, seat keys): read within a size
bound, so a damaged or hostile file costs nothing to refuse; written atomically, for their owner
only."""

from __future__ import annotations

import contextlib
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


def write_json_file(path: Path, data: Any) -> None:
    """Write `data` as JSON to `path` atomically (a temporary file beside it, flushed, then renamed
    over it), readable and writable by the owner only (0600) from the first byte. OSError if it
    cannot be written; the old file, if any, is then left as it was."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def private_directory(path: Path) -> Path:
    """`path` as a directory only its owner may enter (0700), made with its parents if missing;
    an existing one that others could enter is closed to them. OSError if that cannot be done."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)
    return path
