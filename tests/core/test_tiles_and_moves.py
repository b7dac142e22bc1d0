"""Tiles, moves and their plain-data forms."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import Tile
from core.moves import DRAW, PASS, Bid, Deal, Discard, Move, Play, Trump, play
from core.tiles import DOUBLE_NINE, DOUBLE_SIX, mask_of, tiles_in

numbers = st.integers(min_value=0, max_value=9)
tiles = st.builds(Tile, numbers, numbers)


@given(numbers, numbers)
def test_tiles_are_normalised_and_interned(a, b):
    tile = Tile(a, b)
    assert tile is Tile(b, a)
    assert (tile.low, tile.high) == (min(a, b), max(a, b))
    assert tile.pips == a + b
    assert tile.is_double == (a == b)
    assert str(tile) == f"{tile.low}-{tile.high}"
    assert copy.deepcopy(tile) is tile and copy.copy(tile) is tile


def test_str_of_a_tile():
    assert str(Tile(5, 2)) == "2-5"
    assert Tile(2, 5) == Tile(5, 2)


@pytest.mark.parametrize("bad", [(-1, 2), (10, 0), (1.0, 2), (True, 1), ("3", 4)])
def test_no_such_tile(bad):
    with pytest.raises(ValueError):
        Tile(*bad)


def test_the_sets():
    assert len(DOUBLE_SIX) == 28 and len(DOUBLE_NINE) == 55
    assert list(DOUBLE_NINE) == sorted(DOUBLE_NINE)


@given(st.sets(tiles))
def test_masks_round_trip_sorted(chosen):
    assert tiles_in(mask_of(chosen)) == tuple(sorted(chosen))


moves = st.one_of(
    st.builds(Play, tiles, st.one_of(st.none(), st.integers(0, 60))),
    st.just(DRAW),
    st.just(PASS),
    st.builds(Bid, st.sampled_from([0, 4, 5, 6, 7, 21])),
    st.builds(Discard, tiles),
    st.builds(Trump, st.one_of(st.integers(0, 6), st.sampled_from(["doubles", "none"]))),
    st.builds(
        Deal,
        st.lists(st.lists(tiles, max_size=21).map(tuple), min_size=2, max_size=8).map(tuple),
        st.lists(tiles, max_size=20).map(tuple),
        st.one_of(st.none(), st.integers(0, 7)),
        st.one_of(st.none(), st.integers(0, 7)),
    ),
)


@given(moves)
def test_moves_round_trip_through_plain_data(move):
    data = move.to_data()
    assert Move.from_data(data) == move
    assert _plain(data)


def _plain(value):
    if isinstance(value, list):
        return all(_plain(item) for item in value)
    return value is None or type(value) in (int, str)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        ["fly"],
        [3],
        ["play"],
        ["play", 35],
        ["play", 35, "x"],
        ["play", 100, 1],
        ["play", -1, 1],
        ["play", [3, 5], 1],
        ["draw", 1],
        ["bid", "4"],
        ["trump", 7],
        ["trump", "spades"],
        ["deal", [], [], None, None],
        ["deal", [[1, 2]], "x", None, None],
        ["deal", [[1, 2]], [], -1, None],
    ],
)
def test_bad_move_data_is_refused_with_value_error(data):
    with pytest.raises(ValueError):
        Move.from_data(data)


def test_plays_are_interned():
    assert play(Tile(3, 5), 2) is play(Tile(5, 3), 2)
    assert Move.from_data(["play", 35, 2]) is play(Tile(3, 5), 2)
    assert Play(Tile(3, 5), 2) == play(Tile(3, 5), 2)
