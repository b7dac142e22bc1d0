"""Chicken Foot, rule by rule (CF-0..CF-18), on stacked decks.

Positions start from explicit `Deal`s. The end-of-round rules need a player down to their last
tiles, which takes dozens of moves from a deal; those tests build the position directly with
`position()` (the state's own constructor, its legal moves worked out by the engine).
"""

from __future__ import annotations

import random

import pytest

from core import IllegalMove, Tile, get_game
from core.games.chicken_foot import HAND_SIZES, ChickenFootState, legal_for, round_winners
from core.layout import Layout
from core.moves import DRAW, PASS, Bid, Deal, Draw, Pass, Play
from core.public_log import EMPTY_LOG
from core.tiles import DOUBLE_NINE, mask_of
from tests.core.harness import tiles_inside
from tests.helpers import stacked_hands, tile, tiles

CF = get_game("chicken-foot")
NINES = [t for t in DOUBLE_NINE if 9 in t and not t.is_double]
CENTRE_9 = Tile(9, 9)


def start(players=2, hands=None, stock_top="", first=0, search_start=0, options=None, avoid=None):
    """Round 1 (centre 9-9) dealt as the test says; unnamed nines go to the bottom of the yard, so
    nobody holds a nine the test did not give them. `avoid`: numbers a seat's filler tiles lack."""
    state = CF.new_game(players, options or {}, seed=0)
    named = set(tiles(" ".join([*(hands or {}).values(), stock_top])))
    keep_back = [t for t in NINES if t not in named]
    dealt, stock = stacked_hands(
        DOUBLE_NINE, players, HAND_SIZES[players], hands, stock_top, [Tile(9, 9), *keep_back], avoid
    )
    return CF.apply(state, Deal(dealt, stock + tuple(keep_back), first, search_start))


def position(players, hands, plays, to_move, stock="", options=None, centre=CENTRE_9, round_number=1, idle=0):
    """A mid-round position: `plays` are (line, tile) placed on the layout in order."""
    info = CF.new_game(players, options or {}, seed=0).info._replace(round=round_number, chance=False, search_start=0)
    board = Layout.start(centre, info.options["centre_trains"])
    for line_id, placed in plays:
        board = board.play(line_id, tile(placed), 3)
    masks = tuple(mask_of(tiles(hands.get(seat, ""))) for seat in range(players))
    stock_tiles = tuple(tiles(stock))
    legal = legal_for(board, masks[to_move], len(stock_tiles), info.reserve)
    return ChickenFootState(info, to_move, masks, stock_tiles, board, None, idle, EMPTY_LOG, legal)


def opened(**kwargs):
    """Two players, both trains started: train 1 shows 5 (9-5), train 2 shows 3 (9-3)."""
    hands = kwargs.pop("hands", {})
    hands = {0: "9-5 " + hands.get(0, ""), 1: "9-3 " + hands.get(1, "")}
    state = start(hands=hands, **kwargs)
    state = CF.apply(state, Play(tile("9-5"), 0))
    return CF.apply(state, Play(tile("9-3"), 1))


def rejects(state, move, rule):
    """The move raises IllegalMove citing `rule`, and the state is unchanged."""
    before = state
    with pytest.raises(IllegalMove) as caught:
        CF.apply(state, move)
    assert caught.value.rule == rule, caught.value.message
    assert caught.value.message.startswith(f"{rule}: ")
    assert state == before
    return caught.value.message


# -- CF-0: turn discipline ------------------------------------------------------------------------
def test_cf0_a_tile_must_be_in_the_movers_hand():
    state = start(hands={0: "9-5", 1: "9-3"})
    message = rejects(state, Play(tile("9-3"), 0), "CF-0")
    assert "not in your hand" in message


def test_cf0_moves_of_another_kind_are_refused():
    state = start(hands={0: "9-5", 1: "9-3"})
    rejects(state, Bid(5), "CF-0")
    rejects(state, Deal(state.hands, state.stock, 0, 0), "CF-0")


