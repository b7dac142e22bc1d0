"""What the load runs of the front doors (bench/ssh_load.py, bench/web_load.py) share: a server
started warm (sessions forked from its zygote) or with --spawn, the cold `dominoes lobby` start in
a pty to compare logins with, sessions idle in the lobby and sessions watching N at a time, the
memory of the server's whole process tree and of each session's from /proc, and the report of
both kinds of server side by side.

A session is anything with `bytes` and `writes` received so far, `closed`, and the `tail` of its
output (to say why it failed). A session's processes are those under a child of the server (a
spawned session) or under a child of the server's zygote (a forked one).
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
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from startup import plain_text, shows  # noqa: E402

from warm_sessions.page_merging import KSM_RUN, kernel_merging  # noqa: E402
from warm_sessions.session_fork import is_zygote  # noqa: E402


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


def session_roots(server_pid: int) -> list[int]:
    """The first process of each session: the server's children, and its zygote's."""
    roots = []
    for child in children(server_pid):
        roots += children(child) if is_zygote(child) else [child]
    return roots


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


MERGING_SETTLE = 120  # seconds: the kernel's same-page merging at its defaults has merged idle sessions by then


def page_merging() -> str:
    """Whether the kernel merges the pages sessions offer it (warm_sessions.page_merging), and how fast it looks."""
    state = kernel_merging()
    if state != "running":
        return f"{state} (the sessions' pages are never merged)"
    settings = {name: (KSM_RUN.parent / name).read_text().strip() for name in ("pages_to_scan", "sleep_millisecs")}
    return f"running ({settings['pages_to_scan']} pages looked at every {settings['sleep_millisecs']} ms)"


def tree_memory(pid: int) -> tuple[int, int, int]:
    """(RSS, PSS, processes) of a process and its descendants."""
    rss = pss = 0
    pids = tree(pid)
    for member in pids:
        r, p = memory_kib(member)
        rss, pss = rss + r, pss + p
    return rss, pss, len(pids)


def plain_tail(data: bytes, keep: int = 300) -> str:
    return plain_text(data)[-keep:]


async def watch(
    server_pid: int, sessions: Sequence[Watched], seconds: float, every: float, stall: float
) -> dict[str, Any]:
    """Watch the sessions for `seconds`, sampling the memory of the server's children (one per
    session) every `every` seconds; the figures, as the load runs report them."""
    count = len(sessions)
    samples: list[list[tuple[int, int, int]]] = []
    whole: tuple[int, int, int] = (0, 0, 0)
    last = [session.bytes for session in sessions]
    last_output = [time.monotonic()] * count
    longest_silence = [0.0] * count
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(min(every, max(0.0, deadline - time.monotonic())))
        # Read in a thread: reading hundreds of processes' memory takes seconds on a busy machine, and
        # meanwhile the sessions' output must go on being read, or the run would measure its own pause.
        sample, whole = await asyncio.to_thread(
            lambda: ([tree_memory(pid) for pid in session_roots(server_pid)], tree_memory(server_pid))
        )
        samples.append(sample)
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
    zygote_pss = sum(memory_kib(pid)[1] for pid in children(server_pid) if is_zygote(pid))
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
        "zygote_pss_mib": round(zygote_pss / 1024, 1),
        "tree_pss_mib": round(whole[1] / 1024, 1),
        "tree_pss_mib_per_session": round(whole[1] / 1024 / count, 1),
        "output_kib_per_s": [round(rate, 1) for rate in rates],
        "writes_per_s": [round(rate, 1) for rate in writes],
        "longest_silence_s": round(max(longest_silence), 1),
        "failures": {index: plain_tail(sessions[index].tail) for index in failed},
    }


async def idle_memory(server_pid: int, sessions: int, settle: float) -> dict[str, Any]:
    """The memory of `sessions` sessions idle in the lobby, after `settle` seconds there."""
    await asyncio.sleep(settle)
    rss, pss, processes = tree_memory(server_pid)
    roots = session_roots(server_pid)
    return {
        "sessions": sessions,
        "measured_sessions": len(roots),
        "settle_seconds": settle,
        "tree_pss_mib": round(pss / 1024, 1),
        "tree_rss_mib": round(rss / 1024, 1),
        "tree_processes": processes,
        "tree_pss_mib_per_session": round(pss / 1024 / sessions, 1),
        "session_pss_mib_median": round(statistics.median(tree_memory(pid)[1] for pid in roots) / 1024, 1)
        if roots
        else 0,
        "server_pss_mib": round(memory_kib(server_pid)[1] / 1024, 1),
        "zygote_pss_mib": round(sum(memory_kib(pid)[1] for pid in children(server_pid) if is_zygote(pid)) / 1024, 1),
    }


async def sessions_gone(server_pid: int, timeout: float = 60.0) -> None:
    """Until the server has no session process left (after its clients went)."""
    deadline = time.monotonic() + timeout
    while session_roots(server_pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)


def cold_lobby_seconds(home: Path) -> float:
    """`dominoes lobby` started cold in a pty: seconds to its first frame (bench/startup.py's clock)."""
    from startup import first_frame

    code = "import sys; from cli.main import main; sys.exit(main(['lobby', '--name=cold']))"
    return first_frame(code, LOBBY_MARK, str(home))


LOBBY = "Leaders q Quit"  # the lobby's keys, in its footer: its last row, so the lobby is whole
LOBBY_MARK = LOBBY.encode()
TABLE = "'s tiles"  # a table's hand, watched or played


def drawn(data: bytes, words: str = LOBBY) -> bool:
    """Whether a terminal's last output shows `words` (the lobby, or a table)."""
    return shows(data, words.encode())


def median(values: Sequence[float]) -> float:
    return round(statistics.median(values), 3) if values else 0.0


def ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 2) if part and whole else None


