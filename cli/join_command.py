"""`dominoes join`: take a seat at a table served by `dominoes host`, in the usual interface, or
with `--watch`, watch it from no seat (what every seat sees, never a hand).

The address and the name are checked first (a bad one: one line, exit status 2); then the table is
joined before the interface starts, so an unreachable or full table is one line and exit status 1,
and the interface runs on the connection's event loop. The seat's key, from the table's welcome, is
kept in the player's data directory (per match and name, readable by the player only) and proved
when they join again, whatever address they reach the table at: it alone takes the seat back, and
it is never sent. An interface that ends with an error exits 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

# asyncio, the network and Textual are imported when the command runs: `dominoes` alone must start
# fast (bench/startup.py).
from cli.terminal import require_terminal
from cli.usage import PROG, UsageError


def add_parser(commands: Any) -> None:
    join = commands.add_parser(
        "join",
        help="play at a table hosted with `dominoes host`",
        description="Take a free seat at a hosted table (or your own seat again, by your name).",
    )
    join.add_argument("address", help="HOST:PORT, or the path of a Unix socket")
    join.add_argument("--name", help="your name at the table (up to 20 characters)")
    join.add_argument("--seat", type=int, metavar="N", help="the seat to take, from 1 (default: the first free)")
    join.add_argument(
        "--watch", action="store_true", help="watch the table from no seat: what every seat sees, never a hand"
    )
    join.set_defaults(run=run)


def join_arguments(args: argparse.Namespace) -> tuple[Any, str | None, int | None]:
    """The address, name (None to watch) and seat (from 0) to join with; UsageError (one line) for
    a bad one."""
    from core.seats import check_name
    from net.address import parse_address

    if args.watch and (args.name is not None or args.seat is not None):
        raise UsageError(f"{PROG} join: a watcher takes no seat: drop --name and --seat, or --watch")
    if not args.watch and args.name is None:
        raise UsageError(f"{PROG} join: give --name NAME to take a seat, or --watch to watch")
    try:
        address = parse_address(args.address)
        name = None if args.watch else check_name(args.name)
    except ValueError as error:
        raise UsageError(f"{PROG} join: {error}") from None
    if args.seat is not None and args.seat < 1:
        raise UsageError(f"{PROG} join: --seat counts from 1, not {args.seat}")
    return address, name, None if args.seat is None else args.seat - 1


class InterfaceFailed(Exception):
    """The interface at the table stopped with an error (Textual has printed its traceback)."""


def run(args: argparse.Namespace) -> int:
    import asyncio

    address, name, seat = join_arguments(args)
    require_terminal(f"{PROG} join")
    try:
        if name is None:
            return asyncio.run(watch(address))
        return asyncio.run(join_and_play(address, name, seat))
    except (ConnectionError, OSError, InterfaceFailed) as error:
        print(f"{PROG} join: {error}", file=sys.stderr)
        return 1


async def watch(address: Any) -> int:
    """Watch the table from no seat until the player leaves or the table ends."""
    from net.client import TableClient
    from net.protocol import ProtocolError

    try:
        client = await TableClient.watch(address)
    except ProtocolError as error:
        raise ConnectionError(f"the table at {address} did not speak the protocol: {error.reason}") from None
    return await run_interface(client)


async def run_interface(client: Any, warning: str | None = None) -> int:
    """The interface at the table `client` is connected to, until the player leaves or the app quits."""
    from tui.app import DominoesApp

    app = DominoesApp(remote=client, notice=warning)
    try:
        await app.run_async()
    finally:
        await client.close()
    if app.return_code:
        error = getattr(app, "_exception", None)
        raise InterfaceFailed(f"the interface stopped with an error ({type(error).__name__}: {error})")
    return 0


async def join_and_play(address: Any, name: str, seat: int | None) -> int:
    """Join the table (proving the seat's key if one is kept for this match and name), keep the key
    the table gives, then run the interface on it until the player leaves or the app quits."""
    from net.client import TableClient
    from net.paths import data_dir
    from net.protocol import ProtocolError
    from net.seat_keys import CLIENT_DIRECTORY, TokenStore
    from saves.os_errors import os_error_text

    tokens = TokenStore(data_dir() / CLIENT_DIRECTORY)
    try:
        client = await TableClient.connect(address, name, seat, keys=tokens)
    except ProtocolError as error:
        raise ConnectionError(f"the table at {address} did not speak the protocol: {error.reason}") from None
    warning = None
    if client.token is not None:
        try:
            tokens.put(client.table_id, name, client.token)
        except OSError as error:
            kept = os_error_text(error)
            warning = f"Your seat's key could not be kept ({kept}): if you leave, the seat may not be yours again."
    return await run_interface(client, warning)
