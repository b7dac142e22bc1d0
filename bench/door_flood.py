"""A crowd of strangers at the doors: how long a real player's sign-in takes while hundreds of
half-open connections are held, with the server under a low limit of open files.

    python bench/door_flood.py                                  # both doors, 300 web / 1100 SSH, 256 files
    python bench/door_flood.py --door web --connections 300 --files 256 --tries 5

Each door runs as the real server (`dominoes serve-web`, `dominoes serve-ssh`: port 0, a temporary
data directory) with its open-file limit, soft and hard, set to --files (so raising the soft limit
to the hard one gains nothing). A player's sign-in is timed from nothing to the lobby drawn in their
terminal: for the web, the invite link opened (as if typed) and the terminal socket opened with the
session cookie; for SSH, a key login and a pty. It is timed --tries times on a quiet server, then
--tries times while a flood holds --connections connections from another address (127.0.0.2) that
never finish (a web request's first header lines and nothing more; an SSH connection that says
nothing), opening a new one whenever the server closes one. The server's log must hold no
traceback and stay small. Exit status 1 if a sign-in failed or the log shows a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from net.web_auth import InviteBook  # noqa: E402

FLOOD_FROM = "127.0.0.2"  # the crowd's address; the player comes from 127.0.0.1
START_TIMEOUT = 60.0
SIGN_IN_TIMEOUT = 60.0
LOBBY = b"Dominoes lobby"


def start(home: Path, files: int, *arguments: str) -> tuple[subprocess.Popen[bytes], int, Path]:
    """The server, its port (from its first line), and its log."""
    log = home / "server.log"

    def limit() -> None:  # pragma: no cover - in the child
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    with log.open("wb") as handle:
        server = subprocess.Popen(
            [sys.executable, "-m", "cli", *arguments],
            cwd=ROOT,
            env=dict(os.environ, DOMINOES_HOME=str(home), PYTHONPATH=str(ROOT)),
            stdout=handle,
            stderr=subprocess.STDOUT,
            preexec_fn=limit,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        found = re.search(rb"(?:serving on http://[^:]+|listening on [^:]+):(\d+)", log.read_bytes())
        if found:
            return server, int(found.group(1)), log
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise SystemExit(f"the server did not start: {log.read_text(errors='replace')[-500:]}")


def stop(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


class Flood:
    """`count` connections from FLOOD_FROM that never finish, each opened again once closed."""

    def __init__(self, port: int, count: int, opening: bytes) -> None:
        self.port = port
        self.count = count
        self.opening = opening
        self.held = 0
        self.closed_by_server = 0
        self.failed = 0
        self._tasks: list[asyncio.Task[None]] = []

    async def _one(self) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(FLOOD_FROM, 0))
            except OSError:
                self.failed += 1
                await asyncio.sleep(0.05)
                continue
            self.held += 1
            try:
                if self.opening:
                    writer.write(self.opening)
                    await writer.drain()
                while await reader.read(65536):  # an SSH server's banner; then nothing until closed
                    pass
                self.closed_by_server += 1
            except OSError:
                self.closed_by_server += 1
            finally:
                self.held -= 1
                writer.close()

    async def __aenter__(self) -> Flood:
        self._tasks = [asyncio.get_running_loop().create_task(self._one()) for _ in range(self.count)]
        deadline = time.monotonic() + 10
        while self.held + self.closed_by_server < self.count and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def web_sign_in(base: str, home: Path, name: str) -> float:
    """Seconds from an invite link opened to the lobby drawn, in a browser of its own."""
    link = InviteBook(home).invite(name, base)
    began = time.monotonic()
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
        async with browser.get(link, headers={"Sec-Fetch-Site": "none"}) as response:
            response.raise_for_status()
        async with browser.get(f"{base}/") as response:
            response.raise_for_status()
            await response.read()
        websocket = await browser.ws_connect(f"{base}/ws?width=80&height=24", headers={"Origin": base})
        seen = b""
        async for message in websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                seen += message.data
                if LOBBY in seen:
                    break
                seen = seen[-4000:]  # looked at whole first: a busy machine sends a frame in one long message
        else:
            raise RuntimeError(f"the session closed before the lobby: {seen[-300:]!r}")
        took = time.monotonic() - began
        await websocket.close()
    return took


class Terminal(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self) -> None:
        self.seen = b""
        self.lobby = asyncio.Event()

    def data_received(self, data: bytes, datatype: object) -> None:
        if self.lobby.is_set():
            return
        self.seen += data
        if LOBBY in self.seen:
            self.lobby.set()
        else:
            self.seen = self.seen[-4000:]  # looked at whole first: a busy machine sends a frame in one long read

    def connection_lost(self, exc: Exception | None) -> None:
        self.lobby.set()


async def ssh_sign_in(port: int, key: Path) -> float:
    """Seconds from a key login to the lobby drawn in its pty."""
    began = time.monotonic()
    async with asyncssh.connect(
        "127.0.0.1", port, username="player", client_keys=[str(key)], known_hosts=None, agent_path=None
    ) as connection:
        channel, terminal = await connection.create_session(
            Terminal, term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        await terminal.lobby.wait()
        if LOBBY not in terminal.seen:
            raise RuntimeError(f"the session closed before the lobby: {terminal.seen[-300:]!r}")
        took = time.monotonic() - began
        channel.close()
    return took


async def timed(sign_in: Any, tries: int) -> tuple[list[float], list[str]]:
    times, failures = [], []
    for _ in range(tries):
        try:
            times.append(await asyncio.wait_for(sign_in(), SIGN_IN_TIMEOUT))
        except Exception as error:  # a sign-in that fails is the figure: said, not raised
            failures.append(f"{type(error).__name__}: {error}"[:200])
        await asyncio.sleep(0.5)  # the session's lobby ends and its place is free again
    return times, failures


async def door(kind: str, connections: int, files: int, tries: int) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="dm-flood-"))
    try:
        common = ["--port", "0", "--max-player-sessions", "10"]
        if kind == "web":
            server, port, log = start(home, files, "serve-web", *common)
            base = f"http://127.0.0.1:{port}"
            counter = iter(range(10**6))

            def sign_in() -> Any:
                return web_sign_in(base, home, f"player{next(counter)}")

            opening = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: crowd\r\n"
        else:
            key = asyncssh.generate_private_key("ssh-ed25519")
            key.write_private_key(home / "player_key")
            (home / "authorized_keys").write_text(f"{key.export_public_key().decode().strip()} player\n")
            server, port, log = start(
                home, files, "serve-ssh", *common, "--authorized-keys", str(home / "authorized_keys")
            )

            def sign_in() -> Any:
                return ssh_sign_in(port, home / "player_key")

            opening = b""
        try:
            quiet, quiet_failures = await timed(sign_in, tries)
            async with Flood(port, connections, opening) as flood:
                flooded, flooded_failures = await timed(sign_in, tries)
                held, closed, failed = flood.held, flood.closed_by_server, flood.failed
        finally:
            stop(server)
        text = log.read_bytes()
        return {
            "door": kind,
            "connections": connections,
            "files": files,
            "quiet_s": [round(t, 2) for t in quiet],
            "flooded_s": [round(t, 2) for t in flooded],
            "failures": quiet_failures + flooded_failures,
            "crowd_held_at_end": held,
            "crowd_closed_by_server": closed,
            "crowd_connects_failed": failed,
            "log_bytes": len(text),
            "log_lines": text.count(b"\n"),
            "tracebacks": text.count(b"Traceback"),
            "first_traceback": _first_traceback(text),
        }
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _first_traceback(text: bytes) -> str:
    start = text.find(b"Traceback")
    return "" if start < 0 else text[start : start + 3000].decode("utf-8", "replace")


def report(result: dict[str, Any]) -> str:
    def median(times: list[float]) -> str:
        return f"{statistics.median(times):.2f} s (max {max(times):.2f})" if times else "none"

    return "\n".join(
        [
            f"{result['door']}: sign-in to the lobby, open-file limit {result['files']}: "
            f"quiet {median(result['quiet_s'])}; "
            f"with {result['connections']} half-open connections from {FLOOD_FROM} {median(result['flooded_s'])}",
            f"  the crowd: {result['crowd_closed_by_server']} of its connections closed by the server, "
            f"{result['crowd_held_at_end']} held at the end, {result['crowd_connects_failed']} connects failed",
            f"  server log: {result['log_lines']} lines, {result['log_bytes']} bytes, "
            f"{result['tracebacks']} tracebacks",
            *(f"  failed: {failure}" for failure in result["failures"]),
            *([f"  the first traceback:\n{result['first_traceback']}"] if result["first_traceback"] else []),
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--door", choices=("web", "ssh", "both"), default="both")
    parser.add_argument("--connections", type=int, help="half-open connections (default 300 web, 1100 SSH)")
    parser.add_argument("--files", type=int, default=256, help="the servers' open-file limit (default 256)")
    parser.add_argument("--tries", type=int, default=5, help="sign-ins timed, quiet and flooded (default 5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the crowd itself holds many connections
    results = []
    for kind in ("web", "ssh") if args.door == "both" else (args.door,):
        connections = args.connections or (300 if kind == "web" else 1100)
        results.append(asyncio.run(door(kind, connections, args.files, args.tries)))
    print(json.dumps(results, indent=2) if args.json else "\n".join(report(result) for result in results))
    bad = any(result["failures"] or result["tracebacks"] or not result["flooded_s"] for result in results)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
