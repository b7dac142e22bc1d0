"""`dominoes rate-bots`: measure the bot levels' fixed ratings from duplicate tournaments of the
bots (`records.measure`), and with `--write` keep them in the package (`records/bot_ratings.json`),
where every player's rating is measured against them."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from cli.usage import PROG, UsageError
from core import GAME_NAMES


def add_parser(commands: Any) -> None:
    rate = commands.add_parser(
        "rate-bots",
        help="measure the bot levels' ratings from duplicate tournaments (for the record's ratings)",
        description="Play duplicate tournaments of the bot levels in every game and rate them with the model "
        "that rates players; --write keeps the result in the package.",
    )
    rate.add_argument("--game", action="append", choices=GAME_NAMES, help="measure this game only (repeatable)")
    rate.add_argument("--matches", type=int, default=12, help="duplicate sets of each line-up (default 12)")
    rate.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    rate.add_argument("--jobs", type=int, default=1, help="processes to run in parallel (default 1)")
    rate.add_argument("--write", action="store_true", help="write the ratings into records/bot_ratings.json")
    rate.add_argument("--games", metavar="FILE", help="also write every game played to FILE (JSON), to fit again")
    rate.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cli.parallel import map_in_processes
    from core.tournament import GameRecord, play_data
    from records.measure import MOON_HARD_WORLDS, PLANS, WORLDS, measure
    from records.ratings import BOT_RATINGS

    if args.matches < 1 or args.jobs < 1:
        raise UsageError(f"{PROG} rate-bots: --matches and --jobs must be at least 1")
    games = args.game or list(GAME_NAMES)

    def play(work: list[Any]) -> list[GameRecord]:
        return [GameRecord.from_data(data) for data in map_in_processes(play_data, work, args.jobs)]

    data = json.loads(BOT_RATINGS.read_text(encoding="utf-8")) if BOT_RATINGS.exists() else {}
    data.setdefault("games", {})
    data.setdefault("measured", {})
    played: dict[str, list[Any]] = {}
    for game in games:
        started = time.perf_counter()
        ratings, records = measure(game, args.matches, args.seed, play)
        played[game] = [record.to_data() for record in records]
        count = len(records)
        seconds = time.perf_counter() - started
        data["games"][game] = {
            level: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3)} for level, r in ratings.items()
        }
        plan = PLANS[game]
        data["measured"][game] = {
            "command": f"{PROG} rate-bots --game {game} --matches {args.matches} --seed {args.seed}",
            "players": plan.players,
            "lineups": [list(lineup) for lineup in plan.lineups],
            "worlds": WORLDS | ({"hard": MOON_HARD_WORLDS} if game == "moon" else {}),
            "games": count,
            "seconds": round(seconds, 1),
        }
        shown = ", ".join(f"{level} {rating.text()}" for level, rating in ratings.items())
        print(f"{game}: {count} games in {seconds:.0f} s: {shown}", flush=True)
    if args.games:
        Path(args.games).write_text(json.dumps(played), encoding="utf-8")
    if args.write:
        BOT_RATINGS.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written to {BOT_RATINGS}")
    return 0
