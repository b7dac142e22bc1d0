"""Verdicts: how far a move fell short of the best, in each game's own points, put in words.

The thresholds are per game because the games count differently: a Chicken Foot or Doubles round
moves tens of points, a Moon hand a few. A shortfall that sampling alone could explain (within
`NOISE_SIGMAS` standard errors) is never worse than "good": the review does not call a move a
mistake unless the deals it tried say so clearly.
"""

from __future__ import annotations

from dataclasses import dataclass

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
NOISE_SIGMAS = 2.0


@dataclass(frozen=True)
class Thresholds:
    """A shortfall up to `best` counts as the best move; below `good`, `inaccuracy` and `mistake`
    it is that verdict; from `mistake` up it is a blunder."""

    best: float
    good: float
    inaccuracy: float
    mistake: float


THRESHOLDS: dict[str, Thresholds] = {
    "chicken-foot": Thresholds(0.05, 1.5, 4.0, 10.0),
    "doubles": Thresholds(0.05, 1.5, 4.0, 10.0),
    "moon": Thresholds(0.02, 0.25, 0.75, 2.0),
}
UNITS: dict[str, str] = {
    "chicken-foot": "points of the round",
    "doubles": "points of the round",
    "moon": "points of the hand",
}


def verdict(game_name: str, loss: float, error: float = 0.0) -> str:
    """The verdict on a move `loss` points short of the best, with that shortfall's standard error."""
    limits = THRESHOLDS[game_name]
    if loss <= limits.best:
        return "best"
    if loss < limits.good or loss <= NOISE_SIGMAS * error:
        return "good"
    if loss < limits.inaccuracy:
        return "inaccuracy"
    return "mistake" if loss < limits.mistake else "blunder"


def unit(game_name: str) -> str:
    return UNITS[game_name]
