"""Per-seat hands (tuples of tiles, or the bitmasks the engines keep): replacing one seat's entry."""

from __future__ import annotations

from typing import Any


def replace_hand(hands: tuple[Any, ...], seat: int, hand: Any) -> tuple[Any, ...]:
    """`hands` with seat's entry replaced (a hand, or a hand's bitmask)."""
    changed = list(hands)  # faster than slicing and concatenating for a handful of seats
    changed[seat] = hand
    return tuple(changed)
