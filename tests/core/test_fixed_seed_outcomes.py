"""A seed decides a match: these pins were taken before the engine was made faster, and a faster
engine must give the same deals, the same legal moves in the same order, the same outcomes and the
same imagined deals for the bots (so every bot decides the same, given its generator).

If a rule change is meant to change play, the pins change with it; a speed-up must never."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from core import get_game
from core.simulation import simulate_match

CASES = {"chicken-foot": (4, {"rounds": 2}), "doubles": (4, {}), "moon": (3, {})}
PINS = {
    ("chicken-foot", "random"): "c9bd37253160d646",
    ("chicken-foot", "easy"): "f0c2483cb11f5ffc",
    ("chicken-foot", "worlds"): "08e51dda2f427582",
    ("doubles", "random"): "16d34ccced6691ce",
    ("doubles", "easy"): "6af5cece681a099a",
    ("doubles", "worlds"): "900f6913f4be462b",
    ("moon", "random"): "3a72e94b06a9523f",
    ("moon", "easy"): "1c28a7789a386942",
    ("moon", "worlds"): "0a4a366221d26b63",
}


def digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


@pytest.mark.parametrize("level", ["random", "easy"])
@pytest.mark.parametrize("name", CASES)
def test_a_seeded_simulation_plays_the_pinned_match(name, level):
    players, options = CASES[name]
    match, result = simulate_match(name, players, options, [level], 3)
    assert digest([[event.to_data() for event in match.events], list(result.scores)]) == PINS[name, level]


@pytest.mark.parametrize("name", CASES)
def test_a_seeded_determinization_imagines_the_pinned_deals(name):
    players, options = CASES[name]
    game = get_game(name)
    rng = random.Random(8)
    state = game.new_game(players, options, 8)
    worlds = []
    while not state.over and len(worlds) < 40:
        if state.chance:
            state = game.apply(state, game.deal(state, rng))
            continue
        world = game.determinize(game.view(state, state.to_move), random.Random(len(worlds)))
        places = (*world.hands, world.stock)
        worlds.append([[tile.to_data() for tile in place] for place in places])
        legal = game.legal_moves(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    assert digest(worlds) == PINS[name, "worlds"]
