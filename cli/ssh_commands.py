"""`dominoes serve-ssh` (the SSH front door) and `dominoes lobby` (what each SSH session runs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cli.output import say
from cli.terminal import require_terminal
from cli.usage import PROG, UsageError
from core.seats import MAX_NAME
from tui.preferences import BOT_SPEEDS

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
        "--authorized-keys",
        metavar="FILE",
        help="the public keys let in (OpenSSH authorized_keys), each as the name its line gives",
    )
    serve.add_argument(
        "--open",
        action="store_true",
        help="an open room: any other SSH key comes in and signs up for a name, kept for that key",
    )
    add_sign_up_arguments(serve)
    serve.add_argument(
        "--host-key", metavar="PATH", help="the server's key (default: in the data directory; made on first start)"
    )
    add_limit_arguments(serve, sessions=True)
    add_spawn_argument(serve)
    serve.set_defaults(run=run_serve_ssh)

    lobby = commands.add_parser(
        "lobby", help="the lobby: open, join or watch tables", description="The lobby of tables on this machine."
    )
    lobby.add_argument("--name", help=f"your name at the tables (at most {MAX_NAME} characters)")
    lobby.add_argument(
        "--sign-up",
        action="store_true",
        help="choose a name first, for the key you came in with (what an open server's newcomers run)",
    )
    lobby.add_argument("--watch", action="store_true", help="watch bots play, match after match, unattended")
    lobby.add_argument("--speed", choices=BOT_SPEEDS, help="how fast bots play (default: your preference)")
    add_limit_arguments(lobby, sessions=False)
    lobby.set_defaults(run=run_lobby)


# The server's caps (net.limits.ServerLimits), as options: the field, what it counts, and whether
# only serve-ssh takes it (the lobby is given the caps on tables by the server that runs it).
LIMIT_OPTIONS = (
    ("max_sessions", "sessions in play at once, in all", True),
    ("max_player_sessions", "sessions of one player at once", True),
    ("max_tables", "lobby tables open at once, in all", False),
    ("max_player_tables", "lobby tables one player may have open", False),
    ("max_watchers", "people watching one lobby table at once (0: nobody may watch)", False),
)


def add_sign_up_arguments(parser: argparse.ArgumentParser) -> None:
    """An open room's limits on new names (net.accounts.SignUpLimits)."""
    from net.accounts import SignUpLimits

    default = SignUpLimits()
    parser.add_argument(
        "--sign-ups-per-address",
        type=int,
        metavar="N",
        default=default.per_address,
        help="with --open: new names an hour from one address (default %(default)s)",
    )
    parser.add_argument(
        "--sign-ups-per-hour",
        type=int,
        metavar="N",
        default=default.per_hour,
        help="with --open: new names an hour from all (default %(default)s)",
    )
    parser.add_argument(
        "--max-accounts",
        type=int,
        metavar="N",
        default=default.max_accounts,
        help="with --open: names kept at most (default %(default)s)",
    )
    parser.add_argument(
        "--expire-days",
        type=float,
        metavar="DAYS",
        default=default.expire_days,
        help="with --open: a name that finished no match by then is let go (default %(default)g)",
    )


def sign_up_limits_from(args: argparse.Namespace, command: str) -> Any:
    """The open room's limits the arguments give; UsageError (one line) for one that makes no sense."""
    from net.accounts import SignUpLimits

    limits = SignUpLimits(args.sign_ups_per_address, args.sign_ups_per_hour, args.max_accounts, args.expire_days)
    try:
        limits.check()
    except ValueError as error:
        raise UsageError(f"{command}: {error}") from None
    return limits


def add_spawn_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--spawn",
        action="store_true",
        help="start every session as a fresh process, not forked from a warm one (slower; for comparison)",
    )


def session_launcher(args: argparse.Namespace) -> Any:
    """How the door's sessions start: forked from a warm process (`warm_sessions`), or with
    --spawn each as a fresh process. A door run as the program forks its zygote from its own
    process, before it starts anything, so that the two share what both imported
    (`warm_sessions.zygote.fork_zygote`); in a process that is not its own (`main` called by
    another program, whose process is not the door's to prepare) the door starts its zygote as a
    program."""
    import os

    if args.spawn:
        from net.session_launch import SessionLauncher

        return SessionLauncher(os.environ)
    from cli.session_entry import SESSION_ENTRY
    from warm_sessions.session_fork import WarmSessions
    from warm_sessions.zygote import fork_zygote

    launcher = WarmSessions(os.environ, SESSION_ENTRY)
    if launcher.warm and getattr(args, "own_process", False):
        forked = fork_zygote(launcher.environment, SESSION_ENTRY)
        if forked is not None:
            launcher.take_forked(forked.pid, forked.channel)
    return launcher


def add_limit_arguments(parser: argparse.ArgumentParser, sessions: bool) -> None:
    """The server's caps and the lobby tables' takeover delay."""
    from net.limits import ServerLimits

    default = ServerLimits()
    for field, counts, serve_only in LIMIT_OPTIONS:
        if sessions or not serve_only:
            flag = "--" + field.replace("_", "-")
            parser.add_argument(
                flag, type=int, metavar="N", default=getattr(default, field), help=f"{counts} (default %(default)s)"
            )
    parser.add_argument(
        "--takeover",
        type=float,
        default=default.takeover,
        metavar="SECONDS",
        help="at a lobby table, an easy bot plays for an away player after this long (default %(default)g)",
    )


def limits_from(args: argparse.Namespace, command: str) -> Any:
    """The caps the arguments give; UsageError (one line) for one that makes no sense."""
    from net.limits import ServerLimits

    given = {field: getattr(args, field) for field, _, _ in LIMIT_OPTIONS if hasattr(args, field)}
    limits = ServerLimits(**given, takeover=args.takeover)
    try:
        limits.check()
    except ValueError as error:
        raise UsageError(f"{command}: {error}") from None
    return limits


