"""Each seat's place in a finished match: the winners first (equal places share a number, and no
one shares the winners' place), the others by their totals, the lowest first in Chicken Foot
(CF-16, CF-18) and the highest first in Doubles (DB-13) and Moon (MN-19, MN-20)."""

from __future__ import annotations

from collections.abc import Sequence

HIGH_WINS = frozenset({"doubles", "moon"})


def placings(game_name: str, scores: Sequence[int], winners: Sequence[int]) -> tuple[int, ...]:
    """The place (1 = first) of each seat, in seat order."""
    sign = -1 if game_name in HIGH_WINS else 1
    won = set(winners)
    others = [seat for seat in range(len(scores)) if seat not in won]
    places = []
    for seat in range(len(scores)):
        if seat in won:
            places.append(1)
        else:
            better = sum(1 for other in others if sign * scores[other] < sign * scores[seat])
            places.append(1 + len(won) + better)
    return tuple(places)
