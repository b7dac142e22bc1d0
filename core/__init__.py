"""The rules engine: pure, immutable, no I/O. See DESIGN.md for the API.

from core import get_game, GAME_NAMES, Tile, IllegalMove, Match
"""

from __future__ import annotations

from typing import Any

from core.errors import IllegalMove
from core.registry import GAME_NAMES, GAME_TITLES, get_game
from core.tiles import Tile

__all__ = ["GAME_NAMES", "GAME_TITLES", "IllegalMove", "Match", "Seat", "Tile", "get_game"]


def __getattr__(name: str) -> Any:
    # Match loads the engine's machinery: import it only when a match is wanted.
    if name == "Match":
        from core.match import Match

        return Match
    if name == "Seat":
        from core.seats import Seat

        return Seat
    raise AttributeError(f"module 'core' has no attribute {name!r}")
