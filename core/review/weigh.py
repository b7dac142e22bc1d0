"""Weighing one decision: every legal move tried in the same sampled deals, played out to the end
of the round with the search bots' evaluation.

The deals are sampled from the deciding seat's view only (`game.determinize`), so a review never
uses a tile the seat could not see. Every move is tried in each deal, and each move's playout in a
deal draws its random choices from the same seed, so the moves differ only by themselves: the luck
of the deal cancels out of the comparison (common random numbers, as in duplicate play). The
playouts and round values are the medium and hard bots' (`core.bots.rollout`,
`core.bots.evaluation`); in Moon's last tricks each deal is solved exactly, as the hard bot does
(`core.bots.moon_search`).

A review is bounded by a time budget per decision (at most `MAX_WORLDS` deals), or, for a review
that is the same on every machine, by a fixed number of deals.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from core.bots import moon_search
from core.bots.clock import Clock
from core.bots.evaluation import round_value
from core.bots.rollout import play_out_round
from core.game import Game
from core.games.moon import PLAYING
from core.moves import Move

DEFAULT_BUDGET = 0.2  # seconds per decision
MAX_WORLDS = 256  # deals per decision at most: past this the verdicts no longer change


@dataclass(frozen=True)
class ReviewSettings:
    """How hard a review looks: `budget` seconds per decision, or exactly `worlds` deals per decision
    (then the budget is not used and the review is the same on any machine); `seed` fixes the deals."""

    budget: float = DEFAULT_BUDGET
    seed: int = 0
    worlds: int | None = None

    def to_data(self) -> dict[str, Any]:
        return {"budget": self.budget, "seed": self.seed, "worlds": self.worlds}

    @staticmethod
    def from_data(data: Any) -> ReviewSettings:
        """ValueError unless `data` is what `to_data` gives."""
        if not isinstance(data, dict) or set(data) != {"budget", "seed", "worlds"}:
            raise ValueError("review settings are budget, seed and worlds")
        budget, seed, worlds = data["budget"], data["seed"], data["worlds"]
        if type(budget) not in (int, float) or not 0 < budget <= 3600:
            raise ValueError("a review's budget is a positive number of seconds")
        if type(seed) is not int or (worlds is not None and (type(worlds) is not int or not 1 <= worlds <= 100_000)):
            raise ValueError("a review's seed and worlds are whole numbers")
        return ReviewSettings(float(budget), seed, worlds)


@dataclass(frozen=True)
class Weighing:
    """Each legal move's mean round value for the seat (in `legal` order) over `worlds` deals, and
    the standard error of the move made's shortfall from the best (0 when unknown)."""

    means: tuple[float, ...]
    worlds: int
    error: float

    @property
    def best(self) -> int:
        """The index of the best move (the first of equals)."""
        means = self.means
        return max(range(len(means)), key=lambda i: (means[i], -i))


def decision_seed(settings: ReviewSettings, index: int) -> str:
    """The seed of the deals sampled for event `index`: fixed by the review's seed and the event."""
    return f"{settings.seed}:review:{index}"


def weigh_decision(game: Game, state: Any, move: Move, index: int, settings: ReviewSettings) -> Weighing:
    """Weigh `move`, made at `state` (event `index` of its match), from its seat's view alone."""
    seat = state.to_move
    legal = game.legal_moves(state)
    return weigh(game, game.view(state, seat), legal, legal.index(move), decision_seed(settings, index), settings)


def weigh(game: Game, view: Any, legal: tuple[Move, ...], made: int, seed: str, settings: ReviewSettings) -> Weighing:
    """Every move of `legal` tried in the same deals sampled from `view`; `made` is the index of the
    move the seat chose."""
    if len(legal) == 1:
        return Weighing((0.0,), 0, 0.0)  # nothing to choose: nothing to weigh
    rng = random.Random(seed)
    limit = settings.worlds or MAX_WORLDS
    clock = Clock(settings.budget) if settings.worlds is None else None
    exact = view.game == "moon" and view.phase == PLAYING and moon_search.tricks_left(view) <= moon_search.SOLVE_TRICKS
    values: list[list[float]] = [[] for _ in legal]
    while len(values[0]) < limit:
        world = game.determinize(view, rng)
        playout_seed = rng.getrandbits(64)
        row = []
        for move in legal:
            after = game.apply(world, move)
            playout_rng = random.Random(playout_seed)  # the same luck for every move
            if exact:
                row.append(moon_search.solve(after, view.seat, view.bidder, -math.inf, math.inf, playout_rng))
            else:
                row.append(round_value(game.name, play_out_round(game, after, playout_rng), view.seat))
            if clock is not None and values[0] and clock.expired():
                break  # out of time: a deal not tried with every move is left out
        if len(row) < len(legal):
            break
        for column, value in zip(values, row, strict=True):
            column.append(value)
        if clock is not None and not clock.time_for_another():
            break
    worlds = len(values[0])
    means = tuple(sum(column) / worlds for column in values)
    best = max(range(len(means)), key=lambda i: (means[i], -i))
    return Weighing(means, worlds, shortfall_error(values[best], values[made]))


def shortfall_error(best: list[float], made: list[float]) -> float:
    """The standard error of the mean of best - made over the same deals (0 with under two)."""
    count = len(best)
    if count < 2:
        return 0.0
    gaps = [b - m for b, m in zip(best, made, strict=True)]
    mean = sum(gaps) / count
    return math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / (count - 1) / count)
