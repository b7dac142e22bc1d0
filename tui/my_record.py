"""Which record this session keeps (no Textual here: `dominoes stats` uses it too).

On one's own machine: `record.sqlite` in the data directory, from its saves. In a served session
(SSH, the web): the player's own, in their folder, from their saves and the server's tables at
which they sat; and the server's, in the server's data directory, from every player's folder and
every table, for the lobby's leaderboard.
"""

from __future__ import annotations

from pathlib import Path

from net.paths import data_dir, is_served, server_dir
from records.database import FILE_NAME, Record
from records.entry import player_key
from records.sources import local_sources, player_sources, server_sources


def my_record(player: str | None = None, home: Path | None = None) -> Record:
    """This session's own record; `player`: the served player's name (a served session)."""
    home = home or data_dir()
    if player is not None and is_served():
        return Record(home / FILE_NAME, player_sources(home, server_dir(), player))
    return Record(home / FILE_NAME, local_sources(home))


def server_record(directory: Path | None = None) -> Record:
    """The server's record, for its leaderboard."""
    directory = directory or server_dir()
    return Record(directory / FILE_NAME, server_sources(directory))


def default_player(record: Record, preferred: str | None) -> str | None:
    """Whose statistics to show: `preferred` (the served player, or the first name of the new-match
    form) if the record knows them, else the person with the most matches in it."""
    from records.summary import known_players

    known = known_players(record)
    if preferred is not None and any(player == player_key(preferred) for player, _, _ in known):
        return player_key(preferred)
    return known[0][0] if known else (player_key(preferred) if preferred else None)
