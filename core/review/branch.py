"""Play from here: a new match that starts where a reviewed one stood, to try another line."""

from __future__ import annotations

from core import chance
from core.match import Match
from core.seats import Seat


def branch(match: Match, position: int, seat: int) -> Match:
    """A new match with the first `position` events of `match`, in which `seat` is played by a
    person: a bot seat becomes a human one of the same name. The other seats are as they were.

    Its later rounds are dealt the same tiles as the original's when that gives nothing away: from
    the same seed, or the same secret once the match is over. A match still in play keeps its
    later deals hidden: the branch deals them from a secret derived from the original's (as
    unpredictable, and different). A branch starts in a round whose hands are known, so it is
    marked as a match that went back into a revealed round (practice, not a fair match)."""
    if not 0 <= position <= match.cursor:
        raise ValueError(f"position {position} is not in the match (0 to {match.cursor})")
    seats = list(match.seats)
    if seats[seat].is_bot:
        seats[seat] = Seat(seats[seat].name)
    events = match.events[:position]
    options = dict(match.options)
    if match.secret is None:
        return Match(match.game_name, match.players, options, seats, match.seed, events, undid_revealed_round=True)
    secret = match.secret if match.state.over else chance.branch_secret(match.secret, position)
    return Match(match.game_name, match.players, options, seats, None, events, secret=secret, undid_revealed_round=True)
