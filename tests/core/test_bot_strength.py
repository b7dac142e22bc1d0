"""Quick strength tests: each level at least as strong as the one below it, in every game.

Small duplicate tournaments at a fixed seed, each searching bot weighing a fixed number of imagined
deals under a budget it never reaches, so the games are the same on any machine however busy. They
fail if a change makes `medium` weaker than `easy` or `hard` weaker than `medium` by more than a
standard error of the per-deal difference (each runs long enough that a level playing at random
would fail it). The manual's
strength table (docs/bots.md), with real budgets and hundreds of games, measures how much stronger each level is.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict

import pytest

from core.tournament import jobs, play

WORLDS = {"medium": 8, "hard": 40}  # imagined deals a decision (hard's Moon deals cost more: 20)
GENEROUS = {level: 60.0 for level in WORLDS}  # seconds: never reached, so the worlds decide
LOWER_IS_BETTER = {"chicken-foot"}

# game, players, options (matches of one round or hand), duplicate sets, the stronger level, the weaker
CASES = [
    ("doubles", 2, {"target": 1}, 400, "medium", "easy"),
    ("doubles", 2, {"target": 1}, 200, "hard", "medium"),
    ("chicken-foot", 4, {"rounds": 1}, 10, "medium", "easy"),
    ("chicken-foot", 4, {"rounds": 1}, 4, "hard", "medium"),
    ("moon", 3, {"target": 1}, 10, "medium", "easy"),
    ("moon", 3, {"target": 1}, 8, "hard", "medium"),
]


def paired_advantage(game: str, players: int, options: dict, sets: int, strong: str, weak: str) -> list[float]:
    """Per deal seed: how much better `strong` scored a round than `weak`, each averaged over its
    seats in every rotation of the line-up (one `strong` against the rest `weak`)."""
    worlds = {level: count for level, count in WORLDS.items() if level in (strong, weak)}
    if game == "moon" and "hard" in worlds:
        worlds["hard"] = 20
    work = jobs(game, players, options, [strong] + [weak] * (players - 1), sets, 1, GENEROUS, worlds)
    scores: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for job in work:
        record = play(job)
        for seat, level in enumerate(record.levels):
            scores[job.seed][level].append(record.mean_round_scores[seat])
    sign = -1 if game in LOWER_IS_BETTER else 1
    return [sign * (statistics.fmean(by[strong]) - statistics.fmean(by[weak])) for by in scores.values()]


@pytest.mark.parametrize(("game", "players", "options", "sets", "strong", "weak"), CASES)
def test_a_level_is_not_weaker_than_the_one_below(game, players, options, sets, strong, weak):
    advantage = paired_advantage(game, players, options, sets, strong, weak)
    mean = statistics.fmean(advantage)
    error = statistics.stdev(advantage) / math.sqrt(len(advantage))
    assert mean > -error, f"{strong} scored {mean:+.2f} a round against {weak} (standard error {error:.2f})"
