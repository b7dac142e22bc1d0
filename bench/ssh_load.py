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

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 60.0
SIZE = (80, 24)


def children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(word) for word in handle.read().split()]
    except OSError:
        pass
    return found


def tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        todo += children(current)
    return pids


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in KiB; (0, 0) for a process that is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            text = handle.read()
    except OSError:
        return 0, 0
    rss = re.search(r"^Rss:\s+(\d+)", text, re.M)
    pss = re.search(r"^Pss:\s+(\d+)", text, re.M)
    return (int(rss.group(1)) if rss else 0, int(pss.group(1)) if pss else 0)


def tree_memory(pid: int) -> tuple[int, int, int]:
    """(RSS, PSS, processes) of a process and its descendants."""
    rss = pss = 0
    pids = tree(pid)
    for member in pids:
        r, p = memory_kib(member)
        rss, pss = rss + r, pss + p
    return rss, pss, len(pids)


def plain_tail(data: bytes) -> str:
    text = re.sub(rb"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])", b" ", data)
    return " ".join(text.decode("utf-8", "replace").split())[-300:]


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


def start_server(home: Path, authorized: Path, sessions: int) -> tuple[subprocess.Popen[str], int]:
    environment = dict(os.environ, DOMINOES_HOME=str(home), PYTHONPATH=str(ROOT))
    server = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve-ssh", "--port", "0", "--authorized-keys", str(authorized)]
        + ["--max-sessions", str(sessions)],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"listening on [^:]+:(\d+)", line)
    if found is None:
        server.kill()
        raise SystemExit(f"the server did not start: {line.strip() or server.wait()}")
    return server, int(found.group(1))


async def run(sessions: int, seconds: float, speed: str, every: float, stall: float) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="dm-load-"))
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_path = home / "client_key"
    key.write_private_key(key_path)
    authorized = home / "authorized_keys"
    line = key.export_public_key().decode().strip()
    # A key logs in only as the player its line names: one line per session's player, one key for all.
    authorized.write_text("".join(f"{line} load{index}\n" for index in range(sessions)))
    server, port = start_server(home, authorized, sessions)
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
        samples: list[list[tuple[int, int, int]]] = []
        last = [0] * sessions
        last_output = [time.monotonic()] * sessions
        longest_silence = [0.0] * sessions
        rates: list[float] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            await asyncio.sleep(min(every, max(0.0, deadline - time.monotonic())))
            lobbies = children(server.pid)
            samples.append([tree_memory(pid) for pid in lobbies])
            now = time.monotonic()
            for index, terminal in enumerate(terminals):
                if terminal.bytes != last[index]:
                    last_output[index] = now
                longest_silence[index] = max(longest_silence[index], now - last_output[index])
                last[index] = terminal.bytes
        failed = [i for i, t in enumerate(terminals) if t.closed or longest_silence[i] >= stall]
        final = samples[-1] if samples else []
        alive = sum(1 for t in terminals if not t.closed)
        rates = [t.bytes / seconds / 1024 for t in terminals]
        writes = [t.writes / seconds for t in terminals]
        server_rss, server_pss = memory_kib(server.pid)
        peak_rss = max((max(r for r, _, _ in sample) for sample in samples if sample), default=0)
        return {
            "sessions": sessions,
            "seconds": seconds,
            "speed": speed,
            "connect_seconds": round(opened, 2),
            "alive": alive,
            "failed": failed,
            "measured_sessions": len(final),
            "session_rss_mib": [round(r / 1024, 1) for r, _, _ in final],
            "session_pss_mib": [round(p / 1024, 1) for _, p, _ in final],
            "session_processes": [n for _, _, n in final],
            "rss_mib_median": round(statistics.median(r for r, _, _ in final) / 1024, 1) if final else 0,
            "pss_mib_median": round(statistics.median(p for _, p, _ in final) / 1024, 1) if final else 0,
            "rss_mib_peak": round(peak_rss / 1024, 1),
            "pss_mib_total": round(sum(p for _, p, _ in final) / 1024, 1),
            "server_rss_mib": round(server_rss / 1024, 1),
            "server_pss_mib": round(server_pss / 1024, 1),
            "output_kib_per_s": [round(rate, 1) for rate in rates],
            "writes_per_s": [round(rate, 1) for rate in writes],
            "longest_silence_s": round(max(longest_silence), 1),
            "failures": {index: plain_tail(terminals[index].tail) for index in failed},
        }
    finally:
        for connection in connections:
            connection.close()
        for connection in connections:
            await connection.wait_closed()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        subprocess.run(["rm", "-rf", str(home)], check=False)


def report(result: dict[str, object]) -> str:
    lines = [
        f"{result['sessions']} SSH sessions watching bots ({result['speed']} speed) for {result['seconds']:g} s; "
        f"all connected in {result['connect_seconds']} s",
        f"alive at the end: {result['alive']}/{result['sessions']}; failed: {len(result['failed']) or 'none'}",  # type: ignore[arg-type]
        f"memory per session (process tree): RSS median {result['rss_mib_median']} MiB, peak {result['rss_mib_peak']} "
        f"MiB; PSS median {result['pss_mib_median']} MiB, total {result['pss_mib_total']} MiB",
        f"server process: RSS {result['server_rss_mib']} MiB, PSS {result['server_pss_mib']} MiB",
        f"terminal output per session: {min(result['output_kib_per_s'])}-{max(result['output_kib_per_s'])} KiB/s, "  # type: ignore[type-var]
        f"{min(result['writes_per_s'])}-{max(result['writes_per_s'])} writes/s; "  # type: ignore[type-var]
        f"longest silence of a session: {result['longest_silence_s']} s",
    ]
    for index, tail in result["failures"].items():  # type: ignore[attr-defined]
        lines.append(f"session {index} failed; its terminal last showed: {tail}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--speed", choices=("instant", "normal", "slow"), default="instant")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples (default 5)")
    parser.add_argument(
        "--stall", type=float, default=15.0, help="seconds without output that count as a failed session (default 15)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.sessions < 1 or args.seconds <= 0 or args.every <= 0:
        parser.error("--sessions, --seconds and --every must be positive")
    result = asyncio.run(run(args.sessions, args.seconds, args.speed, min(args.every, args.seconds), args.stall))
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 1 if result["failed"] or result["alive"] != args.sessions else 0


if __name__ == "__main__":
    sys.exit(main())
