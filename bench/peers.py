"""Engine speed against another Python domino library, side by side in one run.

    .venv/bin/pip install -e '.[bench]'   # once: brings the peer library
    .venv/bin/python bench/peers.py             # about 10 seconds of play each
    .venv/bin/python bench/peers.py --seconds 20 --json

The peer is abw333/dominoes (the PyPI distribution `dominoes`, imported as `dominoes`), whose
`Game` mutates itself in place. Both sides play plain random play: complete matches, deals
included, and in each turn the legal moves are asked for, one is chosen at random and applied,
nothing re-timed. Ours is 4-player Doubles to 100 points; the peer's is its 4-player block game, a
`Series` of hands to 200 points. The two alternate match by match, and each match is timed in
processor time (this process's), so other programs on a shared machine count for neither side.

A move is one turn of the loop: for us one `apply` (a play, a draw or a pass); for the peer one
`make_move` (a play; it skips players who cannot play inside that call). Tiles placed per second
are printed beside it, the one unit both games share exactly.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine
from core import get_game
from core.moves import Play

PLAYERS = 4
TARGET = 200  # the peer's default series target


def load_peer() -> ModuleType | None:
    """The peer library, or None when it is not installed (or something else answers to its name)."""
    try:
        import dominoes
    except ImportError:
        return None
    if not hasattr(dominoes, "Series") or not hasattr(dominoes, "Game"):
        return None
    return dominoes


def our_match(seed: int) -> tuple[int, int]:
    """One random 4-player Doubles match: (moves, tiles placed)."""
    game = get_game("doubles")
    legal_moves, apply, deal = game.legal_moves, game.apply, game.deal
    rng = random.Random(seed)
    state = game.new_game(PLAYERS, {}, seed)
    moves = tiles = 0
    while not state.over:
        if state.chance:
            state = apply(state, deal(state, rng))
            continue
        legal = legal_moves(state)
        move = legal[rng.randrange(len(legal))]
        state = apply(state, move)
        moves += 1
        tiles += type(move) is Play
    return moves, tiles


def peer_match(peer: ModuleType, seed: int) -> tuple[int, int]:
    """One random series of the peer's 4-player block game: (moves, tiles placed)."""
    random.seed(seed)  # the peer shuffles with the module-level generator
    rng = random.Random(seed)
    series = peer.Series(target_score=TARGET)
    game = series.games[0]
    moves = tiles = 0
    while True:
        while game.result is None:
            legal = game.valid_moves
            game.make_move(*legal[rng.randrange(len(legal))])
            moves += 1
        tiles += len(game.board)
        if series.next_game() is None:
            return moves, tiles
        game = series.games[-1]


def run(peer: ModuleType, seconds: float, seed: int) -> dict[str, float]:
    clock = time.process_time
    totals = {"ours": [0.0, 0, 0, 0], "peer": [0.0, 0, 0, 0]}  # seconds, matches, moves, tiles
    index = 0
    while min(totals["ours"][0], totals["peer"][0]) < seconds:
        for side in ("ours", "peer") if index % 2 == 0 else ("peer", "ours"):
            started = clock()
            moves, tiles = our_match(seed + index) if side == "ours" else peer_match(peer, seed + index)
            entry = totals[side]
            entry[0] += clock() - started
            entry[1] += 1
            entry[2] += moves
            entry[3] += tiles
        index += 1
    result: dict[str, float] = {}
    for side, (elapsed, matches, moves, tiles) in totals.items():
        result[f"{side}_matches"] = matches
        result[f"{side}_moves_per_second"] = moves / elapsed
        result[f"{side}_tiles_per_second"] = tiles / elapsed
    result["moves_ratio"] = result["ours_moves_per_second"] / result["peer_moves_per_second"]
    result["tiles_ratio"] = result["ours_tiles_per_second"] / result["peer_tiles_per_second"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="time spent playing, on each side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    peer = load_peer()
    if peer is None:
        print("bench/peers.py: skipped, the peer library is not installed (.venv/bin/pip install -e '.[bench]')")
        return
    result = run(peer, args.seconds, args.seed)
    if args.json:
        print(json.dumps({"machine": machine(), "result": result}, indent=2))
        return
    print(machine())
    for side, title in (("ours", "dominoes-tui, Doubles to 100"), ("peer", "abw333/dominoes, series to 200")):
        print(
            f"{title:>32} (4 players): {result[f'{side}_moves_per_second']:,.0f} moves/s, "
            f"{result[f'{side}_tiles_per_second']:,.0f} tiles placed/s over {result[f'{side}_matches']} matches"
        )
    ratios = f"{result['moves_ratio']:.2f}x the moves per second, {result['tiles_ratio']:.2f}x the tiles"
    print(f"{'ours / peer':>32}: {ratios}")


if __name__ == "__main__":
    main()
