"""Engine speed: random play through the public API, per game.

    python bench/engine.py                      # every game
    python bench/engine.py --game chicken-foot  # one game
    python bench/engine.py --json

Per move: `legal_moves` plus `apply`, timed at positions recorded from seeded random matches.
Each position is timed in several passes spread over the run, and its best pass is kept, so a
busy moment on the machine does not count against the engine; the figure is the median over
positions. Per match: complete random matches per second (deals included), the plain loop, and
the rounds (Moon: hands; a redeal is not one) they scored per second, timed in processor time (this
process's), so other programs on a shared machine do not count against the engine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine
from core import GAME_NAMES, get_game

PLAYERS = {"chicken-foot": 4, "doubles": 4, "moon": 3}
ROUND_WORDS = {"moon": "hands"}


def record_positions(game, players: int, matches: int, seed: int) -> list[tuple[object, object]]:
    """(state, move) pairs from seeded random matches: the move is the one random play chose."""
    pairs = []
    for index in range(matches):
        rng = random.Random(seed + index)
        state = game.new_game(players, {}, seed + index)
        while not state.over:
            if state.chance:
                state = game.apply(state, game.deal(state, rng))
                continue
            legal = game.legal_moves(state)
            move = legal[rng.randrange(len(legal))]
            pairs.append((state, move))
            state = game.apply(state, move)
    return pairs


def time_moves(game, pairs, passes: int, repeat: int) -> list[float]:
    """Best-of-passes microseconds of legal_moves + apply at each position."""
    clock = time.perf_counter_ns
    legal_moves, apply = game.legal_moves, game.apply
    best = [float("inf")] * len(pairs)
    loop = range(repeat)
    for _ in range(passes):
        for index, (state, move) in enumerate(pairs):
            started = clock()
            for _ in loop:
                legal_moves(state)
                apply(state, move)
            elapsed = (clock() - started) / repeat / 1000
            if elapsed < best[index]:
                best[index] = elapsed
    return best


def full_matches(game, players: int, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Random matches played for about `seconds`: (matches, moves, rounds scored, elapsed)."""
    matches = moves = rounds = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        rng = random.Random(seed + matches)
        state = game.new_game(players, {}, seed + matches)
        while not state.over:
            if state.chance:
                state = game.apply(state, game.deal(state, rng))
                continue
            legal = game.legal_moves(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
            moves += 1
        matches += 1
        rounds += len(getattr(state, "round_scores", ()))
    return matches, moves, rounds, time.process_time() - started


def bench(name: str, matches: int, passes: int, seconds: float) -> dict[str, object]:
    game = get_game(name)
    players = PLAYERS.get(name, game.min_players)
    pairs = record_positions(game, players, matches, seed=1)
    per_move = time_moves(game, pairs, passes, repeat=10)
    played, moves, rounds, elapsed = full_matches(game, players, seconds, seed=1000)
    ordered = sorted(per_move)
    return {
        "game": name,
        "players": players,
        "positions": len(pairs),
        "median_us_per_move": statistics.median(per_move),
        "mean_us_per_move": statistics.fmean(per_move),
        "p90_us_per_move": ordered[int(len(ordered) * 0.9)],
        "moves_per_second": 1e6 / statistics.fmean(per_move),
        "matches_per_second": played / elapsed,
        "random_play_moves_per_second": moves / elapsed,
        "rounds_per_second": rounds / elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAME_NAMES, action="append", help="game to measure (repeatable)")
    parser.add_argument("--matches", type=int, default=5, help="random matches whose positions are timed")
    parser.add_argument("--passes", type=int, default=7, help="timing passes over the positions")
    parser.add_argument("--seconds", type=float, default=5.0, help="time spent playing full matches")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [bench(name, args.matches, args.passes, args.seconds) for name in args.game or GAME_NAMES]
    if args.json:
        print(json.dumps({"machine": machine(), "results": results}, indent=2))
        return
    print(machine())
    for r in results:
        print(
            f"{r['game']:>13} ({r['players']} players): legal_moves + apply {r['median_us_per_move']:.2f} µs median, "
            f"{r['mean_us_per_move']:.2f} mean, {r['p90_us_per_move']:.2f} p90 over {r['positions']} positions; "
            f"{r['matches_per_second']:.1f} random matches/s ({r['random_play_moves_per_second']:,.0f} moves/s, "
            f"{r['rounds_per_second']:,.0f} {ROUND_WORDS.get(r['game'], 'rounds')}/s)"
        )


if __name__ == "__main__":
    main()
