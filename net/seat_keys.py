"""The keys to the seats of hosted tables: only the player who sat in a seat can take it back.

When a player takes a seat the table gives them a secret token (in `welcome`), 256 random bits. The
table keeps only the token's SHA-256, in a file of its own per match (so `host --resume` keeps the
seats for their players). The key itself never travels again: to take the seat back, a client
proves it holds the key by answering the table's challenge, a fresh random nonce, with an HMAC
keyed by the token's SHA-256 over the match's id and that nonce (`seat_proof`). A table that is not
the one holding the match (something listening where the table used to be) gets an answer to its
own nonce, which no real table will ask again: it learns nothing it can use. The table's file is
therefore as secret as the keys (0600, the host's own).

`dominoes join` keeps the token in the player's data directory, one file per match and name (not
per address: the same seat whatever address the table is reached at, or moved to), so coming back
is just joining again. Files kept by older versions, per address, are found by the match they name.

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
NONCE_BYTES = 32  # a table's challenge: 256 random bits, fresh for every connection
MAX_TOKEN = 128  # characters a token (or a proof, or a nonce) may have on the wire (a real token has 43)
MAX_SCANNED = 1000  # files read when looking for a key kept by an older version (per address)
MAX_FILE = 16 * 1024
VERSION = 1
SERVER_DIRECTORY = "seat-keys"  # in the host's data directory: the hashes, per match
CLIENT_DIRECTORY = "seat-tokens"  # in the player's data directory: the tokens, per match and name
KEEP_TOKENS_FOR = 90 * 24 * 3600  # seconds an unused token file is kept before it is tidied away


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_hash(one: str, other: str) -> bool:
    return hmac.compare_digest(one.encode("ascii", "replace"), other.encode("ascii", "replace"))


def new_nonce() -> str:
    return secrets.token_hex(NONCE_BYTES)


def seat_proof(kept_hash: str, nonce: str, match: str) -> str:
    """The answer to a table's challenge `nonce` for the seat whose token hashes to `kept_hash`, at
    match `match`: what the client sends instead of the token, and what the table checks."""
    message = f"dominoes seat key\0{match}\0{nonce}".encode()
    return hmac.new(kept_hash.encode("ascii", "replace"), message, hashlib.sha256).hexdigest()


def prove(token: str, nonce: str, match: str) -> str:
    """The client's answer to a challenge, from the token it keeps."""
    return seat_proof(token_hash(token), nonce, match)


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


# -- the player's side: the tokens, per match and name ----------------------------------------------
class TokenStore:
    """The tokens `dominoes join` was given, in `directory` (the player's data directory's
    seat-tokens), one file per match and name."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, match: str, name: str) -> Path:
        key = hashlib.sha256(f"match\0{match}\0{name.casefold()}".encode()).hexdigest()[:40]
        return self.directory / f"{key}.json"

    def get(self, match: str, name: str) -> str | None:
        """The token kept for `name` at match `match`, if any."""
        token = _token_in(self._path(match, name))
        if token is None and match != "unsaved":
            token = self._kept_by_address(match, name)
        return token

    def _kept_by_address(self, match: str, name: str) -> str | None:
        """A token an older version kept per table address, found by the match its file names."""
        try:
            paths = sorted(self.directory.glob("*.json"))[:MAX_SCANNED]
        except OSError:
            return None
        for path in paths:
            try:
                data = load_json_file(path, MAX_FILE)
            except (OSError, ValueError):
                continue
            if not isinstance(data, dict) or "address" not in data or data.get("match") != match:
                continue
            kept_name = data.get("name")
            if isinstance(kept_name, str) and kept_name.casefold() == name.casefold():
                token = _token_in(path)
                if token is not None:
                    return token
        return None

    def put(self, match: str, name: str, token: str) -> None:
        """Keep `token` for this match and name. OSError if it cannot be written."""
        private_directory(self.directory)
        record: dict[str, Any] = {"match": match, "name": name, "token": token, "kept": int(time.time())}
        write_json_file(self._path(match, name), record)
        self._tidy()

    def _tidy(self) -> None:
        """Forget tokens unused for months: the tables they open are long gone."""
        cutoff = time.time() - KEEP_TOKENS_FOR
        for path in sorted(self.directory.glob("*.json"))[:MAX_SCANNED]:
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
            except OSError:
                continue


def _token_in(path: Path) -> str | None:
    try:
        data = load_json_file(path, MAX_FILE)
    except (OSError, ValueError):
        return None
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) and 0 < len(token) <= MAX_TOKEN else None
