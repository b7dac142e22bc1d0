"""What a front door (SSH, the web) does about connections that have not signed in yet.

A crowd of strangers must never keep a player out, in the spirit of OpenSSH's MaxStartups and
PerSourceMaxStartups:

- `Strangers` counts the connections that have not signed in (no login yet over SSH, no request
  with a valid session over HTTP), at most `most` in all and `per_address` from one address (an
  IPv6 address counts by its /64). One more than that closes the oldest stranger of its own
  address, or, when all are full, the oldest of the address that holds the most: a flood from one
  place only ever crowds out itself, and a player from anywhere else always gets a place. A
  stranger that has not signed in after `timeout` seconds is closed.
- `SignedIn` bounds the connections one signed-in player holds beside their sessions.
- `Notes` writes what the door refused or failed to accept as one line at most once a second,
  with counts, never a traceback: a flood must not fill the log.
- `raise_open_file_limit` lifts the process's open-file limit to its hard limit, and
  `stranger_places` fits the strangers under it with room for every session.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import resource
import time
from collections.abc import Callable, Hashable
from typing import Any

MAX_STRANGERS = 64  # connections not yet signed in, in all...
MAX_STRANGERS_PER_ADDRESS = 10  # ...and from one address (a browser opens up to six at once)
STRANGER_TIMEOUT = 10.0  # seconds a connection may take to sign in (HTTP: to send its headers)
MAX_PLAYER_CONNECTIONS = 16  # connections a signed-in player may hold beside their sessions
NOTE_EVERY = 1.0  # seconds between two lines about refused or failed connections
FILES_PER_SESSION = 6  # descriptors a session may hold: its socket, its pty, its child's pipes
FILES_KEPT = 48  # descriptors the server holds for itself: its listening socket, its files, its loop
ACCEPT_ERRORS = ("socket.accept() out of system resource",)


def address_key(host: str) -> str:
    """The place a connection comes from, as the caps count it: an IPv4 address, an IPv6 /64."""
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address.ipv4_mapped or address) if isinstance(address, ipaddress.IPv6Address) else str(address)


def raise_open_file_limit() -> int:
    """Lift this process's soft limit on open files to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20  # "unlimited" is not a soft limit Linux takes
    if soft != resource.RLIM_INFINITY and wanted > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def stranger_places(open_files: int, max_sessions: int) -> int:
    """How many strangers may wait at once under `open_files`, with room kept for every session."""
    if open_files == resource.RLIM_INFINITY or open_files < 0:
        return MAX_STRANGERS
    room = open_files - FILES_KEPT - FILES_PER_SESSION * max_sessions
    return max(4, min(MAX_STRANGERS, room))


