"""The face-down draw pile of the draw games (Chicken Foot's chicken yard, the Doubles boneyard).

The stock is a tuple in drawing order; its first tile is drawn next. A few tiles at the bottom are
a reserve that is never drawn (CF-13, DB-9). Its order is chance's secret: views show only its size.
"""

from __future__ import annotations

import random

from core.tiles import Tile


def deal_hands(
    tiles: list[Tile], players: int, hand_size: int, rng: random.Random
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    """Shuffle `tiles` with `rng` and deal `hand_size` to each player; the rest is the stock."""
    rng.shuffle(tiles)
    hands = tuple(tuple(sorted(tiles[i * hand_size : (i + 1) * hand_size])) for i in range(players))
    return hands, tuple(tiles[players * hand_size :])
