"""Computer players. A bot is `choose(view, legal, rng, budget) -> Move`, and sees only a `View`.

Levels: `random` (uniform over legal moves, for tests and soak runs), `easy` (rules of thumb),
`medium` (flat Monte Carlo over worlds consistent with the bot's view) and `hard` (Information-Set
Monte Carlo Tree Search; in Moon, simulation and an exact search of the last tricks).

A level's code is imported the first time it is asked for, so naming the levels (the command line,
the new-match screen) costs nothing at start-up.
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from core.moves import Move

_CLASSES = {
    "random": ("core.bots.random_bot", "RandomBot"),
    "easy": ("core.bots.easy", "EasyBot"),
    "medium": ("core.bots.medium", "MediumBot"),
    "hard": ("core.bots.hard", "HardBot"),
}
BOT_LEVELS: tuple[str, ...] = tuple(_CLASSES)


class Bot(Protocol):
    level: str

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        """One of `legal`, chosen from what `view` shows; `budget` is a time limit in seconds."""
        ...


SEARCHING_LEVELS: tuple[str, ...] = ("medium", "hard")


def get_bot(level: str, worlds: int | None = None) -> Bot:
    """A bot of `level` (one of BOT_LEVELS); ValueError for any other name. `worlds` caps how many
    imagined deals a searching level weighs a decision (with a generous budget, a fixed amount of
    work: the same decisions on any machine, however busy)."""
    where = _CLASSES.get(level) if isinstance(level, str) else None
    if where is None:
        raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(BOT_LEVELS)})")
    module, name = where
    if worlds is None:
        return getattr(import_module(module), name)()
    if level not in SEARCHING_LEVELS:
        raise ValueError(f"{level} does not search, so it takes no number of worlds")
    if worlds < 1:
        raise ValueError(f"a number of worlds must be at least 1, not {worlds}")
    return getattr(import_module(module), name)(max_worlds=worlds)


__all__ = ["BOT_LEVELS", "SEARCHING_LEVELS", "Bot", "get_bot"]
