"""How good a finished round is for a seat, per game: the number search bots maximise.

Search looks to the end of the round (a Moon hand), not the whole match: round scores are what a
player controls, and rollouts to the end of a ten-round match would be mostly noise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _chicken_foot(state: Any, seat: int) -> float:
    # Lowest score wins. With several opponents, pips pushed onto one of them gain little against
    # the others, so a round is judged mostly by the points the seat itself is left holding.
    points = state.round_scores[-1]
    others = [p for s, p in enumerate(points) if s != seat]
    return 0.25 * sum(others) / len(others) - points[seat]


def _moon(state: Any, seat: int) -> float:
    # A hand that ended in three passes is redealt: nothing was won or lost.
    if state.info.redeal or not state.info.records:
        return 0.0
    points = state.info.records[-1].points
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / len(others)


def _doubles(state: Any, seat: int) -> float:
    # Highest score wins: points gained beyond the table's average. A redeal scores nothing.
    if not state.round_scores or state.info.redeal:
        return 0.0
    points = state.round_scores[-1]
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / len(others)


ROUND_VALUE: dict[str, Callable[[Any, int], float]] = {
    "chicken-foot": _chicken_foot,
    "doubles": _doubles,
    "moon": _moon,
}

# A typical spread of round values, so that tree search compares like with like across games.
VALUE_SCALE: dict[str, float] = {
    "chicken-foot": 40.0,
    "doubles": 30.0,
    "moon": 6.0,
}


def round_value(game_name: str, state: Any, seat: int) -> float:
    """The value for `seat` of the round just finished in `state` (higher is better)."""
    return ROUND_VALUE[game_name](state, seat)


def value_scale(game_name: str) -> float:
    return VALUE_SCALE.get(game_name, 1.0)
