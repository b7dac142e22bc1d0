"""The hint: the medium bot's move, and its reason in words, on stacked Chicken Foot positions."""

from __future__ import annotations

import random

import pytest

from core import GAME_NAMES, Match, get_game
from core.bots.hint import explain, hint, move_words
from core.bots.medium import MediumBot
from core.moves import DRAW, PASS, Deal, Play
from core.tiles import DOUBLE_NINE, Tile
from tests.helpers import stacked_hands

GAME = get_game("chicken-foot")


def dealt(hands: dict[int, str], players=2, stock_top="", avoid=None):
    state = GAME.new_game(players, {"rounds": 1}, seed=1)
    rest = [t for t in DOUBLE_NINE if t != Tile(9, 9)]
    dealt_hands, stock = stacked_hands(rest, players, 21, hands, stock_top, avoid=avoid)
    return GAME.apply(state, Deal(dealt_hands, stock, first=0, search_start=0))


def test_the_hint_is_the_medium_bots_choice_and_says_where_and_why():
    state = dealt({0: "9-1 9-8 0-0"})
    view, legal = GAME.view(state, 0), GAME.legal_moves(state)
    move, reason = hint(view, legal, random.Random(3), worlds=8)
    expected, _, worlds = MediumBot(max_worlds=8).evaluate(view, legal, random.Random(3), 60.0)
    assert move == expected and worlds == 8
    assert reason.startswith(f"Play {move.tile} on train ")
    assert "in 8 sampled deals" in reason
    assert hint(view, legal, random.Random(3), worlds=8) == (move, reason)  # the same position, the same hint


def test_a_move_that_follows_the_rule_of_thumb_is_explained_by_it():
    # The easy rule of thumb sheds the heaviest tile: the 9-8 (17 pips) on the first train.
    state = dealt({0: "9-1 9-8 0-0"})
    view, legal = GAME.view(state, 0), GAME.legal_moves(state)
    chosen = Play(Tile(8, 9), 0)
    means = [2.0 if move == chosen else 0.0 for move in legal]
    reason = explain(view, legal, legal[legal.index(chosen)], means, 16)
    assert reason.startswith("Play 8-9 on train 1: it sheds 17 pips, the heaviest you can safely play")
    assert reason.endswith(
        "in 16 sampled deals it did best, 2.0 points a round better than the next best move "
        f"({move_words(view, next(m for m in legal if m != chosen)).lower()})."
    )


def test_a_move_against_the_rule_of_thumb_says_which_numbers_it_keeps():
    # Only the 9-1 and the 9-5 open (CF-7); the rule of thumb sheds the 9-5, the search prefers the
    # 9-1, which keeps the 5s in hand.
    state = dealt({0: "9-1 9-5"}, avoid={0: {9, 1}})
    view, legal = GAME.view(state, 0), GAME.legal_moves(state)
    assert {move.tile for move in legal} == {Tile(1, 9), Tile(5, 9)}
    chosen = next(move for move in legal if move.tile == Tile(1, 9))
    fives = sum(1 for t in view.hand if 5 in t and t != Tile(1, 9))
    words = ["no", "one", "two", "three", "four", "five", "six"][fives]
    means = [1.0 if move is chosen else 0.5 for move in legal]
    reason = explain(view, legal, chosen, means, 16)
    assert f": keeps your 5s: you hold {words} of them; " in reason
    assert "0.5 points a round better" in reason


def test_moves_that_score_the_same_are_said_to_be_even():
    state = dealt({0: "9-1 9-8 0-0"})
    view, legal = GAME.view(state, 0), GAME.legal_moves(state)
    reason = explain(view, legal, legal[0], [0.0] * len(legal), 16)
    assert reason.endswith("in 16 sampled deals no move did clearly better.")


def test_every_hint_of_a_round_is_legal_and_the_medium_bots_choice():
    state = dealt({})
    while not state.chance and not state.over:
        legal = GAME.legal_moves(state)
        view = GAME.view(state, state.to_move)
        move, reason = hint(view, legal, random.Random(len(legal)), worlds=3)
        assert move in legal and reason
        if len(legal) > 1:
            assert reason.startswith(move_words(view, move))
            assert move == MediumBot(max_worlds=3).evaluate(view, legal, random.Random(len(legal)), 60.0)[0]
        state = GAME.apply(state, move)
    assert state.round_scores


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_every_game_gets_a_hint_in_words(game_name):
    match = Match(game_name, get_game(game_name).min_players, seed=5)
    match.deal()
    legal = match.legal_moves()
    move, reason = hint(match.view(match.state.to_move), legal, worlds=2)
    assert move in legal and reason.endswith(".")
    tile = getattr(move, "tile", None)
    assert (
        (str(tile) in reason)
        if tile is not None
        else reason.startswith(move_words(match.view(match.state.to_move), move))
    )


def test_hint_to_draw_cites_the_rule():
    # Seat 0 holds no 9 during the opening: CF-9 (draw when nothing fits).
    state = GAME.new_game(2, {"rounds": 1}, seed=1)
    rest = [t for t in DOUBLE_NINE if t != Tile(9, 9)]
    hands, stock = stacked_hands(rest, 2, 21, {}, "", avoid={0: {9}})
    state = GAME.apply(state, Deal(hands, stock, first=0, search_start=0))
    move, reason = hint(GAME.view(state, 0), GAME.legal_moves(state))
    assert move is DRAW and "CF-9" in reason


def test_hint_with_nothing_to_do_is_refused():
    with pytest.raises(ValueError):
        hint(GAME.view(dealt({}), 0), ())


def test_hint_to_pass():
    state = dealt({})
    view = GAME.view(state, 0)
    move, reason = hint(view, (PASS,))
    assert move is PASS and "CF-13" in reason
