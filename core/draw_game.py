"""What the draw games (Chicken Foot, Doubles) share beyond the tiles, the draw pile and the layout.

Their turn machinery looks alike but is not the same: the openings differ, which ends may be played
differ (Chicken Foot's feet, Doubles' locked numbers), and so do the states and the scoring. Each
game therefore keeps its own hot path; what is truly common lives here: checking a dealt set,
dealing a seat's unseen tiles when a view is determinized, and naming seats in words.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.tiles import Tile, mask_of


def misdealt(hands: tuple[tuple[Tile, ...], ...], stock: tuple[Tile, ...], expected: Iterable[Tile]) -> bool:
    """Whether the hands and the stock fail to hold exactly the `expected` tiles, each once."""
    expected = set(expected)
    dealt = [tile for hand in hands for tile in hand]
    dealt.extend(stock)
    if any(type(tile) is not Tile for tile in dealt):
        return True
    return len(dealt) != len(expected) or set(dealt) != expected


def hidden_hands(
    seat: int,
    hand: tuple[Tile, ...],
    hand_sizes: tuple[int, ...],
    revealed: tuple[tuple[Tile, ...], ...] | None,
    unseen: list[Tile],
    given: dict[int, list[Tile]] | None = None,
) -> list[int]:
    """Hand masks for a determinized world: `seat` keeps its own hand, revealed hands stay as they
    were, and every other seat gets the tiles in `given` for it (tiles its view pins down) and then
    the next of the shuffled `unseen` tiles, which are taken off that list (the rest is the stock)."""
    masks: list[int] = []
    for other, size in enumerate(hand_sizes):
        if other == seat:
            masks.append(mask_of(hand))
        elif revealed is not None:
            masks.append(mask_of(revealed[other]))
        else:
            picked = list((given or {}).get(other, ()))
            take = size - len(picked)
            picked.extend(unseen[:take])
            del unseen[:take]
            masks.append(mask_of(picked))
    return masks


def seat_name(names: tuple[str, ...] | None, seat: int) -> str:
    """The seat's name for messages and the move log ("Seat 2" when there are no names)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}"
