"""Play from here: a new match that starts where a reviewed one stood, to try another line."""

from __future__ import annotations

from core.match import Match
from core.seats import Seat


def branch(match: Match, position: int, seat: int) -> Match:
    """A new match with the first `position` events of `match` (its seed, so every later round is
    dealt the same tiles), in which `seat` is played by a person: a bot seat becomes a human one of
    the same name. The other seats are as they were."""
    if not 0 <= position <= match.cursor:
        raise ValueError(f"position {position} is not in the match (0 to {match.cursor})")
    seats = list(match.seats)
    if seats[seat].is_bot:
        seats[seat] = Seat(seats[seat].name)
    return Match(match.game_name, match.players, dict(match.options), seats, match.seed, match.events[:position])
