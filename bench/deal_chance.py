"""What a deal costs from a secret (HMAC-SHA256 in counter mode, `core.chance.StreamRandom`) against
one from a chosen seed (Python's Mersenne Twister), in every game, and the `dominoes verify` of a
whole match, which deals every round again.

    .venv/bin/python bench/deal_chance.py

A match deals once a round, so the figures only need to stay far below anything a player notices.
Each is the median of five runs of 2,000 deals (on a busy machine the best run is the cost of the
code itself, and is printed beside it).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine
from core import Match, get_game
from core.bots import get_bot
from core.chance import deal_rng
from core.fairness import check_deals

DEALS = 2000
RUNS = 5
TABLES = (("chicken-foot", 4), ("doubles", 4), ("moon", 3))


def deal_micros(game_name: str, players: int, secret: bytes | None) -> tuple[float, float]:
    game = get_game(game_name)
    start = game.new_game(players, {}, None)
    times = []
    for _ in range(RUNS):
        began = time.perf_counter()
        for number in range(DEALS):
            game.deal(start, deal_rng(None if secret else 7, secret, number))
        times.append((time.perf_counter() - began) / DEALS * 1e6)
    return statistics.median(times), min(times)


def verify_millis() -> tuple[int, float]:
    """A ten-round 4-player Chicken Foot match of easy bots, dealt from a secret, checked whole."""
    match = Match("chicken-foot", 4, {}, None, None, secret=bytes(range(32)))
    bot, rng = get_bot("easy"), random.Random(1)
    while not match.state.over:
        if match.state.chance:
            match.deal()
        else:
            match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    began = time.perf_counter()
    assert check_deals(match).fair
    return len(match.events), (time.perf_counter() - began) * 1e3


def main() -> int:
    print(machine())
    for game, players in TABLES:
        seeded, seeded_best = deal_micros(game, players, None)
        secret, secret_best = deal_micros(game, players, bytes(32))
        print(
            f"{game}, {players} players: a deal from a seed {seeded:.0f} µs (best {seeded_best:.0f}), "
            f"from a secret {secret:.0f} µs (best {secret_best:.0f})"
        )
    events, millis = verify_millis()
    print(f"verify of a ten-round 4-player Chicken Foot match ({events} events): {millis:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
