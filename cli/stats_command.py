"""`dominoes stats`: a player's record per game (matches, wins by opponent level, rating and its
trend, accuracy over time, the commonest mistake, the best and worst match), from the record
built from the saves (`records`), brought up to date first. `--rebuild` makes the record afresh.

A bad argument is a usage error (status 2); a damaged record is said so in one line and rebuilt.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from cli.usage import PROG, UsageError
from core import GAME_NAMES

DAYS = re.compile(r"(\d{1,5})d")


def add_parser(commands: Any) -> None:
    stats = commands.add_parser(
        "stats",
        help="your record per game: rating, wins by bot level, accuracy over time",
        description="Your record per game, from the saves: matches, wins by the opponents' level, the rating and "
        "its trend, the mean loss per decision of reviewed matches, the commonest mistake, the best and worst match.",
    )
    stats.add_argument("--game", choices=GAME_NAMES, action="append", help="this game only (repeatable)")
    stats.add_argument("--since", metavar="WHEN", help="matches since a day (YYYY-MM-DD) or in the last N days (Nd)")
    stats.add_argument("--player", metavar="NAME", help="whose record (default: yours, or the most played name)")
    stats.add_argument("--dir", metavar="DIR", help="the data directory (default: the one the game uses)")
    stats.add_argument("--rebuild", action="store_true", help="rebuild the record from the saves first")
    stats.add_argument("--json", action="store_true", help="print the statistics as JSON")
    stats.set_defaults(run=run)


def parse_since(text: str, now: float | None = None) -> int:
    """ "2026-01-31" -> that day's start (local time); "30d" -> 30 days ago. ValueError otherwise."""
    found = DAYS.fullmatch(text.strip())
    if found:
        return int((now if now is not None else time.time()) - int(found.group(1)) * 86400)
    try:
        return int(datetime.strptime(text.strip(), "%Y-%m-%d").timestamp())
    except (ValueError, OverflowError, OSError):
        raise ValueError(f"--since takes a day (YYYY-MM-DD) or a number of days (30d), not {text!r}") from None


def run(args: argparse.Namespace) -> int:
    from records.summary import summary
    from records.text import format_summary
    from tui.my_record import default_player, my_record
    from tui.preferences import load_preferences

    command = f"{PROG} stats"
    try:
        since = parse_since(args.since) if args.since is not None else None
    except ValueError as error:
        raise UsageError(f"{command}: {error}") from None
    if args.player is not None and not args.player.strip():
        raise UsageError(f"{command}: --player needs a name")
    record = my_record(home=Path(args.dir).expanduser() if args.dir else None)
    try:
        if args.rebuild:
            read = record.rebuild()
            print(f"{command}: the record was rebuilt from {read} saves", file=sys.stderr)
        else:
            record.check()
            record.sync()
        preferred = args.player or load_preferences().names[0]
        player = default_player(record, preferred)
        data = summary(record, player, args.game, since) if player else None
    except OSError as error:
        print(
            f"{command}: the record cannot be kept in {record.path.parent} ({error.strerror or error})", file=sys.stderr
        )
        return 1
    for notice in record.notices:
        print(f"{command}: {notice}", file=sys.stderr)
    if data is None:
        print(f"{command}: no finished match is in the record yet", file=sys.stderr)
        return 0
    print(json.dumps(data, indent=2) if args.json else format_summary(data))
    return 0
