"""Moon's suits and ranks (MN-3..MN-7, MN-14..MN-16): the heart of the game.

`suits(tile, trump)` answers "which suits does this tile belong to, and how does it rank in each,
under this trump". Everything else here (the suit a lead calls for, who may follow it, who wins a
trick) is derived from it, and so are the bitmask tables the engine uses on its hot path, so the
rules live in one place.

Suits are the numbers 0..6 and `TRUMP` (7), the trump suit whatever it is made of. A rank is
higher for a stronger tile: 7 for the double of a number suit (MN-4), the far end's number for the
other tiles; trumps of a number rank the same way, doubles trump rank by their number (MN-6).
"""

from __future__ import annotations

from typing import NamedTuple

from core.moves import TrumpSuit
from core.tiles import DOUBLE_SIX, TILE_BIT, Tile

TRUMP = 7  # the trump suit, beside the number suits 0..6
DOUBLES = "doubles"
NO_TRUMP = "none"
TRUMP_CHOICES: tuple[TrumpSuit, ...] = (0, 1, 2, 3, 4, 5, 6, DOUBLES, NO_TRUMP)
DOUBLE_RANK = 7  # MN-4: a double tops its number's suit

# MN-1: the double-six set without 0-1 .. 0-6 (the double-blank stays): 22 tiles.
MOON_SET: tuple[Tile, ...] = tuple(t for t in DOUBLE_SIX if t.low != 0 or t.is_double)


def suits(tile: Tile, trump: TrumpSuit) -> tuple[tuple[int, int], ...]:
    """The (suit, rank) pairs of `tile` under `trump`; the first pair is the suit it leads (MN-14)."""
    low, high = tile
    if trump == DOUBLES:
        if low == high:
            return ((TRUMP, high),)  # MN-6: doubles trump rank by their number, and join no number suit
    elif trump != NO_TRUMP and (low == trump or high == trump):
        # MN-5: a tile carrying the trump number is a trump only; it ranks as in MN-4.
        return ((TRUMP, DOUBLE_RANK if low == high else low + high - trump),)
    if low == high:
        return ((high, DOUBLE_RANK),)  # MN-3: a double belongs to its number's suit only
    # MN-3, MN-7: a non-double belongs to both numbers' suits; MN-14: it leads its higher number.
    return ((high, low), (low, high))


def led_suit(tile: Tile, trump: TrumpSuit) -> int:
    """MN-14: the suit a lead calls for: TRUMP for a trump, else the lead's higher number."""
    return suits(tile, trump)[0][0]


def rank_in(tile: Tile, suit: int, trump: TrumpSuit) -> int | None:
    """The tile's rank in `suit`, or None if it does not belong to that suit."""
    for member_of, rank in suits(tile, trump):
        if member_of == suit:
            return rank
    return None


def follows(tile: Tile, suit: int, trump: TrumpSuit) -> bool:
    """MN-15: whether the tile follows `suit` (a trump when trumps were led)."""
    return rank_in(tile, suit, trump) is not None


def is_trump(tile: Tile, trump: TrumpSuit) -> bool:
    return suits(tile, trump)[0][0] == TRUMP


def power(tile: Tile, suit: int, trump: TrumpSuit) -> int:
    """MN-16: how strongly the tile bids for a trick led in `suit`: any trump beats any follower,
    a follower beats a tile of neither suit (-1, which cannot win)."""
    first, rank = suits(tile, trump)[0]
    if first == TRUMP:
        return 100 + rank
    follower = rank_in(tile, suit, trump)
    return -1 if follower is None else follower


def members(suit: int, trump: TrumpSuit) -> tuple[Tile, ...]:
    """Every tile of `suit` under `trump`, strongest first."""
    ranked = [(rank_in(tile, suit, trump), tile) for tile in MOON_SET]
    return tuple(tile for rank, tile in sorted((r for r in ranked if r[0] is not None), reverse=True))


def trick_winner(tiles: tuple[Tile, ...], trump: TrumpSuit) -> int:
    """MN-16: the position (0 = the lead) of the tile that wins a trick."""
    suit = led_suit(tiles[0], trump)
    powers = [power(tile, suit, trump) for tile in tiles]
    return powers.index(max(powers))


def suit_name(suit: int) -> str:
    return "trump" if suit == TRUMP else str(suit)


def trump_name(trump: TrumpSuit) -> str:
    """ "5s", "doubles" or "no trump"."""
    if trump == DOUBLES:
        return "doubles"
    if trump == NO_TRUMP:
        return "no trump"
    return f"{trump}s"


# -- tables for the engine's hot path ------------------------------------------------------------
class SuitTable(NamedTuple):
    """One trump choice's rules as bitmasks: the suit each tile leads, the tiles that follow each
    suit, and each tile's power in a trick led in each suit (all by tile bit)."""

    led: dict[int, int]
    follow: tuple[int, ...]  # indexed by suit 0..7
    power: tuple[dict[int, int], ...]  # indexed by suit 0..7


def _table(trump: TrumpSuit) -> SuitTable:
    led = {TILE_BIT[tile]: led_suit(tile, trump) for tile in MOON_SET}
    follow = tuple(sum(TILE_BIT[tile] for tile in MOON_SET if follows(tile, suit, trump)) for suit in range(TRUMP + 1))
    strength = tuple({TILE_BIT[tile]: power(tile, suit, trump) for tile in MOON_SET} for suit in range(TRUMP + 1))
    return SuitTable(led, follow, strength)


TABLES: dict[TrumpSuit, SuitTable] = {trump: _table(trump) for trump in TRUMP_CHOICES}


MEMBERS: dict[TrumpSuit, tuple[tuple[Tile, ...], ...]] = {
    trump: tuple(members(suit, trump) for suit in range(TRUMP + 1)) for trump in TRUMP_CHOICES
}
"""MEMBERS[trump][suit]: `members(suit, trump)`, worked out once."""
