"""What a front door does for a player it has verified (SSH today; any other door the same way).

- `player_home`: the player's own data folder under the server's data directory, `players/NAME`
  (the name made safe for a file name, one folder per name whatever its case, mode 0700): their
  saves, preferences and seat keys; no session sees another player's.
- `lobby_session`: the command and environment that start a player's lobby session
  (`dominoes lobby`), which a door runs in a terminal of the player's.
- `SessionCaps`: the sessions in play, counted in the server's data directory whatever door they
  came through, under a server-wide cap and a per-player one. The lobby's tables are counted the
  same way where they are made (`net.tables.create_table`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core.words import plural
from net.file_lock import exclusive
from net.limits import ServerLimits
from net.paths import SERVED_VARIABLE, SERVER_HOME_VARIABLE
from net.tables import process_alive
from saves.json_file import load_json_file, private_directory, write_json_file
from saves.os_errors import os_error_text
from saves.store import HOME_VARIABLE

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PLAYERS = "players"
SESSIONS = "sessions"
MAX_SESSION_FILE = 4096
MAX_SESSION_FILES = 10_000  # a count reads at most this many; the caps are far below
WATCH_SPEEDS = ("instant", "normal", "slow")
SAFE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")
NEWCOMER = "\x00newcomer "  # before a key's fingerprint: a player who has no name yet (no name holds a NUL)
NEWCOMERS = "newcomers"  # their data folder while they sign up: empty, theirs to read nothing from
SIGN_UP_KEY_VARIABLE = "DOMINOES_SIGN_UP_KEY"  # the key's fingerprint, for the sign-up in the session
SIGN_UP_ADDRESS_VARIABLE = "DOMINOES_SIGN_UP_ADDRESS"  # where it came from, for the limits on new names
SIGN_UP_LIMITS_VARIABLE = "DOMINOES_SIGN_UP_LIMITS"  # the server's limits on new names (net.accounts)


def safe_folder_name(name: str) -> str:
    """A player's name as a folder name: the same for names that differ only in case (they are the
    same player), different for any two others. Letters, digits, `_` and `-` stay (in lower case);
    every other character becomes `%XX` for each of its UTF-8 bytes, so no name can collide with
    another, reach outside the folder, or be hidden (`.`, `/` and `%` are escaped too)."""
    return "".join(c if c in SAFE else "".join(f"%{byte:02X}" for byte in c.encode()) for c in name.casefold())


def player_home(server_data: Path, name: str) -> Path:
    """The player's own data folder (made, mode 0700, with `players/`, if missing). OSError if it
    cannot be made."""
    private_directory(server_data)
    private_directory(server_data / PLAYERS)
    return private_directory(server_data / PLAYERS / safe_folder_name(name))


# A session's window size is its pty's alone: COLUMNS and LINES from the server's own environment
# (a shell or a test runner may export them) would pin every session's interface to that size,
# whatever the player's window, since the interface reads them before asking the terminal.
WINDOW_SIZE_VARIABLES = ("COLUMNS", "LINES")


def child_environment(base: Mapping[str, str]) -> dict[str, str]:
    """`base`, with the project importable whatever the working directory, and without the
    server's window size."""
    environment = {name: value for name, value in base.items() if name not in WINDOW_SIZE_VARIABLES}
    paths = [str(PROJECT_ROOT)] + [p for p in environment.get("PYTHONPATH", "").split(os.pathsep) if p]
    environment["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return environment


def lobby_session(
    name: str,
    server_data: Path,
    limits: ServerLimits | None = None,
    command: str = "",
    base: Mapping[str, str] | None = None,
) -> tuple[list[str], dict[str, str]]:
    """The command and environment of verified player `name`'s session: the lobby (or, for the
    command `watch [SPEED]`, bots playing on their own), with the player's own folder as its data
    directory and the server's data directory for the tables. ValueError (one line) for any other
    command; OSError if the player's folder cannot be made."""
    argv = _lobby_argv([f"--name={name}"], limits or ServerLimits(), command)
    environment = child_environment(os.environ if base is None else base)
    environment[HOME_VARIABLE] = str(player_home(server_data, name))
    environment[SERVER_HOME_VARIABLE] = str(server_data)
    environment[SERVED_VARIABLE] = "1"
    return argv, environment


def sign_up_session(
    fingerprint: str,
    address: str,
    server_data: Path,
    limits: ServerLimits | None = None,
    command: str = "",
    base: Mapping[str, str] | None = None,
    sign_up_limits: str = "",
) -> tuple[list[str], dict[str, str]]:
    """The session of a key an open server has no name for: the lobby, once the player has chosen a
    name (`dominoes lobby --sign-up`, which binds it to the key). The key and the address go in the
    environment, not on the command line that every local user may read."""
    argv = _lobby_argv(["--sign-up"], limits or ServerLimits(), command)
    environment = child_environment(os.environ if base is None else base)
    private_directory(server_data)
    environment[HOME_VARIABLE] = str(private_directory(server_data / NEWCOMERS))
    environment[SERVER_HOME_VARIABLE] = str(server_data)
    environment[SERVED_VARIABLE] = "1"
    environment[SIGN_UP_KEY_VARIABLE] = fingerprint
    environment[SIGN_UP_ADDRESS_VARIABLE] = address
    environment[SIGN_UP_LIMITS_VARIABLE] = sign_up_limits
    return argv, environment


def _lobby_argv(who: list[str], limits: ServerLimits, command: str) -> list[str]:
    """`dominoes lobby` for `who`, under the server's caps, for the session's command (`watch`)."""
    argv = [sys.executable, "-m", "cli", "lobby", *who, f"--takeover={limits.takeover:g}"]
    argv += [f"--max-tables={limits.max_tables}", f"--max-player-tables={limits.max_player_tables}"]
    argv += [f"--max-watchers={limits.max_watchers}"]
    words = command.split()
    if words and not (words[0] == "watch" and len(words) <= 2 and (len(words) == 1 or words[1] in WATCH_SPEEDS)):
        raise ValueError(f"unknown command {command[:40]!r}; this server offers: watch [{'|'.join(WATCH_SPEEDS)}]")
    if words:
        argv += ["--watch"] + ([f"--speed={words[1]}"] if len(words) == 2 else [])
    return argv


class SessionRefused(Exception):
    """No room for one more session: one line for the player."""


class Ticket:
    """A session counted in the server's data directory until `close()` (or its door's process
    ends: a ticket whose process is gone no longer counts)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()


class SessionCaps:
    """Admits sessions under the server's caps, counting every door's sessions."""

    def __init__(self, server_data: Path, limits: ServerLimits) -> None:
        self.directory = server_data / SESSIONS
        self.limits = limits

    def admit(self, player: str, door: str) -> Ticket:
        """A ticket for one more session of `player`; SessionRefused if the server or the player
        has as many as allowed; OSError if the count cannot be kept."""
        private_directory(self.directory)
        with exclusive(self.directory / ".lock"):
            players = self._live_players()
            most = self.limits.max_sessions
            if len(players) >= most:
                raise SessionRefused(f"the server is full ({plural(most, 'session')} in play); try again later")
            mine = sum(1 for other in players if other == player.casefold())
            if mine >= self.limits.max_player_sessions:
                raise SessionRefused(
                    f"you have {plural(mine, 'session')} open here already, the most one player may have; "
                    "close one and try again"
                )
            path = self.directory / f"{secrets.token_hex(8)}.json"
            record = {"player": player.casefold(), "door": door, "pid": os.getpid(), "started": time.time()}
            write_json_file(path, record)
            return Ticket(path)

    def _live_players(self) -> list[str]:
        """The player of each session in play; a ticket left by a process that is gone is removed."""
        players = []
        for path in sorted(self.directory.glob("*.json"))[:MAX_SESSION_FILES]:
            try:
                record = load_json_file(path, MAX_SESSION_FILE)
                player, pid = record["player"], record["pid"]
            except (OSError, ValueError, TypeError, KeyError):
                continue
            if type(pid) is not int or pid <= 0 or not isinstance(player, str):
                continue
            if not process_alive(pid):
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            players.append(player)
        return players


class DoorSessions:
    """The sessions one door (SSH, the web) has in play, each counted under the server's caps from
    `take` to `release`."""

    def __init__(self, caps: SessionCaps, door: str) -> None:
        self.caps = caps
        self.door = door
        self.active: set[Any] = set()  # the sessions with a child running (or starting)
        self._tickets: dict[Any, Ticket] = {}

    def take(self, session: Any) -> str | None:
        """Count one more session of `session.player`; the reason in one line if there is no room."""
        try:
            ticket = self.caps.admit(session.player, self.door)
        except SessionRefused as refused:
            return str(refused)
        except OSError as error:
            return f"the server cannot count its sessions ({os_error_text(error)})"
        self._tickets[session] = ticket
        self.active.add(session)
        return None

    def release(self, session: Any) -> None:
        self.active.discard(session)
        ticket = self._tickets.pop(session, None)
        if ticket is not None:
            ticket.close()
