"""`dominoes serve-web`: let invited players in from a browser, each to a lobby of their own; with
`--open`, anyone, under a name of their choosing."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cli import output
from cli.ssh_commands import (
    add_limit_arguments,
    add_sign_up_arguments,
    add_spawn_argument,
    limits_from,
    session_launcher,
    sign_up_limits_from,
)
from cli.usage import PROG, UsageError

NAME = f"{PROG} serve-web"
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8000
LOOPBACK = ("127.", "::1", "localhost")


def add_parser(commands: Any) -> None:
    serve = commands.add_parser(
        "serve-web",
        help="let invited players in from a browser, each to a lobby of their own",
        description="A web server: every invited browser gets its own interface, starting in the lobby. "
        "Invite players with `dominoes web-invite NAME`; with --open, any browser may choose a name and come in.",
    )
    serve.add_argument(
        "--port", type=int, default=DEFAULT_WEB_PORT, help=f"port to listen on (default {DEFAULT_WEB_PORT}; 0: any)"
    )
    serve.add_argument("--host", default=DEFAULT_WEB_HOST, help=f"address to listen on (default {DEFAULT_WEB_HOST})")
    serve.add_argument(
        "--base-url",
        metavar="URL",
        help="the address players open, behind a reverse proxy (default http://HOST:PORT); invite links start so",
    )
    serve.add_argument(
        "--open",
        action="store_true",
        help="an open room: a browser with no invite chooses a name (kept in the same book as serve-ssh --open's)",
    )
    serve.add_argument(
        "--ssh-address",
        metavar="HOST[:PORT]",
        help="with --open: where players reach serve-ssh --open on the same data (the key page says so)",
    )
    add_sign_up_arguments(serve)
    add_limit_arguments(serve, sessions=True)
    add_spawn_argument(serve)
    serve.set_defaults(run=run)


def say(first: str, *more: str) -> None:
    """A note, in lines that fit 80 columns (dropped quietly if nobody reads them any more)."""
    for line in (f"{NAME}: {first}", *(f"  {line}" for line in more)):
        output.say(line)


def run(args: argparse.Namespace) -> int:
    from net.web_auth import check_base_url

    if not 0 <= args.port <= 65535:
        raise UsageError(f"{NAME}: --port must be from 0 to 65535, not {args.port}")
    limits = limits_from(args, NAME)
    sign_ups = sign_up_limits_from(args, NAME) if args.open else None
    base_url = None
    if args.base_url is not None:
        try:
            base_url = check_base_url(args.base_url)
        except ValueError as error:
            raise UsageError(f"{NAME}: --base-url: {error}") from None
    ssh_address = args.ssh_address or ""
    if args.ssh_address is not None:
        from net.web_sign_up import ssh_command

        if not args.open:
            raise UsageError(f"{NAME}: --ssh-address is for --open (its key page ties SSH keys to names)")
        try:
            ssh_command(ssh_address)
        except ValueError as error:
            raise UsageError(f"{NAME}: --ssh-address: {error}") from None
    import asyncio

    from net.accounts import RoomBook
    from net.paths import data_dir
    from net.web_server import WebFrontDoor

    room = RoomBook(data_dir(), limits=sign_ups) if sign_ups is not None else None
    # on_note: what the door turns away, a line a second at most
    try:
        door = WebFrontDoor(
            data_dir(), limits=limits, launcher=session_launcher(args), on_note=say, room=room, ssh_address=ssh_address
        )
    except OSError as error:  # its data folder, or the page's files of an installation left incomplete
        print(f"{NAME}: cannot start: {error}", file=sys.stderr)
        return 1
    try:
        return asyncio.run(_serve(door, args.host, args.port, base_url))
    except KeyboardInterrupt:
        return 0
    finally:
        door.launcher.end_forked()  # a zygote the door never took on (it could not start): ended, not left


async def _serve(door: Any, host: str, port: int, base_url: str | None) -> int:
    import asyncio
    import signal

    from net.tables import close_tables

    try:
        await door.start(host, port, base_url)
    except OSError as error:
        reason = "is in use" if error.errno == 98 else f"cannot be used ({error.strerror or error})"
        print(f"{NAME}: port {port} on {host} {reason}", file=sys.stderr)
        return 1
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, lambda: loop.create_task(door.close()))
    say(f"serving on http://{host}:{door.port} (Ctrl+C stops it)")
    say(f"invite players with `{PROG} web-invite NAME`", f"their links begin with {door.base_url}/join/")
    if door.pages is not None:
        sign_ups = door.room.book.limits
        say(
            "open: any browser may choose a name and come in",
            f"(new names: {sign_ups.per_address} an hour from one address, {sign_ups.per_hour} from all,",
            f"{sign_ups.max_accounts} kept); `{PROG} admin` lists and bans them",
        )
        if host.startswith(LOOPBACK) and base_url is not None:
            say(
                "behind a proxy every browser comes from the proxy's address:",
                "--sign-ups-per-address then counts every newcomer together",
            )
    if base_url is None and host.startswith(LOOPBACK):
        say(
            "this machine alone can reach it; to open it to friends,",
            "put it behind a reverse proxy with TLS and give its address with --base-url",
            "(README: Playing in a browser)",
        )
    elif not door.base_url.startswith("https://"):
        say(
            "without TLS, links and sign-ins travel in the clear:",
            "put it behind a reverse proxy with TLS and give its address with --base-url",
            "(README: Playing in a browser)",
        )
    try:
        await door.serve_forever()
    finally:
        await door.close()
        # The lobby's tables end with the server, saved (`dominoes host --resume` goes on with one).
        closed = await asyncio.to_thread(close_tables)
        if closed:
            say(f"closed {len(closed)} table{'s' if len(closed) != 1 else ''}; their matches are saved")
    say("stopped")
    return 0
