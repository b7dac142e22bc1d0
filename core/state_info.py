"""What every game's state reads from its `info` (the facts that change only between rounds) and
from its hand bitmasks.

States keep those facts in one `info` tuple, so a move rebuilds one small tuple instead of copying
them all; these properties give the public attributes of DESIGN.md (`state.players`, ...).
"""

from __future__ import annotations

from operator import attrgetter

from core.tiles import Tile, tiles_in

INFO_ATTRIBUTES = ("players", "seed", "options", "round", "chance", "over", "scores", "winners")


def info_properties() -> tuple[property, ...]:
    """One read-only property per name in INFO_ATTRIBUTES, in that order."""
    return tuple(property(attrgetter(f"info.{name}")) for name in INFO_ATTRIBUTES)


def hands_property() -> property:
    """`state.hands`: every seat's hand as a sorted tuple of tiles, read from the state's bitmasks."""

    def hands(state: object) -> tuple[tuple[Tile, ...], ...]:
        return tuple(tiles_in(mask) for mask in state.hand_masks)  # type: ignore[attr-defined]

    return property(hands)
