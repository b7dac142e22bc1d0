"""Computer players. A bot is `choose(view, legal, rng, budget) -> Move`, and sees only a `View`.

Levels: `random` (uniform over legal moves, for tests and soak runs), `easy` (rules of thumb) and
`medium` (flat Monte Carlo over worlds consistent with the bot's view) and `hard` (Information-Set
Monte Carlo Tree Search).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from core.bots.easy import EasyBot
from core.bots.hard import HardBot
from core.bots.medium import MediumBot
from core.bots.random_bot import RandomBot
from core.moves import Move


class Bot(Protocol):
    level: str

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        """One of `legal`, chosen from what `view` shows; `budget` is a time limit in seconds."""
        ...


_BOTS: dict[str, Bot] = {bot.level: bot for bot in (RandomBot(), EasyBot(), MediumBot(), HardBot())}
BOT_LEVELS: tuple[str, ...] = tuple(_BOTS)


def get_bot(level: str) -> Bot:
    """The bot of `level` (one of BOT_LEVELS); ValueError for any other name."""
    bot = _BOTS.get(level)
    if bot is None:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(BOT_LEVELS)})")
    return bot


__all__ = ["BOT_LEVELS", "Bot", "get_bot"]
