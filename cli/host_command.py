"""`dominoes host`: serve one match to players who join over the network (no interface here).

The match is built (or loaded with --resume) and every argument checked before anything listens: a
bad one is a UsageError (one line, exit status 2). Then the table server runs until the match is
over or Ctrl+C, printing the address to join and one line per notable event; either way the match
is saved, and a stopped one can be hosted again with --resume.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any, NamedTuple

from cli.output import say as _say  # the host's log: kept going when nobody reads it
from cli.usage import PROG, UsageError, add_option_argument, parse_option_pairs

# asyncio, the network and the save machinery are imported when the command runs: `dominoes` alone
# must start fast (bench/startup.py).

DEFAULT_PAUSE = 2.0
DEFAULT_BIND = "127.0.0.1"  # this machine only, unless --bind says otherwise


def add_parser(commands: Any) -> None:
    from core import GAME_NAMES
    from core.bots import BOT_LEVELS

    host = commands.add_parser(
        "host",
        help="host a match for players who join over the network",
        description="Host a match: players join with `dominoes join ADDRESS --name NAME`.",
    )
    host.add_argument("--game", help=f"one of: {', '.join(GAME_NAMES)}")
    host.add_argument("--players", type=int, help="number of players (default: as many as --seats names)")
    host.add_argument(
        "--seats", help=f"per seat, comma-separated: human or a bot level ({', '.join(BOT_LEVELS)}); default all human"
    )
    host.add_argument("--names", default="", help="player names, comma-separated (a joining player renames a seat)")
    host.add_argument(
        "--seat-name",
        nargs=2,
        action="append",
        default=[],
        metavar=("SEAT", "NAME"),
        help="the name of seat SEAT (from 1), for a name with a comma in it (repeatable)",
    )
    add_option_argument(host)
    host.set_defaults(run=run)
    host.add_argument(
        "--seed",
        type=seed_argument,
        help="seed of the deals, for practice with one human and bots ('-': read it from standard input); "
        "default: a secret nobody at the table knows, shown when the match is over",
    )
    where = host.add_mutually_exclusive_group()
    where.add_argument("--port", type=int, help="TCP port to listen on (default: a free one, printed)")
    where.add_argument("--socket", metavar="PATH", help="listen on a Unix socket at PATH instead of TCP")
    host.add_argument(
        "--bind",
        default=DEFAULT_BIND,
        metavar="HOST",
        help=f"interface to listen on (default {DEFAULT_BIND}: this machine only; 0.0.0.0: every interface)",
    )
    host.add_argument(
        "--takeover",
        default="never",
        metavar="SECONDS|never",
        help="a bot plays for a dropped player after this many seconds, until they return (default: never)",
    )
    host.add_argument("--takeover-bot", default="easy", metavar="LEVEL", help="level of that bot (default: easy)")
    host.add_argument("--budget", type=float, help="seconds per decision for searching bots (default: theirs)")
    host.add_argument(
        "--pause",
        type=float,
        default=DEFAULT_PAUSE,
        help=f"seconds to show a finished round before the next deal (default {DEFAULT_PAUSE:g})",
    )
    host.add_argument(
        "--idle-close",
        default="never",
        metavar="SECONDS|never",
        help="close the table (the match saved) after this many seconds with no player connected (default: never)",
    )
    host.add_argument(
        "--status", metavar="PATH", help="keep a JSON file at PATH saying who sits where (for a lobby to show)"
    )
    host.add_argument(
        "--resume", dest="resume_match", metavar="MATCH", help="host a saved match (an id or the start of one)"
    )


MAX_SEED_LINE = 64  # a seed read from standard input: one short line


def seed_argument(text: str) -> int | str:
    """A whole number, or "-" (read from standard input: never on a command line)."""
    if text == "-":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None


def read_seed(value: int | str | None) -> int | None:
    """The seed `--seed` gives: "-" reads one line from standard input. ValueError (one line)."""
    if value != "-":
        return value  # type: ignore[return-value]
    line = sys.stdin.readline(MAX_SEED_LINE + 1).strip()
    try:
        return int(line)
    except ValueError:
        raise ValueError("--seed - reads a whole number from standard input, and none came") from None


class HostPlan(NamedTuple):
    match: Any
    autosave: Any
    address: Any
    takeover: float | None
    takeover_bot: str
    budget: float | None
    pause: float
    idle_close: float | None
    status: str | None


def plan(args: argparse.Namespace) -> HostPlan:
    """Everything `host` needs, checked; ValueError (one line) for a bad argument, SaveError for a
    save that cannot be loaded or that another process has open. The plan's autosave holds the
    match's lock: close it when done."""
    from core.bots import get_bot
    from net.address import tcp, unix
    from saves.autosave import Autosave
    from saves.store import SaveStore

    takeover = _seconds_or_never("--takeover", args.takeover)
    idle_close = _seconds_or_never("--idle-close", args.idle_close)
    get_bot(args.takeover_bot)
    if args.budget is not None and not (math.isfinite(args.budget) and args.budget > 0):
        raise ValueError(f"--budget must be a positive number of seconds, not {args.budget}")
    if not (math.isfinite(args.pause) and 0 <= args.pause <= 60):
        raise ValueError(f"--pause must be from 0 to 60 seconds, not {args.pause}")
    port = 0 if args.port is None else args.port
    address = unix(args.socket) if args.socket is not None else tcp(args.bind, port)
    store = SaveStore()
    if args.resume_match is not None:
        given = [name for name in ("game", "players", "seats", "seed") if getattr(args, name) is not None]
        if given or args.names or args.seat_name or args.option:
            raise ValueError("--resume takes the game, seats and options from the save; drop the other match arguments")
        # Opened: locked (MatchInUse, naming the process, if another has it open), then loaded.
        autosave = Autosave.open(store, store.resolve(args.resume_match))
        if autosave.notice:
            print(f"{PROG} host: {autosave.notice}", file=sys.stderr)
        match = autosave.match
        problem = f"match {autosave.match_id} is over; there is nothing left to host" if match.state.over else None
        if problem is None and match.seed_chosen and match.shared:
            print(
                f"{PROG} host: note: match {autosave.match_id} is dealt from a seed (it was saved before deals came "
                "from secrets, or chosen): whoever finds the seed knows every deal; a new match deals fairly",
                file=sys.stderr,
            )
    else:
        match = _new_match(args)
        autosave = Autosave(store, match, exclusive=True)  # locked from its first save on
        problem = None
    if problem is None and not match.humans:
        problem = "a hosted table needs at least one human seat"
    if problem is not None:
        autosave.close()
        raise ValueError(problem)
    return HostPlan(
        match, autosave, address, takeover, args.takeover_bot, args.budget, args.pause, idle_close, args.status
    )


