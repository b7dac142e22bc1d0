"""The rules engine: pure, immutable, no I/O. See DESIGN.md for the API.

from core import get_game, GAME_NAMES, Tile, IllegalMove
"""

from core.errors import IllegalMove
from core.match import Match, Seat
from core.registry import GAME_NAMES, get_game
from core.tiles import Tile

__all__ = ["GAME_NAMES", "IllegalMove", "Match", "Seat", "Tile", "get_game"]
