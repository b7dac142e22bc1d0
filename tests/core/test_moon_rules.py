"""Three-player Moon, rule by rule (MN-0..MN-20), on stacked decks.

Hands start from explicit `Deal`s. The scoring rules need the last trick of a hand, which takes
two dozen moves from a deal; those tests build the position directly with `last_trick()` (the
state's own constructor, its legal moves worked out by the engine).
"""

from __future__ import annotations

import random

import pytest

from core import IllegalMove, Match, Tile, get_game
from core.games.moon import (
    BIDDING,
    DEALING,
    DISCARDING,
    NAMING,
    OVER,
    PLAYING,
    MoonState,
    Trick,
    follow_moves,
)
from core.games.moon_suits import MOON_SET
from core.moves import Bid, Deal, Discard, Draw, Move, Play, Trump, play
from core.simulation import simulate_match
from core.tiles import DOUBLE_SIX, mask_of
from tests.core.harness import tiles_inside
from tests.helpers import stacked_hands, tile, tiles

MN = get_game("moon")


def dealt(hands=None, widow="", first=0, options=None, avoid=None, state=None):
    """A hand dealt as the test says; tiles nobody named fill the hands in ascending order."""
    state = state or MN.new_game(3, options or {}, seed=0)
    cards, stock = stacked_hands(MOON_SET, 3, 7, hands, widow, avoid=avoid)
    return MN.apply(state, Deal(cards, stock, first))


def moves(state, *sequence):
    for move in sequence:
        state = MN.apply(state, move)
    return state


def in_play(hands=None, widow="", trump=5, bids=(4, 0, 0), discard=None, first=0, options=None, avoid=None):
    """Dealt, bid (in speaking order from `first`), the discard laid (default: the widow) and trump named."""
    state = dealt(hands, widow, first, options, avoid)
    state = moves(state, *(Bid(amount) for amount in bids))
    state = MN.apply(state, Discard(tile(discard) if discard else state.widow))
    return MN.apply(state, Trump(trump))


def rejects(state, move, rule):
    """The move raises IllegalMove citing `rule`, and the state is unchanged."""
    before = state
    with pytest.raises(IllegalMove) as caught:
        MN.apply(state, move)
    assert caught.value.rule == rule, caught.value.message
    assert caught.value.message.startswith(f"{rule}: ")
    assert state == before
    return caught.value.message


def last_trick(hands, trick, leader, bidder, bid, taken, trump=5, scores=(0, 0, 0), options=None, discard="1-2"):
    """The seventh trick in progress: `hands` the one tile each seat still holds (or "" once
    played), `trick` the tiles already in it, `taken` the tricks won so far per seat."""
    base = MN.new_game(3, options or {}, seed=0)
    info = base.info._replace(round=1, chance=False, scores=tuple(scores), first_bidder=bidder)
    hand_tiles = {seat: tiles(text) for seat, text in enumerate(hands)}
    in_trick = tiles(trick)
    used = {*(t for group in hand_tiles.values() for t in group), *in_trick, tile(discard)}
    rest = [t for t in MOON_SET if t not in used]
    winners = [seat for seat in range(3) for _ in range(taken[seat])]
    done = tuple(Trick(winner, tuple(rest[3 * i : 3 * i + 3]), winner) for i, winner in enumerate(winners))
    masks = tuple(mask_of(hand_tiles[seat]) for seat in range(3))
    to_move = (leader + len(in_trick)) % 3
    legal = follow_moves(masks[to_move], trump, tuple(in_trick))
    bids = tuple((seat, bid if seat == bidder else 0) for seat in range(3))
    return MoonState(
        info, to_move, PLAYING, masks, (tile(discard),), tile(discard), bids, bidder, bid, trump, leader,
        tuple(in_trick), done, tuple(taken), legal,
    )  # fmt: skip


def play_tile(state, text):
    return MN.apply(state, play(tile(text)))


# -- MN-0: turn discipline --------------------------------------------------------------------------
def test_mn0_a_move_must_be_of_the_kind_the_moment_allows():
    state = dealt()
    assert state.phase == BIDDING
    rejects(state, play(state.hands[0][0]), "MN-0")
    rejects(state, Draw(), "MN-0")
    rejects(state, Deal(state.hands, state.stock, 1), "MN-0")
    state = in_play(hands={0: "6-6"})
    rejects(state, Bid(5), "MN-9")
    rejects(state, Play(tile("6-6"), 2), "MN-0")