def _seconds_or_never(flag: str, text: str) -> float | None:
    if text.strip().lower() == "never":
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"{flag} is a number of seconds or 'never', not {text!r}")
    return seconds


def _new_match(args: argparse.Namespace) -> Any:
    from core import get_game
    from tui.settings import build_settings

    if args.game is None:
        raise ValueError("--game is required (or --resume MATCH)")
    game = get_game(args.game)
    kinds = [word.strip() for word in args.seats.split(",")] if args.seats else None
    if args.players is not None:
        players = game.check_players(args.players)
    else:
        players = game.check_players(len(kinds)) if kinds else game.min_players
    kinds = kinds or ["human"] * players
    if len(kinds) != players:
        raise ValueError(f"--seats names {len(kinds)} seats for {players} players")
    names = [name.strip() for name in args.names.split(",")] if args.names else []
    if len(names) > players:
        raise ValueError(f"--names gives {len(names)} names for {players} players")
    names += [""] * (players - len(names))
    for seat_text, name in args.seat_name:
        seat = int(seat_text) if seat_text.isdigit() and seat_text.isascii() else 0
        if not 1 <= seat <= players:
            raise ValueError(f"--seat-name names seat {seat_text}, and the seats are 1 to {players}")
        names[seat - 1] = name
    names = [name or f"Seat {index + 1}" for index, name in enumerate(names)]  # "You" means no one here
    options = game.parse_options(players, parse_option_pairs(args.option))
    seed = read_seed(args.seed)
    settings = build_settings(game.name, players, kinds, names, options, seed)
    humans = sum(1 for seat in settings.seats if not seat.is_bot)
    if seed is not None and humans > 1:
        raise ValueError(
            f"--seed is for practice with one human and bots: at a table of {humans} humans whoever knew the "
            "seed would know every hand, so the deals come from a secret nobody at it knows"
        )
    return settings.new_match()


