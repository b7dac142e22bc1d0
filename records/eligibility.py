"""Whether a finished match counts for rating: `counts_for_rating` is the one place that says.

Not counted: a match nobody played (bots only); a lesson, or any match whose deals were not drawn
from its seed (a stacked deal: the player knew the tiles); a match whose seed was chosen (it can be
replayed knowing every deal); a match in which a revealed round was undone (the player saw the
hidden tiles and played the round again). A copy of a match, or a match played on from a review
("play from here"), shares its first deal with the match it came from; only the first of them
counts, which the database decides, since it sees them all (`records.database`). A match that is
not over never counts: left unfinished for long, it is abandoned.
"""

from __future__ import annotations

import hashlib

from core.match import Match
from core.moves import Deal


def counts_for_rating(match: Match) -> str | None:
    """None if `match` counts for rating, else the reason it does not, in a few words.

    Whether the seed was chosen and whether a revealed round was undone are facts the match itself
    records (`seed_chosen`, `undid_revealed_round`); a match that does not say counts as neither."""
    if not match.state.over:
        return "not finished"
    if not match.humans:
        return "no person played"
    if getattr(match, "seed_chosen", False):
        return "its seed was chosen"
    if getattr(match, "undid_revealed_round", False):
        return "a revealed round was undone"
    if not deals_from_seed(match):
        return "a lesson or a stacked deal"
    return None


def deals_from_seed(match: Match) -> bool:
    """Whether every deal up to the cursor is the one the match's seed gives (`Match.deal`): false
    for a lesson, whose first deal is stacked, and for any deal written by hand."""
    replay = Match(match.game_name, match.players, dict(match.options), match.seats, match.seed)
    for event in match.events[: match.cursor]:
        if type(event) is Deal and event != replay.game.deal(replay.state, replay.deal_rng()):
            return False
        replay.apply(event)
    return True


def first_deal_key(match: Match) -> str:
    """What a match shares with its copies and the matches played on from it: its game, table, seed
    and first deal (two matches dealt apart share it only by a chance of one in 2**64 or less)."""
    first = next((event for event in match.events[: match.cursor] if type(event) is Deal), None)
    deal = first.to_data() if first is not None else None
    return hashlib.sha256(repr((match.game_name, match.players, match.seed, deal)).encode()).hexdigest()[:32]
