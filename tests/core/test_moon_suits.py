"""Moon's suits and ranks (MN-3..MN-7, MN-14..MN-16): every tile under every trump choice.

The table below is the rules written out by hand: for each trump choice, each of the 22 tiles
with the (suit, rank) pairs it holds, the suit it leads first. "T" is the trump suit. A rank is
7 for a number suit's double, the far end's number for the other tiles; doubles trump rank by
their number (MN-6).
"""

from __future__ import annotations

import pytest

from core import Tile
from core.games.moon_suits import (
    MEMBERS,
    MOON_SET,
    TABLES,
    TRUMP,
    TRUMP_CHOICES,
    follows,
    is_trump,
    led_suit,
    members,
    power,
    rank_in,
    suits,
    trick_winner,
)
from core.tiles import TILE_BIT
from tests.helpers import tile, tiles

EXPECTED = {
    0: (
        "0-0: T/7 | 1-1: 1/7 | 1-2: 2/1 1/2 | 1-3: 3/1 1/3 | 1-4: 4/1 1/4 | 1-5: 5/1 1/5 | "
        "1-6: 6/1 1/6 | 2-2: 2/7 | 2-3: 3/2 2/3 | 2-4: 4/2 2/4 | 2-5: 5/2 2/5 | 2-6: 6/2 2/6 | "
        "3-3: 3/7 | 3-4: 4/3 3/4 | 3-5: 5/3 3/5 | 3-6: 6/3 3/6 | 4-4: 4/7 | 4-5: 5/4 4/5 | "
        "4-6: 6/4 4/6 | 5-5: 5/7 | 5-6: 6/5 5/6 | 6-6: 6/7"
    ),
    1: (
        "0-0: 0/7 | 1-1: T/7 | 1-2: T/2 | 1-3: T/3 | 1-4: T/4 | 1-5: T/5 | "
        "1-6: T/6 | 2-2: 2/7 | 2-3: 3/2 2/3 | 2-4: 4/2 2/4 | 2-5: 5/2 2/5 | 2-6: 6/2 2/6 | "
        "3-3: 3/7 | 3-4: 4/3 3/4 | 3-5: 5/3 3/5 | 3-6: 6/3 3/6 | 4-4: 4/7 | 4-5: 5/4 4/5 | "
        "4-6: 6/4 4/6 | 5-5: 5/7 | 5-6: 6/5 5/6 | 6-6: 6/7"
    ),
    2: (
        "0-0: 0/7 | 1-1: 1/7 | 1-2: T/1 | 1-3: 3/1 1/3 | 1-4: 4/1 1/4 | 1-5: 5/1 1/5 | "
        "1-6: 6/1 1/6 | 2-2: T/7 | 2-3: T/3 | 2-4: T/4 | 2-5: T/5 | 2-6: T/6 | "
        "3-3: 3/7 | 3-4: 4/3 3/4 | 3-5: 5/3 3/5 | 3-6: 6/3 3/6 | 4-4: 4/7 | 4-5: 5/4 4/5 | "
        "4-6: 6/4 4/6 | 5-5: 5/7 | 5-6: 6/5 5/6 | 6-6: 6/7"
    ),
    3: (
        "0-0: 0/7 | 1-1: 1/7 | 1-2: 2/1 1/2 | 1-3: T/1 | 1-4: 4/1 1/4 | 1-5: 5/1 1/5 | "
        "1-6: 6/1 1/6 | 2-2: 2/7 | 2-3: T/2 | 2-4: 4/2 2/4 | 2-5: 5/2 2/5 | 2-6: 6/2 2/6 | "
        "3-3: T/7 | 3-4: T/4 | 3-5: T/5 | 3-6: T/6 | 4-4: 4/7 | 4-5: 5/4 4/5 | "
        "4-6: 6/4 4/6 | 5-5: 5/7 | 5-6: 6/5 5/6 | 6-6: 6/7"
    ),
    4: (
        "0-0: 0/7 | 1-1: 1/7 | 1-2: 2/1 1/2 | 1-3: 3/1 1/3 | 1-4: T/1 | 1-5: 5/1 1/5 | "
        "1-6: 6/1 1/6 | 2-2: 2/7 | 2-3: 3/2 2/3 | 2-4: T/2 | 2-5: 5/2 2/5 | 2-6: 6/2 2/6 | "
        "3-3: 3/7 | 3-4: T/3 | 3-5: 5/3 3/5 | 3-6: 6/3 3/6 | 4-4: T/7 | 4-5: T/5 | "
        "4-6: T/6 | 5-5: 5/7 | 5-6: 6/5 5/6 | 6-6: 6/7"
    ),
    5: (
        "0-0: 0/7 | 1-1: 1/7 | 1-2: 2/1 1/2 | 1-3: 3/1 1/3 | 1-4: 4/1 1/4 | 1-5: T/1 | "
        "1-6: 6/1 1/6 | 2-2: 2/7 | 2-3: 3/2 2/3 | 2-4: 4/2 2/4 | 2-5: T/2 | 2-6: 6/2 2/6 | "
        "3-3: 3/7 | 3-4: 4/3 3/4 | 3-5: T/3 | 3-6: 6/3 3/6 | 4-4: 4/7 | 4-5: T/4 | "
        "4-6: 6/4 4/6 | 5-5: T/7 | 5-6: T/6 | 6-6: 6/7"
    ),
    6: (
        "0-0: 0/7 | 1-1: 1/7 | 1-2: 2/1 1/2 | 1-3: 3/1 1/3 | 1-4: 4/1 1/4 | 1-5: 5/1 1/5 | "
        "1-6: T/1 | 2-2: 2/7 | 2-3: 3/2 2/3 | 2-4: 4/2 2/4 | 2-5: 5/2 2/5 | 2-6: T/2 | "
        "3-3: 3/7 | 3-4: 4/3 3/4 | 3-5: 5/3 3/5 | 3-6: T/3 | 4-4: 4/7 | 4-5: 5/4 4/5 | "
        "4-6: T/4 | 5-5: 5/7 | 5-6: T/5 | 6-6: T/7"
    ),
    "doubles": (
        "0-0: T/0 | 1-1: T/1 | 1-2: 2/1 1/2 | 1-3: 3/1 1/3 | 1-4: 4/1 1/4 | 1-5: 5/1 1/5 | "
        "1-6: 6/1 1/6 | 2-2: T/2 | 2-3: 3/2 2/3 | 2-4: 4/2 2/4 | 2-5: 5/2 2/5 | 2-6: 6/2 2/6 | "
        "3-3: T/3 | 3-4: 4/3 3/4 | 3-5: 5/3 3/5 | 3-6: 6/3 3/6 | 4-4: T/4 | 4-5: 5/4 4/5 | "
        "4-6: 6/4 4/6 | 5-5: T/5 | 5-6: 6/5 5/6 | 6-6: T/6"
    ),
    "none": (
        "0-0: 0/7 | 1-1: 1/7 | 1-2: 2/1 1/2 | 1-3: 3/1 1/3 | 1-4: 4/1 1/4 | 1-5: 5/1 1/5 | "
        "1-6: 6/1 1/6 | 2-2: 2/7 | 2-3: 3/2 2/3 | 2-4: 4/2 2/4 | 2-5: 5/2 2/5 | 2-6: 6/2 2/6 | "
        "3-3: 3/7 | 3-4: 4/3 3/4 | 3-5: 5/3 3/5 | 3-6: 6/3 3/6 | 4-4: 4/7 | 4-5: 5/4 4/5 | "
        "4-6: 6/4 4/6 | 5-5: 5/7 | 5-6: 6/5 5/6 | 6-6: 6/7"
    ),
}


