"""The tables hosted on this machine, as the lobby sees them.

A table is a `dominoes host` process serving a Unix socket in the tables directory, with a JSON
sidecar beside it that says what is played there (game, seats, options, who opened it). The
sidecar is written atomically by whoever starts the host; a sidecar whose process is gone is
stale and is removed, with its socket, by the next listing. The directory and every file in it
are its owner's only (0700, 0600). The server caps the tables open at once, in all and per player
who opened them; a table's host plays an easy bot for an away player after a while (`takeover`)
and saves into the server's data directory, not its maker's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.file_lock import exclusive
from net.limits import MAX_WATCHERS_LIMIT, ServerLimits
from net.paths import server_dir, tables_dir
from saves.json_file import load_json_file, private_directory, write_json_file
from saves.os_errors import os_error_text
from saves.store import HOME_VARIABLE

SIDECAR_VERSION = 1
SIDECAR_SUFFIX = ".json"
SOCKET_SUFFIX = ".sock"
LOG_SUFFIX = ".log"
STATUS_SUFFIX = ".seats"  # kept up to date by the host: who sits where now
MAX_STATUS = 16 * 1024
IDLE_CLOSE = 3600  # seconds a lobby's table stays open with nobody connected (the match is saved)
MAX_SIDECAR = 64 * 1024
MAX_TABLES = 200  # a listing reads at most this many sidecars
MAX_SOCKET_PATH = 104  # sun_path is 108 bytes on Linux, 104 on the BSDs
SEAT_KINDS = ("human", "open", "bot")
START_TIMEOUT = 10.0  # seconds a new host may take to open its socket
CLOSE_TIMEOUT = 10.0  # seconds a host may take to close its table when asked to stop


@dataclass(frozen=True)
class TableSeat:
    kind: str  # "human" (taken when the table was made), "open" (for whoever joins) or "bot"
    name: str | None = None
    level: str | None = None

    def describe(self) -> str:
        if self.kind == "bot":
            return f"{self.name or 'bot'} ({self.level})"
        if self.kind == "open":
            return "open"
        return self.name or "player"


@dataclass(frozen=True)
class Table:
    table_id: str
    game: str
    seats: tuple[TableSeat, ...]
    options: Mapping[str, Any]
    creator: str
    created: float
    pid: int
    socket: Path
    live: tuple[tuple[str, str], ...] | None = None  # per seat, from the host: (name, "human"/"away"/"open"/level)
    max_watchers: int = 0  # how many may watch at once (0: the maker closed it to watchers)
    watching: int = 0  # how many watch now, from the host

    def seat_of(self, player: str) -> int | None:
        """The human seat that is `player`'s (by its name, in any case), if there is one: they take
        it back from the lobby, with the key their join kept."""
        key = player.casefold()
        if self.live is None:
            found = (
                i for i, seat in enumerate(self.seats) if seat.kind == "human" and (seat.name or "").casefold() == key
            )
        else:
            found = (
                i
                for i, ((name, label), seat) in enumerate(zip(self.live, self.seats, strict=True))
                if seat.kind != "bot" and label != "open" and name.casefold() == key
            )
        return next(found, None)

    def seat_texts(self, viewer: str | None = None) -> tuple[str, ...]:
        """Each seat as the lobby shows it: live from the host where it has said, else as opened;
        `viewer`'s own seat as "you"."""
        mine = self.seat_of(viewer) if viewer is not None else None
        if self.live is None:
            return tuple("you" if i == mine else seat.describe() for i, seat in enumerate(self.seats))
        texts = []
        for index, ((name, label), seat) in enumerate(zip(self.live, self.seats, strict=True)):
            if seat.kind == "bot":
                texts.append(seat.describe())
                continue
            who = "you" if index == mine else name
            texts.append({"open": "open", "human": who, "away": f"{who} (away)"}.get(label, f"{who} ({label})"))
        return tuple(texts)

    @property
    def watchable(self) -> bool:
        return self.max_watchers > 0

    @property
    def open_seats(self) -> int:
        if self.live is not None:
            return sum(1 for _, label in self.live if label == "open")
        return sum(1 for seat in self.seats if seat.kind == "open")

    def to_data(self) -> dict[str, Any]:
        return {
            "version": SIDECAR_VERSION,
            "id": self.table_id,
            "game": self.game,
            "seats": [{"kind": s.kind, "name": s.name, "level": s.level} for s in self.seats],
            "options": dict(self.options),
            "creator": self.creator,
            "created": self.created,
            "pid": self.pid,
            "socket": str(self.socket),
            "watchers": self.max_watchers,
        }

    @staticmethod
    def from_data(data: Any) -> Table:
        """ValueError for anything that is not a sidecar of this version."""
        if not isinstance(data, dict) or data.get("version") != SIDECAR_VERSION:
            raise ValueError("not a table sidecar of this version")
        seats = []
        for seat in data.get("seats") or ():
            if not isinstance(seat, dict) or seat.get("kind") not in SEAT_KINDS:
                raise ValueError("a seat is not described")
            name, level = seat.get("name"), seat.get("level")
            if not (name is None or isinstance(name, str)) or not (level is None or isinstance(level, str)):
                raise ValueError("a seat's name or level is not text")
            seats.append(TableSeat(seat["kind"], name, level))
        fields = (data.get("id"), data.get("game"), data.get("creator"), data.get("socket"))
        if not all(isinstance(value, str) for value in fields) or not seats:
            raise ValueError("the sidecar lacks a field")
        pid, created, options = data.get("pid"), data.get("created"), data.get("options")
        if type(pid) is not int or pid <= 0 or not isinstance(created, int | float) or not isinstance(options, dict):
            raise ValueError("the sidecar's process, time or options are wrong")
        watchers = data.get("watchers", 0)  # a table from before watching: none
        if type(watchers) is not int or not 0 <= watchers <= MAX_WATCHERS_LIMIT:
            raise ValueError("the sidecar's count of watchers is wrong")
        return Table(
            data["id"],
            data["game"],
            tuple(seats),
            options,
            data["creator"],
            created,
            pid,
            Path(data["socket"]),
            max_watchers=watchers,
        )


