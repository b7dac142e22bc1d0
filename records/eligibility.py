"""Whether a finished match counts for rating: `counts_for_rating` is the one place that says.

Not counted: a match nobody played (bots only); a lesson, or any match whose deals were not drawn
from its chance (a stacked deal: the player knew the tiles); a match dealt from a seed (`Match.
seed_chosen`: chosen for practice, or saved before deals came from secrets, so it can be replayed
knowing every deal); a match in which a revealed round was undone (`Match.undid_revealed_round`:
the player saw the hidden tiles and played the round again). A copy of a match, or a match played on from a review
("play from here"), shares its first deal with the match it came from; only the first of them
counts, which the database decides, since it sees them all (`records.database`). A match that is
not over never counts: left unfinished for long, it is abandoned.
"""

from __future__ import annotations

import hashlib

from core.match import Match
from core.moves import Deal


def counts_for_rating(match: Match) -> str | None:
    """None if `match` counts for rating, else the reason it does not, in a few words."""
    if not match.state.over:
        return "not finished"
    if not match.humans:
        return "no person played"
    if match.seed_chosen:
        return "dealt from a seed"
    if match.undid_revealed_round:
        return "a revealed round was undone"
    if not deals_from_chance(match):
        return "a lesson or a stacked deal"
    return None


def deals_from_chance(match: Match) -> bool:
    """Whether every deal up to the cursor is the one the match's chance (its secret, or its seed)
    gives (`Match.deal`): false for a lesson, whose first deal is stacked, for any deal written by
    hand, and for a copy that holds neither secret nor seed (it cannot show where its deals came
    from)."""
    if match.secret is None and match.seed is None:
        return False
    replay = Match(match.game_name, match.players, dict(match.options), match.seats, match.seed, secret=match.secret)
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
