"""Seeded random matches of every game, checked after every event (see harness.py).

The default suite plays a few hundred short matches per game; set DOMINOES_SOAK=N to play N
times as many, longer ones too (see the README).
"""

from __future__ import annotations

import itertools
import os

import pytest

from tests.core.harness import play_checked_match

SOAK = int(os.environ.get("DOMINOES_SOAK", "0") or 0)

LEVELS = (("random",), ("easy",), ("easy", "random"))


def chicken_foot_cases():
    """300 matches over 2..8 players and the options (more with DOMINOES_SOAK)."""
    option_sets = [
        {"rounds": 1},
        {"rounds": 2, "double_blank_50": True},
        {"rounds": 1, "centre_trains": 8},
    ]
    cases = []
    count = 300 * max(1, SOAK)
    for index, (players, options, levels) in enumerate(
        itertools.islice(itertools.cycle(itertools.product(range(2, 9), option_sets, LEVELS)), count)
    ):
        if SOAK:
            options = {**options, "rounds": 10 if index % 3 == 0 else options["rounds"]}
        if options.get("centre_trains", 0) and options["centre_trains"] < players:
            options = {**options, "centre_trains": players}
        cases.append((players, options, levels, index % 4 == 0))
    return cases


@pytest.mark.parametrize("batch", range(10))
def test_chicken_foot_random_matches(batch):
    cases = chicken_foot_cases()
    for index, (players, options, levels, human) in enumerate(cases):
        if index % 10 == batch:
            play_checked_match("chicken-foot", players, options, 1000 + index, levels, human)


@pytest.mark.parametrize("players", [2, 8])
def test_chicken_foot_full_ten_round_match(players):
    match = play_checked_match("chicken-foot", players, {}, 7 + players, ("random",), False)
    assert match.state.round == 10 and len(match.state.round_scores) == 10


def doubles_cases():
    """300 matches over 2..4 players and the options (more with DOMINOES_SOAK), most to a small
    target so the default suite stays fast."""
    option_sets = [
        {"target": 15},
        {"target": 25, "blocked_tie": "split"},
        {"target": 5, "blocked_tie": "nobody"},
        {"target": 40, "blocked_tie": "split"},
    ]
    cases = []
    count = 300 * max(1, SOAK)
    for index, (players, options, levels) in enumerate(
        itertools.islice(itertools.cycle(itertools.product(range(2, 5), option_sets, LEVELS)), count)
    ):
        if SOAK and index % 3 == 0:
            options = {**options, "target": 100}
        cases.append((players, options, levels, index % 4 == 0))
    return cases


@pytest.mark.parametrize("batch", range(10))
def test_doubles_random_matches(batch):
    cases = doubles_cases()
    for index, (players, options, levels, human) in enumerate(cases):
        if index % 10 == batch:
            play_checked_match("doubles", players, options, 2000 + index, levels, human)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_doubles_full_match_to_the_default_target(players):
    match = play_checked_match("doubles", players, {}, 11 + players, ("easy", "random"), False)
    state = match.state
    assert max(state.scores) >= 100 and len(state.winners) == 1
    assert state.scores == tuple(sum(points[seat] for points in state.round_scores) for seat in range(players))


def test_doubles_match_with_a_redeal():
    # Seed 997's first deal at a 2-player table gives nobody a double: DB-3's redeal, checked
    # event by event like any other deal.
    match = play_checked_match("doubles", 2, {"target": 20}, 997, ("random",), True)
    assert match.state_at(1).chance and match.state_at(1).round == 1
    assert match.state_at(2).round == 1 and not match.state_at(2).chance
