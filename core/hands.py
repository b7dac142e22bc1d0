"""Hands as sorted tuples of tiles, and the small operations every game needs on them."""

from __future__ import annotations

from typing import Any

from core.tiles import Tile


def insert_sorted(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """The hand with `tile` added in its sorted place (hands are kept sorted)."""
    for i, held in enumerate(hand):
        if tile < held:
            return hand[:i] + (tile,) + hand[i:]
    return hand + (tile,)


def without(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """The hand with `tile` removed (it must be there)."""
    i = hand.index(tile)
    return hand[:i] + hand[i + 1 :]


def replace_hand(hands: tuple[Any, ...], seat: int, hand: Any) -> tuple[Any, ...]:
    """`hands` with seat's entry replaced (a hand, or a hand's bitmask)."""
    changed = list(hands)  # faster than slicing and concatenating for a handful of seats
    changed[seat] = hand
    return tuple(changed)