def parse(row: str) -> dict[Tile, tuple[tuple[int, int], ...]]:
    table = {}
    for entry in row.split(" | "):
        name, pairs = entry.split(": ")
        table[tile(name)] = tuple(
            (TRUMP if suit == "T" else int(suit), int(rank))
            for suit, rank in (pair.split("/") for pair in pairs.split())
        )
    return table


def test_mn1_the_table_covers_the_22_tiles_and_every_trump_choice():
    assert len(MOON_SET) == 22 and set(EXPECTED) == set(TRUMP_CHOICES)
    for row in EXPECTED.values():
        assert set(parse(row)) == set(MOON_SET)


@pytest.mark.parametrize("trump", TRUMP_CHOICES)
def test_mn3_to_mn7_every_tile_under_every_trump(trump):
    expected = parse(EXPECTED[trump])
    for t in MOON_SET:
        assert suits(t, trump) == expected[t], f"{t} under trump {trump!r}"


@pytest.mark.parametrize("trump", TRUMP_CHOICES)
def test_everything_else_is_derived_from_the_one_function(trump):
    """led_suit, follows, rank_in, power, members and the engine's bitmask tables agree with suits()."""
    expected = parse(EXPECTED[trump])
    table = TABLES[trump]
    for t in MOON_SET:
        pairs = dict(expected[t])
        assert led_suit(t, trump) == expected[t][0][0] == table.led[TILE_BIT[t]]  # MN-14
        assert is_trump(t, trump) == (TRUMP in pairs)
        for suit in range(TRUMP + 1):
            assert follows(t, suit, trump) == (suit in pairs) == bool(table.follow[suit] & TILE_BIT[t])  # MN-15
            assert rank_in(t, suit, trump) == pairs.get(suit)
            strength = 100 + pairs[TRUMP] if TRUMP in pairs else pairs.get(suit, -1)
            assert power(t, suit, trump) == strength == table.power[suit][TILE_BIT[t]]  # MN-16
    for suit in range(TRUMP + 1):
        ranked = sorted((dict(expected[t])[suit], t) for t in MOON_SET if suit in dict(expected[t]))
        assert members(suit, trump) == MEMBERS[trump][suit] == tuple(t for _, t in reversed(ranked))


