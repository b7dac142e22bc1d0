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
    from net.limits import DEFAULT_MAX_WATCHERS

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
        nargs="+",
        action="append",
        default=[],
        metavar="SEAT NAME",
        help="the name of seat SEAT (from 1), for a name with a comma in it (repeatable); "
        "--seat-name=SEAT:NAME takes any name, even one that begins with -",
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
        "--watchers",
        type=int,
        default=DEFAULT_MAX_WATCHERS,
        metavar="N",
        help="how many may watch the table at once, seeing what every seat sees (default %(default)s; 0: none)",
    )
    host.add_argument(
        "--resume",
        dest="resume_match",
        metavar="MATCH",
        help="host a saved match (an id or the start of one), where it was last hosted unless --port or --socket",
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
    watchers: int = 0
    fallback: Any = None  # where to listen if `address` (where the match was last hosted) is taken


def plan(args: argparse.Namespace) -> HostPlan:
    """Everything `host` needs, checked; ValueError (one line) for a bad argument, SaveError for a
    save that cannot be loaded or that another process has open. The plan's autosave holds the
    match's lock: close it when done."""
    from core.bots import get_bot
    from net.address import tcp, unix
    from net.limits import MAX_WATCHERS_LIMIT
    from saves.autosave import Autosave
    from saves.store import SaveStore

    takeover = _seconds_or_never("--takeover", args.takeover)
    idle_close = _seconds_or_never("--idle-close", args.idle_close)
    get_bot(args.takeover_bot)
    if args.budget is not None and not (math.isfinite(args.budget) and args.budget > 0):
        raise ValueError(f"--budget must be a positive number of seconds, not {args.budget}")
    if not (math.isfinite(args.pause) and 0 <= args.pause <= 60):
        raise ValueError(f"--pause must be from 0 to 60 seconds, not {args.pause}")
    if not 0 <= args.watchers <= MAX_WATCHERS_LIMIT:
        raise ValueError(f"--watchers must be from 0 to {MAX_WATCHERS_LIMIT}, not {args.watchers}")
    port = 0 if args.port is None else args.port
    bind = args.bind or DEFAULT_BIND
    address = unix(args.socket) if args.socket is not None else tcp(bind, port)
    fallback = None
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
        if args.port is None and args.socket is None:
            address, fallback = _where_last_hosted(autosave.match_id, args.bind, address)
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
        match,
        autosave,
        address,
        takeover,
        args.takeover_bot,
        args.budget,
        args.pause,
        idle_close,
        args.status,
        args.watchers,
        fallback,
    )


def _where_last_hosted(match_id: str, bind: str | None, free: Any) -> tuple[Any, Any]:
    """Where a resumed match listens: where it was last hosted (the same port, on --bind if given,
    or the same socket), with `free` (a free port) to fall back on; just `free` if it never was."""
    from net.address import tcp
    from net.last_address import recall
    from net.paths import data_dir

    last = recall(data_dir(), match_id)
    if last is None:
        return free, None
    if last.is_unix:
        return last, free
    return tcp(bind or str(last.host), int(last.port or 0)), free


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
    for given in args.seat_name:
        seat_text, name = _seat_and_name(given)
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


def _seat_and_name(given: list[str]) -> tuple[str, str]:
    """`--seat-name SEAT NAME`, or `--seat-name=SEAT:NAME` (for a name that begins with -)."""
    if len(given) == 2:
        return given[0], given[1]
    if len(given) == 1 and ":" in given[0]:
        seat, _, name = given[0].partition(":")
        return seat, name
    raise ValueError(f"--seat-name takes SEAT NAME, or SEAT:NAME in one word, not {' '.join(given)[:60]!r}")


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
    import errno
    import signal

    from core import get_game
    from net.last_address import remember
    from net.paths import data_dir
    from net.seat_keys import server_keys_path
    from net.server import TableServer
    from net.tables import remove_ended_table, write_seat_status
    from saves.os_errors import is_disk_error, os_error_text

    match = host_plan.match
    status = host_plan.status
    told: dict[str, Any] = {"names": match.names, "labels": (), "watching": 0}

    def tell_status(**changed: Any) -> None:
        told.update(changed)
        if status is not None:
            try:
                write_seat_status(status, told["names"], told["labels"], told["watching"])
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
        on_seats=lambda names, labels: tell_status(names=names, labels=labels),
        idle_close_after=host_plan.idle_close,
        max_watchers=host_plan.watchers,
        on_watchers=lambda count: tell_status(watching=count),
    )
    match_id = host_plan.autosave.match_id
    loop = asyncio.get_running_loop()
    serving = asyncio.current_task()
    assert serving is not None
    for number in (signal.SIGTERM, signal.SIGHUP):  # `kill`, serve-ssh stopping, a closed terminal: as Ctrl+C
        loop.add_signal_handler(number, serving.cancel)  # from before the table opens: it ends saved, whenever
    try:
        moved = None
        try:
            try:
                await server.start(host_plan.address)
            except OSError as error:
                if host_plan.fallback is None:
                    raise
                why = "is in use" if error.errno == errno.EADDRINUSE else f"cannot be used ({os_error_text(error)})"
                moved = f"{host_plan.address}, where match {match_id} was last hosted, {why}"
                await server.start(host_plan.fallback)
        except OSError as error:
            where = host_plan.address if moved is None else host_plan.fallback
            if is_disk_error(error):
                what = f"cannot make the table's socket at {where}: {os_error_text(error)}"
            else:
                what = f"cannot listen at {where}: {os_error_text(error)}"
            print(f"{PROG} host: {what}", file=sys.stderr)
            return 1
        remember(data_dir(), match_id, server.address)
        where = join_address(server.address)
        _say(f"hosting {get_game(match.game_name).title} (match {match_id}) at {server.address}")
        if moved is not None:
            _say(f"{moved}: listening at {server.address} instead (the seats are kept: players join there)")
        elif host_plan.fallback is not None:
            _say(f"listening where match {match_id} was last hosted: players join at the same address")
        _say(f"listening on {reach(server.address)}")
        _say(f"join with: {PROG} join {where} --name NAME")
        if match.secret is not None:  # the commitment only: the secret is the players' once the match is over
            _say(
                f"deals committed to {match.commitment[:16]} (the SHA-256 of the match's secret, sent to every player)"
            )
        elif match.seed is not None:
            _say("deals from a chosen seed (practice)")
        _say("seats: " + ", ".join(f"{i + 1} {seat.describe()}" for i, seat in enumerate(match.seats)))
        await server.serve_until_over()
    except asyncio.CancelledError:  # Ctrl+C, SIGTERM or SIGHUP
        await server.close("the host stopped the table")
        match_id = host_plan.autosave.match_id  # a save changed by another process goes on under a new id
        if server.address is not None:
            remember(data_dir(), match_id, server.address)
        _say(f"stopped; the match is saved: {PROG} host --resume {match_id} goes on with it")
        return 0
    finally:
        for number in (signal.SIGTERM, signal.SIGHUP):
            loop.remove_signal_handler(number)
        bound = server.address
        remove_ended_table(Path(str(bound.path)) if bound is not None and bound.is_unix else None, status)
    match_id = host_plan.autosave.match_id
    remember(data_dir(), match_id, server.address)
    if match.state.over:
        _say(f"the match is over and saved as {match_id}")
    else:
        _say(f"closed ({server.end_reason}); the match is saved: {PROG} host --resume {match_id} goes on with it")
    return 0
