"""The hard bot's reading of the others' Doubles hands (`core.bots.doubles_inference`).

Sound: what it reads from the record holds of the real hands in every position. Useful: the
worlds it draws keep to it where plain determinization does not.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core import get_game
from core.bots.doubles_inference import Evidence, sample
from core.games.doubles import HIGHEST_FIRST
from core.moves import Play
from core.tiles import TILE_BIT

DB = get_game("doubles")


def random_position(seed: int, moves: int, players: int):
    """A round in progress after `moves` random moves (a new deal replaces a finished round)."""
    rng = random.Random(seed)
    state = DB.new_game(players, {"target": 1000}, seed)
    for _ in range(moves):
        while state.chance:  # a deal where nobody holds a double is dealt again (DB-3)
            state = DB.apply(state, DB.deal(state, rng))
        legal = DB.legal_moves(state)
        state = DB.apply(state, legal[rng.randrange(len(legal))])
    while state.chance:
        state = DB.apply(state, DB.deal(state, rng))
    return state


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60), st.integers(2, 4), st.integers(0, 3))
def test_what_the_record_says_holds_of_the_real_hands(seed, moves, players, seat):
    # DB-3, DB-7, DB-8: the facts are facts: no real hand breaks them.
    state = random_position(seed, moves, players)
    seat %= players
    evidence = Evidence(DB.view(state, seat))
    for other, banned in evidence.forbidden.items():
        assert not state.hand_masks[other] & banned
    assert evidence.excess(state.hand_masks) == 0


def worlds_breaking_the_facts(draw_world) -> tuple[int, int]:
    """(worlds that break the record's facts, worlds drawn), over positions of a 2-player round."""
    broken = drawn = 0
    for seed in range(60):
        state = random_position(seed, 5 + seed % 40, 2)
        view = DB.view(state, state.to_move)
        evidence = Evidence(view)
        rng = random.Random(seed)
        for _ in range(10):
            world = draw_world(view, rng, evidence)
            assert DB.view(world, view.seat) == view
            banned = any(world.hand_masks[seat] & tiles for seat, tiles in evidence.forbidden.items())
            broken += banned or evidence.excess(world.hand_masks) > 0
            drawn += 1
    return broken, drawn


def test_worlds_keep_to_every_draw_and_pass_seen():
    plain, drawn = worlds_breaking_the_facts(lambda view, rng, evidence: DB.determinize(view, rng))
    inferred, drawn_too = worlds_breaking_the_facts(sample)
    assert drawn == drawn_too == 600
    assert plain > drawn // 20  # plain determinization forgets what earlier draws and the opening said
    assert inferred * 20 < plain


def test_db3_nobody_was_dealt_a_double_above_the_opening_one():
    seed = next(s for s in range(100) if (random_position(s, 1, 2).placed[0].tile != HIGHEST_FIRST[0]))
    state = random_position(seed, 1, 2)  # the opening double is down and not the 6-6
    opening = state.placed[0]
    assert type(opening) is Play and opening.low == opening.high
    opener = 1 - state.to_move
    higher = sum(TILE_BIT[double] for double in HIGHEST_FIRST if double > opening.tile)
    view = DB.view(state, state.to_move)
    rng = random.Random(seed)
    plain = sum(bool(DB.determinize(view, rng).hand_masks[opener] & higher) for _ in range(200))
    evidence = Evidence(view)
    inferred = sum(bool(sample(view, rng, evidence).hand_masks[opener] & higher) for _ in range(200))
    assert plain > 0
    assert inferred == 0