def run_serve_ssh(args: argparse.Namespace) -> int:
    from net.paths import default_host_key_path
    from net.ssh_keys import KeyFileError, load_authorized_keys
    from net.ssh_server import SSHFrontDoor

    name = f"{PROG} serve-ssh"
    if not 0 <= args.port <= 65535:
        raise UsageError(f"{name}: --port must be from 0 to 65535, not {args.port}")
    limits = limits_from(args, name)
    room = None
    if args.open:
        from net.accounts import RoomBook
        from net.paths import data_dir

        room = RoomBook(data_dir(), limits=sign_up_limits_from(args, name))
    elif args.authorized_keys is None:
        raise UsageError(f"{name}: give --authorized-keys FILE (the keys let in), or --open to let any key sign up")
    keys = Path(args.authorized_keys) if args.authorized_keys is not None else None
    if keys is not None:
        try:
            load_authorized_keys(keys)
        except KeyFileError as error:
            raise UsageError(f"{name}: {error}") from None
    host_key = Path(args.host_key) if args.host_key else default_host_key_path()
    try:
        door = SSHFrontDoor(
            keys,
            host_key,
            limits=limits,
            launcher=session_launcher(args),
            on_note=lambda line: say(f"{name}: {line}"),
            room=room,
        )
    except KeyFileError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 1
    import asyncio

    try:
        return asyncio.run(_serve(door, args.host, args.port, name))
    except KeyboardInterrupt:
        return 0
    finally:
        door.launcher.end_forked()  # a zygote the door never took on (it could not start): ended, not left


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
    players = door.keys.names()
    shown = ", ".join(players[:10]) + (f" and {len(players) - 10} more" if len(players) > 10 else "")
    if players:
        say(f"{name}: {len(players)} players may log in, each as the name their key's line gives: {shown}")
    if door.room is not None:
        limits = door.room.limits
        say(
            f"{name}: open: any other key signs up for a name (at most {limits.per_address} an hour from one "
            f"address, {limits.per_hour} an hour in all, {limits.max_accounts} kept); `{PROG} admin` bans"
        )
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
    from core.seats import check_name

    if (args.name is None) == (not args.sign_up):
        raise UsageError(f"{PROG} lobby: give --name NAME, or --sign-up to choose one")
    limits = limits_from(args, f"{PROG} lobby")
    if args.sign_up:
        require_terminal(f"{PROG} lobby")
        signed_up = run_sign_up()
        if signed_up is None:
            return 0
        player = signed_up
    else:
        try:
            player = check_name(args.name)
        except ValueError as error:
            raise UsageError(f"{PROG} lobby: --name takes 1 to {MAX_NAME} printable characters: {error}") from None
        require_terminal(f"{PROG} lobby")
    from tui.lobby_app import JoinRequest, LobbyApp

    notice = None
    watch = args.watch
    while True:
        app = LobbyApp(player, watch=watch, speed=args.speed, notice=notice, limits=limits)
        app.run()
        if app.return_code:
            return 1  # the lobby stopped on an error (Textual has shown it)
        request = app.return_value
        if not isinstance(request, JoinRequest):
            return 0
        watch = False
        failed = run_join(request, player)
        doing = "watch" if request.watch else "play at"
        notice = f"Could not {doing} that table: {failed}." if failed else None


def run_sign_up() -> str | None:
    """An open server's newcomer chooses a name for their key (given by the server in the
    environment); the name taken, with the player's own folder made the data directory from here
    on, or None if they left."""
    import os

    from net.accounts import FINGERPRINT, RoomBook, SignUpLimits
    from net.paths import server_dir
    from net.player_sessions import (
        SIGN_UP_ADDRESS_VARIABLE,
        SIGN_UP_KEY_VARIABLE,
        SIGN_UP_LIMITS_VARIABLE,
        player_home,
    )
    from saves.store import HOME_VARIABLE

    fingerprint = os.environ.get(SIGN_UP_KEY_VARIABLE, "")
    if not FINGERPRINT.fullmatch(fingerprint):
        raise UsageError(f"{PROG} lobby: --sign-up is for the sessions of an open server (serve-ssh --open)")
    address = os.environ.get(SIGN_UP_ADDRESS_VARIABLE, "local")[:64]
    server = server_dir()
    book = RoomBook(server, limits=SignUpLimits.from_text(os.environ.get(SIGN_UP_LIMITS_VARIABLE)))
    from tui.sign_up_app import SignUpApp

    app = SignUpApp(book, fingerprint, address)
    name = app.run()
    if not name:
        return None
    os.environ[HOME_VARIABLE] = str(player_home(server, name))
    for variable in (SIGN_UP_KEY_VARIABLE, SIGN_UP_ADDRESS_VARIABLE, SIGN_UP_LIMITS_VARIABLE):
        os.environ.pop(variable, None)
    return name


def run_join(request: Any, player: str) -> str | None:
    """The table the lobby chose, in this terminal and in this process, whose modules are loaded
    already: the table opens at once, and a watching session costs the server no second Python.
    Why it failed (one line), or None if the player left the table or it ended."""
    import asyncio

    from cli.join_command import InterfaceFailed, join_and_play, watch
    from net.address import parse_address

    try:
        address = parse_address(request.address)
        asyncio.run(watch(address) if request.watch else join_and_play(address, player, request.seat))
    except (ValueError, ConnectionError, OSError, InterfaceFailed) as error:
        return str(error)
    except KeyboardInterrupt:
        return None
    return None
