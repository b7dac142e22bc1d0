"""Load run of `dominoes serve-ssh`: N SSH sessions at once, each watching bots play match after
match, with the memory each session costs.

    python bench/ssh_load.py                         # 20 sessions for 60 s
    python bench/ssh_load.py --sessions 2 --seconds 5 --json

The server runs as `dominoes serve-ssh` (port 0, a temporary data directory, a client key made for
the run). Every session is an asyncssh client on loopback asking for a pty (80x24) and the command
`watch SPEED`: the lobby in bots-only mode, rounds and rematches going on unattended. Every few
seconds each session's process tree (the lobby child of the server and anything below it) is
measured from /proc: RSS, and PSS (shared pages divided among the processes sharing them, the
fairer share). A session fails if its connection closes or if its terminal receives nothing for
--stall seconds (at instant speed 20 sessions keep 2 cores saturated, so a session may wait a few
seconds for the processor; the longest wait is reported). Exit status 1 if any failed.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import asyncssh
from load_run import main, start_server, stop_server, watch

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 60.0
SIZE = (80, 24)


class Terminal(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self) -> None:
        self.tail = b""  # the last output, to say why a session failed
        self.bytes = 0
        self.writes = 0
        self.closed = False

    def data_received(self, data: bytes, datatype: object) -> None:
        self.bytes += len(data)
        self.writes += 1
        self.tail = (self.tail + data)[-4000:]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True


async def run(sessions: int, seconds: float, speed: str, every: float, stall: float) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="dm-load-"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_path = home / "client_key"
    key.write_private_key(key_path)
    authorized = home / "authorized_keys"
    line = key.export_public_key().decode().strip()
    # A key logs in only as the player its line names: one line per session's player, one key for all.
    authorized.write_text("".join(f"{line} load{index}\n" for index in range(sessions)))
    command = ["serve-ssh", "--port", "0", "--authorized-keys", str(authorized), "--max-sessions", str(sessions)]
    server, found = start_server(home, command, r"listening on [^:]+:(\d+)")
    port = int(found.group(1))
    connections: list[asyncssh.SSHClientConnection] = []
    terminals: list[Terminal] = []
    try:
        started = time.monotonic()
        for index in range(sessions):
            connection = await asyncssh.connect(
                "127.0.0.1", port, username=f"load{index}", client_keys=[key_path], known_hosts=None, agent_path=None
            )
            _, terminal = await connection.create_session(
                Terminal, f"watch {speed}", term_type="xterm-256color", term_size=SIZE, encoding=None
            )
            connections.append(connection)
            terminals.append(terminal)  # type: ignore[arg-type]
        opened = time.monotonic() - started
        measured = await watch(server.pid, terminals, seconds, every, stall)
        return {
            "sessions": sessions,
            "seconds": seconds,
            "speed": speed,
            "connect_seconds": round(opened, 2),
            **measured,
        }
    finally:
        for connection in connections:
            connection.close()
        for connection in connections:
            await connection.wait_closed()
        stop_server(server, home)


if __name__ == "__main__":
    sys.exit(main(run, __doc__.splitlines()[0], "SSH", "connected"))
