"""`dominoes verify MATCH`: check that a finished match was dealt fairly (`saves verify` is the same).

It prints what was checked and exits with status 0 when the deals are fair, 1 when they are not or
the match cannot be checked (still being played, or its save cannot be read); a bad argument is a
UsageError (status 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cli.usage import PROG, UsageError

DESCRIPTION = (
    "Check a finished match's deals: the secret revealed at its end gives the commitment shown at its start, "
    "and every deal in the save is the one that secret gives."
)


def add_arguments(parser: argparse.ArgumentParser, directory_default: Any = None) -> None:
    parser.add_argument("match", metavar="MATCH", help="a match id, or the start of one")
    parser.add_argument(
        "--shown",
        metavar="DIGITS",
        help="the commitment's digits you were shown at the start, to check against the save's",
    )
    directory = "the save directory (default: the one the game uses)"
    if directory_default is None:
        parser.add_argument("--dir", metavar="DIR", help=directory)
    else:
        parser.add_argument("--dir", metavar="DIR", default=directory_default, help=directory)


def add_parser(commands: Any) -> None:
    verify = commands.add_parser("verify", help="check that a finished match was dealt fairly", description=DESCRIPTION)
    add_arguments(verify)
    verify.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_verify(args, f"{PROG} verify")


def run_verify(args: argparse.Namespace, command: str) -> int:
    from saves.errors import SaveError
    from saves.store import SaveStore
    from saves.verification import check_shown, verify

    try:
        shown = check_shown(args.shown) if args.shown is not None else None
    except ValueError as error:
        raise UsageError(f"{command}: {error}") from None
    store = SaveStore(Path(args.dir).expanduser() if args.dir is not None else None)
    try:
        match_id = store.resolve(args.match)
    except ValueError as error:
        raise UsageError(f"{command}: {error}") from None
    try:
        loaded = store.load(match_id)
        fair, lines = verify(loaded.record, shown)
    except (SaveError, ValueError) as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 1
    if loaded.notice:
        print(f"{command}: note: {loaded.notice}", file=sys.stderr)
    print("\n".join(lines))
    return 0 if fair else 1
