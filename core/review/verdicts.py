"""Verdicts: how far a move fell short of the best, in each game's own points, put in words.

The names of the verdicts, in order from the best move to the worst, are `VERDICTS`, and the ones
that find fault with a move are `FLAWED`: whatever reads reviews (the report, the review screen,
a count of a player's commonest kind of mistake) takes them from here.

The thresholds are per game because the games count differently: a Chicken Foot or Doubles round
moves tens of points, a Moon hand a few. A small shortfall is "good" whatever the deals say. A
larger one is called an inaccuracy, a mistake or a blunder only on evidence: at least
`MIN_DEALS` sampled deals weighed it, and it is more than `NOISE_SIGMAS` standard errors above
zero. Without that evidence it is "unclear": the deals tried cannot tell a bad move from bad luck,
and the review says so rather than call it good or bad.
"""

from __future__ import annotations

from dataclasses import dataclass

VERDICTS = ("best", "good", "unclear", "inaccuracy", "mistake", "blunder")
FLAWED = ("inaccuracy", "mistake", "blunder")  # the verdicts that find fault, the mildest first
MIN_DEALS = 8  # sampled deals a harsh verdict needs at least
NOISE_SIGMAS = 2.0  # a harsh verdict needs the loss this many standard errors above zero


@dataclass(frozen=True)
class Thresholds:
    """A shortfall up to `best` counts as the best move; below `good` it is good; from there, with
    the evidence, below `inaccuracy` and `mistake` it is that verdict, and from `mistake` up a
    blunder."""

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


def evident(loss: float, error: float, deals: int) -> bool:
    """Whether the deals show the shortfall clearly: enough of them, and the loss beyond the noise."""
    return deals >= MIN_DEALS and loss > NOISE_SIGMAS * error


def verdict(game_name: str, loss: float, error: float, deals: int) -> str:
    """The verdict on a move `loss` points short of the best over `deals` sampled deals, with that
    shortfall's standard error `error`."""
    limits = THRESHOLDS[game_name]
    if loss <= limits.best:
        return "best"
    if loss < limits.good:
        return "good"
    if not evident(loss, error, deals):
        return "unclear"
    if loss < limits.inaccuracy:
        return "inaccuracy"
    return "mistake" if loss < limits.mistake else "blunder"


def why_unclear(error: float, deals: int) -> str:
    """Why a loss is left unclear, in words: too few deals, or deals too far apart to tell."""
    if deals < MIN_DEALS:
        tried = "1 sampled deal is" if deals == 1 else f"{deals} sampled deals are"
        return f"{tried} too few to tell (a verdict takes {MIN_DEALS})"
    margin = NOISE_SIGMAS * error
    return f"the {deals} sampled deals differ too much to tell it from luck (it is within ±{margin:.1f} of no loss)"


def unit(game_name: str) -> str:
    return UNITS[game_name]