# -- CF-1: the double-nine set ------------------------------------------------------------------------
def test_cf1_the_set_has_55_tiles_each_pair_once_valued_by_pips():
    assert len(DOUBLE_NINE) == 55
    assert len(set(DOUBLE_NINE)) == 55
    assert {(t.low, t.high) for t in DOUBLE_NINE} == {(a, b) for a in range(10) for b in range(a, 10)}
    assert Tile(6, 4).pips == 10 and Tile(0, 0).pips == 0


def test_cf1_a_deal_missing_or_repeating_a_tile_is_refused():
    state = CF.new_game(2, {}, seed=0)
    hands, stock = stacked_hands(DOUBLE_NINE, 2, 21, exclude=[Tile(9, 9)])
    with pytest.raises(IllegalMove) as caught:
        CF.apply(state, Deal(hands, stock[:-1] + (stock[0],), 0, 0))
    assert caught.value.rule == "CF-1"
    with pytest.raises(IllegalMove) as caught:  # the centre double may not be dealt
        CF.apply(state, Deal(hands, stock[:-1] + (Tile(9, 9),), 0, 0))
    assert caught.value.rule == "CF-1"


# -- CF-2: players and hand sizes ---------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size"), [(2, 21), (3, 14), (4, 11), (5, 8), (6, 7), (7, 6), (8, 5)])
def test_cf2_starting_hand_sizes(players, size):
    state = CF.new_game(players, {}, seed=3)
    deal = CF.deal(state, random.Random(players))
    assert [len(hand) for hand in deal.hands] == [size] * players
    dealt = CF.apply(state, deal)
    assert [len(hand) for hand in dealt.hands] == [size] * players
    assert len(dealt.stock) == 54 - players * size


@pytest.mark.parametrize("players", [0, 1, 9, "4"])
def test_cf2_two_to_eight_players(players):
    with pytest.raises(ValueError, match="2 to 8 players"):
        CF.new_game(players, {}, seed=0)


def test_cf2_a_deal_with_wrong_hand_sizes_is_refused():
    state = CF.new_game(2, {}, seed=0)
    hands, stock = stacked_hands(DOUBLE_NINE, 2, 21, exclude=[Tile(9, 9)])
    short = (hands[0][:-1], hands[1])
    with pytest.raises(IllegalMove) as caught:
        CF.apply(state, Deal(short, (hands[0][-1], *stock), 0, 0))
    assert caught.value.rule == "CF-2"


# -- CF-3: the chicken yard is face down ----------------------------------------------------------------
def test_cf3_views_show_the_yards_size_not_its_tiles_or_order():
    state = start(hands={0: "9-5", 1: "9-3"})
    reordered = state._replace(stock=tuple(reversed(state.stock)))
    for seat in (0, 1):
        view = CF.view(state, seat)
        assert view.stock_size == len(state.stock)
        assert view == CF.view(reordered, seat)
        assert not set(state.stock) & set(tiles_inside(view))


# -- CF-4: ten rounds, from the 9-9 down to the 0-0 ----------------------------------------------------------
def _play_out(state, rng):
    centres = []
    while not state.over:
        if state.chance:
            state = CF.apply(state, CF.deal(state, rng))
            centres.append(state.board.centre)
        else:
            legal = CF.legal_moves(state)
            state = CF.apply(state, legal[rng.randrange(len(legal))])
    return state, centres


def test_cf4_rounds_start_on_each_double_from_nine_down_to_blank():
    state, centres = _play_out(CF.new_game(3, {}, seed=1), random.Random(1))
    assert centres == [Tile(n, n) for n in range(9, -1, -1)]
    assert state.round == 10 and len(state.round_scores) == 10


