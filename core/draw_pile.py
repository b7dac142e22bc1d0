"""The face-down draw pile of the draw games (Chicken Foot's chicken yard, the Doubles boneyard).

The stock is a tuple in drawing order; its first tile is drawn next. A few tiles at the bottom are
a reserve that is never drawn (CF-13, DB-9). Its order is chance's secret: views show only its size.
Moon deals the same way: its one tile left over is the widow.
"""

from __future__ import annotations

import random

from core.shuffle import shuffle
from core.tiles import Tile


def deal_hands(
    tiles: tuple[Tile, ...], players: int, hand_size: int, rng: random.Random
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    """Shuffle `tiles` with `rng` and deal `hand_size` to each player, each hand sorted; the rest
    is the stock."""
    order = list(tiles)
    shuffle(order, rng)
    dealt = players * hand_size
    hands = tuple([tuple(sorted(order[start : start + hand_size])) for start in range(0, dealt, hand_size)])
    return hands, tuple(order[dealt:])
