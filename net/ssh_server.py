"""`dominoes serve-ssh`: an SSH front door where every connection gets its own interface.

Public-key authentication only, against the keys of one authorized-keys file; passwords,
keyboard-interactive, host-based and GSS logins are off, and so is every kind of forwarding. Each
session with a pty runs the lobby (`dominoes lobby --name <ssh user>`) as a child process in a pty of
its own (`net.pty_session`); the number of sessions in play at once is bounded.
"""

from __future__ import annotations

import asyncio
import os
import sys
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import asyncssh

from net.pty_session import TerminalSession
from net.ssh_keys import load_authorized_keys, load_or_create_host_key

DEFAULT_MAX_SESSIONS = 32
LOGIN_TIMEOUT = 30.0  # seconds a connection may take to authenticate
MAX_NAME = 20  # as a player's name at the table
WATCH_SPEEDS = ("instant", "normal", "slow")
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def player_name(username: str) -> str:
    """The SSH user name as a name at the table: printable characters only, at most MAX_NAME."""
    cleaned = "".join(c for c in username if c.isprintable() and unicodedata.category(c)[0] != "C").strip()
    return cleaned[:MAX_NAME] or "player"


def lobby_argv(name: str, command: str) -> list[str]:
    """The child to run for a session: the lobby, or (`watch [SPEED]`) bots playing on their own.
    ValueError with a one-line reason for any other command."""
    argv = [sys.executable, "-m", "cli", "lobby", f"--name={player_name(name)}"]
    words = command.split()
    if not words:
        return argv
    if words[0] == "watch" and len(words) <= 2 and (len(words) == 1 or words[1] in WATCH_SPEEDS):
        return argv + ["--watch"] + ([f"--speed={words[1]}"] if len(words) == 2 else [])
    raise ValueError(f"unknown command {command[:40]!r}; this server offers: watch [{'|'.join(WATCH_SPEEDS)}]")


def child_environment(base: Mapping[str, str]) -> dict[str, str]:
    """The server's environment, with the project importable whatever the working directory."""
    environment = dict(base)
    paths = [str(PROJECT_ROOT)] + [p for p in environment.get("PYTHONPATH", "").split(os.pathsep) if p]
    environment["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return environment


class _Connection(asyncssh.SSHServer):
    def __init__(self, door: SSHFrontDoor) -> None:
        self.door = door
        self.connection: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.connection = conn
        self.door.connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.connection is not None:
            self.door.connections.discard(self.connection)

    def begin_auth(self, username: str) -> bool:
        return True  # every user must authenticate

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> TerminalSession:
        return TerminalSession(self.door)


class SSHFrontDoor:
    """The SSH server. `start()` binds (port 0 picks a free one: see `.port`); `close()` ends every
    session and its child."""

    def __init__(
        self,
        authorized_keys: Path,
        host_key: Path,
        *,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        environment: Mapping[str, str] | None = None,
    ) -> None:
        self.authorized_keys = load_authorized_keys(authorized_keys)  # KeyFileError before anything starts
        self.host_key_path = host_key
        self.host_key = load_or_create_host_key(host_key)
        self.max_sessions = max_sessions
        self.environment = child_environment(os.environ if environment is None else environment)
        self.active: set[TerminalSession] = set()  # the sessions with a child running (or starting)
        self.port = 0
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()

    @property
    def fingerprint(self) -> str:
        return self.host_key.get_fingerprint()

    def command_for(self, username: str, command: str) -> list[str]:
        return lobby_argv(username, command)

    def take_session(self, session: TerminalSession) -> bool:
        if len(self.active) >= self.max_sessions:
            return False
        self.active.add(session)
        return True

    def release_session(self, session: TerminalSession) -> None:
        self.active.discard(session)

    def track(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """OSError if the address cannot be bound (a port in use)."""
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self),
            host,
            port,
            server_host_keys=[self.host_key],
            authorized_client_keys=self.authorized_keys,
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
            login_timeout=LOGIN_TIMEOUT,
        )
        self.port = self._acceptor.get_port()

    async def serve_forever(self) -> None:
        assert self._acceptor is not None
        await self._acceptor.wait_closed()

    async def close(self) -> None:
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
        for connection in list(self.connections):
            connection.close()
        for connection in list(self.connections):
            await connection.wait_closed()
        # A dropped connection hangs up its child: wait for every child to be gone.
        for _ in range(100):
            if not self._tasks:
                break
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            await asyncio.sleep(0)
