"""The public engine API, exactly as DESIGN.md names it."""

from __future__ import annotations

import random

import pytest

from core import GAME_NAMES, IllegalMove, Tile, get_game
from core.bots import BOT_LEVELS, get_bot


def test_names_and_lookup():
    assert "chicken-foot" in GAME_NAMES and GAME_NAMES[-1] == "moon"
    for name in GAME_NAMES:
        assert get_game(name).name == name
    with pytest.raises(ValueError, match="unknown game"):
        get_game("mahjong")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_engine_loop(name):
    game = get_game(name)
    state = game.new_game(players=game.min_players, options={}, seed=7)
    assert state.chance and not state.over and state.round == 0 and state.to_move is None
    assert game.legal_moves(state) == ()
    rng = random.Random(state.seed)
    while state.chance:
        state = game.apply(state, game.deal(state, rng))
    assert state.round == 1
    for attribute in ("players", "seed", "options", "to_move", "chance", "over", "round", "hands", "stock"):
        getattr(state, attribute)
    assert isinstance(state.scores, tuple) and isinstance(state.winners, tuple)
    moves = game.legal_moves(state)
    assert isinstance(moves, tuple) and moves
    assert moves == game.legal_moves(state)  # stable order
    after = game.apply(state, moves[0])
    assert after != state
    assert game.legal_moves(state) == moves  # the old state is unchanged
    view = game.view(state, 0)
    world = game.determinize(view, random.Random(1))
    assert game.view(world, 0) == view
    assert hash(state) == hash(
        game.apply(
            game.new_game(game.min_players, {}, 7), game.deal(game.new_game(game.min_players, {}, 7), random.Random(7))
        )
    )


@pytest.mark.parametrize("name", GAME_NAMES)
def test_options_are_frozen_and_complete(name):
    game = get_game(name)
    state = game.new_game(game.min_players, {}, 1)
    assert set(state.options) == {spec.name for spec in game.option_specs}
    hash(state.options)
    with pytest.raises(ValueError, match="unknown option"):
        game.new_game(game.min_players, {"colour": "red"}, 1)


def test_illegal_move_carries_its_rule():
    error = IllegalMove("CF-10", "the chicken foot on the 5-5 needs two more toes before any other play")
    assert error.rule == "CF-10"
    assert str(error) == error.message == "CF-10: the chicken foot on the 5-5 needs two more toes before any other play"


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_decide_from_the_view_alone(name, level):
    """Two states that look the same to a seat get the same decision from the same rng."""
    game = get_game(name)
    rng = random.Random(5)
    state = game.new_game(game.min_players, {}, 5)
    checked = 0
    while not state.over and checked < 40:
        if state.chance:
            state = game.apply(state, game.deal(state, rng))
            continue
        seat = state.to_move
        view = game.view(state, seat)
        other = game.determinize(view, random.Random(checked))
        assert game.view(other, seat) == view
        bot = limited(get_bot(level))
        legal = game.legal_moves(state)
        first = bot.choose(view, legal, random.Random(checked), 60.0)
        second = bot.choose(game.view(other, seat), game.legal_moves(other), random.Random(checked), 60.0)
        assert first == second and first in legal
        state = game.apply(state, first)
        checked += 1


def limited(bot):
    """Searching bots with a small fixed amount of work, so the test is quick and deterministic."""
    if hasattr(bot, "max_worlds"):
        return type(bot)(max_worlds=3)
    return bot


def test_tile_is_exported():
    assert Tile(1, 2).pips == 3


def test_the_registry_titles_match_the_games():
    from core import GAME_TITLES

    assert {name: get_game(name).title for name in GAME_NAMES} == GAME_TITLES