def report(result: dict[str, Any], kind: str, login: str) -> str:
    """Both servers' figures side by side: `kind` of session ("SSH"), what a login measured."""
    from machine import machine

    doors = result["doors"]
    lines = [machine(), f"the kernel's same-page merging: {result['page_merging']}"]
    logins = {name: door.get("login_seconds", []) for name, door in doors.items()}
    if any(logins.values()):
        lines.append(f"{login} (median of {max(len(v) for v in logins.values())}):")
        if result.get("cold_lobby_seconds"):
            lines.append(f"  `dominoes lobby` started cold in a pty: {result['cold_lobby_median']:.3f} s")
        for name, values in logins.items():
            if values:
                lines.append(f"  {name:<5} {median(values):.3f} s  (best {min(values):.3f}, worst {max(values):.3f})")
        for name, value in result["ratios"].items():
            if value is not None:
                lines.append(f"  {name.replace('_', ' ')}: {value:.2f}")
    for name, door in doors.items():
        idle = door.get("idle")
        if idle:
            lines.append(
                f"{name}: {idle['sessions']} sessions idle in the lobby: the server's process tree "
                f"{idle['tree_pss_mib']} MiB PSS ({idle['tree_processes']} processes), "
                f"{idle['tree_pss_mib_per_session']} MiB a session; a session's own median "
                f"{idle['session_pss_mib_median']} MiB, server {idle['server_pss_mib']} MiB, "
                f"zygote {idle['zygote_pss_mib']} MiB"
            )
            if result["page_merging"].startswith("running") and idle["settle_seconds"] < MERGING_SETTLE:
                lines.append(
                    f"  (measured after {idle['settle_seconds']:g} s: the kernel merges pages over a minute or two; "
                    f"--settle {MERGING_SETTLE} measures what it merges)"
                )
        watched = door.get("watch")
        if watched:
            lines.append(f"{name}: " + watch_report(watched, kind))
    return "\n".join(lines)


def watch_report(result: dict[str, Any], kind: str) -> str:
    rates, writes = result["output_kib_per_s"], result["writes_per_s"]
    lines = [
        f"{result['sessions']} {kind} sessions watching bots ({result['speed']} speed) for {result['seconds']:g} s; "
        f"all watching in {result['connect_seconds']} s",
        f"  alive at the end: {result['alive']}/{result['sessions']}; failed: {len(result['failed']) or 'none'}",
        f"  the server's process tree: {result['tree_pss_mib']} MiB PSS, {result['tree_pss_mib_per_session']} MiB a "
        f"session (server {result['server_pss_mib']} MiB, zygote {result['zygote_pss_mib']} MiB)",
        f"  a session's own processes: RSS median {result['rss_mib_median']} MiB, peak {result['rss_mib_peak']} MiB; "
        f"PSS median {result['pss_mib_median']} MiB",
        f"  terminal output per session: {min(rates)}-{max(rates)} KiB/s, {min(writes)}-{max(writes)} writes/s; "
        f"longest silence of a session: {result['longest_silence_s']} s",
    ]
    for index, tail in result["failures"].items():
        lines.append(f"  session {index} failed; its terminal last showed: {tail}")
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
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    shutil.rmtree(home, ignore_errors=True)


class Door(Protocol):
    """One server under test, with the clients a load run opens on it."""

    server: subprocess.Popen[str]

    async def login(self, index: int) -> float:
        """Seconds from a new player's first step to their lobby drawn (the session is closed after)."""
        ...

    async def open(self, count: int, watching: bool, speed: str) -> list[Any]:
        """`count` sessions of players of their own, each in the lobby drawn (watching: bots playing)."""
        ...

    async def close(self, sessions: list[Any]) -> None: ...

    async def stop(self) -> None: ...


