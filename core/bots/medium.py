"""The medium bot: flat Monte Carlo over determinized worlds.

For each decision it samples worlds consistent with its view (`game.determinize`), tries every
legal move in each, plays the round out with a fast policy, and picks the move with the best mean
round value. It stops when its time budget is spent or after `max_worlds` worlds, whichever comes
first; with a fixed number of worlds it is deterministic given its rng.
"""

from __future__ import annotations

import random
from typing import Any

from core.bots.clock import Clock
from core.bots.evaluation import round_value
from core.bots.rollout import play_out_round
from core.moves import Move
from core.registry import get_game

DEFAULT_BUDGET = 0.2  # seconds per decision
MAX_WORLDS = 64


class MediumBot:
    level = "medium"
    default_budget = DEFAULT_BUDGET

    def __init__(self, max_worlds: int = MAX_WORLDS) -> None:
        self.max_worlds = max_worlds

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        if len(legal) == 1:
            return legal[0]
        return self.evaluate(view, legal, rng, budget)[0]

    def evaluate(
        self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None
    ) -> tuple[Move, list[float], int]:
        """The chosen move, the mean value of every legal move, and how many worlds were sampled."""
        game = get_game(view.game)
        clock = Clock(self.default_budget if budget is None else budget)
        totals = [0.0] * len(legal)
        worlds = 0
        while worlds < self.max_worlds:
            world = game.determinize(view, rng)
            for index, move in enumerate(legal):
                end = play_out_round(game, game.apply(world, move), rng)
                totals[index] += round_value(game.name, end, view.seat)
            worlds += 1
            if not clock.time_for_another():
                break
        means = [total / worlds for total in totals]
        best = max(range(len(legal)), key=lambda i: (means[i], -i))
        return legal[best], means, worlds