def process_alive(pid: int, socket: Path | None = None) -> bool:
    """Whether `pid` runs (and, where /proc tells, is the process serving `socket`: pids are reused)."""
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)  # a host this process started and that has exited: reap it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    if socket is not None:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()[:65536]
        except FileNotFoundError:
            return False
        except OSError:
            return True  # no /proc here: the pid is all there is to go by
        return os.fsencode(str(socket)) in command
    return True


def _remove(table_id: str, directory: Path) -> None:
    for suffix in (SIDECAR_SUFFIX, SOCKET_SUFFIX, LOG_SUFFIX, STATUS_SUFFIX):
        with contextlib.suppress(OSError):
            (directory / f"{table_id}{suffix}").unlink()


def remove_ended_table(socket: Path | None, status: str | None = None) -> None:
    """What a host leaves when its table ends: its seat status file and, for a lobby's table (whose
    sidecar names this process), the sidecar and the log. The server removes the socket itself."""
    if status is not None:
        with contextlib.suppress(OSError):
            Path(status).unlink()
    if socket is None or not socket.name.endswith(SOCKET_SUFFIX):
        return
    table_id = socket.name[: -len(SOCKET_SUFFIX)]
    try:
        table = Table.from_data(load_json_file(socket.with_name(table_id + SIDECAR_SUFFIX), MAX_SIDECAR))
    except (OSError, ValueError):
        return
    if table.pid == os.getpid() and table.table_id == table_id:
        _remove(table_id, socket.parent)


def list_tables(directory: Path | None = None) -> list[Table]:
    """The live tables, oldest first; stale sidecars (and their sockets) are removed on the way."""
    directory = directory or tables_dir()
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    tables = []
    for name in names[: MAX_TABLES * 3]:
        if not name.endswith(SIDECAR_SUFFIX) or name.startswith("."):
            continue
        path = directory / name
        try:
            table = Table.from_data(load_json_file(path, MAX_SIDECAR))
        except (OSError, ValueError):
            continue  # being written, or not ours: left alone
        if table.table_id != name[: -len(SIDECAR_SUFFIX)]:
            continue
        if not process_alive(table.pid, table.socket):
            _remove(table.table_id, directory)
            continue
        status = read_table_status(directory / f"{table.table_id}{STATUS_SUFFIX}", len(table.seats))
        tables.append(dataclasses.replace(table, live=status[0], watching=status[1]) if status is not None else table)
        if len(tables) >= MAX_TABLES:
            break
    return sorted(tables, key=lambda t: (t.created, t.table_id))


