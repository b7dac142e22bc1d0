"""How long `dominoes review` takes, against its bound: decisions x budget / jobs, plus 10%.

    python bench/review.py                   # a 2-player Doubles match to 100, a 4-player ten-round Chicken Foot match
    python bench/review.py --budget 0.1 --jobs 1

Each match is played by easy bots (`dominoes simulate`, seed 1) and saved in a temporary directory;
the review is the command itself (`python -m cli review MATCH --json`, no sidecar yet), timed from
its start to its last line, Python's start-up, the worker processes' and the report included.
A decision with one legal move takes no thinking, so the review of one is quick.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import machine  # noqa: E402
from workers.review_pool import default_jobs  # noqa: E402

MATCHES = (
    ("doubles", 2, [], "a 2-player Doubles match to 100"),
    ("chicken-foot", 4, [], "a 4-player ten-round Chicken Foot match"),
)


def dominoes(*argv: str) -> str:
    result = subprocess.run([sys.executable, "-m", "cli", *argv], cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout


def bench(game: str, players: int, options: list[str], budget: float, jobs: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as directory:
        dominoes(
            "simulate", "--game", game, "--players", str(players), "--matches", "1", "--seed", str(seed),
            "--bots", "easy", "--save-dir", directory, *options,
        )  # fmt: skip
        match_id = next(Path(directory).glob("*.dominoes")).name.split(".")[0]
        started = time.perf_counter()
        report = json.loads(
            dominoes("review", match_id, "--dir", directory, "--budget", str(budget), "--jobs", str(jobs), "--json")
        )
        seconds = time.perf_counter() - started
    decisions = report["decisions"]
    return {
        "decisions": len(decisions),
        "choices": sum(1 for d in decisions if d["alternatives"] > 1),
        "seconds": seconds,
        "bound": len(decisions) * budget / jobs * 1.1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per decision (default 0.2, the command's)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes (default: the cores)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(machine())
    print(f"dominoes review --budget {args.budget:g} --jobs {args.jobs}, matches of easy bots, seed {args.seed}")
    for game, players, options, words in MATCHES:
        figures = bench(game, players, options, args.budget, args.jobs, args.seed)
        print(
            f"{words}: {figures['decisions']} decisions ({figures['choices']} with a choice), "
            f"{figures['seconds']:.1f} s; bound {figures['bound']:.1f} s "
            f"({figures['seconds'] / figures['bound']:.0%} of it)"
        )


if __name__ == "__main__":
    main()
