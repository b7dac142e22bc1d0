"""The search bots' machinery: fast playout policies agree with the rules of thumb they stand for,
and the hard bot's root search keeps to its contenders."""

from __future__ import annotations

import random

from core.bots.easy import chicken_foot as easy_chicken_foot
from core.bots.hard import HardBot
from core.bots.rollout import POLICIES
from core.moves import Play
from core.registry import get_game
from core.tiles import tiles_in


def random_positions(game_name: str, players: int, seed: int, count: int):
    """States reached by random play, round after round, from a seeded match."""
    game = get_game(game_name)
    rng = random.Random(seed)
    state = game.new_game(players, game.resolve_options(players, {}), seed)
    found = 0
    while found < count and not state.over:
        if state.chance:
            state = game.apply(state, game.deal(state, rng))
            continue
        legal = game.legal_moves(state)
        yield state, legal
        found += 1
        state = game.apply(state, legal[rng.randrange(len(legal))])


def easy_rule(hand, tile, showing: int) -> int:
    """The easy Chicken Foot bot's rule of thumb as it is stated, on sets: pips, two points for every
    number still held after the play, and a bonus for a double or for a far end the hand can follow."""
    rest = [t for t in hand if t is not tile]
    numbers = {n for t in rest for n in t}
    score = tile.pips + easy_chicken_foot.VARIETY_WEIGHT * len(numbers)
    if tile.is_double:
        return score + easy_chicken_foot.DOUBLE_BONUS
    return score + (easy_chicken_foot.FOLLOW_UP_BONUS if tile.other(showing) in numbers else 0)


def test_chicken_foot_playout_policy_makes_the_easy_bots_choice():
    policy = POLICIES["chicken-foot"]
    compared = 0
    for state, legal in random_positions("chicken-foot", 4, 11, 3000):
        if type(legal[0]) is not Play or len(legal) < 2:
            continue
        hand = tiles_in(state.hand_masks[state.to_move])
        lines = state.board.lines
        scores = [easy_rule(hand, move.tile, lines[move.target].open) for move in legal]
        expected = legal[scores.index(max(scores))]  # the first of the best, as the policy takes it
        assert policy(state, legal, random.Random(0)) is expected
        compared += 1
    assert compared > 200


def test_hard_search_drops_only_moves_and_answers_among_the_contenders():
    game = get_game("chicken-foot")
    bot = HardBot(max_worlds=20)
    searched = 0
    for state, legal in random_positions("chicken-foot", 4, 5, 400):
        if len(legal) < 4 or searched >= 6:
            continue
        view = game.view(state, state.to_move)
        root = bot.search(view, legal, random.Random(searched), budget=60.0)
        assert root.children and set(root.children) <= set(legal)
        assert root.visits <= 20
        best_mean = max(child.total / child.visits for child in root.children.values())
        move = bot.choose(view, legal, random.Random(searched), budget=60.0)
        assert move in root.children
        assert root.children[move].total / root.children[move].visits == best_mean
        searched += 1
    assert searched == 6
