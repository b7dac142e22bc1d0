"""The decisions of a match: every event that a seat chose (a play, draw, pass, bid, discard or
trump), as opposed to chance's deals; only those of rounds that are over are reviewed.

A round in play is never judged: its decisions' verdicts, better moves and reasons would tell of
hands still hidden (a bot's "keeps your 5s: you hold four of them", a bidder's discard). It is
reviewed once it is over, as its deal is shown then (`dominoes saves show`).
"""

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


def reviewed_end(match: Match) -> int:
    """The position up to which the match may be reviewed: the end of its last round that is over
    (the cursor itself when the match stands at a round's end), 0 before any round is over."""
    for index in range(match.cursor, 0, -1):
        state = match.state_at(index)
        if state.round > 0 and (state.chance or state.over):
            return index
    return 0


def round_in_play(match: Match) -> int | None:
    """The round (Moon: hand) being played at the cursor, which is not reviewed yet; None when the
    match stands at a round's end (or before the first deal)."""
    state = match.state
    if state.round == 0 or state.chance or state.over:
        return None
    return state.round


def in_play_note(match: Match) -> str | None:
    """ "round 10 is still being played: it is reviewed once it is over", or None."""
    number = round_in_play(match)
    if number is None:
        return None
    word = "hand" if match.game_name == "moon" else "round"
    return f"{word} {number} is still being played: it is reviewed once it is over"


def decisions(match: Match, seats: Collection[int] | None = None) -> list[Decision]:
    """Every decision of the rounds that are over, up to the match's cursor (the match as it
    stands, not an undone tail), of `seats` (every seat if None), oldest first."""
    found = []
    events = match.events
    for index in range(reviewed_end(match)):
        if type(events[index]) is Deal:
            continue
        state = match.state_at(index)
        seat = state.to_move
        if seat is None or (seats is not None and seat not in seats):
            continue
        found.append(Decision(index, seat, state.round))
    return found