class Notes:
    """Counts what happened to connections, and says it in one line at most every NOTE_EVERY
    seconds: `note("closed (why)")` three times, then "connections turned away: 3 closed (why)"."""

    def __init__(self, say: Callable[[str], None], every: float = NOTE_EVERY) -> None:
        self.say = say
        self.every = every
        self._counts: dict[str, int] = {}
        self._last = -float("inf")
        self._pending: asyncio.TimerHandle | None = None

    def note(self, what: str) -> None:
        self._counts[what] = self._counts.get(what, 0) + 1
        if self._pending is not None:
            return
        wait = self._last + self.every - time.monotonic()
        if wait <= 0:
            self.flush()
            return
        with contextlib.suppress(RuntimeError):  # no loop: said at the next note or flush
            self._pending = asyncio.get_running_loop().call_later(wait, self.flush)

    def flush(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if not self._counts:
            return
        counts, self._counts = self._counts, {}
        self._last = time.monotonic()
        self.say("connections turned away: " + "; ".join(f"{n} {what}" for what, n in counts.items()))

    def close(self) -> None:
        self.flush()


class Strangers:
    """The connections that have not signed in yet, bounded (see the module's words)."""

    def __init__(
        self,
        notes: Notes,
        most: int = MAX_STRANGERS,
        per_address: int = MAX_STRANGERS_PER_ADDRESS,
        timeout: float = STRANGER_TIMEOUT,
    ) -> None:
        self.notes = notes
        self.most = most
        self.per_address = per_address
        self.timeout = timeout
        self._waiting: dict[Hashable, tuple[str, Callable[[], None], asyncio.TimerHandle]] = {}
        self._by_address: dict[str, list[Hashable]] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def __contains__(self, connection: Hashable) -> bool:
        return connection in self._waiting

    def from_address(self, host: str) -> int:
        return len(self._by_address.get(address_key(host), ()))

    def arrive(self, connection: Hashable, host: str, close: Callable[[], None]) -> None:
        """Count a new connection from `host`; `close` ends it (if it must make room, or takes too long)."""
        where = address_key(host)
        same = self._by_address.get(where, [])
        if len(same) >= self.per_address:
            self._drop(same[0], "closed (the oldest of too many from one address not yet signed in)")
        elif len(self._waiting) >= self.most:
            busiest = max(self._by_address.values(), key=len)
            self._drop(busiest[0], "closed (the oldest from the busiest address, with too many not yet signed in)")
        timer = asyncio.get_running_loop().call_later(self.timeout, self._expire, connection)
        self._waiting[connection] = (where, close, timer)
        self._by_address.setdefault(where, []).append(connection)

    def signed_in(self, connection: Hashable) -> None:
        """The connection has signed in: it is no stranger any more (its sessions count elsewhere)."""
        self._forget(connection)

    def left(self, connection: Hashable) -> None:
        self._forget(connection)

    def close_all(self) -> None:
        for connection in list(self._waiting):
            self._drop(connection, None)

    def _expire(self, connection: Hashable) -> None:
        if connection in self._waiting:
            self._drop(connection, f"closed (not signed in within {self.timeout:g} seconds)")

    def _drop(self, connection: Hashable, why: str | None) -> None:
        entry = self._waiting.get(connection)
        if entry is None:
            return
        self._forget(connection)
        if why is not None:
            self.notes.note(why)
        with contextlib.suppress(Exception):  # closing a connection that is going anyway
            entry[1]()

    def _forget(self, connection: Hashable) -> None:
        entry = self._waiting.pop(connection, None)
        if entry is None:
            return
        where, _, timer = entry
        timer.cancel()
        same = self._by_address.get(where, [])
        with contextlib.suppress(ValueError):
            same.remove(connection)
        if not same:
            self._by_address.pop(where, None)


class SignedIn:
    """The connections of signed-in players beside their sessions (HTTP connections kept alive):
    at most `most` for one player, the oldest closed first."""

    def __init__(self, notes: Notes, most: int = MAX_PLAYER_CONNECTIONS) -> None:
        self.notes = notes
        self.most = most
        self._by_player: dict[str, dict[Hashable, Callable[[], None]]] = {}
        self._player_of: dict[Hashable, str] = {}

    def add(self, connection: Hashable, player: str, close: Callable[[], None]) -> None:
        key = player.casefold()
        if self._player_of.get(connection) == key:
            return
        self.left(connection)
        theirs = self._by_player.setdefault(key, {})
        while len(theirs) >= self.most:
            oldest = next(iter(theirs))
            closing = theirs.pop(oldest)
            self._player_of.pop(oldest, None)
            self.notes.note("closed (the oldest of too many of one player's connections)")
            with contextlib.suppress(Exception):
                closing()
        theirs[connection] = close
        self._player_of[connection] = key

    def left(self, connection: Hashable) -> None:
        """Gone, or no longer counted here (it became a session)."""
        key = self._player_of.pop(connection, None)
        if key is not None:
            theirs = self._by_player.get(key, {})
            theirs.pop(connection, None)
            if not theirs:
                self._by_player.pop(key, None)


def _retried_accept(context: dict[str, Any]) -> bool:
    """asyncio's own retry of accepting, a second after it ran out of descriptors, that found the
    listening socket closed meanwhile (the server stopping): nothing anyone can act on."""
    handle = context.get("handle")
    callback = getattr(handle, "_callback", None)
    return getattr(callback, "__name__", "") == "_start_serving" and isinstance(
        context.get("exception"), (ValueError, OSError)
    )


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, notes: Notes) -> Callable[[], None]:
    """Route the loop's "socket.accept() out of system resource" (EMFILE and the like, with its
    traceback) to `notes` as a count, and drop asyncio's retries of accepting on a listening socket
    closed meanwhile; every other error goes where it went. A function that puts the loop's handler
    back (a door keeps it while the loop runs: a retry may come a second after it closed)."""
    previous = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if message.startswith(ACCEPT_ERRORS):
            error = context.get("exception")
            reason = getattr(error, "strerror", None) or str(error or "no reason given")
            notes.note(f"not accepted ({reason})")
            return
        if _retried_accept(context):
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)

    def restore() -> None:
        if loop.get_exception_handler() is handler:
            loop.set_exception_handler(previous)

    return restore
