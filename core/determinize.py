"""Helpers for determinization: placing the tiles a seat cannot see into a full, consistent world.

A search bot samples worlds consistent with everything its seat has seen. Besides the counts
(hand sizes, the stock's size), play reveals what players do *not* hold: a player who drew or
passed could not match the open ends then; in Moon a player who did not follow suit holds none of
it. Each game turns its public record into a mask of forbidden tiles per seat; `deal_unseen`
places the unseen tiles so that no seat gets a tile it is known not to hold.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from core.shuffle import shuffle
from core.tiles import TILE_BIT, Tile


def deal_unseen(
    unseen: Sequence[Tile],
    sizes: Mapping[int, int],
    forbidden: Mapping[int, int],
    rng: random.Random,
) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """Give each seat `sizes[seat]` of the unseen tiles, none of them in `forbidden[seat]`; the
    tiles left over form the stock, in random order.

    The most constrained seats choose first, at random among the tiles they may hold; in the rare
    case that leaves a later seat short, an exact matching finds a placement (one always exists
    when the constraints come from a real game).
    """
    pool = list(unseen)
    shuffle(pool, rng)
    order = sorted(sizes, key=lambda seat: (_allowed_count(pool, forbidden.get(seat, 0)), seat))
    hands: dict[int, list[Tile]] = {}
    for seat in order:
        ban = forbidden.get(seat, 0)
        allowed = [tile for tile in pool if not TILE_BIT[tile] & ban]
        if len(allowed) < sizes[seat]:
            return _matched(unseen, sizes, forbidden, rng)
        chosen = allowed[: sizes[seat]]  # the pool is shuffled, so this is a random choice
        taken = set(chosen)
        pool = [tile for tile in pool if tile not in taken]
        hands[seat] = chosen
    return hands, pool


def _allowed_count(pool: Sequence[Tile], ban: int) -> int:
    return sum(1 for tile in pool if not TILE_BIT[tile] & ban)


def _matched(
    unseen: Sequence[Tile], sizes: Mapping[int, int], forbidden: Mapping[int, int], rng: random.Random
) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """An exact placement by augmenting paths (Kuhn's algorithm) over seat slots and tiles."""
    slots = [seat for seat in sizes for _ in range(sizes[seat])]
    tiles = list(unseen)
    shuffle(tiles, rng)
    shuffle(slots, rng)
    owner: dict[Tile, int] = {}  # tile -> slot index

    def place(slot: int, seen: set[Tile]) -> bool:
        ban = forbidden.get(slots[slot], 0)
        for tile in tiles:
            if TILE_BIT[tile] & ban or tile in seen:
                continue
            seen.add(tile)
            if tile not in owner or place(owner[tile], seen):
                owner[tile] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not place(slot, set()):
            raise ValueError("no placement of the unseen tiles fits what this seat has seen")
    hands: dict[int, list[Tile]] = {seat: [] for seat in sizes}
    for tile, slot in owner.items():
        hands[slots[slot]].append(tile)
    stock = [tile for tile in tiles if tile not in owner]
    return hands, stock
