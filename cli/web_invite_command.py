"""`dominoes web-invite NAME`: a link that signs NAME in at `dominoes serve-web`; `--revoke NAME`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cli.usage import PROG, UsageError

NAME = f"{PROG} web-invite"


def add_parser(commands: Any) -> None:
    invite = commands.add_parser(
        "web-invite",
        help="print an invite link for a player of `serve-web` (or --revoke their links)",
        description="Print one line: a link that signs NAME in at this machine's `dominoes serve-web`. "
        "Anyone with the link plays as NAME: send it privately. --revoke NAME ends NAME's links and sessions. "
        "A name an open room's player holds is refused: the invitee would share their folder.",
    )
    invite.add_argument("name", metavar="NAME", help="the player's name (1 to 20 printable characters)")
    invite.add_argument("--base-url", metavar="URL", help="how players reach the server (default: as it says)")
    invite.add_argument("--revoke", action="store_true", help="end NAME's links and sessions, even those in play")
    invite.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from core.seats import check_name
    from net.accounts import AccountError, RoomBook
    from net.paths import data_dir
    from net.web_auth import InviteBook, check_base_url
    from saves.os_errors import os_error_text

    try:
        name = check_name(args.name)
    except ValueError as error:
        raise UsageError(f"{NAME}: {error}") from None
    book = InviteBook(data_dir())
    try:
        if args.revoke:
            if args.base_url is not None:
                raise UsageError(f"{NAME}: --revoke takes no --base-url")
            count = book.revoke(name)
            print(f"{NAME}: {name}'s {count} link{'s' if count != 1 else ''} and every session of theirs ended")
            return 0
        try:
            base_url = check_base_url(args.base_url) if args.base_url else book.base_url()
        except ValueError as error:
            raise UsageError(f"{NAME}: --base-url: {error}") from None
        room = RoomBook(data_dir())
        print(room.unless_taken(name, lambda: book.invite(name, base_url or "http://127.0.0.1:8000")))
    except AccountError as error:
        print(f"{NAME}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{NAME}: the invitations cannot be kept ({os_error_text(error)})", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"{NAME}: {error}", file=sys.stderr)
        return 1
    return 0
