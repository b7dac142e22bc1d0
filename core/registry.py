"""The games by name. A game's module is imported the first time it is asked for, so listing the
games (the command line, the title screen) costs nothing at start-up."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.game import Game

_MODULES = {
    "chicken-foot": "core.games.chicken_foot",
    "doubles": "core.games.doubles",
    "moon": "core.games.moon",
}
GAME_NAMES: tuple[str, ...] = tuple(_MODULES)
GAME_TITLES: dict[str, str] = {"chicken-foot": "Chicken Foot", "doubles": "Doubles", "moon": "Three-player Moon"}


def get_game(name: str) -> Game:
    """The game called `name` (one of GAME_NAMES); ValueError for any other name."""
    module = _MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAME_NAMES)})")
    return import_module(module).GAME  # type: ignore[no-any-return]
