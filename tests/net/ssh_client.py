"""An SSH client for the tests: asyncssh on loopback, with keys made for the test."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh

from net.ssh_server import SSHFrontDoor
from net.tables import list_tables, process_alive

ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")
TIMEOUT = 30.0


def plain(data: bytes) -> str:
    """The terminal output without its escape sequences."""
    return ESCAPES.sub(b"", data).decode("utf-8", "replace")


def short_home() -> Path:
    """A data directory with a short path: Unix socket paths are limited to ~104 bytes."""
    return Path(tempfile.mkdtemp(prefix="dm-"))


def make_key(path: Path) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519")
    key.write_private_key(path)
    return key


class Screen(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """Collects everything the server sends."""

    def __init__(self) -> None:
        self.received = bytearray()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: object) -> None:
        self.received += data
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def text(self) -> str:
        return plain(bytes(self.received))

    async def wait_for(self, words: str, timeout: float = TIMEOUT) -> None:
        async def seen() -> None:
            while words not in self.text():
                if self.closed.is_set():
                    raise AssertionError(f"closed before {words!r} appeared: {self.text()[-500:]!r}")
                self.changed.clear()
                await self.changed.wait()

        try:
            await asyncio.wait_for(seen(), timeout)
        except TimeoutError:
            raise AssertionError(f"{words!r} did not appear: {self.text()[-500:]!r}") from None


def key_line(key: asyncssh.SSHKey, name: str) -> str:
    """An authorized-keys line naming its player in its comment."""
    return f"{key.export_public_key().decode().strip()} {name}\n"


class Keys:
    """Client keys: alice's (`known`) and mallory's, each named in the authorized-keys file, and a
    stranger's, which is not in it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.known = directory / "known_key"
        self.mallory = directory / "mallory_key"
        self.stranger = directory / "stranger_key"
        alice = make_key(self.known)
        mallory = make_key(self.mallory)
        make_key(self.stranger)
        self.authorized = directory / "authorized_keys"
        self.authorized.write_text(key_line(alice, "alice") + key_line(mallory, "mallory"))


def with_launcher(options: dict[str, object]) -> dict[str, object]:
    """A door's options with the launcher its front end would give it: warm, unless `spawn=True`
    (as `--spawn`)."""
    from cli.session_entry import SESSION_ENTRY
    from net.session_launch import SessionLauncher
    from warm_sessions.session_fork import WarmSessions

    options = dict(options)
    environment: Any = options.get("environment") or os.environ
    spawn = options.pop("spawn", False)
    options["launcher"] = SessionLauncher(environment) if spawn else WarmSessions(environment, SESSION_ENTRY)
    return options


@asynccontextmanager
async def running_door(home: Path, keys: Keys, **options: object) -> AsyncIterator[SSHFrontDoor]:
    door = SSHFrontDoor(keys.authorized, home / "ssh_host_ed25519_key", **with_launcher(options))  # type: ignore[arg-type]
    await door.start("127.0.0.1", 0)
    try:
        yield door
    finally:
        await door.close()


async def connect(door: SSHFrontDoor, key: Path | None, **options: object) -> asyncssh.SSHClientConnection:
    return await asyncio.wait_for(
        asyncssh.connect(
            "127.0.0.1",
            door.port,
            username=str(options.pop("username", "alice")),
            client_keys=[key] if key is not None else None,
            known_hosts=options.pop("known_hosts", None),
            agent_path=None,
            **options,
        ),
        TIMEOUT,
    )


async def open_terminal(
    connection: asyncssh.SSHClientConnection, size: tuple[int, int] = (80, 24), command: str | None = None
) -> tuple[asyncssh.SSHClientChannel, Screen]:  # type: ignore[type-arg]
    return await connection.create_session(Screen, command, term_type="xterm-256color", term_size=size, encoding=None)  # type: ignore[return-value]


def remove(home: Path) -> None:
    shutil.rmtree(home, ignore_errors=True)


def stop_tables(home: Path) -> None:
    """End every table's host process under `home` (they outlive the sessions that opened them)."""
    for table in list_tables(home / "tables"):
        os.kill(table.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while process_alive(table.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
