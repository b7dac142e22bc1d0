"""The decisions of a match: every event that a seat chose (a play, draw, pass, bid, discard or
trump), as opposed to chance's deals."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from core.match import Match
from core.moves import Deal


@dataclass(frozen=True)
class Decision:
    """Event `index` (0-based) of a match: `seat` chose it, in round (Moon: hand) `round`."""

    index: int
    seat: int
    round: int


def decisions(match: Match, seats: Collection[int] | None = None) -> list[Decision]:
    """Every decision up to the match's cursor (the match as it stands, not an undone tail), of
    `seats` (every seat if None), oldest first."""
    found = []
    events = match.events
    for index in range(match.cursor):
        if type(events[index]) is Deal:
            continue
        state = match.state_at(index)
        seat = state.to_move
        if seat is None or (seats is not None and seat not in seats):
            continue
        found.append(Decision(index, seat, state.round))
    return found
