"""The searching bots keep to their budgets: the median decision ends within it, the 95th
percentile within one and a half times it.

Time here is a stand-in clock that moves only as a bot works (each imagined deal costs a few
milliseconds of it), so the test says whether a bot stops in time, whatever the machine's load."""

from __future__ import annotations

import random
import statistics
from itertools import islice

import pytest

import core.bots.clock
from core.bots import get_bot
from core.registry import get_game
from core.simulation import easy_play_decisions

BUDGET = 0.1
TABLES = {"chicken-foot": 4, "doubles": 2, "moon": 3}


class StandInClock:
    def __init__(self, seed: int) -> None:
        self.now = 1000.0
        self.rng = random.Random(seed)

    def perf_counter(self) -> float:
        return self.now

    def spend(self) -> None:
        self.now += self.rng.uniform(0.002, 0.006)


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize("game_name", list(TABLES))
def test_the_median_decision_ends_within_the_budget(monkeypatch, level, game_name):
    clock = StandInClock(seed=len(game_name))
    monkeypatch.setattr(core.bots.clock, "time", clock)
    game = get_game(game_name)
    determinize = game.determinize

    imagined = []

    def costly_determinize(view, rng, *constraints):
        clock.spend()
        imagined.append(1)
        return determinize(view, rng, *constraints)

    monkeypatch.setattr(game, "determinize", costly_determinize)
    bot = get_bot(level)
    times = []
    for index, (view, legal) in enumerate(islice(easy_play_decisions(game_name, TABLES[game_name]), 12)):
        started = clock.now
        assert bot.choose(view, legal, random.Random(index), BUDGET) in legal
        times.append(clock.now - started)
    assert len(imagined) > 3 * len(times)  # the deals were imagined through the stand-in
    times.sort()
    assert statistics.median(times) <= BUDGET
    assert times[round(len(times) * 0.95) - 1] <= 1.5 * BUDGET