def test_cf4_the_rounds_option_plays_the_first_n_rounds():
    state, centres = _play_out(CF.new_game(3, {"rounds": 3}, seed=1), random.Random(2))
    assert centres == [Tile(9, 9), Tile(8, 8), Tile(7, 7)]
    assert state.over and len(state.round_scores) == 3


@pytest.mark.parametrize("rounds", [0, 11, "3", True])
def test_cf4_rounds_option_range(rounds):
    with pytest.raises(ValueError, match="rounds"):
        CF.new_game(3, {"rounds": rounds}, seed=0)


# -- CF-5: who starts ------------------------------------------------------------------------------------
def test_cf5_the_finder_of_the_double_plays_first():
    state = start(players=4, hands={2: "9-1"}, first=2, search_start=1)
    assert state.to_move == 2
    assert state.board.centre == Tile(9, 9)
    assert not any(Tile(9, 9) in hand for hand in state.hands)  # setting the double is not a turn


def test_cf5_the_search_finds_the_double_by_dealing_in_turn():
    # The finder is the seat that receives the double when tiles go round from search_start.
    state = CF.new_game(4, {}, seed=0)
    for seed in range(20):
        deal = CF.deal(state, random.Random(seed))
        shuffled = list(DOUBLE_NINE)
        rng = random.Random(seed)
        start_seat = rng.randrange(4)
        rng.shuffle(shuffled)
        assert deal.search_start == start_seat
        assert deal.first == (start_seat + shuffled.index(Tile(9, 9))) % 4


def test_cf5_each_rounds_search_begins_one_seat_further_left():
    state = CF.new_game(3, {}, seed=0)
    rng = random.Random(5)
    starts = []
    while state.round < 4:
        if state.chance:
            deal = CF.deal(state, rng)
            starts.append(deal.search_start)
            state = CF.apply(state, deal)
        else:
            state = CF.apply(state, CF.legal_moves(state)[0])
    assert starts == [(starts[0] + k) % 3 for k in range(4)]
    # A deal that breaks the rotation is refused.
    while not state.chance:
        state = CF.apply(state, CF.legal_moves(state)[0])
    wrong = CF.deal(state, rng)
    wrong = Deal(wrong.hands, wrong.stock, wrong.first, (wrong.search_start + 1) % 3)
    with pytest.raises(IllegalMove) as caught:
        CF.apply(state, wrong)
    assert caught.value.rule == "CF-5"


# -- CF-6: the opening: trains on the centre double ---------------------------------------------------------
def test_cf6_until_every_train_is_started_plays_start_new_trains():
    state = start(hands={0: "9-5 5-3", 1: "9-3 3-2"})
    assert CF.legal_moves(state) == (Play(tile("9-5"), 0),)
    state = CF.apply(state, Play(tile("9-5"), 0))
    # Seat 1 could match the 5 on train 1 with nothing; it must start train 2.
    assert CF.legal_moves(state) == (Play(tile("9-3"), 1),)
    message = rejects(state, Play(tile("9-3"), 0), "CF-6")
    assert "every play must start a new train" in message


def test_cf6_the_centre_trains_option_requires_more_trains():
    state = start(players=2, hands={0: "9-5 9-4 5-1", 1: "9-3"}, options={"centre_trains": 3})
    state = CF.apply(state, Play(tile("9-5"), 0))
    state = CF.apply(state, Play(tile("9-3"), 1))
    # The 5 on train 1 is open, but a third train is still owed: the 5-1 may not be played.
    assert CF.legal_moves(state) == (Play(tile("9-4"), 2),)
    rejects(state, Play(tile("5-1"), 0), "CF-6")


def test_cf6_centre_trains_option_runs_from_the_player_count_to_eight():
    assert CF.new_game(4, {}, seed=0).options["centre_trains"] == 4
    with pytest.raises(ValueError, match="centre_trains"):
        CF.new_game(4, {"centre_trains": 3}, seed=0)
    with pytest.raises(ValueError, match="centre_trains"):
        CF.new_game(4, {"centre_trains": 9}, seed=0)