def test_mn3_a_non_double_belongs_to_both_suits_a_double_to_one_the_blank_suit_is_the_0_0():
    assert [s for s, _ in suits(tile("5-3"), "none")] == [5, 3]
    assert [s for s, _ in suits(tile("5-5"), "none")] == [5]
    assert members(0, "none") == (Tile(0, 0),)


def test_mn4_the_double_is_highest_then_by_the_other_end():
    assert members(6, "none") == tuple(tiles("6-6 6-5 6-4 6-3 6-2 6-1"))
    assert members(3, 5) == tuple(tiles("3-3 3-6 3-4 3-2 3-1"))  # 3-5 is a trump under 5s


def test_mn5_a_trump_is_only_a_trump():
    assert suits(tile("5-3"), 3) == ((TRUMP, 5),)
    assert not follows(tile("5-3"), 5, 3)
    assert members(TRUMP, 3) == tuple(tiles("3-3 3-6 3-5 3-4 3-2 3-1"))


def test_mn6_doubles_trump_rank_by_pips_and_join_no_number_suit():
    assert members(TRUMP, "doubles") == tuple(Tile(n, n) for n in range(6, -1, -1))
    assert not follows(tile("5-5"), 5, "doubles")
    assert members(5, "doubles") == tuple(tiles("5-6 5-4 5-3 5-2 5-1"))


def test_mn7_no_trump_keeps_every_suit():
    assert members(TRUMP, "none") == ()
    assert all(not is_trump(t, "none") for t in MOON_SET)


def test_mn14_mn16_trick_winners():
    assert trick_winner(tuple(tiles("5-3 5-6 6-6")), "none") == 1  # 5 led: 5-6 is the best 5; 6-6 not a 5
    assert trick_winner(tuple(tiles("5-3 5-6 2-1")), 2) == 2  # a trump beats the suit led
    assert trick_winner(tuple(tiles("5-3 5-5 4-4")), "doubles") == 1  # the highest trump wins
    assert trick_winner(tuple(tiles("0-0 6-6 6-5")), "none") == 0  # the 0-0 can never be followed
    assert trick_winner(tuple(tiles("0-0 6-6 6-5")), "doubles") == 1  # ...unless trumped
