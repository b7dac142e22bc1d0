"""The hint: a legal move and its reason in words, on stacked Chicken Foot positions."""

from __future__ import annotations

import pytest

from core import get_game
from core.bots.easy.chicken_foot import score_play
from core.bots.hint import hint
from core.moves import DRAW, PASS, Deal, Play
from core.tiles import DOUBLE_NINE, Tile
from tests.helpers import stacked_hands

GAME = get_game("chicken-foot")


def dealt(hands: dict[int, str], players=2, stock_top=""):
    state = GAME.new_game(players, {"rounds": 1}, seed=1)
    rest = [t for t in DOUBLE_NINE if t != Tile(9, 9)]
    dealt_hands, stock = stacked_hands(rest, players, 21, hands, stock_top)
    return GAME.apply(state, Deal(dealt_hands, stock, first=0, search_start=0))


def test_hint_is_legal_and_says_where_and_why():
    state = dealt({0: "9-1 9-8 0-0"})
    move, reason = hint(GAME.view(state, 0), GAME.legal_moves(state))
    assert move in GAME.legal_moves(state)
    # The easy bot's rule of thumb sheds the heaviest tile: the 9-8 (17 pips) on the first train.
    assert move == Play(Tile(8, 9), 0)
    assert reason.startswith("Play 8-9 on train 1: it sheds 17 pips")


def test_hint_plays_what_the_easy_bot_values_most_over_a_whole_round():
    state = dealt({})
    while not state.chance and not state.over:
        legal = GAME.legal_moves(state)
        view = GAME.view(state, state.to_move)
        move, reason = hint(view, legal)
        assert move in legal and reason
        plays = [m for m in legal if type(m) is Play]
        if plays:
            lines = view.board.lines
            best = max(score_play(view.hand, m, lines[m.target].open) for m in plays)
            assert score_play(view.hand, move, lines[move.target].open) == best
        state = GAME.apply(state, move)
    assert state.round_scores


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
