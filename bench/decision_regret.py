"""What each Doubles level's choices give away, judged by a searcher that sees the other hand.

    .venv/bin/python bench/decision_regret.py                 # 100 deal seeds, both seats: about 11 minutes on 2 cores
    .venv/bin/python bench/decision_regret.py --deals 10 --jobs 1
    .venv/bin/python bench/decision_regret.py --deals 50 --hard-budget 1   # hard with ten times the time

An experiment, not a player. Single 2-player rounds of `hard` (0.1 s a decision unless told)
against `medium` (0.02 s), each deal played in both seats. At every decision with a choice of plays,
a judge values each legal move: `hard` shown the other hand (`bench/hidden_hand.py`'s SeeingHard;
it imagines only the boneyard's order) searching 0.25 s, no move dropped early. A choice is charged
the judge's value of its best move minus that of the move chosen, in points of the round. Charged
so: the move each level made, and the one its playout policy (the heaviest tile) would have made in
its place.

The judge has noise of its own: a second search of the same position, with another generator, is
charged against the first as if it were a player, and that figure (the judge's floor) is what a
choice as good as the judge's would still be charged. A level's figure above the floor is what not
seeing the other hand, and a weaker search, cost it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.hidden_hand import BUDGETS, SeeingHard
from bench.machine import machine
from core.bots import get_bot
from core.bots.evaluation import value_scale
from core.bots.rollout import POLICIES
from core.match import Match
from core.moves import Move, Play
from core.tournament import Job, jobs, mean_interval, play

JUDGE_SECONDS = 0.25
POINTS = value_scale("doubles")  # the search's values back into points of the round


class Judge(SeeingHard):
    """SeeingHard that keeps every move in the search, so each has a value."""

    @staticmethod
    def _prune(root, values):  # type: ignore[no-untyped-def]
        return


def judge_values(judge: Judge, view: Any, legal: tuple[Move, ...], rng: random.Random) -> dict[Move, float]:
    root = judge.search(view, legal, rng, JUDGE_SECONDS)
    return {move: child.total / child.visits * POINTS for move, child in root.children.items()}


def charge(values: dict[Move, float], move: Move) -> float:
    return max(values.values()) - values[move]


class Charged:
    """A level's own bot, each of its choices between plays charged by the judge as it is made."""

    def __init__(self, level: str, match: Match, charges: list[tuple[str, float]]) -> None:
        self.level, self.match, self.charges = level, match, charges
        self.bot = get_bot(level)
        self.judge = Judge(match)
        self.judge_rng = random.Random(f"{match.seed}:{level}:judge")

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        move = self.bot.choose(view, legal, rng, budget)
        if sum(1 for option in legal if type(option) is Play) > 1:
            values = judge_values(self.judge, view, legal, self.judge_rng)
            again = judge_values(self.judge, view, legal, self.judge_rng)
            policy_choice = POLICIES["doubles"](self.match.state, legal, self.judge_rng)
            judge_choice = max(again, key=again.__getitem__)
            self.charges.append((self.level, charge(values, move)))
            self.charges.append((f"{self.level}'s playout policy", charge(values, policy_choice)))
            self.charges.append((f"the judge at {self.level}'s (its floor)", charge(values, judge_choice)))
        return move


def play_round(job: Job) -> list[tuple[str, float]]:
    """One round of the job: (who, points charged) for every choice between plays in it."""
    charges: list[tuple[str, float]] = []
    play(job, lambda match, levels: [Charged(level, match, charges) for level in levels])
    return charges


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deal seeds, each played with hard in both seats")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard-budget", type=float, default=BUDGETS["hard"], help="seconds a decision for hard")
    args = parser.parse_args()
    if args.deals < 1 or args.jobs < 1 or not args.hard_budget > 0:
        parser.error("--deals and --jobs must be at least 1, --hard-budget above 0")
    budgets = {**BUDGETS, "hard": args.hard_budget}
    work = jobs("doubles", 2, {"target": 1}, ["hard", "medium"], args.deals, args.seed, budgets)
    with ProcessPoolExecutor(args.jobs) as pool:
        rounds = list(pool.map(play_round, work))
    print(machine())
    print(f"{len(rounds)} rounds; points given away a decision with a choice of plays (95% interval), and a round")
    charged: dict[str, list[float]] = {}
    for round_charges in rounds:
        for who, points in round_charges:
            charged.setdefault(who, []).append(points)
    width = max(len(who) for who in charged)
    for who, points in charged.items():
        mean, (low, high) = statistics.fmean(points), mean_interval(points)
        # Each level chooses in every round (both seats are played), so a round's share is per round.
        per_round = sum(points) / len(rounds)
        interval = f"({low:.2f} to {high:.2f})"
        print(f"  {who:{width}} {mean:5.2f} {interval} over {len(points):5} decisions, {per_round:5.2f} a round")


if __name__ == "__main__":
    main()
