"""What seeing the other hand would be worth: a ceiling for inference in 2-player Doubles.

    .venv/bin/python bench/hidden_hand.py                 # 100 duplicate sets, about 12 minutes on 2 cores
    .venv/bin/python bench/hidden_hand.py --matches 20 --jobs 1

An experiment, not a player: `hard` searches as it always does, but every world it imagines holds
the opponent's real hand (the boneyard stays hidden: its order is shuffled afresh in every world).
It plays `medium` in duplicate matches to 100, as `dominoes tournament --game doubles --players 2
--bots hard,medium --budget hard=0.1 --budget medium=0.02` does with the real `hard`. Whatever
`hard` could learn about the other hand from the play, it cannot do better than knowing it, so the
win rate here bounds what better inference could bring at these budgets.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine
from core.bots import Bot, get_bot
from core.bots.hard import HardBot
from core.match import Match
from core.shuffle import shuffle
from core.tournament import GameRecord, Job, jobs, play, tally

BUDGETS = {"hard": 0.1, "medium": 0.02}


class SeeingHard(HardBot):
    """`hard`, reading the real state of its match at each decision; it imagines only the
    boneyard's order."""

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def world_sampler(self, game: Any, view: Any) -> Callable[[random.Random], Any]:  # type: ignore[override]
        truth = self.match.state

        def world(rng: random.Random) -> Any:
            stock = list(truth.stock)
            shuffle(stock, rng)
            return truth._replace(stock=tuple(stock))

        return world


def seeing_bots(match: Match, levels: tuple[str, ...]) -> list[Bot]:
    return [SeeingHard(match) if level == "hard" else get_bot(level) for level in levels]


def play_seeing(job: Job) -> GameRecord:
    return play(job, seeing_bots)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="duplicate sets (deal seeds)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    work = jobs("doubles", 2, {}, ["hard", "medium"], args.matches, args.seed, BUDGETS)
    with ProcessPoolExecutor(args.jobs) as pool:
        records = list(pool.map(play_seeing, work))
    print(machine())
    for level, entry in tally(records).items():
        report = entry.report()
        low, high = report["win_rate_ci95"]
        name = "hard, seeing the other hand" if level == "hard" else level
        print(
            f"{name:28} wins {report['win_rate']:6.1%} ({low:.1%} to {high:.1%}) of {report['seat_games']} matches,"
            f" {report['mean_score']:5.2f} points a round"
        )
    per_seed: dict[int, list[float]] = {}
    for job, record in zip(work, records, strict=True):
        hard_seat = record.levels.index("hard")
        per_seed.setdefault(job.seed, []).append(
            record.mean_round_scores[hard_seat] - record.mean_round_scores[1 - hard_seat]
        )
    edges = [statistics.fmean(values) for values in per_seed.values()]
    print(f"its edge: {statistics.fmean(edges):+.2f} points a round")


if __name__ == "__main__":
    main()
