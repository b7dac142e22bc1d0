"""What a session forked from the zygote costs in memory of its own, next to the least any Textual
app forked the same way costs: the floor under the SSH and web doors' figures per session.

    .venv/bin/python bench/session_memory.py              # 3 forks of each, medians
    .venv/bin/python bench/session_memory.py --forks 5 --seconds 8

A process prepared as the zygote prepares itself (`warm_sessions.zygote.preload`, then `gc.collect()` and
`gc.freeze()`) forks one child at a time. Each child runs an app at 80x24 with a driver that renders
every frame as for a terminal and writes it nowhere, for --seconds, then reports its private memory
(Private_Dirty in /proc/self/smaps_rollup: the pages it copied from the zygote on writing to them,
and the pages it made itself), and ends:
- a bare app: one line of text (the least a Textual app touches);
- the lobby, idle (`LobbyApp`, an empty server);
- the lobby watching bots play at instant speed (w pressed).
What the zygote shares with each child is the rest of its memory: its own private memory is
reported too. CPython writes to an object whenever it takes or drops a reference to it, so every
class instantiated, function called and constant loaded copies the page it sits on: the bare app's
figure is what forking from a warm process cannot take below.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import machine  # noqa: E402

KINDS = ("bare", "lobby", "watching")


def private_kib(pid: int | str = "self") -> int:
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Private_Dirty:"):
                return int(line.split()[1])
    return 0


async def run_app(kind: str, seconds: float) -> None:
    from textual.app import App, ComposeResult
    from textual.drivers.headless_driver import HeadlessDriver
    from textual.widgets import Label

    from tui.lobby_app import LobbyApp
    from tui.preferences import Preferences

    class RenderedNowhere(HeadlessDriver):
        """Frames rendered as for a terminal (a headless app renders none), and written nowhere."""

        @property
        def is_headless(self) -> bool:
            return False

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Label("a bare Textual app")

    app: App[Any] = Bare() if kind == "bare" else LobbyApp("bench", preferences=Preferences(bot_speed="instant"))
    app.driver_class = RenderedNowhere
    async with app.run_test(headless=False, size=(80, 24)) as pilot:
        await pilot.pause()
        if kind == "watching":
            await pilot.press("w")
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            await pilot.pause(0.1)
        os.write(REPORT, f"{private_kib()}\n".encode())
        app.exit()


def fork_one(kind: str, seconds: float) -> int:
    """The private memory (KiB) of one child running `kind`."""
    global REPORT
    read_end, REPORT = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read_end)
        try:
            asyncio.run(run_app(kind, seconds))
        finally:
            os._exit(0)
    os.close(REPORT)
    with os.fdopen(read_end) as report:
        answer = report.read().strip()
    os.waitpid(pid, 0)
    if not answer:
        raise SystemExit(f"the {kind} child reported nothing")
    return int(answer)


REPORT = -1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forks", type=int, default=3, help="children of each kind (default 3)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each child runs (default 5)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    if args.forks < 1 or args.seconds <= 0:
        parser.error("--forks and --seconds must be positive")
    if not hasattr(os, "fork") or not Path("/proc/self/smaps_rollup").exists():
        raise SystemExit("this benchmark needs fork and /proc (Linux)")

    home = tempfile.mkdtemp(prefix="dominoes-bench-")
    os.environ["DOMINOES_HOME"] = os.environ["DOMINOES_SERVER_HOME"] = home  # an empty server, nobody's data
    try:
        from cli.session_entry import SESSION_ENTRY
        from warm_sessions.zygote import prepare_to_fork

        prepared = prepare_to_fork(SESSION_ENTRY)
        zygote = private_kib()
        figures = {kind: [fork_one(kind, args.seconds) for _ in range(args.forks)] for kind in KINDS}
    finally:
        shutil.rmtree(home, ignore_errors=True)
    result = {
        "machine": machine(),
        "immortal_objects": prepared.immortalized.objects,
        "immortal_why_not": prepared.immortalized.why_not,
        "heap_holes_filled": prepared.filled.small_blocks + prepared.filled.heap_chunks,
        "hot_code_packed": prepared.packed.copied,
        "zygote_private_mib": round(zygote / 1024, 1),
        **{f"{kind}_private_mib": round(statistics.median(kib) / 1024, 1) for kind, kib in figures.items()},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(result["machine"])
    shared = result["zygote_private_mib"]
    immortalized = prepared.immortalized
    immortal = f"{immortalized.objects:,} objects immortal" if immortalized.objects else immortalized.why_not
    print(f"the prepared process (imported, {prepared.packed.copied:,} code objects packed, holes filled, frozen;")
    print(f"  {immortal}):")
    print(f"  {shared} MiB of its own, each child's until it writes there")
    print(f"a forked child's own memory after {args.seconds:g} s (median of {args.forks}):")
    print(f"  a bare Textual app (one line)   {result['bare_private_mib']:5.1f} MiB")
    print(f"  the lobby, idle                 {result['lobby_private_mib']:5.1f} MiB")
    print(f"  the lobby, watching bots        {result['watching_private_mib']:5.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
