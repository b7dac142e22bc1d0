"""Per-seat hands (tuples of tiles, or the bitmasks the engines keep): replacing one seat's entry,
and reading a deal's hands as masks."""

from __future__ import annotations

from typing import Any

from core.tiles import TILE_BIT, Tile


def replace_hand(hands: tuple[Any, ...], seat: int, hand: Any) -> tuple[Any, ...]:
    """`hands` with seat's entry replaced (a hand, or a hand's bitmask)."""
    changed = list(hands)  # faster than slicing and concatenating for a handful of seats
    changed[seat] = hand
    return tuple(changed)


def deal_masks(hands: tuple[tuple[Tile, ...], ...], stock: tuple[Tile, ...], expected: int) -> tuple[int, ...] | None:
    """Each hand of a deal as a mask, or None if the hands and the stock do not hold exactly the
    tiles of the mask `expected`, each once.

    One pass over the tiles: as many tiles as `expected` has, covering all of it, holds each once.
    Only real tiles count (a plain pair of numbers would hash like one).
    """
    masks = []
    found = count = 0
    for hand in (*hands, stock):
        mask = 0
        for tile in hand:
            if type(tile) is not Tile:
                return None
            mask |= TILE_BIT[tile]
        masks.append(mask)
        found |= mask
        count += len(hand)
    if found != expected or count != expected.bit_count():
        return None
    return tuple(masks[:-1])  # the last is the stock's
