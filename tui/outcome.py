"""How a match ended, in words: who won, the rule that decided it, and the standings in an order
that agrees with it.

Each game ends its own way: Chicken Foot after its last round, on the lowest total, which equal
totals share (CF-18); Doubles when a total reaches the target, the higher total winning when two
cross in one round (DB-13); Moon on a made 21, whatever the scores (MN-19), or after a hand in which
one player alone is highest with at least the target (MN-20). The winners always head the
standings, the others follow by their totals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from core.words import with_verb
from tui.presentation import high_score_wins

MOON = 21  # MN-19: the bid of all seven tricks


class Standing(NamedTuple):
    place: int  # equal places share a number
    seat: int
    name: str
    total: int


class Outcome(NamedTuple):
    headline: str  # "You win", "Ana wins", "Ana and Ben share the win"
    reason: str  # the rule that decided it, as a sentence
    standings: list[Standing]


def name_list(names: Sequence[str]) -> str:
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _winners_words(names: Sequence[str], seats: Sequence[int], you: int | None) -> str:
    called = ["you" if seat == you else names[seat] for seat in seats]
    if len(called) == 1:
        return with_verb(names[seats[0]], "win", seats[0] == you)
    text = name_list(called)
    return text[0].upper() + text[1:] + " share the win"


def _chicken_foot(view: Any, names: Sequence[str]) -> str:
    rounds = len(view.round_scores)
    after = f"after {rounds} round{'s' if rounds != 1 else ''}"
    if len(view.winners) > 1:
        return f"Equal lowest totals {after} share the win (CF-18)."
    return f"The lowest total {after} wins (CF-18)."


def _doubles(view: Any, names: Sequence[str]) -> str:
    target = view.options["target"]
    crossed = [seat for seat, total in enumerate(view.scores) if total >= target]
    if len(crossed) > 1:
        both = "both" if len(crossed) == 2 else "all"
        who = name_list([names[seat] for seat in crossed])
        return f"{who} {both} reached {target} in the same round, and the higher total wins (DB-13)."
    return f"The first to reach {target} wins (DB-13)."


def made_moon(view: Any) -> bool:
    """MN-19: the last hand was a bid of 21, made."""
    records = getattr(view, "records", ())
    return bool(records) and records[-1].bid == MOON and records[-1].made


def _moon(view: Any, names: Sequence[str]) -> str:
    if made_moon(view):
        bidder = names[view.records[-1].bidder]
        return f"{bidder} bid 21 and took all seven tricks, which wins the game at once, whatever the scores (MN-19)."
    return f"The first alone on the highest total, with at least {view.options['target']}, wins (MN-20)."


REASONS: dict[str, Callable[[Any, Sequence[str]], str]] = {
    "chicken-foot": _chicken_foot,
    "doubles": _doubles,
    "moon": _moon,
}


def standings(game_name: str, view: Any, names: Sequence[str]) -> list[Standing]:
    """The winners first, then the others by their totals (the lowest first in Chicken Foot, the
    highest in the others); equal totals share a place, and no one shares the winners' place."""
    totals = view.scores
    sign = -1 if high_score_wins(game_name) else 1
    winners = tuple(view.winners)
    rows = [Standing(1, seat, names[seat], totals[seat]) for seat in sorted(winners)]
    others = sorted((seat for seat in range(len(totals)) if seat not in winners), key=lambda s: (sign * totals[s], s))
    for seat in others:
        better = sum(1 for other in others if sign * totals[other] < sign * totals[seat])
        rows.append(Standing(1 + len(winners) + better, seat, names[seat], totals[seat]))
    return rows


def outcome(game_name: str, view: Any, names: Sequence[str], you: int | None = None) -> Outcome:
    """The end of a finished match seen in `view`; `you`: the seat spoken to as "you" (the one
    player at this screen), if any."""
    winners = tuple(view.winners)
    headline = _winners_words(names, winners, you) if winners else "Nobody wins"
    explain = REASONS.get(game_name)
    reason = explain(view, names) if explain is not None else ""
    return Outcome(headline, reason, standings(game_name, view, names))
