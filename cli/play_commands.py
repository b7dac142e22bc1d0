"""`dominoes new` and `dominoes --resume`: the commands that open the interface on a match."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cli.interface import run_app
from cli.usage import PROG, UsageError, add_option_argument, parse_option_pairs
from core import GAME_NAMES, get_game
from core.bots import BOT_LEVELS, get_bot
from saves.errors import SaveError


def add_parser(commands: Any) -> None:
    new = commands.add_parser("new", help="start a match at once", description="Start a match at once.")
    new.add_argument("game", help=f"one of: {', '.join(GAME_NAMES)}")
    new.add_argument("--players", type=int, help="number of players (default: the game's smallest table)")
    new.add_argument("--seats", help="human or bot per seat, comma-separated (default: seat 1 human, the others bots)")
    new.add_argument(
        "--bots",
        default="easy",
        help=f"level of each bot seat in turn, comma-separated, cycled (levels: {', '.join(BOT_LEVELS)})",
    )
    new.add_argument("--names", default="", help="player names, comma-separated")
    new.add_argument(
        "--seed", type=int, help="seed of the deals, for practice (default: a secret from the system, shown at the end)"
    )
    add_option_argument(new)
    new.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_app(new_match_settings(args), command=f"{PROG} new")  # a bad argument is named first


def new_match_settings(args: argparse.Namespace) -> Any:
    """The settings `dominoes new` asks for; UsageError (one line) for anything wrong."""
    from tui.settings import build_settings  # no Textual here: a bad argument fails fast

    try:
        game = get_game(args.game)
        players = game.min_players if args.players is None else game.check_players(args.players)
        kinds = [word.strip() for word in args.seats.split(",")] if args.seats else ["human"] + ["bot"] * (players - 1)
        if len(kinds) != players:
            raise ValueError(f"--seats names {len(kinds)} seats for {players} players")
        levels = [level.strip() for level in args.bots.split(",") if level.strip()] or ["easy"]
        for level in levels:
            get_bot(level)  # ValueError naming the levels there are
        bot_seats = [i for i, kind in enumerate(kinds) if kind.lower() == "bot"]
        for n, seat in enumerate(bot_seats):
            kinds[seat] = f"bot:{levels[n % len(levels)]}"
        names = [name.strip() for name in args.names.split(",")] if args.names else []
        if len(names) > players:
            raise ValueError(f"--names gives {len(names)} names for {players} players")
        options = game.parse_options(players, parse_option_pairs(args.option))
        return build_settings(game.name, players, kinds, names, options, args.seed)
    except ValueError as error:
        raise UsageError(f"{PROG} new: {error}") from None


def resume_save(text: str) -> Any:
    """The save `--resume` names (the latest unfinished match for ""), opened before Textual starts:
    locked, then loaded (an `Autosave`). UsageError for an id that names no match; SaveError for a
    match that cannot be loaded, and MatchInUse for one that another process has open."""
    from saves.autosave import Autosave
    from saves.listing import entries, latest_unfinished
    from saves.store import SaveStore

    store = SaveStore()
    if not text:
        entry = latest_unfinished(entries(store))
        if entry is None:
            raise SaveError(f"there is no unfinished match to resume in {store.directory}")
        return Autosave.open(store, entry.match_id)
    try:
        match_id = store.resolve(text)
    except ValueError as error:
        raise UsageError(f"{PROG} --resume: {error}") from None
    return Autosave.open(store, match_id)


def run_resume(text: str) -> int:
    """`dominoes --resume [MATCH]`: the save is opened (locked and loaded) before Textual starts, so
    a bad one, or one open in another process, is one line."""
    try:
        saved = resume_save(text)
    except SaveError as error:
        print(f"{PROG} --resume: {error}", file=sys.stderr)
        return 1
    try:
        return run_app(saved=saved, command=f"{PROG} --resume")
    finally:
        saved.close()
