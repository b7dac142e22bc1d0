"""The games by name."""

from __future__ import annotations

from core.game import Game
from core.games.chicken_foot import GAME as CHICKEN_FOOT
from core.games.doubles import GAME as DOUBLES
from core.games.moon import GAME as MOON

_GAMES: dict[str, Game] = {game.name: game for game in (CHICKEN_FOOT, DOUBLES, MOON)}
GAME_NAMES: tuple[str, ...] = tuple(_GAMES)


def get_game(name: str) -> Game:
    """The game called `name` (one of GAME_NAMES); ValueError for any other name."""
    game = _GAMES.get(name)
    if game is None:
        raise ValueError(f"unknown game {name!r} (games: {', '.join(GAME_NAMES)})")
    return game
