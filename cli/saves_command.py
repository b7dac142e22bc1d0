"""The command line of save files: `dominoes saves [list]`, `saves show|verify|delete MATCH`.

Bad arguments raise ValueError with the whole one-line message (the CLI prints it and exits with
status 2); a save that cannot be read or written prints one line and gives status 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.usage import PROG, UsageError
from cli.verify_command import DESCRIPTION, add_arguments, run_verify

if TYPE_CHECKING:  # the save machinery is imported when a command runs, not at start-up
    from core.match import Match
    from saves.store import SaveStore


def add_parser(commands: Any) -> None:
    """Add `saves` to the CLI's subcommands."""
    saves = commands.add_parser(
        "saves",
        help="list, show, verify or delete saved matches",
        description="List saved matches (`saves` or `saves list`); `show MATCH` prints one's move log, "
        "`verify MATCH` checks that a finished one was dealt fairly, `delete MATCH` removes it.",
    )
    directory = "the save directory (default: the one the game uses)"
    saves.add_argument("--dir", metavar="DIR", help=directory)
    saves.set_defaults(run=run)
    actions = saves.add_subparsers(dest="saves_command", metavar="ACTION")
    listing = actions.add_parser(
        "list", help="list the saved matches (as `saves` alone does)", description="List the saved matches."
    )
    listing.add_argument("--dir", metavar="DIR", default=argparse.SUPPRESS, help=directory)
    for action, text in (
        ("show", "print a match's move log, round by round"),
        ("delete", "delete a match, its backup and its review"),
    ):
        command = actions.add_parser(action, help=text, description=text[0].upper() + text[1:] + ".")
        command.add_argument("match", metavar="MATCH", help="a match id, or the start of one")
        # --dir is accepted after the action too; SUPPRESS keeps one given before it.
        command.add_argument("--dir", metavar="DIR", default=argparse.SUPPRESS, help=directory)
    verify = actions.add_parser("verify", help="check that a finished match was dealt fairly", description=DESCRIPTION)
    add_arguments(verify, directory_default=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    try:
        return run_saves(args)
    except ValueError as error:
        raise UsageError(str(error)) from None


def run_saves(args: argparse.Namespace) -> int:
    from saves.describe import describe_match
    from saves.errors import SaveError
    from saves.listing import format_listing
    from saves.store import SaveStore

    store = SaveStore(Path(args.dir).expanduser() if args.dir is not None else None)
    command = f"{PROG} saves"
    try:
        if args.saves_command in (None, "list"):
            print(format_listing(store))
            return 0
        command = f"{PROG} saves {args.saves_command}"
        if args.saves_command == "verify":
            return run_verify(args, command)
        try:
            match_id = store.resolve(args.match)
        except ValueError as error:
            raise ValueError(f"{command}: {error}") from None
        if args.saves_command == "show":
            loaded = store.load(match_id)
            print(describe_match(loaded.record, loaded.notice))
            return 0
        removed = store.delete(match_id)
        print(f"deleted match {match_id} ({', '.join(path.name for path in removed)})")
        return 0
    except SaveError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 1


def open_save_dir(directory: str) -> SaveStore:
    from saves.store import SaveStore

    """The store for `simulate --save-dir`, its directory created; ValueError if it cannot be."""
    path = Path(directory).expanduser()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--save-dir {directory!r} cannot be used ({error.strerror or error})") from None
    return SaveStore(path)


def save_simulated(store: SaveStore, match: Match) -> None:
    """Write a simulated match, named for its game, table and seed; SaveError if it cannot be."""
    from saves.ids import simulated_match_id
    from saves.record import SavedMatch

    now = int(time.time())
    store.save(SavedMatch(simulated_match_id(match.game_name, match.players, match.seed), match, now, now))
