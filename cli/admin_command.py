"""`dominoes admin`: an open server's names, on its data folder: list, ban, unban, rename.

A ban is kept in the room's book (`net.accounts`): a running `serve-ssh --open` ends the player's
sessions within a second and refuses their keys from then on, across restarts; a running
`serve-web` ends their browser sessions within a second too and refuses their cookies from then on
(it reads the same book; their invitations are revoked as well, as `web-invite --revoke` does).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from cli.usage import PROG, UsageError

NAME = f"{PROG} admin"


def add_parser(commands: Any) -> None:
    admin = commands.add_parser(
        "admin",
        help="an open server's names: list, ban, unban or rename them",
        description="The names an open server (serve-ssh --open, serve-web --open) keeps, in its data folder.",
    )
    admin.add_argument("--data", metavar="FOLDER", help="the server's data folder (default: the data directory)")
    actions = admin.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="every name, its keys, when it signed up, and who is banned")
    ban = actions.add_parser("ban", help="end NAME's sessions and refuse their keys and browsers")
    ban.add_argument("name", metavar="NAME")
    unban = actions.add_parser("unban", help="let NAME in again")
    unban.add_argument("name", metavar="NAME")
    rename = actions.add_parser("rename", help="give OLD's name, keys and folder the name NEW")
    rename.add_argument("old", metavar="OLD")
    rename.add_argument("new", metavar="NEW")
    admin.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from net.accounts import AccountError, RoomBook
    from net.paths import data_dir
    from saves.os_errors import os_error_text

    folder = Path(args.data).expanduser() if args.data else data_dir()
    if args.data and not folder.is_dir():
        raise UsageError(f"{NAME}: --data {args.data} is not a folder")
    book = RoomBook(folder)
    try:
        if args.action == "list":
            print(listing(book))
            return 0
        if args.action == "ban":
            said = book.ban(checked(args.name))
            _end_web_sessions(folder, args.name)
        elif args.action == "unban":
            said = book.unban(checked(args.name))
        else:
            said = book.rename(checked(args.old), args.new)
    except AccountError as error:
        print(f"{NAME}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{NAME}: the names in {folder} cannot be read or kept ({os_error_text(error)})", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"{NAME}: the names in {folder} cannot be read ({error})", file=sys.stderr)
        return 1
    print(f"{NAME}: {said}")
    return 0


def checked(name: str) -> str:
    from core.seats import check_name

    try:
        return check_name(name)
    except ValueError as error:
        raise UsageError(f"{NAME}: {error}") from None


def _end_web_sessions(folder: Path, name: str) -> None:
    """The player's browsers are signed out as well (the web door looks every second)."""
    from net.web_auth import InviteBook, web_dir

    if web_dir(folder).is_dir():
        InviteBook(folder).revoke(name)


def listing(book: Any) -> str:
    """One line a name: the name, its keys, when it signed up, whether it is kept or banned."""
    from net.accounts import canonical

    found = book.read()
    if not found.accounts and not found.bans:
        return f"No names in {book.path.parent} yet."
    lines = [f"{len(found.accounts)} name{'s' if len(found.accounts) != 1 else ''} in {book.path.parent}:"]
    named = set()
    for account in sorted(found.accounts, key=lambda account: canonical(account.name)):
        named.add(canonical(account.name))
        since = time.strftime("%Y-%m-%d", time.localtime(account.created))
        state = "banned" if canonical(account.name) in found.bans else "kept" if account.kept else "new"
        keys = "key " + ", ".join(key.removeprefix("SHA256:")[:12] + "…" for key in account.keys)
        came = ("browser, " if account.keys else "browser") if account.browser else ""
        lines.append(f"  {account.name:<20}  since {since}  {state:<6}  {came}{keys if account.keys else ''}")
    others = sorted(found.bans - named)
    if others:
        lines.append("Banned, without a name here: " + ", ".join(others))
    return "\n".join(lines)
