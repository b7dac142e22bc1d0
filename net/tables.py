"""The tables hosted on this machine, as the lobby sees them.

A table is a `dominoes host` process serving a Unix socket in the tables directory, with a JSON
sidecar beside it that says what is played there (game, seats, options, who opened it). The
sidecar is written atomically by whoever starts the host; a sidecar whose process is gone is
stale and is removed, with its socket, by the next listing.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
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

from net.paths import tables_dir
from saves.json_file import load_json_file

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

    def seat_texts(self) -> tuple[str, ...]:
        """Each seat as the lobby shows it: live from the host where it has said, else as opened."""
        if self.live is None:
            return tuple(seat.describe() for seat in self.seats)
        texts = []
        for (name, label), seat in zip(self.live, self.seats, strict=True):
            if seat.kind == "bot":
                texts.append(seat.describe())
            else:
                texts.append({"open": "open", "human": name, "away": f"{name} (away)"}.get(label, f"{name} ({label})"))
        return tuple(texts)

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
        return Table(
            data["id"], data["game"], tuple(seats), options, data["creator"], created, pid, Path(data["socket"])
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
        live = read_seat_status(directory / f"{table.table_id}{STATUS_SUFFIX}", len(table.seats))
        tables.append(dataclasses.replace(table, live=live) if live is not None else table)
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
    """Atomically: a temporary file, then a rename; a listing never sees half a sidecar."""
    path = directory / f"{table.table_id}{SIDECAR_SUFFIX}"
    temporary = directory / f".{table.table_id}{SIDECAR_SUFFIX}.tmp"
    with temporary.open("w", encoding="utf-8") as handle:
        json.dump(table.to_data(), handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    return path


def write_seat_status(path: str | Path, names: Sequence[str], labels: Sequence[str]) -> None:
    """The host's word on who sits where, replaced atomically (a lobby may read it at any time)."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps({"version": SIDECAR_VERSION, "names": list(names), "seats": list(labels)}))
    os.replace(temporary, path)


def read_seat_status(path: Path, players: int) -> tuple[tuple[str, str], ...] | None:
    """Each seat's (name, label) as a host last wrote them, or None if there are none (yet) or they
    make no sense."""
    try:
        data = load_json_file(path, MAX_STATUS)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != SIDECAR_VERSION:
        return None
    names, labels = data.get("names"), data.get("seats")
    for texts in (names, labels):
        if not isinstance(texts, list) or len(texts) != players or not all(isinstance(x, str) for x in texts):
            return None
    return tuple(zip(names, labels, strict=True))  # type: ignore[arg-type]


def host_argv(
    game: str, seats: Sequence[TableSeat], options: Mapping[str, Any], socket: Path, seed: int | None = None
) -> list[str]:
    """`dominoes host` for a table: the seats taken and open are the ones people play."""
    kinds = ",".join(seat.level or "easy" if seat.kind == "bot" else "human" for seat in seats)
    names = ",".join(seat.name or "" if seat.kind != "open" else "" for seat in seats)
    status = socket.with_suffix(STATUS_SUFFIX)
    argv = [sys.executable, "-m", "cli", "host", "--game", game, "--seats", kinds, "--socket", str(socket)]
    argv += ["--status", str(status), "--idle-close", str(IDLE_CLOSE)]
    if names.strip(","):
        argv += ["--names", names]
    for name, value in options.items():
        text = ("on" if value else "off") if isinstance(value, bool) else str(value)
        argv += ["--option", f"{name}={text}"]
    if seed is not None:
        argv += ["--seed", str(seed)]
    return argv


class TableError(Exception):
    """A table could not be opened: one line for the lobby to show."""


def new_table_id() -> str:
    return time.strftime("%Y%m%d%H%M%S") + "-" + secrets.token_hex(3)


def create_table(
    game: str,
    seats: Sequence[TableSeat],
    options: Mapping[str, Any],
    creator: str,
    seed: int | None = None,
    directory: Path | None = None,
    environment: Mapping[str, str] | None = None,
) -> Table:
    """Start `dominoes host` as a detached process (it outlives whoever made the table), record it
    in a sidecar, and wait until its socket is there. TableError if it does not come up."""
    directory = directory or tables_dir()
    table_id = new_table_id()
    socket = directory / f"{table_id}{SOCKET_SUFFIX}"
    if len(os.fsencode(str(socket))) > MAX_SOCKET_PATH:
        raise TableError(f"the tables directory's path is too long for a socket: {directory}")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        log = (directory / f"{table_id}{LOG_SUFFIX}").open("wb")
    except OSError as error:
        raise TableError(f"the tables directory cannot be written ({error.strerror or error})") from None
    with log:
        try:
            process = subprocess.Popen(
                host_argv(game, seats, options, socket, seed),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,  # not hung up with the session of whoever made it
                env=dict(environment) if environment is not None else None,
            )
        except OSError as error:
            raise TableError(f"the table could not be started ({error.strerror or error})") from None
    table = Table(table_id, game, tuple(seats), dict(options), creator, time.time(), process.pid, socket)
    write_sidecar(table, directory)
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


def _last_line(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            text = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""