async def run_doors(args: argparse.Namespace, start: Callable[[str, argparse.Namespace], Awaitable[Door]]) -> dict:
    """The load run of every server in `args.doors`: logins side by side (with the cold lobby start
    between them), then each server's idle and watching sessions in turn."""
    doors: dict[str, Door] = {}
    result: dict[str, Any] = {"doors": {}, "page_merging": page_merging()}
    try:
        for name in args.doors:
            doors[name] = await start(name, args)
            result["doors"][name] = {}
        if args.logins:
            home = Path(tempfile.mkdtemp(prefix="dm-cold-"))
            cold: list[float] = []
            logins: dict[str, list[float]] = {name: [] for name in doors}
            try:
                for index in range(args.logins):  # in turn, so a busy moment falls on all of them
                    cold.append(await asyncio.to_thread(cold_lobby_seconds, home))
                    for name, door in doors.items():
                        logins[name].append(await door.login(index))
            finally:
                shutil.rmtree(home, ignore_errors=True)
            result["cold_lobby_seconds"] = [round(value, 3) for value in cold]
            result["cold_lobby_median"] = median(cold)
            for name, values in logins.items():
                result["doors"][name]["login_seconds"] = [round(value, 3) for value in values]
                result["doors"][name]["login_median"] = median(values)
            warm, spawned = median(logins.get("warm", [])), median(logins.get("spawn", []))
            result["ratios"] = {
                "warm_to_cold_lobby": ratio(warm, median(cold)),
                "spawn_to_cold_lobby": ratio(spawned, median(cold)),
                "warm_to_spawn": ratio(warm, spawned),
            }
        else:
            result["ratios"] = {}
        for name, door in doors.items():
            pid = door.server.pid
            if args.idle:
                sessions = await door.open(args.idle, False, args.speed)
                result["doors"][name]["idle"] = await idle_memory(pid, args.idle, args.settle)
                await door.close(sessions)
                await sessions_gone(pid)
            if args.sessions:
                started = time.monotonic()
                sessions = await door.open(args.sessions, True, args.speed)
                connected = time.monotonic() - started
                measured = await watch(pid, sessions, args.seconds, args.every, args.stall)
                result["doors"][name]["watch"] = {
                    "sessions": args.sessions,
                    "seconds": args.seconds,
                    "speed": args.speed,
                    "connect_seconds": round(connected, 2),
                    **measured,
                }
                await door.close(sessions)
                await sessions_gone(pid)
    finally:
        for door in doors.values():
            await door.stop()
    return result


def main(
    run: Callable[[argparse.Namespace], Awaitable[dict[str, Any]]],
    description: str,
    kind: str,
    login: str,
    more: Callable[[argparse.ArgumentParser], None] | None = None,
) -> int:
    """Run the load run `run` with the command line's arguments and print its figures."""
    args = arguments(description, more)
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2) if args.json else report(result, kind, login))
    failed = [
        door["watch"]
        for door in result["doors"].values()
        if "watch" in door and (door["watch"]["failed"] or door["watch"]["alive"] != args.sessions)
    ]
    return 1 if failed else 0


def arguments(description: str, more: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--doors", default="warm,spawn", help="which servers, side by side: warm (forked sessions), spawn (--spawn)"
    )
    parser.add_argument("--logins", type=int, default=6, help="logins timed on each server (default 6; 0: none)")
    parser.add_argument("--idle", type=int, default=12, help="sessions idle in the lobby, measured (default 12)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds they idle before (default 5)")
    parser.add_argument("--sessions", type=int, default=20, help="sessions watching bots (default 20; 0: none)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--speed", choices=("instant", "normal", "slow"), default="instant")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples (default 5)")
    parser.add_argument(
        "--stall", type=float, default=15.0, help="seconds without output that count as a failed session (default 15)"
    )
    parser.add_argument("--json", action="store_true")
    if more is not None:
        more(parser)
    args = parser.parse_args()
    args.doors = [door.strip() for door in args.doors.split(",") if door.strip()]
    if not args.doors or any(door not in ("warm", "spawn") for door in args.doors):
        parser.error("--doors takes warm, spawn or both (warm,spawn)")
    if min(args.logins, args.idle, args.sessions) < 0 or args.seconds <= 0 or args.every <= 0:
        parser.error("--logins, --idle and --sessions may not be negative; --seconds and --every must be positive")
    args.every = min(args.every, args.seconds)
    return args
