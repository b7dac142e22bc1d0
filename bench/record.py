"""How long the record (records.database) takes to keep up with the saves: the first sync of a
folder of finished matches (every save loaded, the ratings worked out), a sync with nothing
changed (every file looked at, none read: what each start costs), and a sync after one more match
(what the end of a match costs).

    python bench/record.py                # 200 one-round Chicken Foot matches of three players
    python bench/record.py --matches 500 --json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import machine
from core import Match, Seat
from core.bots import get_bot
from core.chance import SECRET_BYTES
from records.database import FILE_NAME, Record
from records.sources import local_sources
from saves.record import SavedMatch
from saves.store import SaveStore

DAY = 86_400
START = 1_764_400_000  # 2025-11-29


def finished_match(number: int) -> Match:
    """A person and two bots (easy, hard) at one round of Chicken Foot, dealt from a secret (so it
    counts for rating, as a match played is) the same for the same number, every seat played by
    the easy bot's rules to the end."""
    seats = [Seat("You"), Seat("easy 2", "bot", "easy"), Seat("hard 3", "bot", "hard")]
    secret = hashlib.sha256(f"bench record {number}".encode()).digest()[:SECRET_BYTES]
    match = Match("chicken-foot", 3, {"rounds": 1}, seats, None, secret=secret)
    bot, rngs = get_bot("easy"), [random.Random(f"{number}:bot:{seat}") for seat in range(3)]
    while not match.state.over:
        state = match.state
        if state.chance:
            match.deal()
        else:
            match.apply(bot.choose(match.view(state.to_move), match.legal_moves(), rngs[state.to_move]))
    return match


def save(directory: Path, match: Match, match_id: str, ended: int) -> None:
    SaveStore(directory, durable=False).save(SavedMatch(match_id, match, ended - 600, ended))


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        for number in range(args.matches):
            match = finished_match(number + 1)
            save(home / "saves", match, f"m{number}", START + number * DAY)
        record = Record(home / FILE_NAME, local_sources(home))
        first = timed(record.sync)
        unchanged = min(timed(record.sync) for _ in range(5))
        save(home / "saves", finished_match(10_000), "last", START + 10_000 * DAY)
        one_more = timed(record.sync)
        size = (home / FILE_NAME).stat().st_size
        rated = len(record.dump()["ratings"])
    figures = {
        "matches": args.matches,
        "first_sync_s": round(first, 3),
        "unchanged_sync_ms": round(unchanged * 1000, 1),
        "one_more_match_ms": round(one_more * 1000, 1),
        "database_bytes": size,
        "rated_matches": rated,
        "machine": machine(),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(
            f"{args.matches} finished matches: first sync {first:.2f} s ({first / args.matches * 1000:.1f} ms a save)"
        )
        print(f"nothing changed: {unchanged * 1000:.1f} ms; one more match: {one_more * 1000:.1f} ms")
        print(f"database: {size / 1024:.0f} KiB; {rated} matches rated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
