"""Match ids: the names of save files, and what `dominoes saves show MATCH` takes."""

from __future__ import annotations

import re
import secrets

ID_RULE = "lowercase letters, digits and dashes"
_MATCH_ID = re.compile(r"[0-9a-z][0-9a-z-]{0,63}")


def new_match_id() -> str:
    """A fresh id: twelve random hexadecimal digits."""
    return secrets.token_hex(6)


def simulated_match_id(game: str, players: int, seed: int) -> str:
    """The id of a simulated match: fixed by its game, table and seed, so running a simulation again
    rewrites its files, and another game or table simulated with the same seed keeps its own."""
    return f"sim-{game}-{players}p-{seed % 2**64:016x}"


def is_match_id(value: object) -> bool:
    """Lowercase letters, digits and dashes, 1 to 64 of them, not starting with a dash."""
    return isinstance(value, str) and _MATCH_ID.fullmatch(value) is not None
