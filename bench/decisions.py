"""How long the searching bots take per decision, at their default budgets or at others.

    python bench/decisions.py                 # medium and hard, every game, 24 decisions each
    python bench/decisions.py --decisions 60 --levels hard
    python bench/decisions.py --budget hard=0.1 --budget medium=0.02

A round of each game is played by easy bots; at every decision with more than one legal move the
bot being measured is asked for its move (and the easy move is played, so every level sees the same
positions). The targets: the median within the budget, the 95th percentile at most 1.5 x the budget,
and `hard`'s 99th percentile under 1.2 x its budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots import get_bot
from core.simulation import easy_play_decisions

TABLES = {"chicken-foot": 4, "doubles": 2, "moon": 3}


def decision_times(game: str, level: str, decisions: int, budget: float | None) -> list[float]:
    bot = get_bot(level)
    times: list[float] = []
    for view, legal in islice(easy_play_decisions(game, TABLES[game]), decisions):
        started = time.perf_counter()
        bot.choose(view, legal, random.Random(len(times)), budget)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=24)
    parser.add_argument("--levels", default="medium,hard")
    parser.add_argument("--budget", action="append", default=[], metavar="LEVEL=SECONDS", help="repeatable")
    args = parser.parse_args()
    budgets = {level: float(seconds) for level, _, seconds in (text.partition("=") for text in args.budget)}
    for level in args.levels.split(","):
        budget = budgets.get(level, get_bot(level).default_budget)
        for game in TABLES:
            times = sorted(decision_times(game, level, args.decisions, budget))
            p95 = times[max(0, round(len(times) * 0.95) - 1)]
            p99 = times[max(0, round(len(times) * 0.99) - 1)]
            print(
                f"{level:7} {game:13} budget {budget:4.2f} s   median {statistics.median(times):5.3f} s"
                f" ({statistics.median(times) / budget:4.2f}x)   p95 {p95:5.3f} s ({p95 / budget:4.2f}x)"
                f"   p99 {p99:5.3f} s ({p99 / budget:4.2f}x)   max {times[-1]:5.3f} s   ({len(times)} decisions)"
            )


if __name__ == "__main__":
    main()