# -- CF-7: in the opening, a player without a centre-number tile draws ----------------------------------------
def test_cf7_a_player_with_a_train_tile_must_play_it():
    state = start(hands={0: "9-5", 1: "9-3"})
    assert CF.legal_moves(state) == (Play(tile("9-5"), 0),)
    rejects(state, DRAW, "CF-7")


def test_cf7_a_drawn_train_tile_is_played_at_once():
    state = start(hands={0: "9-5", 1: "1-2"}, stock_top="9-6")
    state = CF.apply(state, Play(tile("9-5"), 0))
    assert CF.legal_moves(state) == (DRAW,)
    state = CF.apply(state, DRAW)
    assert state.to_move == 1 and state.drawn == tile("9-6")
    assert CF.legal_moves(state) == (Play(tile("9-6"), 1),)
    state = CF.apply(state, Play(tile("9-6"), 1))
    assert state.to_move == 0


def test_cf7_a_drawn_tile_that_cannot_start_a_train_ends_the_turn():
    state = start(hands={0: "9-5", 1: "1-2"}, stock_top="4-4 9-6")
    state = CF.apply(state, Play(tile("9-5"), 0))
    state = CF.apply(state, DRAW)
    assert state.to_move == 0 and state.drawn is None
    assert tile("4-4") in state.hands[1]


# -- CF-8: main play on any open end ------------------------------------------------------------------------
def test_cf8_any_open_end_with_matching_numbers():
    state = opened(hands={0: "5-4 3-1"})
    legal = CF.legal_moves(state)
    assert Play(tile("5-4"), 0) in legal and Play(tile("3-1"), 1) in legal
    state = CF.apply(state, Play(tile("3-1"), 1))
    assert state.board.lines[1].open == 1


def test_cf8_a_tile_must_match_the_end_it_goes_on():
    state = opened(hands={0: "5-4 3-1"})
    message = rejects(state, Play(tile("5-4"), 1), "CF-8")
    assert message == "CF-8: the 4-5 does not match the 3 at the end of train 2"


# -- CF-9: draw when you cannot play ---------------------------------------------------------------------------
def test_cf9_a_player_who_can_play_may_not_draw_or_pass():
    state = opened(hands={0: "5-4"}, avoid={0: {3, 5}})
    assert rejects(state, DRAW, "CF-9") == "CF-9: you can play the 4-5 on train 1, so you may not draw"
    assert rejects(state, PASS, "CF-9") == "CF-9: you can play the 4-5 on train 1, so you may not pass"
    state = opened(hands={0: "5-4 3-1"}, avoid={0: {3, 5}})
    example = "you can play a tile (the 4-5 on train 1, for one)"
    assert rejects(state, PASS, "CF-9") == f"CF-9: {example}, so you may not pass"


def test_cf9_a_player_who_cannot_play_draws_and_plays_a_playable_draw():
    state = opened(hands={0: "0-0"}, stock_top="3-8", avoid={0: {3, 5}})
    hand = state.hands[0]
    assert not any(5 in t or 3 in t for t in hand)
    assert CF.legal_moves(state) == (DRAW,)
    rejects(state, PASS, "CF-9")
    state = CF.apply(state, DRAW)
    assert state.to_move == 0 and state.drawn == tile("3-8")
    assert CF.legal_moves(state) == (Play(tile("3-8"), 1),)
    rejects(state, Play(hand[0], 1), "CF-9")  # another tile, even a playable one, is not allowed


def test_cf9_an_unplayable_draw_ends_the_turn():
    state = opened(hands={0: "0-0"}, stock_top="0-1", avoid={0: {3, 5}})
    state = CF.apply(state, DRAW)
    assert state.to_move == 1 and state.drawn is None
    assert tile("0-1") in state.hands[0]


