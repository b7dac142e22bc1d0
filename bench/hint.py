"""How long the hint takes: the medium bot's sampled deals for every human decision of a round.

    python bench/hint.py              # Chicken Foot with 2 and 4 players, and Moon, seeds 1 to 3
    python bench/hint.py --seeds 5

The hint runs in a thread of the interface, so this is how long "Hint: thinking…" shows. Each
decision of a round played by easy bots gets a hint; a decision with one legal move takes none.
Moon's are given by phase: its bidding, discard and trump hints also try each trump in deals of
the unseen tiles (core/bots/moon_trump.py), so that the bidding hint and the trump hint agree.
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
from core.bots.hint import HINT_WORLDS, hint


def hint_times(players: int, seed: int) -> list[float]:
    match = Match("chicken-foot", players, {"rounds": 1}, None, seed)
    match.deal()
    rng = random.Random(seed)
    easy = get_bot("easy")
    times = []
    while not match.state.over and not match.state.chance:
        view, legal = match.view(match.state.to_move), match.legal_moves()
        if len(legal) > 1:
            started = time.perf_counter()
            hint(view, legal)
            times.append(time.perf_counter() - started)
        match.apply(easy.choose(view, legal, rng))
    return times


def moon_times(seed: int) -> dict[str, list[float]]:
    """Every decision of one Moon hand of easy bots, the hint's time by phase."""
    match = Match("moon", 3, {}, None, seed)
    match.deal()
    rng = random.Random(seed)
    easy = get_bot("easy")
    times: dict[str, list[float]] = {}
    while not match.state.over and not match.state.chance:
        view, legal = match.view(match.state.to_move), match.legal_moves()
        if len(legal) > 1:
            started = time.perf_counter()
            hint(view, legal)
            times.setdefault(view.phase, []).append(time.perf_counter() - started)
        match.apply(easy.choose(view, legal, rng))
    return times


def summary(times: list[float]) -> str:
    times = sorted(times)
    p90 = times[max(0, int(len(times) * 0.9) - 1)]
    return (
        f"median {statistics.median(times) * 1000:6.0f} ms   p90 {p90 * 1000:6.0f} ms"
        f"   max {times[-1] * 1000:6.0f} ms   ({len(times)} hints)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    print(f"hint with {HINT_WORLDS} sampled deals, Chicken Foot, one round per seed")
    for players in (2, 4):
        times = [t for seed in range(1, args.seeds + 1) for t in hint_times(players, seed)]
        print(f"{players} players: {summary(times)}")
    print("Moon, one hand per seed, by phase")
    phases: dict[str, list[float]] = {}
    for seed in range(1, args.seeds + 1):
        for phase, found in moon_times(seed).items():
            phases.setdefault(phase, []).extend(found)
    for phase in ("bidding", "discard", "trump", "play"):
        if phases.get(phase):
            print(f"{phase:>9}: {summary(phases[phase])}")


if __name__ == "__main__":
    main()
