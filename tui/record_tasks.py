"""What the interface asks of the record, each a blocking call for a worker thread (no Textual here):
bring it up to date at start, read a player's statistics, and a finished match's result (the
rating change and the accuracy) for the game-over screen. In a served session the server's record,
for the lobby's leaderboard, is brought up to date too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tui.my_record import default_player, my_record, server_record


def bring_up_to_date(served_player: str | None) -> list[str]:
    """Sync this session's record (and a served session's server record); the notices to show."""
    notices = []
    records = [my_record(served_player)] + ([server_record()] if served_player is not None else [])
    for record in records:
        try:
            record.check()
            record.sync()
        except OSError as error:
            notices.append(f"the record cannot be kept in {record.path.parent} ({error.strerror or error})")
        notices += record.notices
    return notices


def own_statistics(served_player: str | None, preferred: str | None) -> tuple[dict[str, Any] | None, list[str]]:
    """The statistics of this session's player (the served player, or the new-match form's first
    name if the record knows it, else its most frequent player), the record synced first."""
    from records.summary import summary

    record = my_record(served_player)
    try:
        record.check()
        record.sync()
        player = default_player(record, served_player or preferred)
        data = summary(record, player) if player else None
    except OSError as error:
        return None, [f"the record cannot be kept in {record.path.parent} ({error.strerror or error})"]
    if data is None:
        data = {"player": "", "name": served_player or preferred or "You", "since": None, "games": []}
    return data, record.notices


def match_results(
    match_id: str, names: Sequence[str], served_player: str | None
) -> tuple[list[tuple[str, dict[str, Any]]], list[str]]:
    """(name, result) for each person named who has `match_id` in this session's record (synced
    first): the rating before and after and the accuracy (`records.summary.match_result`)."""
    from records.entry import player_key
    from records.summary import match_result

    notices = bring_up_to_date(served_player)
    record = my_record(served_player)
    found = []
    if served_player is not None:
        names = [served_player]  # a served session is its player's alone
    for name in names:
        result = match_result(record, match_id, player_key(name))
        if result is not None:
            found.append((name, result))
    return found, notices