# -- CF-10: the chicken foot ---------------------------------------------------------------------------------
def test_cf10_a_double_on_a_train_needs_three_toes_before_anything_else():
    state = opened(hands={0: "5-5 3-0", 1: "5-1 5-2 5-4 3-7"}, avoid={0: {5}, 1: {5}})
    state = CF.apply(state, Play(tile("5-5"), 0))
    assert state.to_move == 1  # playing the double ends the turn
    message = rejects(state, Play(tile("3-7"), 1), "CF-10")
    assert message == "CF-10: the chicken foot on the 5-5 needs three more toes before any other play"
    toe = state.board.empty_ends[0]
    assert set(CF.legal_moves(state)) == {Play(tile(t), toe) for t in ("5-1", "5-2", "5-4")}
    state = CF.apply(state, Play(tile("5-1"), toe))
    # Seat 0, who played the double, is held to the foot too: it holds no 5 and must draw.
    assert CF.legal_moves(state) == (DRAW,)
    message = rejects(state, Play(tile("3-0"), 1), "CF-10")
    assert "two more toes" in message


def test_cf10_toes_carry_the_doubles_number_and_open_when_the_foot_is_done():
    state = opened(hands={0: "5-5 5-6 5-7", 1: "5-1 5-2 4-0"}, avoid={0: {5}, 1: {5}})
    state = CF.apply(state, Play(tile("5-5"), 0))
    toe = state.board.empty_ends[0]
    rejects(state, Play(tile("4-0"), toe), "CF-10")
    for placed in ("5-1", "5-6", "5-2"):
        state = CF.apply(state, Play(tile(placed), state.board.empty_ends[0]))
    assert state.board.empty_ends == ()
    shown = sorted(state.board.lines[line].open for line in state.board.ends)
    assert shown == [1, 2, 3, 6]  # the three toes and train 2; train 1 is closed by the double


def test_cf10_a_toe_must_carry_the_doubles_number_with_the_right_article():
    state = position(2, {0: "8-8 1-2", 1: "1-3 0-0"}, [(0, "9-8"), (1, "9-3")], to_move=0)
    state = CF.apply(state, Play(tile("8-8"), 0))
    toe = state.board.empty_ends[0]
    assert rejects(state, Play(tile("1-3"), toe), "CF-10") == "CF-10: a toe on the 8-8 must carry an 8"
    # Offered from the hand, with no end named: the reason is the foot.
    message = rejects(state, Play(tile("1-3"), None), "CF-10")
    assert message == "CF-10: the chicken foot on the 8-8 needs three more toes before any other play"


def test_cf8_a_tile_offered_without_an_end_is_told_why_it_fits_none():
    state = opened(hands={0: "0-1 5-4"}, avoid={0: {3, 5}})
    message = rejects(state, Play(tile("0-1"), None), "CF-8")
    assert message == "CF-8: the 0-1 matches no open end: the ends show 3 and 5"
    state = opened(hands={0: "5-3"})
    message = rejects(state, Play(tile("5-3"), None), "CF-8")
    assert message == "CF-8: the 3-5 fits more than one end: say which one it goes on"


def test_places_have_one_name_each_and_the_log_tells_the_drawer_the_tile():
    plays = [(0, "9-5"), (1, "9-3"), (0, "5-5"), (2, "5-1"), (3, "5-6"), (4, "5-7"), (2, "1-1")]
    state = position(2, {0: "1-2", 1: "0-0 0-2"}, plays, to_move=1, stock="0-4 0-5 0-6")
    board = state.board
    assert [CF.line_name(board, line) for line in range(len(board.lines))] == [
        "train 1", "train 2", "toe 1 of the 5-5", "toe 2 of the 5-5", "toe 3 of the 5-5",
        "toe 1 of the 1-1", "toe 2 of the 1-1", "toe 3 of the 1-1",
    ]  # fmt: skip
    assert CF.place(board, 6).short == "toe 2"
    assert CF.describe_move(state, DRAW, ("Ana", "Bo")) == "Bo drew a tile and passed"
    assert CF.describe_move(state, DRAW, ("Ana", "Bo"), viewer=1) == "Bo drew the 0-4 and passed"
    assert CF.describe_move(state, DRAW, ("Ana", "Bo"), viewer=0) == "Bo drew a tile and passed"
    assert CF.describe_move(state, PASS, ("Ana", "Bo")) == "Bo passed"
    fits = position(2, {0: "1-2", 1: "0-0"}, plays, to_move=1, stock="1-4 0-5 0-6")
    assert CF.describe_move(fits, DRAW, ("Ana", "Bo"), viewer=1) == "Bo drew the 1-4"


