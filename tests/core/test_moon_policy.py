"""The hard Moon bot's playout rules on bitmasks choose exactly what the easy Moon bot chooses."""

from __future__ import annotations

import random

from core.bots import moon_policy
from core.bots.easy import moon as easy_moon
from core.games.moon import GAME as MOON


def test_the_bitmask_rules_make_the_easy_bots_moves_with_the_same_random_numbers():
    rng = random.Random(11)
    checked = set()
    for options in ({}, {"doubles_trump": False, "all_pass": "force"}):
        for seed in range(40):
            state = MOON.new_game(3, MOON.resolve_options(3, options), seed)
            while not state.over:
                if state.chance:
                    state = MOON.apply(state, MOON.deal(state, rng))
                    continue
                legal = state.legal
                draw = rng.randrange(1 << 30)
                easy_rng, fast_rng = random.Random(draw), random.Random(draw)
                expected = easy_moon.choose(MOON.view(state, state.to_move), legal, easy_rng)
                assert moon_policy.choose(state, legal, fast_rng) == expected
                assert easy_rng.random() == fast_rng.random()  # the same numbers were drawn
                checked.add(state.phase)
                # Half the moves at random, so the rules meet positions the easy bots would avoid.
                state = MOON.apply(state, legal[rng.randrange(len(legal))] if rng.random() < 0.5 else expected)
    assert checked == {"bidding", "discard", "trump", "play"}
