"""`dominoes serve-ssh`: an SSH front door where every connection gets its own interface.

Public-key authentication only, and a key lets in only the player its line names: the SSH user
name must be the name in the key's comment (in any case), so alice's name with mallory's key is
refused like an unknown key. Passwords, keyboard-interactive, host-based and GSS logins are off,
and so is every kind of forwarding. Each session with a pty runs the player's lobby session
(`net.player_sessions.lobby_session`: their own data folder, the server's tables) as a child
process in a pty of its own (`net.pty_session`), forked from a warm process that has imported the
app (the launcher its front end gives it, `warm_sessions.session_fork`; by default, and with
`--spawn`, each starts afresh). Sessions are counted under the server's caps whatever door they
came through; a connection that holds no session is closed after a while.

Strangers are bounded (`net.door_guard`, in the spirit of OpenSSH's MaxStartups): connections not
yet logged in are capped in all and per address, the oldest of the busiest address closed first,
and each must log in within LOGIN_TIMEOUT seconds; one player holds at most a few connections
beside their sessions. What is turned away is one line a second in the log, with counts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from net.accounts import BANNED, RoomBook, canonical
from net.door_guard import Notes, SignedIn, Strangers, quiet_accept_errors, raise_open_file_limit, stranger_places
from net.limits import ServerLimits
from net.paths import data_dir
from net.player_sessions import NEWCOMER, DoorSessions, SessionCaps, child_environment, lobby_session, sign_up_session
from net.pty_session import PtyProcess, TerminalSession
from net.session_launch import SessionLauncher
from net.ssh_keys import PlayerKeys, load_authorized_keys, load_or_create_host_key
from net.ssh_library import asyncssh
from saves.json_file import private_directory

DEFAULT_MAX_SESSIONS = ServerLimits.max_sessions
LOGIN_TIMEOUT = 10.0  # seconds a connection may take to authenticate
NO_SESSION_CLOSE = 30.0  # seconds an authenticated connection may hold no session before it is closed
BAN_CHECK = 0.4  # seconds between looks at the room's book for bans: a ban ends its sessions within 1 s


class _Connection(asyncssh.SSHServer):
    def __init__(self, door: SSHFrontDoor) -> None:
        self.door = door
        self.connection: asyncssh.SSHServerConnection | None = None
        self.player: str | None = None  # the name the authorized-keys file (or the room's book) gives the login
        self.address = "local"
        self.open_login = False  # a login no file lists, on an open server: any key, bound to a name or not
        self.fingerprint: str | None = None  # of the key an open login offered last (the one that signed)
        self.sessions: set[TerminalSession] = set()
        self._idle: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn
        self.door.connections.add(conn)
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else "local"
        self.door.strangers.arrive(self, self.address, conn.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._idle is not None:
            self._idle.cancel()
        self.door.strangers.left(self)
        self.door.signed.left(self)
        self.door.logins.discard(self)
        if self.connection is not None:
            self.door.connections.discard(self.connection)

    def begin_auth(self, username: str) -> bool:
        """Only the keys whose line names this user may log in as them (none for a stranger); on an
        open server, a user no file lists may log in with any key."""
        assert self.connection is not None
        self.player = self.door.keys.name_of(username)
        self.open_login = self.player is None and self.door.room is not None
        self.connection.set_authorized_keys(self.door.keys.keys_for(username))  # type: ignore[arg-type]
        return True  # every user must authenticate

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Asked for each key an open login offers, and again, just before its signature is checked,
        for the key that signs: the last one asked for is the one the login proved it holds."""
        if not self.open_login:
            return False
        self.fingerprint = key.get_fingerprint("sha256")
        return True

    def auth_completed(self) -> None:
        assert self.connection is not None
        if self.open_login:
            assert self.door.room is not None and self.fingerprint is not None
            self.player = self.door.room.name_of_key(self.fingerprint)
        self.door.strangers.signed_in(self)
        self.door.signed.add(self, self.login_name, self.connection.abort)
        self.door.logins.add(self)
        self._watch_idle()

    @property
    def login_name(self) -> str:
        """The player's name, or, for a key that has not signed up yet, a name no player can have."""
        if self.player is not None:
            return self.player
        assert self.fingerprint is not None
        return NEWCOMER + self.fingerprint

    def current_name(self) -> str | None:
        """The player's name now: a newcomer's once they have signed up."""
        if self.player is None and self.door.room is not None and self.fingerprint is not None:
            return self.door.room.name_of_key(self.fingerprint)
        return self.player

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> TerminalSession:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        assert self.connection is not None, "a session is opened only after authentication"
        self.door.signed.left(self)  # it holds a session now: counted under the sessions' caps
        session = TerminalSession(self.door, self.login_name, self._session_ended)
        session.address = self.address
        self.sessions.add(session)
        return session

    def _session_ended(self, session: TerminalSession) -> None:
        self.sessions.discard(session)
        if not self.sessions:
            self._watch_idle()

    def _watch_idle(self) -> None:
        """Close the connection if it holds no session for a while (it holds server resources)."""
        if self._idle is not None:
            self._idle.cancel()
        self._idle = asyncio.get_running_loop().call_later(self.door.no_session_close, self._close_idle)

    def _close_idle(self) -> None:
        self._idle = None
        if not self.sessions and self.connection is not None:
            self.connection.close()


