"""`dominoes serve-ssh` (the SSH front door) and `dominoes lobby` (what each SSH session runs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cli.output import say
from cli.terminal import require_terminal
from cli.usage import PROG, UsageError
from tui.preferences import BOT_SPEEDS
from tui.settings import MAX_NAME

DEFAULT_SSH_HOST = "127.0.0.1"


def add_parser(commands: Any) -> None:
    serve = commands.add_parser(
        "serve-ssh",
        help="let people in over SSH, each to a lobby of their own",
        description="An SSH server: every connection gets its own interface, starting in the lobby.",
    )
    serve.add_argument("--port", type=int, default=2222, help="port to listen on (default 2222; 0: any free one)")
    serve.add_argument("--host", default=DEFAULT_SSH_HOST, help=f"address to listen on (default {DEFAULT_SSH_HOST})")
    serve.add_argument(
        "--authorized-keys", required=True, metavar="FILE", help="the public keys let in (OpenSSH authorized_keys)"
    )
    serve.add_argument(
        "--host-key", metavar="PATH", help="the server's key (default: in the data directory; made on first start)"
    )
    serve.add_argument(
        "--max-sessions", type=int, default=None, help="sessions in play at once; more are refused (default 32)"
    )
    serve.set_defaults(run=run_serve_ssh)

    lobby = commands.add_parser(
        "lobby", help="the lobby: open, join or watch tables", description="The lobby of tables on this machine."
    )
    lobby.add_argument("--name", required=True, help=f"your name at the tables (at most {MAX_NAME} characters)")
    lobby.add_argument("--watch", action="store_true", help="watch bots play, match after match, unattended")
    lobby.add_argument("--speed", choices=BOT_SPEEDS, help="how fast bots play (default: your preference)")
    lobby.set_defaults(run=run_lobby)


def run_serve_ssh(args: argparse.Namespace) -> int:
    from net.paths import default_host_key_path
    from net.ssh_keys import KeyFileError, load_authorized_keys
    from net.ssh_server import DEFAULT_MAX_SESSIONS, SSHFrontDoor

    name = f"{PROG} serve-ssh"
    if not 0 <= args.port <= 65535:
        raise UsageError(f"{name}: --port must be from 0 to 65535, not {args.port}")
    sessions = DEFAULT_MAX_SESSIONS if args.max_sessions is None else args.max_sessions
    if sessions < 1:
        raise UsageError(f"{name}: --max-sessions must be at least 1, not {sessions}")
    try:
        load_authorized_keys(Path(args.authorized_keys))
    except KeyFileError as error:
        raise UsageError(f"{name}: {error}") from None
    host_key = Path(args.host_key) if args.host_key else default_host_key_path()
    try:
        door = SSHFrontDoor(Path(args.authorized_keys), host_key, max_sessions=sessions)
    except KeyFileError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 1
    import asyncio

    try:
        return asyncio.run(_serve(door, args.host, args.port, name))
    except KeyboardInterrupt:
        return 0


async def _serve(door: Any, host: str, port: int, name: str) -> int:
    import asyncio
    import signal

    from net.tables import close_tables

    try:
        await door.start(host, port)
    except OSError as error:
        reason = "is in use" if error.errno == 98 else f"cannot be used ({error.strerror or error})"
        print(f"{name}: port {port} on {host} {reason}", file=sys.stderr)
        return 1
    serving = asyncio.current_task()
    assert serving is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, serving.cancel)  # a service stop: as Ctrl+C
    say(f"{name}: listening on {host}:{door.port}; host key {door.fingerprint} ({door.host_key_path})")
    try:
        await door.serve_forever()
    except asyncio.CancelledError:
        pass
    finally:
        await door.close()
        # The lobby's tables end with the server, saved (`dominoes host --resume` goes on with one).
        closed = await asyncio.to_thread(close_tables)
        if closed:
            say(f"{name}: closed {len(closed)} table{'s' if len(closed) != 1 else ''}; their matches are saved")
    say(f"{name}: stopped")
    return 0


def run_lobby(args: argparse.Namespace) -> int:
    """The lobby, and the tables joined from it, until the player quits the lobby."""
    player = " ".join(args.name.split())
    if not player or len(player) > MAX_NAME or not player.isprintable():
        raise UsageError(f"{PROG} lobby: --name takes 1 to {MAX_NAME} printable characters, not {args.name!r}")
    require_terminal(f"{PROG} lobby")
    import subprocess

    from tui.lobby_app import JoinRequest, LobbyApp

    notice = None
    watch = args.watch
    while True:
        app = LobbyApp(player, watch=watch, speed=args.speed, notice=notice)
        app.run()
        request = app.return_value
        if not isinstance(request, JoinRequest):
            return 0
        watch, notice = False, None
        command = [sys.executable, "-m", "cli", "join", request.address, f"--name={player}"]
        if request.seat is not None:
            command.append(f"--seat={request.seat + 1}")  # join counts seats from 1
        code = subprocess.call(command)
        if code not in (0, 130):
            # The join said why on the terminal (one line); leave it readable before the lobby returns.
            notice = f"Could not stay at the table (status {code})."
            sys.stderr.write("\r\nPress Enter to go back to the lobby.")
            sys.stderr.flush()
            sys.stdin.readline()
