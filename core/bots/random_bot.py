"""The random bot: uniform over the legal moves."""

from __future__ import annotations

import random
from typing import Any

from core.moves import Move


class RandomBot:
    level = "random"

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        return legal[rng.randrange(len(legal))]
