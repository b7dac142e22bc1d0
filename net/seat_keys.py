"""The keys to the seats of hosted tables: only the player who sat in a seat can take it back.

When a player takes a seat the table gives them a secret token (in `welcome`), 256 random bits. The
table keeps only the token's SHA-256, in a file of its own per match (so `host --resume` keeps the
seats for their players), and hands the seat back only to a hello that presents the token; a bare
hello with the seat's name is refused. `dominoes join` keeps the token in the player's data
directory, one file per table and name, so coming back is just joining again.

Every file here is written atomically and readable by its owner only (0600), in a directory only
its owner may enter (0700).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from pathlib import Path
from typing import Any

from saves.json_file import load_json_file, private_directory, write_json_file

TOKEN_BYTES = 32  # 256 bits
MAX_TOKEN = 128  # characters a token may have on the wire (a real one has 43)
MAX_FILE = 16 * 1024
VERSION = 1
SERVER_DIRECTORY = "seat-keys"  # in the host's data directory: the hashes, per match
CLIENT_DIRECTORY = "seat-tokens"  # in the player's data directory: the tokens, per table and name
KEEP_TOKENS_FOR = 90 * 24 * 3600  # seconds an unused token file is kept before it is tidied away


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_hash(one: str, other: str) -> bool:
    return hmac.compare_digest(one.encode("ascii", "replace"), other.encode("ascii", "replace"))


# -- the table's side: the hashes, per match --------------------------------------------------------
def server_keys_path(data_dir: Path, match_id: str) -> Path:
    return data_dir / SERVER_DIRECTORY / f"{match_id}.json"


def load_seat_keys(path: Path | None, players: int) -> dict[int, str]:
    """The seats' token hashes kept for a match; none if there is no file (a new match) or it is
    unreadable (its seats are then taken back by name once, and keyed again)."""
    if path is None:
        return {}
    try:
        data = load_json_file(path, MAX_FILE)
    except (OSError, ValueError):
        return {}
    keys = data.get("keys") if isinstance(data, dict) and data.get("version") == VERSION else None
    if not isinstance(keys, dict):
        return {}
    kept = {}
    for seat, digest in keys.items():
        if seat.isdigit() and int(seat) < players and isinstance(digest, str) and len(digest) == 64:
            kept[int(seat)] = digest
    return kept


def save_seat_keys(path: Path, keys: dict[int, str]) -> None:
    """OSError if the file cannot be written."""
    private_directory(path.parent)
    write_json_file(path, {"version": VERSION, "keys": {str(seat): digest for seat, digest in keys.items()}})


# -- the player's side: the tokens, per table and name ----------------------------------------------
class TokenStore:
    """The tokens `dominoes join` was given, in `directory` (the player's data directory's
    seat-tokens), one file per table address and name."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, address: str, name: str) -> Path:
        key = hashlib.sha256(f"{address}\0{name.casefold()}".encode()).hexdigest()[:40]
        return self.directory / f"{key}.json"

    def get(self, address: str, name: str) -> str | None:
        try:
            data = load_json_file(self._path(address, name), MAX_FILE)
        except (OSError, ValueError):
            return None
        token = data.get("token") if isinstance(data, dict) else None
        return token if isinstance(token, str) and 0 < len(token) <= MAX_TOKEN else None

    def put(self, address: str, name: str, token: str, match_id: str) -> None:
        """Keep `token` for this table and name. OSError if it cannot be written."""
        private_directory(self.directory)
        record: dict[str, Any] = {"address": address, "name": name, "match": match_id, "token": token}
        record["kept"] = int(time.time())
        write_json_file(self._path(address, name), record)
        self._tidy()

    def _tidy(self) -> None:
        """Forget tokens unused for months: the tables they open are long gone."""
        cutoff = time.time() - KEEP_TOKENS_FOR
        for path in sorted(self.directory.glob("*.json"))[:1000]:
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
            except OSError:
                continue
