"""Domino tiles and the sets the games use.

A `Tile` is an immutable pair of numbers, normalised so that `Tile(5, 2) == Tile(2, 5)`. Tiles are
interned: there is exactly one object for each tile, so equal tiles are the same object and
comparisons and look-ups are as cheap as Python allows. A tile is a tuple `(low, high)` underneath,
which gives C-speed hashing (the same in every process) and a natural sort order.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

MAX_NUMBER = 9  # the double-nine set is the largest any game here uses


class Tile(tuple):  # type: ignore[type-arg]
    """One domino. `Tile(a, b)` returns the single shared instance for that pair."""

    __slots__ = ()

    low: int = property(itemgetter(0))  # type: ignore[assignment]
    high: int = property(itemgetter(1))  # type: ignore[assignment]

    def __new__(cls, a: int, b: int) -> Tile:
        if type(a) is not int or type(b) is not int or not (0 <= a <= MAX_NUMBER and 0 <= b <= MAX_NUMBER):
            raise ValueError(f"no such tile: {a!r}-{b!r} (numbers run from 0 to {MAX_NUMBER})")
        return _INTERNED[a][b]

    @property
    def pips(self) -> int:
        """The tile's value: the sum of its two numbers."""
        return self[0] + self[1]

    @property
    def is_double(self) -> bool:
        return self[0] == self[1]

    def other(self, number: int) -> int:
        """The number at the far end when this tile is placed with `number` touching."""
        return self[1] if self[0] == number else self[0]

    def to_data(self) -> int:
        """Plain-data form: the two-digit number low·10 + high (3-5 is 35, 0-4 is 4)."""
        return self[0] * 10 + self[1]

    @staticmethod
    def from_data(data: Any) -> Tile:
        if type(data) is not int or not 0 <= data <= 99:
            raise ValueError(f"a tile is a number from 0 to 99, not {data!r}")
        return Tile(data // 10, data % 10)

    def __str__(self) -> str:
        return f"{self[0]}-{self[1]}"

    def __repr__(self) -> str:
        return f"Tile({self[0]}, {self[1]})"

    # Interning survives copying: a copy of a tile is the tile itself.
    def __getnewargs__(self) -> tuple[int, int]:  # type: ignore[override]
        return (self[0], self[1])

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self


def _make(a: int, b: int) -> Tile:
    lo, hi = (a, b) if a <= b else (b, a)
    return tuple.__new__(Tile, (lo, hi))


_CANONICAL = {(a, b): _make(a, b) for a in range(MAX_NUMBER + 1) for b in range(a, MAX_NUMBER + 1)}
_INTERNED: list[list[Tile]] = [
    [_CANONICAL[(min(a, b), max(a, b))] for b in range(MAX_NUMBER + 1)] for a in range(MAX_NUMBER + 1)
]


def tile_set(top: int) -> tuple[Tile, ...]:
    """Every tile (a, b) with 0 <= a <= b <= top, in sorted order."""
    return tuple(Tile(a, b) for a in range(top + 1) for b in range(a, top + 1))


DOUBLE_SIX: tuple[Tile, ...] = tile_set(6)  # 28 tiles
DOUBLE_NINE: tuple[Tile, ...] = tile_set(9)  # 55 tiles


def pip_total(tiles: tuple[Tile, ...] | list[Tile]) -> int:
    return sum(t[0] + t[1] for t in tiles)


def format_tiles(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


# -- tiles as bits ---------------------------------------------------------------------------------
# The engines keep hands as bitmasks (bit i set: the i-th tile of DOUBLE_NINE is held), so that
# "which of my tiles carry a 5?" is one `&`. Bits run in sorted tile order, so a mask read from its
# lowest bit up gives the tiles sorted.

TILE_BIT: dict[Tile, int] = {tile: 1 << index for index, tile in enumerate(DOUBLE_NINE)}
BIT_TILE: dict[int, Tile] = {bit: tile for tile, bit in TILE_BIT.items()}
CARRYING: tuple[int, ...] = tuple(
    sum(bit for tile, bit in TILE_BIT.items() if number in tile) for number in range(MAX_NUMBER + 1)
)
"""CARRYING[n]: the mask of every tile that carries the number n."""


def mask_of(tiles: tuple[Tile, ...] | list[Tile] | set[Tile]) -> int:
    mask = 0
    for tile in tiles:
        mask |= TILE_BIT[tile]
    return mask


def per_bit(mask: int, table: dict[int, Any]) -> tuple[Any, ...]:
    """`table[bit]` for each tile bit of `mask`, in sorted tile order (a tile, or a move for it)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(table[low])
        mask ^= low
    return tuple(found)


PIPS_OF_BIT: dict[int, int] = {bit: tile[0] + tile[1] for tile, bit in TILE_BIT.items()}


def pips_in(mask: int) -> int:
    """The pips of the tiles of a mask (as `pip_total(tiles_in(mask))`, without building the tiles)."""
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS_OF_BIT[low]
        mask ^= low
    return total


def tiles_in(mask: int) -> tuple[Tile, ...]:
    """The tiles of a mask, sorted."""
    return per_bit(mask, BIT_TILE)