def reach(address: Any) -> str:
    """Who can join at `address`, said at start so the host knows what they opened."""
    import ipaddress

    if address.is_unix:
        return "a Unix socket, this machine only"
    try:
        loopback = ipaddress.ip_address(address.host).is_loopback
    except ValueError:
        loopback = address.host == "localhost"
    if loopback:
        return f"{address.host}, this machine only (--bind 0.0.0.0 opens it to others)"
    if address.host in ("0.0.0.0", "::", ""):
        return f"every interface ({address.host}): anyone who can reach this machine can join"
    return f"{address.host}: anyone who can reach that address can join"


def join_address(address: Any) -> str:
    """The address to give the players: the machine's name when listening on every interface."""
    import socket

    if address.is_unix or address.host not in ("0.0.0.0", "::", ""):
        return str(address)
    return f"{socket.gethostname()}:{address.port}"


def run(args: argparse.Namespace) -> int:
    try:
        return run_host(args)
    except ValueError as error:
        raise UsageError(f"{PROG} host: {error}") from None


def run_host(args: argparse.Namespace) -> int:
    """Host the match; ValueError (one line) for a bad argument, before anything listens."""
    import asyncio

    from saves.errors import SaveError

    try:
        host_plan = plan(args)
    except SaveError as error:
        print(f"{PROG} host: {error}", file=sys.stderr)
        return 1
    try:
        return asyncio.run(_serve(host_plan))
    finally:
        host_plan.autosave.close()


async def _serve(host_plan: HostPlan) -> int:
    import asyncio
    import signal

    from core import get_game
    from net.paths import data_dir
    from net.seat_keys import server_keys_path
    from net.server import TableServer
    from net.tables import remove_ended_table, write_seat_status
    from saves.os_errors import is_disk_error, os_error_text

    match = host_plan.match
    status = host_plan.status

    def tell_seats(names: tuple[str, ...], labels: tuple[str, ...]) -> None:
        if status is not None:
            try:
                write_seat_status(status, names, labels)
            except OSError as error:
                _say(f"could not write the seat status to {status}: {os_error_text(error)}")

    server = TableServer(
        match,
        keys_path=server_keys_path(data_dir(), host_plan.autosave.match_id),
        autosave=host_plan.autosave,
        takeover_after=host_plan.takeover,
        bot_budget=host_plan.budget,
        takeover_level=host_plan.takeover_bot,
        deal_delay=host_plan.pause,
        on_event=_say,
        on_seats=tell_seats,
        idle_close_after=host_plan.idle_close,
    )
    try:
        await server.start(host_plan.address)
    except OSError as error:
        if is_disk_error(error):
            what = f"cannot make the table's socket at {host_plan.address}: {os_error_text(error)}"
        else:
            what = f"cannot listen at {host_plan.address}: {os_error_text(error)}"
        print(f"{PROG} host: {what}", file=sys.stderr)
        return 1
    loop = asyncio.get_running_loop()
    serving = asyncio.current_task()
    assert serving is not None
    loop.add_signal_handler(signal.SIGTERM, serving.cancel)  # `kill`, or serve-ssh stopping: as Ctrl+C
    where = join_address(server.address)
    match_id = host_plan.autosave.match_id
    _say(f"hosting {get_game(match.game_name).title} (match {match_id}) at {server.address}")
    _say(f"listening on {reach(server.address)}")
    _say(f"join with: {PROG} join {where} --name NAME")
    if match.secret is not None:  # the commitment only: the secret is the players' once the match is over
        _say(f"deals committed to {match.commitment[:16]} (the SHA-256 of the match's secret, sent to every player)")
    elif match.seed is not None:
        _say("deals from a chosen seed (practice)")
    _say("seats: " + ", ".join(f"{i + 1} {seat.describe()}" for i, seat in enumerate(match.seats)))
    try:
        await server.serve_until_over()
    except asyncio.CancelledError:  # Ctrl+C or SIGTERM
        await server.close("the host stopped the table")
        match_id = host_plan.autosave.match_id  # a save changed by another process goes on under a new id
        _say(f"stopped; the match is saved: {PROG} host --resume {match_id} goes on with it")
        return 0
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        remove_ended_table(Path(str(host_plan.address.path)) if host_plan.address.is_unix else None, status)
    match_id = host_plan.autosave.match_id
    if match.state.over:
        _say(f"the match is over and saved as {match_id}")
    else:
        _say(f"closed ({server.end_reason}); the match is saved: {PROG} host --resume {match_id} goes on with it")
    return 0
