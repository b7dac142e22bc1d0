"""Seeded random matches of every game, checked after every event (see harness.py).

The default suite plays a few hundred short matches per game; set DOMINOES_SOAK=N to play N
times as many, longer ones too (see docs/testing.md).
"""

from __future__ import annotations

import itertools
import os

import pytest

from core.moves import Bid
from core.simulation import simulate_match
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


def moon_cases():
    """300 matches over every option, most to a small target so they stay short; the easy bots also
    play some to the full 21 (more, and longer, with DOMINOES_SOAK)."""
    option_sets = [
        {"target": 1},
        {"target": 3, "all_pass": "force"},
        {"target": 4, "doubles_trump": False},
        {"target": 2, "all_pass": "force", "doubles_trump": False},
    ]
    cases = []
    count = 300 * max(1, SOAK)
    for index, (options, levels) in enumerate(
        itertools.islice(itertools.cycle(itertools.product(option_sets, LEVELS)), count)
    ):
        if levels == ("random",):
            # Random bidders often bid 21 and fail: a high target can take thousands of moves.
            options = {**options, "target": min(options["target"], 2)}
        elif SOAK or index % 15 == 1:
            options = {**options, "target": 21}
        cases.append((options, levels, index % 4 == 0))
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


@pytest.mark.parametrize("batch", range(10))
def test_moon_random_matches(batch):
    for index, (options, levels, human) in enumerate(moon_cases()):
        if index % 10 == batch:
            play_checked_match("moon", 3, options, 2000 + index, levels, human)


def test_moon_random_matches_reach_every_branch():
    """Bots at the harness's options reach redeals, forced bids, failed 21s, ties at the
    target and every trump choice (played without the checks, so the test stays fast)."""
    trumps, redeals, forced, moons_failed, ties = set(), 0, 0, 0, 0
    for index, (options, levels, _) in enumerate(moon_cases()[:120]):
        match, _ = simulate_match("moon", 3, options, levels, 2000 + index)
        for i in range(1, len(match.events) + 1):
            state, before = match.state_at(i), match.state_at(i - 1)
            redeals += state.info.redeal and not before.info.redeal
            forced += (
                options.get("all_pass") == "force" and not before.legal.count(Bid(0)) and before.phase == "bidding"
            )
            if len(state.records) > len(before.records):
                record = state.records[-1]
                trumps.add(record.trump)
                moons_failed += record.bid == 21 and not record.made
                best = max(state.scores)
                ties += best >= options["target"] and state.scores.count(best) > 1
    assert redeals and forced and moons_failed and ties
    assert trumps == {0, 1, 2, 3, 4, 5, 6, "doubles", "none"}
