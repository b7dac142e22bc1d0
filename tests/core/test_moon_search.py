"""The hard Moon bot's end-of-hand search: alpha-beta finds the value a full search finds, with the
bot maximising, its opponents minimising, and a fellow defender playing as the rollouts do."""

from __future__ import annotations

import math
import random

from core.bots import moon_search
from core.bots.evaluation import round_value
from core.bots.rollout import POLICIES
from core.games.moon import GAME as MOON
from core.games.moon import PLAYING, TRICKS


class EvenRandom(random.Random):
    """Breaks every tie the same way, however many times it is asked: a pruned and an unpruned
    search then see the same fellow-defender plays."""

    def random(self) -> float:
        return 0.5


def full_search(state, seat: int, bidder: int) -> float:
    if state.chance or state.over:
        return round_value("moon", state, seat)
    values = [full_search(MOON.apply(state, move), seat, bidder) for move in state.legal]
    if state.to_move == seat:
        return max(values)
    if seat != bidder and state.to_move != bidder:
        move = state.legal[0] if len(state.legal) == 1 else POLICIES["moon"](state, state.legal, EvenRandom())
        return full_search(MOON.apply(state, move), seat, bidder)
    return min(values)


def late_positions(count: int):
    """Positions of random Moon play with at most `SOLVE_TRICKS` tricks left."""
    rng = random.Random(3)
    state = MOON.new_game(3, MOON.resolve_options(3, {}), 3)
    found = 0
    while found < count:
        if state.over:
            state = MOON.new_game(3, MOON.resolve_options(3, {}), rng.randrange(1000))
        if state.chance:
            state = MOON.apply(state, MOON.deal(state, rng))
            continue
        if state.phase == PLAYING and TRICKS - len(state.tricks) <= moon_search.SOLVE_TRICKS:
            yield state
            found += 1
        legal = MOON.legal_moves(state)
        state = MOON.apply(state, legal[rng.randrange(len(legal))])


def test_alpha_beta_finds_the_full_searchs_value_for_bidder_and_defenders():
    roles = set()
    for state in late_positions(60):
        seat, bidder = state.to_move, state.bidder
        roles.add(seat == bidder)
        for move in state.legal:
            after = MOON.apply(state, move)
            expected = full_search(after, seat, bidder)
            assert moon_search.solve(after, seat, bidder, -math.inf, math.inf, EvenRandom()) == expected
    assert roles == {True, False}  # both as the bidder and as a defender
