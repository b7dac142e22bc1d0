"""The easy Moon bot's rules of thumb, each on a stacked deck."""

from __future__ import annotations

import random

from core import get_game
from core.bots import get_bot
from core.bots.easy.moon import count_tricks
from core.games.moon_suits import MEMBERS, is_trump, led_suit
from core.moves import Bid, Discard, Trump, play
from tests.core.test_moon_rules import dealt, in_play, moves
from tests.helpers import tile, tiles

MN = get_game("moon")
EASY = get_bot("easy")


def decide(state):
    seat = state.to_move
    return EASY.choose(MN.view(state, seat), MN.legal_moves(state), random.Random(0))


def test_counts_sure_and_likely_tricks():
    hand = tiles("6-6 6-5 6-4 6-1 5-5 2-1 3-1")
    assert count_tricks(hand, 6) == (3, 2.0)  # 6-6 6-5 6-4 sure; 6-1 and the 5-5 likely
    assert count_tricks(tiles("0-0 1-1 2-2 3-3 4-4 5-5 6-6"), "doubles") == (7, 0.0)


def test_bids_on_a_strong_hand_and_passes_a_weak_one():
    strong = dealt(hands={0: "6-6 6-5 6-4 6-3 6-2 5-5 4-4"}, first=0)
    bid = decide(strong)
    assert type(bid) is Bid and bid.amount >= 6
    weak = dealt(hands={0: "1-2 1-3 2-3 1-4 2-4 3-4 2-5"}, first=0)
    assert decide(weak) == Bid(0)


def test_bids_21_holding_every_double():
    state = dealt(hands={1: "0-0 1-1 2-2 3-3 4-4 5-5 6-6"}, first=1)
    assert decide(state) == Bid(21)


def test_a_forced_bid_is_the_lowest():
    state = moves(
        dealt(hands={2: "1-2 1-3 2-3 1-4 2-4 3-4 2-5"}, first=0, options={"all_pass": "force"}), Bid(0), Bid(0)
    )
    assert decide(state) == Bid(4)


def test_discards_the_least_useful_tile_and_names_the_best_trump():
    state = moves(dealt(hands={0: "6-6 6-5 6-4 6-3 6-2 6-1 5-5"}, widow="1-2", first=0), Bid(7), Bid(0), Bid(0))
    assert decide(state) == Discard(tile("1-2"))
    state = MN.apply(state, Discard(tile("1-2")))
    assert decide(state) == Trump(6)


def test_leads_the_top_trump_while_trumps_are_out():
    state = in_play(hands={0: "6-6 6-5 1-2"}, trump=6)
    assert decide(state) == play(tile("6-6"))


def test_without_the_top_trump_leads_a_tile_that_tops_its_suit():
    state = in_play(hands={0: "6-5 4-4 1-2", 1: "6-6"}, trump=6)
    led = decide(state).tile
    assert not is_trump(led, 6) and MEMBERS[6][led_suit(led, 6)][0] is led


def test_follows_low_when_it_cannot_win():
    state = in_play(hands={0: "5-5", 1: "5-6 5-1"}, trump=3, avoid={1: {5}})
    state = MN.apply(state, play(tile("5-5")))
    assert decide(state) == play(tile("5-1"))


def test_wins_cheaply_as_the_last_to_play():
    state = in_play(hands={0: "5-1", 1: "5-2", 2: "5-3 5-4 5-6"}, trump="none", avoid={1: {5}, 2: {5}})
    state = moves(state, play(tile("5-1")), play(tile("5-2")))
    assert decide(state) == play(tile("5-3"))  # the cheapest tile that wins