def close_tables(directory: Path | None = None, timeout: float = CLOSE_TIMEOUT) -> list[Table]:
    """Close every live table (what stopping `serve-ssh` does): each host is asked to stop, as with
    Ctrl+C (it says goodbye to its players and saves the match, to be resumed with `dominoes host
    --resume`); one still running after `timeout` seconds is killed (the match is saved after every
    event anyway). Their files are removed. The tables closed."""
    directory = directory or tables_dir()
    tables = list_tables(directory)
    for table in tables:
        with contextlib.suppress(OSError):
            os.kill(table.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    running = list(tables)
    while running:
        running = [table for table in running if process_alive(table.pid, table.socket)]
        if running and time.monotonic() > deadline:
            for table in running:
                with contextlib.suppress(OSError):
                    os.kill(table.pid, signal.SIGKILL)
            break
        if running:
            time.sleep(0.05)
    for table in tables:
        _remove(table.table_id, directory)
    return tables


def write_sidecar(table: Table, directory: Path) -> Path:
    """Atomically (a listing never sees half a sidecar), readable by its owner only."""
    path = directory / f"{table.table_id}{SIDECAR_SUFFIX}"
    write_json_file(path, table.to_data())
    return path


def write_seat_status(path: str | Path, names: Sequence[str], labels: Sequence[str], watching: int = 0) -> None:
    """The host's word on who sits where and how many watch, replaced atomically (a lobby may read
    it at any time)."""
    data = {"version": SIDECAR_VERSION, "names": list(names), "seats": list(labels), "watching": watching}
    write_json_file(Path(path), data)


def read_seat_status(path: Path, players: int) -> tuple[tuple[str, str], ...] | None:
    """Each seat's (name, label) as a host last wrote them, or None if there are none (yet) or they
    make no sense."""
    status = read_table_status(path, players)
    return status[0] if status is not None else None


def read_table_status(path: Path, players: int) -> tuple[tuple[tuple[str, str], ...], int] | None:
    """Each seat's (name, label) and how many watch, as a host last wrote them, or None if there are
    none (yet) or they make no sense."""
    try:
        data = load_json_file(path, MAX_STATUS)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != SIDECAR_VERSION:
        return None
    names, labels, watching = data.get("names"), data.get("seats"), data.get("watching", 0)
    for texts in (names, labels):
        if not isinstance(texts, list) or len(texts) != players or not all(isinstance(x, str) for x in texts):
            return None
    if type(watching) is not int or not 0 <= watching <= MAX_WATCHERS_LIMIT:
        return None
    return tuple(zip(names, labels, strict=True)), watching  # type: ignore[arg-type]


def host_argv(
    game: str,
    seats: Sequence[TableSeat],
    options: Mapping[str, Any],
    socket: Path,
    seed: int | None = None,
    takeover: float | None = None,
    watchers: int = 0,
) -> list[str]:
    """`dominoes host` for a table: the seats taken and open are the ones people play; with
    `takeover`, an easy bot plays for an away player after that many seconds, until they return;
    at most `watchers` may watch (0: none).
    Without a seed the table's process deals from a secret it draws itself, which nothing passes
    anywhere; a seed chosen for practice is written to its standard input (`--seed -`)."""
    kinds = ",".join(seat.level or "easy" if seat.kind == "bot" else "human" for seat in seats)
    status = socket.with_suffix(STATUS_SUFFIX)
    argv = [sys.executable, "-m", "cli", "host", "--game", game, "--seats", kinds, "--socket", str(socket)]
    argv += ["--status", str(status), "--idle-close", str(IDLE_CLOSE), "--watchers", str(watchers)]
    if takeover is not None:
        argv += ["--takeover", f"{takeover:g}"]
    for index, seat in enumerate(seats):
        if seat.kind != "open" and seat.name:
            argv.append(f"--seat-name={index + 1}:{seat.name}")  # one word: a name may hold a comma, or begin with -
    for name, value in options.items():
        text = ("on" if value else "off") if isinstance(value, bool) else str(value)
        argv += ["--option", f"{name}={text}"]
    if seed is not None:
        argv += ["--seed", "-"]  # the seed itself goes through a pipe: never on a command line
    return argv


class TableError(Exception):
    """A table could not be opened: one line for the lobby to show."""


def new_table_id() -> str:
    return time.strftime("%Y%m%d%H%M%S") + "-" + secrets.token_hex(3)


def count_tables(tables: Sequence[Table], creator: str) -> tuple[int, int]:
    """How many of `tables` are open, and how many of them `creator` (in any case) opened."""
    return len(tables), sum(1 for table in tables if table.creator.casefold() == creator.casefold())


def _check_room(directory: Path, creator: str, limits: ServerLimits) -> None:
    """TableError if the server, or this player, has as many tables open as allowed."""
    everyone, theirs = count_tables(list_tables(directory), creator)
    if everyone >= limits.max_tables:
        raise TableError(f"the server has {everyone} tables open, its most; join one, or try again later")
    if theirs >= limits.max_player_tables:
        raise TableError(
            f"you have {theirs} tables open already, the most one player may open; "
            "finish one or let it close (it closes an hour after everyone has left)"
        )


def host_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A table's host saves into the server's data directory, never into its maker's folder: the
    match is everyone's at the table, and its maker must not be able to load it and see all hands."""
    environment = dict(os.environ if base is None else base)
    environment[HOME_VARIABLE] = str(server_dir())
    return environment


def create_table(
    game: str,
    seats: Sequence[TableSeat],
    options: Mapping[str, Any],
    creator: str,
    seed: int | None = None,
    directory: Path | None = None,
    environment: Mapping[str, str] | None = None,
    limits: ServerLimits | None = None,
    watchable: bool = True,
) -> Table:
    """Start `dominoes host` as a detached process (it outlives whoever made the table), record it
    in a sidecar, and wait until its socket is there. A `watchable` table takes as many watchers as
    the server's limits allow; its maker may close it to them. TableError (one line) if the server or the
    creator has as many tables as `limits` allow, or if it does not come up."""
    directory = directory or tables_dir()
    limits = limits or ServerLimits()
    humans = sum(1 for seat in seats if seat.kind != "bot")
    if seed is not None and humans > 1:
        raise TableError(
            "a chosen seed is for practice with one human and bots: at a table with a seat for another "
            "player the deals come from a secret nobody at it knows"
        )
    table_id = new_table_id()
    socket = directory / f"{table_id}{SOCKET_SUFFIX}"
    if len(os.fsencode(str(socket))) > MAX_SOCKET_PATH:
        raise TableError(f"the tables directory's path is too long for a socket: {directory}")
    try:
        private_directory(directory)
        with exclusive(directory / ".lock"):  # counted and started in one step: no two take the last place
            _check_room(directory, creator, limits)
            watchers = limits.max_watchers if watchable else 0
            argv = host_argv(game, seats, options, socket, seed, limits.takeover, watchers)
            process = _start_host(argv, directory / f"{table_id}{LOG_SUFFIX}", host_environment(environment), seed)
            table = Table(
                table_id,
                game,
                tuple(seats),
                dict(options),
                creator,
                time.time(),
                process.pid,
                socket,
                max_watchers=watchers,
            )
            try:
                write_sidecar(table, directory)
            except OSError:
                process.kill()
                process.wait()
                raise
    except (OSError, TableError) as error:
        _remove(table_id, directory)
        if isinstance(error, TableError):
            raise
        raise TableError(f"the tables directory cannot be written ({os_error_text(error)})") from None
    deadline = time.monotonic() + START_TIMEOUT
    while not socket.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            if process.poll() is None:
                process.kill()
            process.wait()
            reason = _last_line(directory / f"{table_id}{LOG_SUFFIX}") or "it did not open its socket in time"
            _remove(table_id, directory)
            raise TableError(f"the table could not be started: {reason}")
        time.sleep(0.05)
    return table


def _start_host(
    argv: list[str], log_path: Path, environment: Mapping[str, str], seed: int | None = None
) -> subprocess.Popen[bytes]:
    """The host process, detached, its output in its log (0600), a chosen seed written to its
    standard input. OSError (with TableError's words for a process that cannot be started) if it
    cannot be."""
    descriptor = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as log:
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL if seed is None else subprocess.PIPE,
                stdout=log,
                stderr=log,
                start_new_session=True,  # not hung up with the session of whoever made it
                env=dict(environment),
            )
        except OSError as error:
            raise TableError(f"the table could not be started ({os_error_text(error)})") from None
    if seed is not None and process.stdin is not None:
        try:
            process.stdin.write(f"{seed}\n".encode())
            process.stdin.close()
        except OSError:
            pass  # it ended already: its log says why
    return process


def _last_line(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            text = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""