def test_cf10_a_double_on_a_toe_starts_a_new_foot():
    state = position(
        2,
        {0: "1-1 8-8", 1: "1-2 1-3 1-4 8-0"},
        [(0, "9-5"), (1, "9-3"), (0, "5-5"), (2, "5-1"), (3, "5-6"), (4, "5-7")],
        to_move=0,
    )
    state = CF.apply(state, Play(tile("1-1"), 2))
    assert len(state.board.children(2)) == 3
    rejects(state, Play(tile("8-0"), 1), "CF-10")


# -- CF-11: the centre double is not a chicken foot ---------------------------------------------------------------
def test_cf11_no_new_train_once_the_opening_is_over():
    state = opened(hands={0: "9-4 4-2"})
    # The 9-4 could start a train, but the centre is full: it has no legal play anywhere.
    assert all(move.tile != tile("9-4") for move in CF.legal_moves(state) if type(move) is Play)
    assert sum(1 for line in state.board.lines if line.parent == -1) == 2
    rejects(state, Play(tile("9-4"), 0), "CF-8")


# -- CF-12, CF-14, CF-15: going out ------------------------------------------------------------------------
def test_cf12_cf15_going_out_ends_the_round_and_scores_the_others_pips():
    state = position(3, {0: "5-2", 1: "6-6 1-0", 2: "4-3"}, [(0, "9-5"), (1, "9-3"), (2, "9-7")], to_move=0)
    state = CF.apply(state, Play(tile("5-2"), 0))
    assert state.chance and state.to_move is None and not state.over
    assert state.round_scores == ((0, 13, 7),)
    assert state.scores == (0, 13, 7)
    assert CF.legal_moves(state) == ()


def test_cf14_going_out_on_a_double_ends_the_round_with_the_foot_unfilled():
    state = position(2, {0: "5-5", 1: "5-1 2-2"}, [(0, "9-5"), (1, "9-3")], to_move=0)
    state = CF.apply(state, Play(tile("5-5"), 0))
    assert state.chance
    assert state.round_scores == ((0, 10),)
    assert len(state.board.empty_ends) == 1  # the foot stays open, unfilled


# -- CF-13, CF-12 (b), CF-16: the reserve and blocked rounds ---------------------------------------------------
def test_cf13_two_players_never_draw_the_last_two_tiles():
    state = position(2, {0: "0-0", 1: "1-1"}, [(0, "9-5"), (1, "9-3")], to_move=0, stock="0-1 0-2")
    assert CF.legal_moves(state) == (PASS,)
    message = rejects(state, DRAW, "CF-13")
    assert "never drawn" in message


def test_cf13_with_three_players_the_last_tile_stays():
    state = position(3, {0: "0-0", 1: "1-1", 2: "2-2"}, [(0, "9-5"), (1, "9-3"), (2, "9-4")], 0, stock="0-1 0-2")
    assert CF.legal_moves(state) == (DRAW,)
    state = CF.apply(state, DRAW)
    assert len(state.stock) == 1
    assert CF.legal_moves(state) == (PASS,)


