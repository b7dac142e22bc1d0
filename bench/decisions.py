"""How long the searching bots take per decision at their default budgets.

    python bench/decisions.py                 # medium and hard, every game, 24 decisions each
    python bench/decisions.py --decisions 60 --levels hard

A round of each game is played by easy bots; at every decision with more than one legal move the
bot being measured is asked for its move (and the easy move is played, so every level sees the same
positions). The target: the median within the budget, the 95th percentile at most 1.5 x the budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import Match
from core.bots import get_bot

TABLES = {"chicken-foot": 4, "doubles": 2, "moon": 3}


def decision_times(game: str, level: str, decisions: int) -> list[float]:
    bot, easy = get_bot(level), get_bot("easy")
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        seed += 1
        match = Match(game, TABLES[game], {}, None, seed)
        rng = random.Random(seed)
        match.deal()
        while len(times) < decisions and not match.state.over and not match.state.chance:
            view, legal = match.view(match.state.to_move), match.legal_moves()
            if len(legal) > 1:
                started = time.perf_counter()
                bot.choose(view, legal, random.Random(len(times)))
                times.append(time.perf_counter() - started)
            match.apply(easy.choose(view, legal, rng))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=24)
    parser.add_argument("--levels", default="medium,hard")
    args = parser.parse_args()
    for level in args.levels.split(","):
        budget = get_bot(level).default_budget
        for game in TABLES:
            times = sorted(decision_times(game, level, args.decisions))
            p95 = times[max(0, round(len(times) * 0.95) - 1)]
            print(
                f"{level:7} {game:13} budget {budget:4.2f} s   median {statistics.median(times):5.3f} s"
                f" ({statistics.median(times) / budget:4.2f}x)   p95 {p95:5.3f} s ({p95 / budget:4.2f}x)"
                f"   max {times[-1]:5.3f} s   ({len(times)} decisions)"
            )


if __name__ == "__main__":
    main()