def test_mn0_a_tile_must_be_in_the_movers_hand():
    state = in_play(hands={0: "6-6", 1: "5-5"})
    assert "not in your hand" in rejects(state, play(tile("5-5")), "MN-0")
    state = moves(dealt(hands={1: "4-4"}), Bid(5), Bid(0), Bid(0))
    assert state.phase == DISCARDING and state.to_move == 0
    assert "the 4-4 is not in your hand" in rejects(state, Discard(tile("4-4")), "MN-0")


# -- MN-1, MN-2: the 22 tiles, the deal and the widow -------------------------------------------------
def test_mn1_the_set_is_double_six_without_0_1_to_0_6():
    assert len(MOON_SET) == 22
    assert set(DOUBLE_SIX) - set(MOON_SET) == {Tile(0, n) for n in range(1, 7)}
    assert Tile(0, 0) in MOON_SET


def test_mn1_a_deal_with_a_wrong_or_repeated_tile_is_refused():
    state = MN.new_game(3, {}, seed=0)
    hands, stock = stacked_hands(MOON_SET, 3, 7)
    for bad_widow in (Tile(0, 3), hands[0][0]):
        with pytest.raises(IllegalMove) as caught:
            MN.apply(state, Deal(hands, (bad_widow,), 0))
        assert caught.value.rule == "MN-1"
    with pytest.raises(IllegalMove) as caught:
        MN.apply(state, Deal((hands[0], hands[1], (*hands[2][:-1], "2-2")), stock, 0))
    assert caught.value.rule == "MN-1"


def test_mn2_seven_tiles_each_and_one_face_down_widow():
    state = MN.new_game(3, {}, seed=0)
    deal = MN.deal(state, random.Random(4))
    assert [len(hand) for hand in deal.hands] == [7, 7, 7] and len(deal.stock) == 1
    after = MN.apply(state, deal)
    assert after.stock == deal.stock == (after.widow,)
    for seat in range(3):
        view = MN.view(after, seat)
        assert view.widow is None and view.stock_size == 1
        assert after.widow not in set(tiles_inside(view))  # MN-2: face down


@pytest.mark.parametrize(
    "change",
    [
        lambda h, s: Deal(h[:2], s, 0),
        lambda h, s: Deal((h[0][:6], h[1], h[2]), (*s, h[0][6]), 0),
        lambda h, s: Deal(h, (), 0),
        lambda h, s: Deal([list(hand) for hand in h], s, 0),  # type: ignore[arg-type]
    ],
)
def test_mn2_a_deal_of_the_wrong_shape_is_refused(change):
    state = MN.new_game(3, {}, seed=0)
    hands, stock = stacked_hands(MOON_SET, 3, 7)
    with pytest.raises(IllegalMove) as caught:
        MN.apply(state, change(hands, stock))
    assert caught.value.rule == "MN-2"
    assert MN.apply(state, Deal(hands, stock, 0)).phase == BIDDING


def test_moon_is_for_exactly_three_players():
    for players in (2, 4):
        with pytest.raises(ValueError, match="exactly 3 players"):
            MN.new_game(players, {}, seed=0)


# -- MN-3..MN-7 in play (the full table is in test_moon_suits.py) -----------------------------------------
def test_mn3_mn7_without_trump_a_tile_follows_either_of_its_numbers():
    state = in_play(hands={0: "3-2", 1: "5-3 6-6"}, trump="none", avoid={1: {3}})
    state = play_tile(state, "3-2")  # a 3 led (its higher number)
    assert MN.legal_moves(state) == (play(tile("5-3")),)


def test_mn5_a_tile_carrying_the_trump_is_only_a_trump():
    state = in_play(hands={0: "5-4", 1: "5-3 5-1"}, trump=3, avoid={1: {5, 3}})
    state = play_tile(state, "5-4")
    assert MN.legal_moves(state) == (play(tile("5-1")),)  # 5-3 is a trump, not a 5
    message = rejects(state, play(tile("5-3")), "MN-15")
    assert message == "MN-15: a 5 was led and you hold the 1-5; you must follow suit (the 3-5 is a trump, not a 5)"


