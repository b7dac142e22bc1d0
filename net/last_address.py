"""Where each match was last hosted, so `dominoes host --resume` can listen there again: the same
port (or socket) its players have in their notes and their shell history.

One small file per match in the host's data directory (`hosted/MATCH.json`, 0600 in a 0700
folder), written when a table starts listening; read within a size bound, and anything that is not
an address is ignored.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from net.address import Address, parse_address
from saves.ids import is_match_id
from saves.json_file import load_json_file, private_directory, write_json_file

DIRECTORY = "hosted"
MAX_FILE = 4096


def _path(data_dir: Path, match_id: str) -> Path | None:
    return data_dir / DIRECTORY / f"{match_id}.json" if is_match_id(match_id) else None


def remember(data_dir: Path, match_id: str, address: Address) -> None:
    """Note that `match_id` is hosted at `address` (quietly nothing if it cannot be written: the
    table is hosted all the same)."""
    path = _path(data_dir, match_id)
    if path is None:
        return
    with contextlib.suppress(OSError):
        private_directory(path.parent)
        write_json_file(path, {"address": str(address)})


def recall(data_dir: Path, match_id: str) -> Address | None:
    """Where `match_id` was last hosted, if this machine hosted it."""
    path = _path(data_dir, match_id)
    if path is None:
        return None
    try:
        data = load_json_file(path, MAX_FILE)
        text = data["address"] if isinstance(data, dict) else None
        return parse_address(text) if isinstance(text, str) else None
    except (OSError, ValueError, KeyError):
        return None
