"""A saved match as the record holds it: who sat where (players by name, bots by level), each
seat's place and score, how many rounds, and whether and why it does not count for rating."""

from __future__ import annotations

from dataclasses import dataclass

from core.match import Match
from records.eligibility import counts_for_rating, first_deal_key
from records.placing import placings
from saves.record import SavedMatch

# Why a match in a player's own folder with another person at it does not count: anyone can type any
# name at their own screen; only a table's save (the server's, or one's own machine's) vouches for
# its players' names.
GUEST = "another person played whom no table's save vouches for"


def player_key(name: str) -> str:
    """Who a name is: names that differ only in case are the same player."""
    return name.casefold()


@dataclass(frozen=True)
class SeatEntry:
    seat: int  # 0-based
    name: str
    kind: str  # "human", "bot", or "guest" (a person no one vouches for: see `entry_of`)
    level: str | None  # a bot's level
    player: str | None  # a person's key (`player_key`); None for a bot or a guest
    place: int | None  # 1 = first; None while the match is not over
    score: int


@dataclass(frozen=True)
class MatchEntry:
    match_id: str
    game: str
    players: int
    created: int
    updated: int  # when it was last saved: for a finished match, when it ended
    over: bool
    rounds: int
    seats: tuple[SeatEntry, ...]
    why_not: str | None  # why it does not count for rating; None if it counts
    deal_key: str  # shared with its copies and branches (`first_deal_key`)

    def seat_of(self, player: str) -> SeatEntry | None:
        return next((seat for seat in self.seats if seat.player == player), None)


def rounds_scored(match: Match) -> int:
    state = match.state
    per_round = getattr(state, "round_scores", None) or getattr(state, "hand_scores", None)
    return len(per_round) if per_round else 0


def entry_of(record: SavedMatch, owner: str | None = None) -> MatchEntry:
    """The record's entry for a saved match. `owner`: the player whose own folder the save is in
    (on a server); a person at such a match is the owner, and any other person at it a guest, who
    is no one's player (anyone can type any name at their own screen), so such a match does not
    count for rating. Without an owner every person is the player their name says."""
    match = record.match
    state = match.state
    over = bool(state.over)
    places = placings(match.game_name, state.scores, state.winners) if over else (None,) * match.players
    humans = match.humans
    seats = []
    guests = False
    for index, seat in enumerate(match.seats):
        if seat.is_bot:
            kind, player = "bot", None
        elif owner is None:
            kind, player = "human", player_key(seat.name)
        elif len(humans) == 1 or player_key(seat.name) == owner:
            kind, player = "human", owner
        else:
            kind, player, guests = "guest", None, True
        seats.append(SeatEntry(index, seat.name, kind, seat.level, player, places[index], state.scores[index]))
    why = counts_for_rating(match)
    if why is None and guests:
        why = GUEST
    return MatchEntry(
        record.match_id,
        match.game_name,
        match.players,
        record.created,
        record.updated,
        over,
        rounds_scored(match),
        tuple(seats),
        why,
        first_deal_key(match),
    )
