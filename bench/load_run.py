"""What the load runs of the front doors (bench/ssh_load.py, bench/web_load.py) share: watching N
sessions for a while, the memory of each session's process tree sampled from /proc, and the report.

A session is anything with `bytes` and `writes` received so far, `closed`, and the `tail` of its
output (to say why it failed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parent.parent


class Watched(Protocol):
    bytes: int
    writes: int
    closed: bool
    tail: bytes


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


async def watch(
    server_pid: int, sessions: Sequence[Watched], seconds: float, every: float, stall: float
) -> dict[str, Any]:
    """Watch the sessions for `seconds`, sampling the memory of the server's children (one per
    session) every `every` seconds; the figures, as the load runs report them."""
    count = len(sessions)
    samples: list[list[tuple[int, int, int]]] = []
    last = [session.bytes for session in sessions]
    last_output = [time.monotonic()] * count
    longest_silence = [0.0] * count
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(min(every, max(0.0, deadline - time.monotonic())))
        samples.append([tree_memory(pid) for pid in children(server_pid)])
        now = time.monotonic()
        for index, session in enumerate(sessions):
            if session.bytes != last[index]:
                last_output[index] = now
            longest_silence[index] = max(longest_silence[index], now - last_output[index])
            last[index] = session.bytes
    failed = [i for i, s in enumerate(sessions) if s.closed or longest_silence[i] >= stall]
    final = samples[-1] if samples else []
    rates = [s.bytes / seconds / 1024 for s in sessions]
    writes = [s.writes / seconds for s in sessions]
    server_rss, server_pss = memory_kib(server_pid)
    peak_rss = max((max(r for r, _, _ in sample) for sample in samples if sample), default=0)
    return {
        "alive": sum(1 for s in sessions if not s.closed),
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
        "failures": {index: plain_tail(sessions[index].tail) for index in failed},
    }


def report(result: dict[str, Any], kind: str, ready: str) -> str:
    """The figures in lines: `kind` of session ("SSH"), what `connect_seconds` measured ("connected")."""
    rates, writes = result["output_kib_per_s"], result["writes_per_s"]
    lines = [
        f"{result['sessions']} {kind} sessions watching bots ({result['speed']} speed) for {result['seconds']:g} s; "
        f"all {ready} in {result['connect_seconds']} s",
        f"alive at the end: {result['alive']}/{result['sessions']}; failed: {len(result['failed']) or 'none'}",
        f"memory per session (process tree): RSS median {result['rss_mib_median']} MiB, peak {result['rss_mib_peak']} "
        f"MiB; PSS median {result['pss_mib_median']} MiB, total {result['pss_mib_total']} MiB",
        f"server process: RSS {result['server_rss_mib']} MiB, PSS {result['server_pss_mib']} MiB",
        f"terminal output per session: {min(rates)}-{max(rates)} KiB/s, {min(writes)}-{max(writes)} writes/s; "
        f"longest silence of a session: {result['longest_silence_s']} s",
    ]
    for index, tail in result["failures"].items():
        lines.append(f"session {index} failed; its terminal last showed: {tail}")
    return "\n".join(lines)


def start_server(home: Path, command: list[str], says: str) -> tuple[subprocess.Popen[str], re.Match[str]]:
    """`dominoes COMMAND...` with `home` as its data directory, and the match of `says` in its first line."""
    server = subprocess.Popen(
        [sys.executable, "-m", "cli", *command],
        cwd=ROOT,
        env=dict(os.environ, DOMINOES_HOME=str(home), PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(says, line)
    if found is None:
        server.kill()
        raise SystemExit(f"the server did not start: {line.strip() or server.wait()}")
    return server, found


def stop_server(server: subprocess.Popen[str], home: Path) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    shutil.rmtree(home, ignore_errors=True)


def main(run: Callable[..., Awaitable[dict[str, Any]]], description: str, kind: str, ready: str) -> int:
    """Run the load run `run` with the command line's arguments and print its figures."""
    args = arguments(description)
    result = asyncio.run(run(args.sessions, args.seconds, args.speed, args.every, args.stall))
    print(json.dumps(result, indent=2) if args.json else report(result, kind, ready))
    return 1 if result["failed"] or result["alive"] != args.sessions else 0


def arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
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
    args.every = min(args.every, args.seconds)
    return args
