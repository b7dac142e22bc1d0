"""Determinization: worlds consistent with everything a seat has seen.

Properties, over random positions of every game: a determinized world gives its seat exactly the
same view, and never puts a tile where that seat knows it is not; the inference is also sound:
the real hands never hold a tile the seat believes they lack.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core import GAME_NAMES, get_game
from core.determinize import deal_unseen
from core.games import chicken_foot, doubles, moon
from core.tiles import DOUBLE_NINE, TILE_BIT, mask_of

KNOWN_MISSES = {
    "chicken-foot": chicken_foot.known_misses,
    "doubles": doubles.known_misses,
    "moon": moon.void_masks,
}


def random_position(name: str, seed: int, moves: int):
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_game(game.min_players + seed % (game.max_players - game.min_players + 1), {}, seed)
    for _ in range(moves):
        if state.over:
            break
        if state.chance:
            state = game.apply(state, game.deal(state, rng))
        else:
            legal = game.legal_moves(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
    return game, state


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(GAME_NAMES), st.integers(0, 10_000), st.integers(1, 400), st.integers(0, 7), st.integers())
def test_determinized_worlds_match_the_view_and_what_the_seat_knows(name, seed, moves, seat, world_seed):
    game, state = random_position(name, seed, moves)
    seat %= state.players
    view = game.view(state, seat)
    world = game.determinize(view, random.Random(world_seed))
    assert game.view(world, seat) == view
    misses = KNOWN_MISSES.get(name)
    if misses is None or view.round == 0 or view.chance or view.over:
        return
    for other, ban in misses(view).items():
        for source in (world, state):
            held = mask_of(source.hands[other])
            if getattr(source, "drawn", None) is not None and other == source.to_move:
                held &= ~TILE_BIT[source.drawn]  # the tile just drawn, which must be played, fits by rule
            assert not held & ban, f"{'a world' if source is world else 'the real state'} breaks what the seat knows"


def test_draw_and_pass_reveal_misses_in_chicken_foot():
    """A seat that drew could not match the ends then; the world never gives it such a tile."""
    game, state = random_position("chicken-foot", 3, 0)
    rng = random.Random(3)
    found = 0
    while found < 20 and not state.over:
        if state.chance:
            state = game.apply(state, game.deal(state, rng))
            continue
        legal = game.legal_moves(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
        for seat in range(state.players):
            view = game.view(state, seat)
            if view.chance or view.over:
                continue
            misses = chicken_foot.known_misses(view)
            if any(misses.values()):
                found += 1
    assert found >= 20


def test_deal_unseen_respects_bans_and_sizes():
    rng = random.Random(1)
    unseen = list(DOUBLE_NINE[:20])
    ban = mask_of(unseen[:15])  # seat 1 may only hold the last five tiles
    for _ in range(50):
        hands, stock = deal_unseen(unseen, {1: 5, 2: 6}, {1: ban}, rng)
        assert sorted(hands[1]) == unseen[15:]
        assert len(hands[2]) == 6 and len(stock) == 9
        assert sorted(hands[1] + hands[2] + stock) == sorted(unseen)
        assert not any(TILE_BIT[t] & ban for t in hands[1])