def test_mn6_with_doubles_trump_5_5_cannot_follow_a_5_lead_but_can_trump_it():
    state = in_play(hands={0: "5-3", 1: "5-5 5-1", 2: "4-4"}, trump="doubles", avoid={1: {5}, 2: {5}})
    state = play_tile(state, "5-3")
    assert MN.legal_moves(state) == (play(tile("5-1")),)
    assert "(the 5-5 is a trump, not a 5)" in rejects(state, play(tile("5-5")), "MN-15")
    state = play_tile(state, "5-1")
    assert play(tile("4-4")) in MN.legal_moves(state)  # seat 2 is void in 5s: it may trump
    state = play_tile(state, "4-4")
    assert state.tricks[0].winner == 2 and state.to_move == 2


def test_mn6_a_player_void_in_the_suit_led_may_trump_with_a_double():
    state = in_play(hands={0: "5-3", 1: "5-5"}, trump="doubles", avoid={1: {5}})
    state = play_tile(state, "5-3")
    assert play(tile("5-5")) in MN.legal_moves(state) and len(MN.legal_moves(state)) == 7
    state = play_tile(state, "5-5")
    state = MN.apply(state, MN.legal_moves(state)[0])
    assert state.tricks[0].winner == 1


def test_mn6_doubles_trump_rank_by_pips():
    state = in_play(hands={0: "2-2", 1: "6-6", 2: "0-0"}, trump="doubles")
    state = moves(state, play(tile("2-2")), play(tile("6-6")), play(tile("0-0")))
    assert state.tricks[0].winner == 1


