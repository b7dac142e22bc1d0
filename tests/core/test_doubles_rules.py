"""Doubles, rule by rule (DB-0..DB-13), on stacked decks.

Rounds start from explicit `Deal`s. Positions deep into a round (a layout several doubles wide, a
player down to their last tile, a boneyard at its reserve) are built directly with `position()`:
the state's own constructor, its legal moves worked out by the engine.
"""

from __future__ import annotations

import random

import pytest

from core import GAME_NAMES, IllegalMove, Match, Tile, get_game
from core.games.doubles import (
    HAND_SIZES,
    DoublesState,
    legal_at,
    match_winners,
    open_ends,
    round_points,
)
from core.layout import Layout
from core.moves import DRAW, PASS, Bid, Deal, Play, play
from core.public_log import EMPTY_LOG
from core.tiles import DOUBLE_SIX, mask_of
from tests.helpers import stacked_hands, tile, tiles

DB = get_game("doubles")
DOUBLES = [Tile(n, n) for n in range(7)]


def start(players=2, hands=None, stock_top="", options=None, avoid=None):
    """Round 1 dealt as the test says. Doubles nobody was given go to the bottom of the boneyard,
    so the test decides who holds the highest double; every other hand is filled up with the
    lowest tiles left. `avoid`: numbers a seat's filler tiles lack."""
    state = DB.new_game(players, options or {}, seed=0)
    named = set(tiles(" ".join([*(hands or {}).values(), stock_top])))
    kept_back = [d for d in DOUBLES if d not in named]
    dealt, stock = stacked_hands(DOUBLE_SIX, players, HAND_SIZES[players], hands, stock_top, kept_back, avoid)
    return DB.apply(state, Deal(dealt, stock + tuple(kept_back)))


def opened(players=2, hands=None, **kwargs):
    """`start`, then the opener leads the highest double."""
    state = start(players, hands, **kwargs)
    return DB.apply(state, DB.legal_moves(state)[0])


def position(players, hands, centre, plays, to_move, stock="", options=None, idle=0, scores=None):
    """A mid-round position: `plays` are (line, tile) placed on the layout in order, after `centre`."""
    info = DB.new_game(players, options or {}, seed=0).info._replace(round=1, chance=False)
    if scores is not None:
        info = info._replace(scores=tuple(scores))
    board = Layout.start(tile(centre), 4)
    made = (play(tile(centre)), ())  # the plays, newest first
    for line_id, placing in plays:
        board = board.play(line_id, tile(placing), 3)
        made = (play(tile(placing), line_id), made)
    unlocked = 0
    for placed in board.tiles():
        if placed.is_double:
            unlocked |= 1 << placed.low
    masks = tuple(mask_of(tiles(hands.get(seat, ""))) for seat in range(players))
    stock_tiles = tuple(tiles(stock))
    legal = legal_at(board, masks, to_move, None, unlocked, len(stock_tiles))
    state = DoublesState(
        info, to_move, masks, stock_tiles, made, *open_ends(board), unlocked, None, idle, EMPTY_LOG, legal
    )
    assert state.board == board
    return state


def source_example(hands, to_move=0, stock="0-0 0-1 0-2 0-3"):
    """The source's example: the 6-6 led, and the 6-1, 6-3, 6-4, 6-5 on its four sides."""
    return position(2, hands, "6-6", [(0, "6-1"), (1, "6-3"), (2, "6-4"), (3, "6-5")], to_move, stock)


def end_showing(state, shown_by):
    """The open end whose last tile is `shown_by` (e.g. the line ending in the 6-3)."""
    wanted = tile(shown_by)
    return next(end for end in state.board.ends if state.board.lines[end].tiles[-1:] == (wanted,))


def rejects(state, move, rule):
    """The move raises IllegalMove citing `rule`, and the state is unchanged."""
    before = state
    with pytest.raises(IllegalMove) as caught:
        DB.apply(state, move)
    assert caught.value.rule == rule, caught.value.message
    assert caught.value.message.startswith(f"{rule}: ")
    assert state == before
    return caught.value.message


def plays_of(state):
    return {(move.tile, move.target) for move in DB.legal_moves(state) if type(move) is Play}


def test_doubles_is_registered_after_chicken_foot():
    assert GAME_NAMES.index("doubles") == GAME_NAMES.index("chicken-foot") + 1
    assert DB.name == "doubles" and DB.rule_prefix == "DB" and (DB.min_players, DB.max_players) == (2, 4)


