"""How many imagined deals (worlds) a second the searching bots get through, per game.

    .venv/bin/python bench/worlds.py                        # medium and hard, every game
    .venv/bin/python bench/worlds.py --levels medium --positions 20

A round of each game is played by easy bots; at positions with more than one legal move, the bot
searches a fixed number of worlds with a budget too large to bind, so both the work and the choice
are fixed by the seed. The figure is worlds per second of processor time (this process's, so other
programs on a shared machine count less), and playouts per second: a world of `medium` plays one
round out per legal move; a world of `hard` runs one tree iteration per root move still in
contention (Moon: `hard` simulates or solves each legal move in each world).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine
from core import Match
from core.bots import get_bot
from core.bots.hard import HardBot
from core.bots.medium import MediumBot

TABLES = {"chicken-foot": 4, "doubles": 2, "moon": 3}
WORLDS = {"medium": 16, "hard": 40}
GENEROUS = 3600.0  # seconds: a budget that never binds, so the world count does


def positions(game: str, count: int) -> list[tuple[object, tuple[object, ...]]]:
    """(view, legal) at decisions with a choice, from rounds of easy play."""
    easy = get_bot("easy")
    found: list[tuple[object, tuple[object, ...]]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        match = Match(game, TABLES[game], {}, None, seed)
        rng = random.Random(seed)
        match.deal()
        while len(found) < count and not match.state.over and not match.state.chance:
            view, legal = match.view(match.state.to_move), match.legal_moves()
            if len(legal) > 1:
                found.append((view, legal))
            match.apply(easy.choose(view, legal, rng))
    return found


def search(level: str, view: object, legal: tuple[object, ...], seed: int) -> tuple[int, int]:
    """One decision's search: (worlds, playouts)."""
    rng = random.Random(seed)
    if level == "medium":
        _, _, worlds = MediumBot(WORLDS["medium"]).evaluate(view, legal, rng, GENEROUS)
        return worlds, worlds * len(legal)
    bot = HardBot(WORLDS["hard"])
    if view.game == "moon":  # type: ignore[attr-defined]
        worlds = max(1, bot.max_worlds // 10)
        bot.choose(view, legal, rng, GENEROUS)
        return worlds, worlds * len(legal)
    root = bot.search(view, legal, rng, GENEROUS)
    return root.visits, sum(child.available for child in root.children.values())


def measure(game: str, level: str, count: int) -> dict[str, float]:
    worlds = playouts = 0
    elapsed = 0.0
    per_decision = []
    for index, (view, legal) in enumerate(positions(game, count)):
        started = time.process_time()
        found, played = search(level, view, legal, index)
        took = time.process_time() - started
        elapsed += took
        worlds += found
        playouts += played
        per_decision.append(found / took if took > 0 else 0.0)
    return {
        "worlds_per_second": worlds / elapsed,
        "playouts_per_second": playouts / elapsed,
        "median_worlds_per_second": statistics.median(per_decision),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=12, help="decisions measured per level and game")
    parser.add_argument("--levels", default="medium,hard")
    parser.add_argument("--game", choices=tuple(TABLES), action="append", help="game to measure (repeatable)")
    args = parser.parse_args()
    print(machine())
    for level in args.levels.split(","):
        for game in args.game or TABLES:
            r = measure(game, level, args.positions)
            print(
                f"{level:6} {game:13} ({TABLES[game]} players, {WORLDS[level]} worlds a decision): "
                f"{r['worlds_per_second']:,.0f} worlds/s, {r['playouts_per_second']:,.0f} playouts/s"
            )


if __name__ == "__main__":
    main()
