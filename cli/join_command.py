"""`dominoes join`: take a seat at a table served by `dominoes host`, in the usual interface.

The address and the name are checked first (a bad one: one line, exit status 2); then the table is
joined before the interface starts, so an unreachable or full table is one line and exit status 1,
and the interface runs on the connection's event loop.
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
    join.add_argument("--name", required=True, help="your name at the table (up to 20 characters)")
    join.add_argument("--seat", type=int, metavar="N", help="the seat to take, from 1 (default: the first free)")
    join.set_defaults(run=run)


def join_arguments(args: argparse.Namespace) -> tuple[Any, str, int | None]:
    """The address, name and seat (from 0) to join with; UsageError (one line) for a bad one."""
    from net.address import parse_address
    from net.messages import check_name

    try:
        address = parse_address(args.address)
        name = check_name(args.name)
    except ValueError as error:
        raise UsageError(f"{PROG} join: {error}") from None
    if args.seat is not None and args.seat < 1:
        raise UsageError(f"{PROG} join: --seat counts from 1, not {args.seat}")
    return address, name, None if args.seat is None else args.seat - 1


def run(args: argparse.Namespace) -> int:
    import asyncio

    address, name, seat = join_arguments(args)
    require_terminal(f"{PROG} join")
    try:
        return asyncio.run(join_and_play(address, name, seat))
    except (ConnectionError, OSError) as error:
        print(f"{PROG} join: {error}", file=sys.stderr)
        return 1


async def join_and_play(address: Any, name: str, seat: int | None) -> int:
    """Join the table, then run the interface on it until the player leaves or the app quits."""
    from net.client import TableClient
    from net.protocol import ProtocolError

    try:
        client = await TableClient.connect(address, name, seat)
    except ProtocolError as error:
        raise ConnectionError(f"the table at {address} did not speak the protocol: {error.reason}") from None
    from tui.app import DominoesApp

    try:
        await DominoesApp(remote=client).run_async()
    finally:
        await client.close()
    return 0