# -- DB-0: turn discipline -----------------------------------------------------------------------------
def test_db0_a_tile_must_be_in_the_movers_hand():
    state = opened(hands={0: "6-6 6-1", 1: "6-2"})
    assert state.to_move == 1
    message = rejects(state, Play(tile("6-1"), 0), "DB-0")
    assert message == "DB-0: the 1-6 is not in your hand"


def test_db0_moves_of_another_kind_are_refused():
    state = opened(hands={0: "6-6 6-1", 1: "6-2"})
    rejects(state, Bid(5), "DB-0")
    rejects(state, Deal(state.hands, state.stock), "DB-0")


# -- DB-1: the double-six set --------------------------------------------------------------------------
def test_db1_the_set_has_28_tiles_valued_by_pips():
    assert len(DOUBLE_SIX) == len(set(DOUBLE_SIX)) == 28
    assert {(t.low, t.high) for t in DOUBLE_SIX} == {(a, b) for a in range(7) for b in range(a, 7)}
    assert Tile(6, 5).pips == 11


def test_db1_a_deal_must_hold_every_tile_once():
    state = DB.new_game(2, {}, seed=0)
    hands, stock = stacked_hands(DOUBLE_SIX, 2, 8)
    for bad_stock in (stock[:-1] + (stock[0],), stock[:-1] + (Tile(7, 7),), stock[:-1]):
        with pytest.raises(IllegalMove) as caught:
            DB.apply(state, Deal(hands, bad_stock))
        assert caught.value.rule == "DB-1"
    assert DB.apply(state, Deal(hands, stock)).round == 1


# -- DB-2: players and hands ---------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size", "boneyard"), [(2, 8, 12), (3, 6, 10), (4, 6, 4)])
def test_db2_starting_hands_and_the_boneyard(players, size, boneyard):
    state = DB.new_game(players, {}, seed=3)
    deal = DB.deal(state, random.Random(players))
    assert [len(hand) for hand in deal.hands] == [size] * players and len(deal.stock) == boneyard
    dealt = DB.apply(state, deal)
    assert [len(hand) for hand in dealt.hands] == [size] * players
    assert len(dealt.stock) == boneyard


