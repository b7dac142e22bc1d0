"""Load run of `dominoes serve-ssh`, warm (sessions forked from its zygote) against --spawn (a fresh
Python per session), side by side in one run: logins, memory idle and watching, sessions at once.

    python bench/ssh_load.py                   # both servers: 6 logins, 12 idle, 20 watching for 60 s
    python bench/ssh_load.py --doors warm --logins 0 --idle 0 --sessions 200 --seconds 60
    python bench/ssh_load.py --logins 1 --idle 2 --sessions 2 --seconds 5 --json

Each server runs as `dominoes serve-ssh` (port 0, a temporary data directory, one client key made
for the run, named for every player). Every session is an asyncssh client on loopback asking for a
pty (80x24), each as a player of its own:
- a login: from `asyncssh.connect` to the lobby drawn whole on its terminal, the keys in its footer
  included (then it quits), timed on each server in turn with the cold start of `dominoes lobby` in
  a pty between them (bench/startup.py's clock, to the same whole lobby), so a busy moment falls on
  all three; the ratios compare medians;
- --idle sessions in the lobby: after --settle seconds, the PSS of the server's whole process tree
  (server, zygote, sessions) divided by the sessions;
- --sessions sessions, all opened in the lobby first, then all pressing w there (bots playing
  match after match, unattended; each player's bot speed set to --speed), for --seconds: the
  whole tree's PSS per session and each session's own processes (RSS and PSS) every --every
  seconds, and each terminal's output. A session fails if its connection closes or if its
  terminal receives nothing for --stall seconds (at instant speed many sessions keep 2 cores
  saturated, so a session may wait seconds for the processor; the longest wait is reported).
Exit status 1 if any watching session failed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh
from load_run import LOBBY, ROOT, TABLE, drawn, main, run_doors, start_server, stop_server

sys.path.insert(0, str(ROOT))

from net.player_sessions import player_home
from tui.preferences import FILE_NAME, Preferences, save_preferences

SIZE = (80, 24)
LOBBY_TIMEOUT = 120.0  # seconds a session's lobby may take to show on a loaded machine
TAIL = 4000  # bytes of a terminal's last output kept, to say why a session failed


class Terminal(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self) -> None:
        self.words = LOBBY  # what shows it is drawn: the lobby, then the table watched
        self.tail = b""  # the last output, to say why a session failed
        self.bytes = 0
        self.writes = 0
        self.closed = False
        self.lobby = asyncio.Event()  # drawn: the lobby, or the table watched

    def data_received(self, data: bytes, datatype: object) -> None:
        self.bytes += len(data)
        self.writes += 1
        seen = self.tail + data  # a whole frame may come in one piece longer than the tail
        self.tail = seen[-TAIL:]
        if not self.lobby.is_set() and drawn(seen, self.words):
            self.lobby.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.lobby.set()

    def drawn(self, words: str) -> None:
        """From now on, `lobby` is set once `words` are drawn (after the output so far)."""
        self.words = words
        self.tail = b""
        if not self.closed:
            self.lobby.clear()


class SSHDoor:
    def __init__(self, name: str, home: Path, spawn: bool, players: int) -> None:
        self.name = name
        self.home = home
        key = asyncssh.generate_private_key("ssh-ed25519")
        self.key_path = home / "client_key"
        key.write_private_key(self.key_path)
        line = key.export_public_key().decode().strip()
        # A key logs in only as the player its line names: a line for each player, one key for all.
        names = [f"p{index}" for index in range(players)] + [f"login{index}" for index in range(100)]
        (home / "authorized_keys").write_text("".join(f"{line} {player}\n" for player in names))
        command = ["serve-ssh", "--port", "0", "--authorized-keys", str(home / "authorized_keys")]
        command += ["--max-sessions", str(players + 1)] + (["--spawn"] if spawn else [])
        self.server, found = start_server(home, command, r"listening on [^:]+:(\d+)")
        self.port = int(found.group(1))
        self.connections: dict[Terminal, asyncssh.SSHClientConnection] = {}
        self.channels: dict[Terminal, asyncssh.SSHClientChannel] = {}  # type: ignore[type-arg]

    async def _session(self, player: str, command: str | None) -> Terminal:
        connection = await asyncssh.connect(
            "127.0.0.1", self.port, username=player, client_keys=[self.key_path], known_hosts=None, agent_path=None
        )
        channel, terminal = await connection.create_session(
            Terminal, command, term_type="xterm-256color", term_size=SIZE, encoding=None
        )
        self.connections[terminal] = connection  # type: ignore[index]
        self.channels[terminal] = channel  # type: ignore[index]
        return terminal  # type: ignore[return-value]

    async def login(self, index: int) -> float:
        started = time.perf_counter()
        terminal = await self._session(f"login{index}", None)
        await asyncio.wait_for(terminal.lobby.wait(), LOBBY_TIMEOUT)
        elapsed = time.perf_counter() - started
        if terminal.closed:
            raise SystemExit(f"{self.name}: a login was closed: {terminal.tail[-300:]!r}")
        await self.close([terminal])
        return elapsed

    async def open(self, count: int, watching: bool, speed: str) -> list[Any]:
        """All in the lobby first (idle, they cost little), then all watching at once."""
        for index in range(count):
            save_preferences(Preferences(bot_speed=speed), player_home(self.home, f"p{index}") / FILE_NAME)
        terminals = [await self._session(f"p{index}", None) for index in range(count)]
        await asyncio.wait_for(asyncio.gather(*(terminal.lobby.wait() for terminal in terminals)), LOBBY_TIMEOUT)
        if watching:
            for terminal in terminals:
                terminal.drawn(TABLE)
                self.channels[terminal].write(b"w")  # watch bots play
            await asyncio.wait_for(asyncio.gather(*(terminal.lobby.wait() for terminal in terminals)), LOBBY_TIMEOUT)
        return terminals

    async def close(self, sessions: list[Any]) -> None:
        connections = [self.connections.pop(terminal) for terminal in sessions]
        for terminal in sessions:
            self.channels.pop(terminal, None)
        for connection in connections:
            connection.close()
        for connection in connections:
            await connection.wait_closed()

    async def stop(self) -> None:
        await self.close(list(self.connections))
        await asyncio.to_thread(stop_server, self.server, self.home)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    async def start(name: str, args: argparse.Namespace) -> SSHDoor:
        home = Path(tempfile.mkdtemp(prefix=f"dm-ssh-{name}-"))
        return SSHDoor(name, home, name == "spawn", max(args.idle, args.sessions))

    return await run_doors(args, start)


if __name__ == "__main__":
    raise SystemExit(main(run, __doc__.splitlines()[0], "SSH", "SSH login to the lobby drawn"))
