"""Reading a small JSON file written by this program (preferences, a table's sidecar), within a
size bound, so a damaged or hostile file costs nothing to refuse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def load_json_file(path: Path, limit: int) -> Any:
    """The JSON value in `path`; OSError if it cannot be read, ValueError if it is larger than
    `limit` bytes, not UTF-8, not JSON, or nested too deeply to decode."""
    with path.open("rb") as handle:
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise ValueError(f"larger than {limit} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deeply") from None