class SSHFrontDoor:
    """The SSH server. `start()` binds (port 0 picks a free one: see `.port`); `close()` ends every
    session and its child. `data` is the server's data directory (default: the data directory):
    its players' folders, its tables, its session count. With `room` (an open server), a key no file
    lists may sign up for a name (`net.accounts`); without `authorized_keys`, only such keys come in."""

    def __init__(
        self,
        authorized_keys: Path | None,
        host_key: Path,
        *,
        max_sessions: int | None = None,
        limits: ServerLimits | None = None,
        data: Path | None = None,
        environment: Mapping[str, str] | None = None,
        on_note: Callable[[str], None] | None = None,
        launcher: SessionLauncher | None = None,
        room: RoomBook | None = None,
    ) -> None:
        if authorized_keys is None and room is None:
            raise ValueError("a server that lists no keys must be open")
        # KeyFileError before anything starts
        self.keys = load_authorized_keys(authorized_keys) if authorized_keys is not None else PlayerKeys({})
        self.room = room
        self.host_key_path = host_key
        self.host_key = load_or_create_host_key(host_key)
        limits = limits or ServerLimits()
        if max_sessions is not None:
            limits = dataclasses.replace(limits, max_sessions=max_sessions)
        self.limits = limits
        self.data = data if data is not None else data_dir()
        self.caps = SessionCaps(self.data, limits)
        self.no_session_close = NO_SESSION_CLOSE
        self.environment = child_environment(os.environ if environment is None else environment)
        # How sessions start: spawned afresh unless the front end hands the door a warm launcher.
        self.launcher = launcher if launcher is not None else SessionLauncher(self.environment)
        self.sessions = DoorSessions(self.caps, "ssh")
        self.active: set[TerminalSession] = self.sessions.active
        self.port = 0
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.logins: set[_Connection] = set()  # the connections logged in
        self._ban_watch: asyncio.Task[None] | None = None
        self.notes = Notes(on_note or (lambda line: None))  # refused and failed connections, counted
        self.strangers = Strangers(self.notes, timeout=LOGIN_TIMEOUT)
        self.signed = SignedIn(self.notes)

    @property
    def max_sessions(self) -> int:
        return self.limits.max_sessions

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint()

    def command_for(self, player: str, command: str, address: str = "local") -> tuple[list[str], dict[str, str]]:
        """The child to run for `player`'s session, and its environment: a newcomer's begins by
        signing up. ValueError (one line) for a command this server does not offer, a banned player
        or no room for a new name now; OSError if the player's folder cannot be made."""
        if self.room is not None and player.startswith(NEWCOMER):
            no_room = self.room.room_for(address)
            if no_room is not None:
                self.notes.note(f"refused a new name ({no_room.split(';')[0]})")
                raise ValueError(no_room)
            fingerprint = player.removeprefix(NEWCOMER)
            return sign_up_session(
                fingerprint,
                address,
                self.data,
                self.limits,
                command,
                base=self.environment,
                sign_up_limits=self.room.limits.to_text(),
            )
        if self.room is not None and self.room.is_banned(player):
            self.notes.note("refused (a banned player)")
            raise ValueError(BANNED)
        return lobby_session(player, self.data, self.limits, command, base=self.environment)

    def launch(
        self, argv: Sequence[str], environment: Mapping[str, str], size: tuple[int, int, int, int]
    ) -> Awaitable[tuple[int, PtyProcess]]:
        """Start a session's child in a pty of its own (`self.launcher`)."""
        return self.launcher.launch(argv, environment, size)

    def take_session(self, session: TerminalSession) -> str | None:
        """Count one more session of its player, under the caps every door shares; the reason in one
        line if there is no room."""
        return self.sessions.take(session)

    def release_session(self, session: TerminalSession) -> None:
        self.sessions.release(session)

    def track(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """OSError if the address cannot be bound (a port in use) or the data directory made."""
        private_directory(self.data)
        self.strangers.most = stranger_places(raise_open_file_limit(), self.limits.max_sessions)
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self),
            host,
            port,
            server_host_keys=[self.host_key],
            public_key_auth=True,
            password_auth=False,
            kbdint_auth=False,
            host_based_auth=False,
            gss_host=None,
            allow_pty=True,
            line_editor=False,
            encoding=None,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            login_timeout=self.strangers.timeout,
        )
        self.port = self._acceptor.get_port()
        quiet_accept_errors(asyncio.get_running_loop(), self.notes)  # kept while the loop runs (see its words)
        if self.room is not None:
            await asyncio.to_thread(self.room.set_owners, self.keys.names())
            self._ban_watch = asyncio.get_running_loop().create_task(self._watch_bans())
        await self.launcher.start()

    async def _watch_bans(self) -> None:
        """End the sessions of a player banned while they play (`dominoes admin ban`)."""
        assert self.room is not None
        seen: tuple[int, int, int] | None = None
        while True:
            await asyncio.sleep(BAN_CHECK)
            mark = self.room.mark()
            if mark != seen:
                seen = mark
                self.end_banned()

    def end_banned(self) -> None:
        """Close every connection of a banned player, telling each of their sessions why."""
        assert self.room is not None
        try:
            book = self.room.read()
        except (OSError, ValueError):
            return  # a book that cannot be read bans nobody new; the sessions go on
        if not book.bans:
            return
        for login in list(self.logins):
            name = login.player
            if name is None and login.fingerprint is not None:
                account = book.of_key(login.fingerprint)
                name = account.name if account is not None else None
            if name is None or canonical(name) not in book.bans or login.connection is None:
                continue
            self.notes.note("ended (a player banned while playing)")
            for session in list(login.sessions):
                session.end_with(BANNED)
            login.connection.close()

    async def serve_forever(self) -> None:
        assert self._acceptor is not None
        await self._acceptor.wait_closed()

    async def close(self) -> None:
        if self._ban_watch is not None:
            self._ban_watch.cancel()
        if self._acceptor is not None:
            self._acceptor.close()
        self.strangers.close_all()
        for connection in list(self.connections):
            connection.close()
        for connection in list(self.connections):
            await connection.wait_closed()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()  # from Python 3.12 this waits for every connection to close
        # A dropped connection hangs up its child: wait for every child to be gone.
        for _ in range(100):
            if not self._tasks:
                break
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            await asyncio.sleep(0)
        for session in list(self.active):
            self.release_session(session)
        self.notes.close()
        await self.launcher.close()