# -- MN-8: the first bidder ---------------------------------------------------------------------------
def test_mn8_chance_picks_the_first_bidder_of_the_first_hand():
    state = MN.new_game(3, {}, seed=0)
    firsts = {MN.deal(state, random.Random(seed)).first for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert dealt(first=2).to_move == 2


def test_mn8_the_first_bidder_moves_left_with_every_deal_a_redeal_included():
    state = dealt(first=1)
    state = moves(state, Bid(0), Bid(0), Bid(0))  # all pass: redeal
    assert state.chance and MN.deal(state, random.Random(1)).first == 2
    rejects_deal = Deal(*stacked_hands(MOON_SET, 3, 7), 1)
    with pytest.raises(IllegalMove) as caught:
        MN.apply(state, rejects_deal)
    assert caught.value.rule == "MN-8"
    state = dealt(first=2, state=state)
    assert state.to_move == 2 and state.info.first_bidder == 2 and state.round == 1
    assert MN.apply(state, Bid(0)).to_move == 0  # bidding goes left, round the table


def test_mn8_a_deal_must_name_a_first_bidder_and_no_search():
    state = MN.new_game(3, {}, seed=0)
    hands, stock = stacked_hands(MOON_SET, 3, 7)
    for deal in (Deal(hands, stock, None), Deal(hands, stock, 3), Deal(hands, stock, 0, 1)):
        with pytest.raises(IllegalMove) as caught:
            MN.apply(state, deal)
        assert caught.value.rule == "MN-8"


# -- MN-9: one round of bidding -----------------------------------------------------------------------
def test_mn9_each_player_passes_or_bids_higher_once():
    state = dealt(first=0)
    assert MN.legal_moves(state) == (Bid(0), Bid(4), Bid(5), Bid(6), Bid(7), Bid(21))
    state = MN.apply(state, Bid(5))
    assert MN.legal_moves(state) == (Bid(0), Bid(6), Bid(7), Bid(21))
    assert "highest so far, 5" in rejects(state, Bid(5), "MN-9")
    rejects(state, Bid(4), "MN-9")
    assert "bids are 4, 5, 6 or 7" in rejects(state, Bid(8), "MN-9")
    state = moves(state, Bid(0), Bid(6))
    assert state.phase == DISCARDING and state.bidder == 2 and state.bid == 6
    assert state.bids == ((0, 5), (1, 0), (2, 6))


def test_mn9_a_bid_of_21_ends_the_bidding_at_once():
    state = moves(dealt(first=1), Bid(4), Bid(21))
    assert state.phase == DISCARDING and state.bidder == 2 and state.bid == 21
    assert len(state.bids) == 2  # seat 0 never speaks


# -- MN-10: all pass ------------------------------------------------------------------------------------
def test_mn10_all_pass_redeals_and_the_redeal_is_not_a_new_hand():
    state = moves(dealt(first=0), Bid(0), Bid(0), Bid(0))
    assert state.chance and state.to_move is None and MN.legal_moves(state) == ()
    assert state.round == 1 and state.records == () and state.scores == (0, 0, 0)
    rejects(state, Bid(4), "MN-10")
    again = MN.apply(state, MN.deal(state, random.Random(3)))
    assert again.round == 1 and again.phase == BIDDING and again.to_move == 1
    assert MN.describe_move(state, MN.deal(state, random.Random(3))).startswith("Everyone passed")


def test_mn10_with_all_pass_force_the_last_to_speak_must_bid():
    state = moves(dealt(first=0, options={"all_pass": "force"}), Bid(0), Bid(0))
    assert MN.legal_moves(state) == (Bid(4), Bid(5), Bid(6), Bid(7), Bid(21))
    message = rejects(state, Bid(0), "MN-10")
    assert message == "MN-10: the other two passed, so you must bid at least 4"
    state = MN.apply(state, Bid(4))
    assert state.bidder == 2 and state.phase == DISCARDING
    # Force only applies when both others passed.
    state = moves(dealt(first=0, options={"all_pass": "force"}), Bid(4), Bid(0))
    assert Bid(0) in MN.legal_moves(state)


# -- MN-11: the widow and the discard ----------------------------------------------------------------------
def test_mn11_the_bidder_takes_the_widow_and_may_discard_it():
    state = moves(dealt(hands={1: "6-6"}, widow="4-4", first=0), Bid(0), Bid(5), Bid(0))
    assert state.to_move == 1 and len(state.hands[1]) == 8 and Tile(4, 4) in state.hands[1]
    assert state.stock == ()
    assert Discard(Tile(4, 4)) in MN.legal_moves(state) and len(MN.legal_moves(state)) == 8
    state = MN.apply(state, Discard(Tile(4, 4)))
    assert state.stock == (Tile(4, 4),) and state.discard == Tile(4, 4) and len(state.hands[1]) == 7
    assert state.phase == NAMING and state.to_move == 1


def test_mn11_the_discard_is_hidden_from_everyone_but_the_bidder():
    state = moves(dealt(hands={0: "6-6 5-5"}, widow="4-4", first=0), Bid(5), Bid(0), Bid(0))
    one = MN.apply(state, Discard(Tile(6, 6)))
    other = MN.apply(state, Discard(Tile(5, 5)))
    assert MN.view(one, 0).discard == Tile(6, 6) and MN.view(one, 0).widow == Tile(4, 4)
    for seat in (1, 2):
        view = MN.view(one, seat)
        assert view.discard is None and view.widow is None
        assert Tile(6, 6) not in set(tiles_inside(view))
        # The other players cannot tell which tile was laid aside (their views would be equal had the
        # bidder also held the other tile): the view carries no tile of the bidder's at all.
        assert MN.view(other, seat).hand_sizes == view.hand_sizes == (7, 7, 7)
    assert "6-6" not in MN.describe_move(state, Discard(Tile(6, 6)))


def test_mn11_the_discard_takes_no_part_in_the_hand():
    state = in_play(hands={0: "6-6"}, widow="4-4", discard="6-6")
    assert play(tile("6-6")) not in MN.legal_moves(state)
    rejects(state, play(tile("6-6")), "MN-0")
    rejects(state, Discard(tile("4-4")), "MN-11")


# -- MN-12: naming trump -----------------------------------------------------------------------------------
def test_mn12_trump_is_a_number_doubles_or_none():
    state = moves(dealt(), Bid(4), Bid(0), Bid(0))
    state = MN.apply(state, Discard(state.widow))
    expected = (*(Trump(n) for n in range(7)), Trump("doubles"), Trump("none"))
    assert MN.legal_moves(state) == expected
    rejects(state, Trump(7), "MN-12")
    rejects(state, play(state.hands[0][0]), "MN-12")
    assert MN.apply(state, Trump("none")).trump == "none"


def test_mn12_the_doubles_trump_option_can_forbid_doubles():
    state = moves(dealt(options={"doubles_trump": False}), Bid(4), Bid(0), Bid(0))
    state = MN.apply(state, Discard(state.widow))
    assert Trump("doubles") not in MN.legal_moves(state) and len(MN.legal_moves(state)) == 8
    assert "doubles_trump" in rejects(state, Trump("doubles"), "MN-12")


def test_mn11_the_discard_comes_before_naming_trump():
    state = moves(dealt(), Bid(4), Bid(0), Bid(0))
    rejects(state, Trump(5), "MN-11")


# -- MN-13: who leads, seven tricks ------------------------------------------------------------------------
def test_mn13_the_bidder_leads_play_goes_left_and_the_winner_leads_next():
    state = in_play(hands={1: "6-6 6-5", 2: "1-1"}, trump=6, bids=(0, 4, 0), first=0)
    assert state.phase == PLAYING and state.to_move == 1 and state.leader == 1
    state = play_tile(state, "6-5")
    assert state.to_move == 2
    state = MN.apply(state, MN.legal_moves(state)[0])
    assert state.to_move == 0
    state = MN.apply(state, MN.legal_moves(state)[0])
    assert state.tricks[0].winner == 1 and state.to_move == 1 and state.trick == ()


def test_mn13_seven_tricks_are_played():
    state = in_play()
    count = 0
    while not state.chance:
        state = MN.apply(state, MN.legal_moves(state)[0])
        count += 1
    assert count == 21 and len(state.tricks) == 7 and sum(state.taken) == 7
    assert state.hands == ((), (), ())


# -- MN-14, MN-15: the suit led and following it ---------------------------------------------------------
def test_mn14_the_lead_calls_for_its_higher_number():
    state = in_play(hands={0: "5-2", 1: "2-1 2-2 5-1"}, trump="none", avoid={1: {5}})
    state = play_tile(state, "5-2")
    assert MN.legal_moves(state) == (play(tile("5-1")),)


def test_mn14_a_trump_lead_calls_for_trumps():
    state = in_play(hands={0: "5-2", 1: "2-1 2-2 5-1"}, trump=2, avoid={1: {5, 2}})
    state = play_tile(state, "5-2")
    assert set(MN.legal_moves(state)) == {play(tile("2-1")), play(tile("2-2"))}
    message = rejects(state, play(tile("5-1")), "MN-15")
    assert message == "MN-15: a trump was led and you hold the 1-2 and the 2-2; you must follow with a trump"


def test_mn14_the_0_0_led_not_trump_wins_unless_trumped():
    state = in_play(hands={0: "0-0", 1: "6-6 5-1", 2: "4-4 5-6"}, trump=5)
    state = play_tile(state, "0-0")
    assert len(MN.legal_moves(state)) == 7  # nobody can follow the 0-0
    untrumped = moves(state, play(tile("6-6")), play(tile("4-4")))
    assert untrumped.tricks[0].winner == 0
    trumped = moves(state, play(tile("6-6")), play(tile("5-6")))
    assert trumped.tricks[0].winner == 2


def test_mn15_you_must_follow_suit_if_able():
    state = in_play(hands={0: "5-4", 1: "5-3 6-6"}, trump=2, avoid={1: {5, 2}})
    state = play_tile(state, "5-4")
    assert MN.legal_moves(state) == (play(tile("5-3")),)
    message = rejects(state, play(tile("6-6")), "MN-15")
    assert message == "MN-15: a 5 was led and you hold the 3-5; you must follow suit"


def test_mn15_a_player_who_cannot_follow_may_play_anything_a_trump_included():
    state = in_play(hands={0: "5-4", 1: "2-2 6-6"}, trump=2, avoid={1: {5}})
    state = play_tile(state, "5-4")
    assert len(MN.legal_moves(state)) == 7
    state = play_tile(state, "2-2")
    state = MN.apply(state, MN.legal_moves(state)[0])
    assert state.tricks[0].winner == 1


# -- MN-16: who wins a trick --------------------------------------------------------------------------------
def test_mn16_the_highest_of_the_suit_led_wins_without_trumps():
    state = in_play(hands={0: "6-2", 1: "6-5", 2: "6-6"}, trump="none")
    state = moves(state, play(tile("6-2")), play(tile("6-5")), play(tile("6-6")))
    assert state.tricks[0] == Trick(0, tuple(tiles("6-2 6-5 6-6")), 2) and state.taken == (0, 0, 1)


def test_mn16_the_highest_trump_wins():
    state = in_play(hands={0: "6-6", 1: "5-1", 2: "5-2"}, trump=5, avoid={1: {6}, 2: {6}})
    state = moves(state, play(tile("6-6")), play(tile("5-1")), play(tile("5-2")))
    assert state.tricks[0].winner == 2 and state.to_move == 2


# -- MN-17..MN-19: scoring ----------------------------------------------------------------------------
def test_mn17_mn18_a_made_bid_scores_the_bid_and_the_others_a_point_a_trick():
    # The bidder (seat 0, bid 5) has 5 tricks; seat 1 leads the last, which seat 0 wins with 5-5.
    state = last_trick(["5-5", "6-6", "4-4"], "", 1, 0, 5, (5, 1, 0), trump=5)
    state = moves(state, play(tile("6-6")), play(tile("4-4")), play(tile("5-5")))
    assert state.taken == (6, 1, 0)
    assert state.scores == (5, 1, 0)  # no bonus for the sixth trick
    record = state.records[-1]
    assert record.made and record.points == (5, 1, 0) and record.tricks == (6, 1, 0) and record.bid == 5
    assert state.chance and state.phase == DEALING and MN.legal_moves(state) == ()


def test_mn17_mn18_a_failed_bid_is_lost_the_others_still_score_and_scores_go_below_zero():
    state = last_trick(["", "", "5-1"], "3-3 6-6", 0, 0, 6, (5, 1, 0), trump=5, scores=(2, 0, 0))
    state = play_tile(state, "5-1")  # seat 2 trumps the last trick
    assert state.taken == (5, 1, 1)
    assert state.scores == (2 - 6, 1, 1)
    assert not state.records[-1].made


def test_mn19_a_made_21_wins_the_game_at_once_whatever_the_other_scores():
    state = last_trick(["6-6", "4-4", "3-3"], "", 0, 0, 21, (6, 0, 0), trump="doubles", scores=(0, 40, 0),
                       options={"target": 50})  # fmt: skip
    state = moves(state, play(tile("6-6")), play(tile("4-4")), play(tile("3-3")))
    assert state.over and state.winners == (0,) and state.scores == (21, 40, 0)
    assert state.phase == OVER and not state.chance


def test_mn19_a_failed_21_costs_21_and_all_seven_tricks_are_played():
    state = in_play(hands={0: "1-2", 1: "2-6"}, bids=(21,), trump="none", avoid={0: {2}, 2: {2}})
    state = moves(state, play(tile("1-2")), play(tile("2-6")))
    state = MN.apply(state, MN.legal_moves(state)[0])
    assert state.tricks[0].winner == 1  # the 21 has failed already ...
    assert state.phase == PLAYING and not state.chance  # ... but play goes on (MN-19)
    while not state.chance:
        state = MN.apply(state, MN.legal_moves(state)[0])
    assert len(state.tricks) == 7
    assert state.scores[0] == -21 and state.scores[1:] == state.taken[1:]


def test_mn19_a_made_21_by_play_from_the_deal():
    doubles = "0-0 1-1 2-2 3-3 4-4 5-5 6-6"
    state = in_play(hands={0: doubles}, widow="1-2", bids=(21,), trump="doubles")
    while not state.chance and not state.over:
        legal = MN.legal_moves(state)
        state = MN.apply(state, legal[-1] if state.to_move == 0 else legal[0])
    assert state.over and state.winners == (0,) and state.taken == (7, 0, 0) and state.scores == (21, 0, 0)


# -- MN-20: the end of the game -----------------------------------------------------------------------
def test_mn20_the_game_ends_when_one_player_alone_has_the_highest_score_at_the_target():
    state = last_trick(["5-5", "6-6", "4-4"], "", 1, 0, 4, (5, 1, 0), scores=(17, 10, 3))
    state = moves(state, play(tile("6-6")), play(tile("4-4")), play(tile("5-5")))
    assert state.scores == (21, 11, 3) and state.over and state.winners == (0,)
    assert MN.legal_moves(state) == ()
    assert rejects(state, Bid(4), "MN-20")


def test_mn20_ties_at_21_play_on():
    state = last_trick(["5-5", "6-6", "4-4"], "", 1, 0, 4, (5, 1, 0), scores=(17, 20, 3))
    state = moves(state, play(tile("6-6")), play(tile("4-4")), play(tile("5-5")))
    assert state.scores == (21, 21, 3)
    assert not state.over and state.chance and state.winners == ()
    following = MN.apply(state, MN.deal(state, random.Random(1)))
    assert following.round == 2 and following.phase == BIDDING


def test_mn20_after_a_tie_the_first_player_alone_on_top_wins():
    state = last_trick(["5-5", "6-6", "4-4"], "", 1, 0, 4, (5, 1, 0), scores=(21, 25, 3))
    state = moves(state, play(tile("6-6")), play(tile("4-4")), play(tile("5-5")))
    assert state.scores == (25, 26, 3) and state.over and state.winners == (1,)


def test_mn20_the_target_option():
    state = last_trick(["5-5", "6-6", "4-4"], "", 1, 0, 4, (5, 1, 0), scores=(17, 10, 3), options={"target": 30})
    state = moves(state, play(tile("6-6")), play(tile("4-4")), play(tile("5-5")))
    assert state.scores == (21, 11, 3) and not state.over
    with pytest.raises(ValueError, match="target"):
        MN.new_game(3, {"target": 0}, seed=0)


def test_mn20_a_redeal_is_not_a_hand():
    match = Match("moon", 3, {"target": 1}, seed=2)
    match.deal()
    for _ in range(3):
        match.apply(Bid(0))
    match.deal()
    assert match.state.round == 1 and match.state.records == ()


# -- words and views ------------------------------------------------------------------------------------
def test_moves_in_plain_words():
    names = ("Ana", "Bo", "Cy")
    state = dealt(first=1)
    deal = Deal(state.hands, state.stock, 1)
    assert MN.describe_move(MN.new_game(3, {}, 0), deal, names) == "Hand 1: Bo to bid first"
    assert MN.describe_move(state, Bid(0), names) == "Bo passed"
    assert MN.describe_move(state, Bid(5), names) == "Bo bid 5"
    assert MN.describe_move(state, Bid(21), names) == "Bo bid 21, for all seven tricks"
    state = moves(state, Bid(5), Bid(0), Bid(0))
    assert MN.describe_move(state, Discard(state.widow), names) == "Bo took the widow and laid a tile aside"
    state = MN.apply(state, Discard(state.widow))
    assert MN.describe_move(state, Trump(5), names) == "Bo named 5s trump"
    assert MN.describe_move(state, Trump("none"), names) == "Bo chose no trump"
    state = MN.apply(state, Trump(5))
    first = MN.legal_moves(state)[0]
    assert MN.describe_move(state, first, names) == f"Bo led {first.tile}"


def test_the_view_shows_the_bidding_the_trick_and_the_tricks_taken():
    state = in_play(hands={0: "6-6", 1: "6-5"}, trump=6)
    state = play_tile(state, "6-6")
    view = MN.view(state, 1)
    assert view.hand == state.hands[1] and view.trick == (Tile(6, 6),) and view.leader == 0
    assert view.bids == ((0, 4), (1, 0), (2, 0)) and view.bidder == 0 and view.trump == 6
    assert view.tricks == () and view.taken == (0, 0, 0) and not hasattr(view, "seed")
    world = MN.determinize(view, random.Random(0))
    assert MN.view(world, 1) == view and MN.legal_moves(world) == MN.legal_moves(state)


def test_determinize_respects_known_voids():
    # Seat 1 showed it has no 5s (MN-15): no world may give it one.
    state = in_play(hands={0: "5-4", 1: "6-6"}, trump="none", avoid={1: {5}})
    state = moves(state, play(tile("5-4")), play(tile("6-6")))
    view = MN.view(state, 2)
    fives = {t for t in MOON_SET if 5 in t}
    for seed in range(20):
        world = MN.determinize(view, random.Random(seed))
        assert not fives & set(world.hands[1])
        assert MN.view(world, 2) == view


def test_a_match_replays_from_its_events_in_plain_data():
    """Every event, deals and redeals included, survives to_data/from_data and replays exactly."""
    match, _ = simulate_match("moon", 3, {"target": 3, "all_pass": "redeal"}, ["random"], 11)
    events = [Move.from_data(event.to_data()) for event in match.events]
    again = Match("moon", 3, {"target": 3}, match.seats, match.seed, events)
    assert again.state == match.state and again.state.over


def test_plays_in_plain_words_name_the_trick_winner():
    names = ("Ana", "Bo", "Cy")
    state = in_play(hands={0: "6-2", 1: "6-5", 2: "6-6"}, trump="none")
    assert MN.describe_move(state, play(tile("6-2")), names) == "Ana led 2-6"
    state = play_tile(state, "6-2")
    assert MN.describe_move(state, play(tile("6-5")), names) == "Bo played 5-6 to the 6 lead"
    state = play_tile(state, "6-5")
    assert MN.describe_move(state, play(tile("6-6")), names) == "Cy played 6-6; Cy won the trick"
