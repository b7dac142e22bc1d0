"""Which save folders a record is built from.

- On one's own machine: the saves in the data directory; every person at a match is the player
  their name says (it is one person's machine, and their friends at the same screen).
- A served player's own record (in their folder): their own saves, whose person is the player
  (`entry_of`'s owner), and the matches of the server's tables at which they had a seat.
- A server's record (for the lobby's leaderboard): the server's tables, and every player's own
  saves, each attributed to its folder's player.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from records.entry import player_key

SAVES = "saves"
PLAYERS = "players"  # the players' folders in a server's data directory (net.player_sessions)
MAX_PLAYER_FOLDERS = 100_000


@dataclass(frozen=True)
class Source:
    """A save directory. `label` names it in the record (stable across runs); `owner` is the player
    whose own folder it is (None: every person is the player their name says); `seated`: only the
    matches at which this player had a seat."""

    label: str
    directory: Path
    owner: str | None = None
    seated: str | None = None
    preferences: Path | None = None  # the owner's preferences (what they make public), if any


def local_sources(data_dir: Path) -> list[Source]:
    return [Source(SAVES, data_dir / SAVES)]


def player_sources(home: Path, server_dir: Path, name: str) -> list[Source]:
    """A served player's own record: their saves, and the server's tables at which they sat."""
    owner = player_key(name)
    return [Source(SAVES, home / SAVES, owner=owner), Source("tables", server_dir / SAVES, seated=owner)]


def server_sources(server_dir: Path) -> list[Source]:
    """The server's tables, and every player's folder."""
    found = [Source("tables", server_dir / SAVES)]
    try:
        names = sorted(os.listdir(server_dir / PLAYERS))[:MAX_PLAYER_FOLDERS]
    except OSError:
        names = []
    for folder in names:
        owner = folder_player(folder)
        if owner is None:
            continue
        home = server_dir / PLAYERS / folder
        found.append(Source(f"player:{folder}", home / SAVES, owner=owner, preferences=home / "preferences.json"))
    return found


def folder_player(folder: str) -> str | None:
    """The player key a player's folder is named for (the inverse of `net.player_sessions.
    safe_folder_name`: `%XX` are the bytes of the UTF-8 of other characters); None for a name that
    no player's folder has."""
    data = bytearray()
    index = 0
    while index < len(folder):
        char = folder[index]
        if char == "%":
            try:
                data.append(int(folder[index + 1 : index + 3], 16))
            except ValueError:
                return None
            index += 3
        elif char in "abcdefghijklmnopqrstuvwxyz0123456789_-":
            data += char.encode()
            index += 1
        else:
            return None
    try:
        name = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return name if name and name == player_key(name) else None