@pytest.mark.parametrize("players", [0, 1, 5, "3"])
def test_db2_two_to_four_players(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        DB.new_game(players, {}, seed=0)


def test_db2_a_deal_with_wrong_hand_sizes_is_refused():
    state = DB.new_game(3, {}, seed=0)
    hands, stock = stacked_hands(DOUBLE_SIX, 3, 6)
    short = (hands[0][:-1], hands[1], hands[2])
    with pytest.raises(IllegalMove) as caught:
        DB.apply(state, Deal(short, (hands[0][-1], *stock)))
    assert caught.value.rule == "DB-2"
    assert "6 tiles" in caught.value.message


def test_db2_the_boneyard_is_face_down():
    state = opened(hands={0: "6-6", 1: "5-5"})
    reordered = state._replace(stock=tuple(reversed(state.stock)))
    for seat in (0, 1):
        view = DB.view(state, seat)
        assert view.stock_size == len(state.stock) == 12
        assert view == DB.view(reordered, seat)
        assert not hasattr(view, "seed") and not hasattr(view, "stock")


# -- DB-3: the highest double opens the round ----------------------------------------------------------------
def test_db3_the_holder_of_the_highest_double_plays_it_first():
    state = start(players=3, hands={0: "3-3", 1: "5-5", 2: "4-4"})
    assert state.to_move == 1 and state.board is None
    assert DB.legal_moves(state) == (Play(tile("5-5"), None),)
    assert DB.view(state, 0).leading == tile("5-5")
    state = DB.apply(state, Play(tile("5-5"), None))
    assert state.board.centre == tile("5-5")
    assert tile("5-5") not in state.hands[1] and len(state.hands[1]) == 5  # the opening play is a turn


def test_db3_nothing_but_the_highest_double_opens():
    state = start(players=3, hands={0: "3-3 5-1", 1: "5-5", 2: "4-4"})
    rejects(state, Play(tile("4-4"), None), "DB-3")  # another seat's double
    rejects(state, DRAW, "DB-3")
    rejects(state, PASS, "DB-3")
    message = rejects(state, Play(tile("5-5"), 0), "DB-3")
    assert message == "DB-3: you hold the highest double, the 5-5: open the round with it in the centre"


def test_db3_chance_picks_no_seat():
    state = DB.new_game(2, {}, seed=0)
    hands, stock = stacked_hands(DOUBLE_SIX, 2, 8)
    with pytest.raises(IllegalMove) as caught:
        DB.apply(state, Deal(hands, stock, 1))
    assert caught.value.rule == "DB-3"


def test_db3_without_a_double_in_any_hand_the_same_round_is_dealt_again():
    state = DB.new_game(2, {}, seed=0)
    no_doubles = [t for t in DOUBLE_SIX if not t.is_double]
    deal = Deal((tuple(no_doubles[:8]), tuple(no_doubles[8:16])), tuple(no_doubles[16:] + DOUBLES))
    assert DB.describe_move(state, deal) == "Round 1: nobody holds a double, so the tiles are shuffled and dealt again"
    state = DB.apply(state, deal)
    assert state.chance and state.round == 1 and state.to_move is None
    assert DB.legal_moves(state) == ()
    assert rejects(state, DRAW, "DB-3") == "DB-3: nobody holds a double: the tiles are being dealt again"
    redeal = DB.deal(state, random.Random(1))
    state = DB.apply(state, redeal)
    assert state.round == 1  # a redeal keeps the round
    assert not state.chance and state.board is None and state.legal[0].tile.is_double


def test_db3_a_redeal_is_an_event_that_replays():
    # Seed 997's first deal in a 2-player match gives nobody a double (checked here).
    match = Match("doubles", 2, {}, seed=997)
    match.deal()
    assert match.state.chance and not any(t.is_double for hand in match.state.hands for t in hand)
    match.deal()
    assert not match.state.chance and match.state.round == 1
    assert len(match.events) == 2 and all(type(event) is Deal for event in match.events)
    replayed = Match("doubles", 2, {}, seed=997, events=match.events)
    assert replayed.state == match.state


# -- DB-4: play passes to the left ---------------------------------------------------------------------------
def test_db4_play_passes_in_seat_order_from_the_opener():
    state = opened(players=3, hands={1: "6-6", 2: "6-2", 0: "6-0"})
    assert state.to_move == 2
    state = DB.apply(state, Play(tile("6-2"), 0))
    assert state.to_move == 0
    state = DB.apply(state, Play(tile("6-0"), 1))
    assert state.to_move == 1


# -- DB-5: every double a spinner ----------------------------------------------------------------------------
def test_db5_the_centre_double_takes_four_tiles():
    state = opened(hands={0: "6-6 6-1 6-3 6-5", 1: "6-4 6-2"}, avoid={0: {6}, 1: {6}})
    assert state.board.centre == tile("6-6")
    for placed, seat in (("6-4", 1), ("6-1", 0), ("6-2", 1), ("6-3", 0)):
        assert state.to_move == seat
        state = DB.apply(state, Play(tile(placed), state.board.empty_ends[0]))
    assert len(state.board.children(-1)) == 4 and state.board.empty_ends == ()
    assert sorted(state.board.lines[end].open for end in state.board.ends) == [1, 2, 3, 4]
    # The 6-5 has nowhere to go: the 6-6 has no free side left and no end shows a six.
    assert tile("6-5") in state.hands[0]
    seat_0 = legal_at(state.board, state.hand_masks, 0, None, state.unlocked, len(state.stock))
    assert not any(move.tile == tile("6-5") for move in seat_0 if type(move) is Play)


def test_db5_a_later_double_leaves_three_free_sides_all_open_at_once():
    state = position(2, {0: "3-3 3-0 3-2", 1: "3-1 3-4"}, "6-6", [(0, "6-3")], to_move=0, stock="0-0 0-1 0-2")
    state = DB.apply(state, Play(tile("3-3"), 0))
    spinner = state.board.lines[0]
    assert spinner.open is None  # the 6-3 arm is closed by the double
    sides = state.board.children(0)
    assert len(sides) == 3
    # Opponent and player alike may play on the 3-3 at once; sides fill one after another.
    for placed in ("3-1", "3-0", "3-4"):
        free = [end for end in state.board.empty_ends if end in sides]
        assert len(free) == 1  # the sides are alike: one target stands for the next free one
        state = DB.apply(state, Play(tile(placed), free[0]))
    assert [state.board.lines[side].open for side in sides] == [1, 0, 4]
    assert not set(sides) & set(state.board.empty_ends)


def test_db5_each_free_side_shows_the_doubles_number():
    state = opened(hands={0: "6-6", 1: "6-2"})
    side = state.board.empty_ends[0]
    assert state.board.lines[side].open == 6 and state.board.lines[side].tiles == ()


# -- DB-6, DB-7: locked numbers --------------------------------------------------------------------------------
def test_db7_source_example_only_a_double_can_follow():
    hand = "1-2 3-5 4-0 5-2 2-0 3-3"
    state = source_example({0: hand})
    assert state.unlocked == 1 << 6  # only sixes: the other numbers showing are locked
    assert plays_of(state) == {(tile("3-3"), end_showing(state, "6-3"))}
    # Without a double, no play is possible at all: draw.
    state = source_example({0: "1-2 3-5 4-0 5-2 2-0 0-1"})
    assert DB.legal_moves(state) == (DRAW,)


def test_db7_locked_end_says_which_double_unlocks_it():
    state = source_example({0: "4-2 3-3"})
    message = rejects(state, Play(tile("4-2"), end_showing(state, "6-4")), "DB-7")
    assert message == "DB-7: fours are locked until the 4-4 is played"
    message = rejects(state, Play(tile("4-2"), end_showing(state, "6-3")), "DB-7")
    assert message == "DB-7: the 2-4 does not match the 3 showing on arm 2 of the centre 6-6"


def test_db7_a_tile_offered_from_the_hand_is_told_of_the_lock():
    # Only the locked 4 could take the 4-6: Enter from the hand names the lock, not another end.
    state = source_example({0: "4-6 2-2"})
    message = rejects(state, Play(tile("4-6"), None), "DB-7")
    assert message == "DB-7: fours are locked until the 4-4 is played"
    message = rejects(state, Play(tile("2-2"), None), "DB-7")
    assert message == "DB-7: the 2-2 matches no open end: the ends show 1, 3, 4 and 5"


def test_db5_arms_are_named_by_their_spinner():
    plays = [(0, "6-1"), (1, "6-3"), (2, "6-4"), (3, "6-5"), (1, "3-3")]
    state = position(2, {0: "3-5 0-0", 1: "1-2"}, "6-6", plays, to_move=0, stock="0-1 0-2 0-3")
    names = [DB.line_name(state.board, line) for line in range(len(state.board.lines))]
    assert names == [
        "arm 1 of the centre 6-6", "arm 2 of the centre 6-6", "arm 3 of the centre 6-6", "arm 4 of the centre 6-6",
        "arm 1 of the 3-3", "arm 2 of the 3-3", "arm 3 of the 3-3",
    ]  # fmt: skip
    message = rejects(state, Play(tile("3-5"), 5), "DB-5")
    assert message == "DB-5: the free sides of the 3-3 are all alike: play on arm 1 of the 3-3"
    message = rejects(state, Play(tile("3-5"), 1), "DB-5")
    assert message == "DB-5: arm 2 of the centre 6-6 ends in the 3-3: play on the free sides of the 3-3"


def test_db6_db7_the_3_3_on_the_6_3_unlocks_threes_everywhere():
    # The 4-4 sits on the 6-4 with a 4-3 on it, so two ends show a (locked) three.
    plays = [(0, "6-1"), (1, "6-3"), (2, "6-4"), (3, "6-5"), (2, "4-4"), (4, "4-3")]
    state = position(2, {0: "3-3 0-0", 1: "3-5 3-2 3-0"}, "6-6", plays, to_move=0, stock="0-1 0-2 0-3")
    arm_43 = end_showing(state, "4-3")
    rejects(state, Play(tile("3-5"), arm_43), "DB-0")  # seat 1's tile
    assert DB.legal_moves(state) == (Play(tile("3-3"), end_showing(state, "6-3")), Play(tile("3-3"), arm_43))
    state = DB.apply(state, Play(tile("3-3"), end_showing(state, "6-3")))
    assert state.unlocked & 1 << 3
    assert DB.view(state, 1).is_unlocked(3)
    # Seat 1 may now put any 3-x on any open three: the 4-3 arm or the 3-3's free sides.
    side = state.board.empty_ends[-1]
    assert state.board.base_double(side) == tile("3-3")
    assert plays_of(state) == {(tile(t), end) for t in ("3-5", "3-2", "3-0") for end in (arm_43, side)}
    state = DB.apply(state, Play(tile("3-5"), arm_43))
    assert state.board.lines[arm_43].open == 5


def test_db7_a_double_unlocks_on_any_end_showing_its_number():
    state = source_example({0: "5-5 0-1", 1: "5-0"})
    state = DB.apply(state, Play(tile("5-5"), end_showing(state, "6-5")))
    assert state.unlocked == 1 << 6 | 1 << 5
    assert plays_of(state) == {(tile("5-0"), state.board.empty_ends[0])}


def test_db6_an_end_showing_a_locked_number_stays_shut_for_everyone():
    state = source_example({0: "0-1", 1: "1-2"}, to_move=1)
    assert DB.legal_moves(state) == (DRAW,)


# -- DB-8: play, or draw one and play it at once ------------------------------------------------------------------
def test_db8_a_player_who_can_play_may_not_draw_or_pass():
    state = opened(hands={0: "6-6", 1: "6-2"})
    message = rejects(state, DRAW, "DB-8")
    example = "you can play a tile (the 1-6 on arm 1 of the centre 6-6, for one)"
    assert message == f"DB-8: {example}, so you may not draw"
    assert rejects(state, PASS, "DB-8") == f"DB-8: {example}, so you may not pass"


def test_db8_a_playable_draw_must_be_played_at_once():
    state = opened(hands={0: "6-6", 1: "1-1"}, stock_top="6-3", avoid={1: {6}})
    assert DB.legal_moves(state) == (DRAW,)
    assert rejects(state, PASS, "DB-8") == "DB-8: you cannot play, so you must draw from the boneyard"
    state = DB.apply(state, DRAW)
    assert state.to_move == 1 and state.drawn == tile("6-3")
    assert DB.legal_moves(state) == (Play(tile("6-3"), 0),)
    assert DB.view(state, 0).must_play_drawn and DB.view(state, 0).drawn is None
    assert DB.view(state, 1).drawn == tile("6-3")
    rejects(state, PASS, "DB-8")
    state = DB.apply(state, Play(tile("6-3"), 0))
    assert state.to_move == 0 and state.drawn is None


def test_db8_an_unplayable_draw_ends_the_turn():
    state = opened(hands={0: "6-6", 1: "1-1"}, stock_top="0-2", avoid={1: {6}})
    state = DB.apply(state, DRAW)
    assert state.to_move == 0 and tile("0-2") in state.hands[1] and len(state.hands[1]) == 9


def test_db8_a_drawn_double_unlocks_only_on_its_end():
    state = source_example({0: "0-1", 1: "0-2"}, stock="4-4 1-2 0-3")
    state = DB.apply(state, DRAW)
    assert state.drawn == tile("4-4")
    assert DB.legal_moves(state) == (Play(tile("4-4"), end_showing(state, "6-4")),)


# -- DB-9: the boneyard's reserve of two --------------------------------------------------------------------------
def test_db9_the_last_two_tiles_are_never_drawn():
    state = source_example({0: "0-1", 1: "0-2"}, stock="0-3 0-4")
    assert DB.legal_moves(state) == (PASS,)
    message = rejects(state, DRAW, "DB-9")
    assert message == "DB-9: the last two tiles of the boneyard are never drawn, so you must pass"


def test_db9_with_three_left_one_may_be_drawn():
    state = source_example({0: "0-1", 1: "0-2"}, stock="0-3 0-4 0-5")
    state = DB.apply(state, DRAW)
    assert len(state.stock) == 2 and state.to_move == 1
    assert DB.legal_moves(state) == (PASS,)


# -- DB-10: the end of a round ---------------------------------------------------------------------------------
def test_db10_db11_going_out_ends_the_round_and_scores_the_others_pips():
    state = position(3, {0: "6-2", 1: "5-5 1-0", 2: "4-3"}, "6-6", [(0, "6-1")], to_move=0, stock="0-0 0-2 0-3")
    state = DB.apply(state, Play(tile("6-2"), 1))
    assert state.chance and not state.over and state.to_move is None
    assert state.info.went_out == 0
    assert state.round_pips == ((0, 11, 7),)
    assert state.round_scores == ((18, 0, 0),) and state.scores == (18, 0, 0)
    assert DB.legal_moves(state) == ()
    assert DB.view(state, 1).revealed == state.hands  # the hands are shown once the round is over


def test_db10_blocked_after_a_full_round_of_idle_turns_at_the_reserve():
    hands = {0: "0-1", 1: "0-2 0-3", 2: "2-3"}
    plays = [(0, "6-1"), (1, "6-3"), (2, "6-4"), (3, "6-5")]
    state = position(3, hands, "6-6", plays, to_move=0, stock="1-2 2-2 3-4")
    state = DB.apply(state, DRAW)  # the 1-2 fits nowhere: seat 0 keeps it, the boneyard is at two
    assert state.to_move == 1 and len(state.stock) == 2
    state = DB.apply(state, PASS)
    assert not state.chance
    state = DB.apply(state, PASS)
    assert state.chance and state.info.went_out is None  # three idle turns: blocked


def test_db10_a_play_resets_the_count_of_idle_turns():
    plays = [(0, "6-1"), (1, "6-3"), (2, "6-4")]
    state = position(2, {0: "0-1", 1: "6-0 0-2"}, "6-6", plays, to_move=0, stock="0-3 0-4")
    state = DB.apply(state, PASS)
    state = DB.apply(state, Play(tile("6-0"), 3))
    state = DB.apply(state, PASS)
    assert not state.chance  # seat 0 passed once since the play; blocked needs two idle turns
    state = DB.apply(state, PASS)
    assert state.chance


# -- DB-12: blocked rounds --------------------------------------------------------------------------------------
def blocked(hands, options=None, scores=None):
    """A 3-player position in which nobody can play and the boneyard is at its reserve, played
    until the round is blocked."""
    plays = [(0, "6-1"), (1, "6-3"), (2, "6-4"), (3, "6-5")]
    state = position(3, hands, "6-6", plays, to_move=0, stock="0-0 1-1", options=options, scores=scores)
    while not state.chance and not state.over:
        state = DB.apply(state, PASS)
    return state


def test_db12_the_lowest_hand_scores_the_opponents_pips():
    state = blocked({0: "0-2 0-1", 1: "2-3", 2: "3-4 4-5"})
    assert state.round_pips == ((3, 5, 16),)
    assert state.round_scores == ((21, 0, 0),)


@pytest.mark.parametrize(("option", "expected"), [("nobody", (0, 0, 0)), ("split", (0, 6, 6))])
def test_db12_a_tie_for_the_lowest_hand(option, expected):
    # The rule's example: hands of 12, 5 and 5 pips.
    state = blocked({0: "3-4 0-5", 1: "2-3", 2: "1-4"}, options={"blocked_tie": option})
    assert state.round_pips == ((12, 5, 5),)
    assert state.round_scores == (expected,) and state.scores == expected


def test_db12_split_rounds_down_and_scores_nothing_when_everyone_ties():
    assert round_points((5, 5, 13), None, "split") == (6, 6, 0)
    assert round_points((5, 5), None, "split") == (0, 0)
    assert round_points((5, 5), None, "nobody") == (0, 0)
    assert round_points((4, 5, 5, 9), None, "nobody") == (19, 0, 0, 0)
    assert round_points((0, 5, 9), 0, "nobody") == (14, 0, 0)


def test_db12_blocked_tie_option_values():
    assert DB.new_game(2, {}, seed=0).options["blocked_tie"] == "nobody"
    with pytest.raises(ValueError, match="blocked_tie"):
        DB.new_game(2, {"blocked_tie": "share"}, seed=0)


# -- DB-13: the target ---------------------------------------------------------------------------------------
def test_db13_the_first_to_reach_the_target_wins():
    state = position(3, {0: "6-2", 1: "5-5 1-0", 2: "4-3"}, "6-6", [(0, "6-1")], 0, "0-0 0-1 0-2", scores=(82, 95, 0))
    state = DB.apply(state, Play(tile("6-2"), 1))
    assert state.over and not state.chance and state.scores == (100, 95, 0)
    assert state.winners == (0,)
    assert DB.legal_moves(state) == ()
    assert rejects(state, DRAW, "DB-13") == "DB-13: the match is over"


def test_db13_below_the_target_another_round_is_dealt():
    state = position(3, {0: "6-2", 1: "5-5 1-0", 2: "4-3"}, "6-6", [(0, "6-1")], 0, "0-0 0-1 0-2", scores=(81, 95, 0))
    state = DB.apply(state, Play(tile("6-2"), 1))
    assert state.chance and not state.over and state.winners == ()
    state = DB.apply(state, DB.deal(state, random.Random(4)))
    assert state.round == 2 and state.scores == (99, 95, 0)


def test_db13_the_target_option():
    state = position(
        2, {0: "6-2", 1: "1-0"}, "6-6", [(0, "6-1")], 0, "0-0 0-1 0-2", options={"target": 1}, scores=(0, 0)
    )
    assert DB.apply(state, Play(tile("6-2"), 1)).winners == (0,)
    assert DB.new_game(2, {}, seed=0).options["target"] == 100
    for bad in (0, 1001, "50"):
        with pytest.raises(ValueError, match="target"):
            DB.new_game(2, {"target": bad}, seed=0)


def test_db13_when_two_cross_together_the_higher_total_wins():
    hands = {0: "3-4 0-5", 1: "2-3", 2: "1-4"}  # 12, 5, 5: seats 1 and 2 split 12, 6 each
    state = blocked(hands, options={"blocked_tie": "split"}, scores=(50, 96, 95))
    assert state.scores == (50, 102, 101)
    assert state.over and state.winners == (1,)


def test_db13_an_exact_tie_on_top_plays_another_round():
    hands = {0: "3-4 0-5", 1: "2-3", 2: "1-4"}
    state = blocked(hands, options={"blocked_tie": "split"}, scores=(50, 96, 96))
    assert state.scores == (50, 102, 102)
    assert not state.over and state.chance and state.winners == ()
    assert match_winners((50, 102, 102), 100) == ()
    assert match_winners((120, 102, 102), 100) == (0,)


# -- views, determinization and words -------------------------------------------------------------------------
def test_views_show_nothing_of_other_hands_or_the_boneyard():
    state = opened(players=3, hands={0: "6-6", 1: "5-1", 2: "4-2"})
    view = DB.view(state, 1)
    assert view.hand == state.hands[1] and view.revealed is None
    assert view.hand_sizes == (5, 6, 6) and view.stock_size == 10
    hidden = set(state.hands[0]) | set(state.hands[2]) | set(state.stock)
    assert not hidden & set(view.hand)
    with pytest.raises(ValueError, match="no seat 3"):
        DB.view(state, 3)


def test_determinize_gives_back_the_same_view_and_keeps_the_opening_consistent():
    state = start(players=4, hands={0: "2-2", 1: "4-4", 2: "3-3", 3: "1-1"})
    assert state.to_move == 1
    for seat in range(4):
        view = DB.view(state, seat)
        for seed in range(5):
            world = DB.determinize(view, random.Random(seed))
            assert DB.view(world, seat) == view
            assert DB.legal_moves(world) == (Play(tile("4-4"), None),)
            higher = {tile("5-5"), tile("6-6")}
            assert higher <= set(world.stock)


def test_describe_moves_in_plain_words():
    state = start(players=2, hands={0: "6-6 6-3", 1: "3-3 6-1"})
    names = ("Ana", "Bo")
    assert (
        DB.describe_move(DB.new_game(2, {}, 0), Deal(state.hands, state.stock), names)
        == "Round 1: Ana to open with the 6-6, the highest double"
    )
    assert DB.describe_move(state, Play(tile("6-6"), None), names) == "Ana opened the round with the 6-6 in the centre"
    state = DB.apply(state, Play(tile("6-6"), None))
    assert DB.describe_move(state, Play(tile("6-1"), 0), names) == "Bo played 1-6 on arm 1 of the centre 6-6"
    state = DB.apply(state, Play(tile("6-1"), 0))
    state = DB.apply(state, Play(tile("6-3"), 1))
    assert (
        DB.describe_move(state, Play(tile("3-3"), 1), names)
        == "Bo played 3-3 on arm 2 of the centre 6-6, unlocking threes"
    )
    assert DB.describe_move(state, Play(tile("3-3"), 40), names) == "Bo played 3-3"
    assert DB.describe_move(state, DRAW, names) == "Bo drew a tile and passed"
    # Only the player who drew is told the tile.
    drawn = state.stock[0]
    assert DB.describe_move(state, DRAW, names, viewer=1) == f"Bo drew the {drawn} and passed"
    assert DB.describe_move(state, PASS) == "Seat 2 passed"
