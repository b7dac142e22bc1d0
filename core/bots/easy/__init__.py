"""The easy bot: a few rules of thumb per game, no search.

Each game has its own module with `choose(view, legal, rng) -> Move`; they share nothing but
this dispatch, because the games' tactics differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from core.bots.easy import chicken_foot, doubles, moon
from core.moves import Move

Strategy = Callable[[Any, tuple[Move, ...], random.Random], Move]
_STRATEGIES: dict[str, Strategy] = {
    "chicken-foot": chicken_foot.choose,
    "doubles": doubles.choose,
    "moon": moon.choose,
}


class EasyBot:
    level = "easy"

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        if len(legal) == 1:
            return legal[0]
        return _STRATEGIES[view.game](view, legal, rng)