def test_cf13_cf16_blocked_after_a_full_round_of_idle_turns_everyone_scores_pips():
    state = position(3, {0: "0-0", 1: "1-1 0-1", 2: "2-2"}, [(0, "9-5"), (1, "9-3"), (2, "9-4")], 0, stock="0-2")
    state = CF.apply(state, PASS)
    state = CF.apply(state, PASS)
    assert not state.chance
    state = CF.apply(state, PASS)
    assert state.chance and state.info.went_out is None
    assert state.round_scores == ((0, 3, 4),)
    assert round_winners(state.round_scores[0]) == (0,)


def test_cf13_a_play_resets_the_count_of_idle_turns():
    state = position(3, {0: "0-0", 1: "6-6 5-1", 2: "2-2"}, [(0, "9-5"), (1, "9-3"), (2, "9-4")], 0, stock="0-2")
    state = CF.apply(state, PASS)
    state = CF.apply(state, Play(tile("5-1"), 0))
    state = CF.apply(state, PASS)
    state = CF.apply(state, PASS)
    assert not state.chance  # only two idle turns since the play
    state = CF.apply(state, PASS)
    assert state.chance


def test_cf10_cf13_an_unfillable_foot_blocks_the_round():
    state = position(2, {0: "5-5 0-0", 1: "1-1"}, [(0, "9-5"), (1, "9-3")], to_move=0, stock="0-1 0-2 0-3")
    state = CF.apply(state, Play(tile("5-5"), 0))
    state = CF.apply(state, DRAW)  # seat 1 draws the 0-1: no 5, the turn passes
    assert state.to_move == 0
    assert CF.legal_moves(state) == (PASS,)  # the yard is down to its reserve of two
    state = CF.apply(state, PASS)
    assert state.chance and state.info.went_out is None


def test_cf16_the_lowest_round_score_wins_the_round():
    assert round_winners((12, 3, 40)) == (1,)
    assert round_winners((3, 3, 40)) == (0, 1)


# -- CF-17: the double-blank option ---------------------------------------------------------------------------
@pytest.mark.parametrize(("option", "expected"), [(False, 2), (True, 52)])
def test_cf17_the_double_blank_can_count_fifty(option, expected):
    state = position(
        2, {0: "5-2", 1: "0-0 1-1"}, [(0, "9-5"), (1, "9-3")], to_move=0, options={"double_blank_50": option}
    )
    state = CF.apply(state, Play(tile("5-2"), 0))
    assert state.round_scores == ((0, expected),)


# -- CF-18: totals and the winner ---------------------------------------------------------------------------
def test_cf18_scores_accumulate_and_the_lowest_total_wins():
    state, _ = _play_out(CF.new_game(4, {"rounds": 4}, seed=2), random.Random(7))
    totals = tuple(sum(rs[seat] for rs in state.round_scores) for seat in range(4))
    assert state.scores == totals
    assert state.over and state.winners == tuple(s for s in range(4) if totals[s] == min(totals))
    assert CF.legal_moves(state) == ()
    with pytest.raises(IllegalMove) as caught:
        CF.apply(state, DRAW)
    assert caught.value.rule == "CF-18"


def test_cf18_equal_lowest_totals_share_the_win():
    # Seat 0 goes out; seat 1 is left with the 0-0, worth nothing: both end on zero.
    state = position(2, {0: "5-2", 1: "0-0"}, [(0, "9-5"), (1, "9-3")], to_move=0, options={"rounds": 1})
    state = CF.apply(state, Play(tile("5-2"), 0))
    assert state.over and state.winners == (0, 1)


def test_illegal_moves_leave_the_state_unchanged_and_teach():
    state = opened(hands={0: "5-4"})
    for move in (Play(tile("5-4"), 1), Play(tile("5-4"), 99), Play(Tile(9, 9), 0), DRAW, PASS, Draw(), Pass()):
        snapshot = state
        with pytest.raises(IllegalMove) as caught:
            CF.apply(state, move)
        assert state == snapshot
        assert caught.value.rule.startswith("CF-")
        assert len(caught.value.message) > len(caught.value.rule) + 10
