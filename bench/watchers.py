"""A crowd watching one table over SSH: the seated players' keys while it watches, what a watching
session costs, and a newcomer's sign-up to the lobby drawn.

    python bench/watchers.py                              # 200 watchers for 60 s
    python bench/watchers.py --watchers 20 --seconds 15   # a quick look
    python bench/watchers.py --json

`dominoes serve-ssh --open` runs warm (sessions forked from its zygote) on a temporary data folder,
with one client key listed for the players `ann` and `ben` and for every watcher. First, --sign-ups
newcomers (keys of their own, listed nowhere) sign up: from `asyncssh.connect` to the sign-up screen
drawn, then from Enter on the name to the lobby drawn. Then a Chicken Foot table of four (ann, ben
and two easy bots) is opened as the lobby opens one; ann and ben take their seats from their lobbies
(Enter), and --watchers sessions log in and press w on it. Every session is an asyncssh client on
loopback with an 80x24 pty, reading everything its terminal is sent.

For --seconds the seated players play as people do: when it is their turn they wait --think seconds,
then press Enter (the first tile that fits), Enter (its end, if it fits several) and d (draw, if
nothing fits); between turns they press the arrow keys. The clock runs from writing an arrow key to
the first bytes of the next frame on that player's terminal. A frame that the table's own news could
have caused instead (an update reached the run's own watcher from 0.1 s before the key until that
frame) is left out, and counted. Every watching session must still be drawing at the end. The memory
of each watching session (its processes' PSS, and RSS) is read at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh
from load_run import LOBBY, ROOT, memory_kib, session_roots, start_server, stop_server, tree_memory
from startup import plain_text, shows

sys.path.insert(0, str(ROOT))

from net.client import TableClient
from net.limits import ServerLimits
from net.tables import TableSeat, create_table

SIZE = (80, 24)
WAIT = 180.0  # seconds a session may take to show what it should on a loaded machine
SEATED = "'s tiles"  # a seated player's hand
WATCHING = "You are watching"
SIGN_UP = "Choose the name"
SIGNED_IN = "signed in as"
RIGHT, LEFT, ENTER = b"\x1b[C", b"\x1b[D", b"\r"
NEWS_BEFORE = 0.1  # seconds before a key within which the table's own news makes its frame ambiguous
BATCH = 20  # watchers logging in at once


class Terminal(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """A session's terminal: everything it was sent, and when."""

    def __init__(self) -> None:
        self.tail = b""
        self.bytes = 0
        self.closed = False
        self.changed = asyncio.Event()
        self.last_output = time.monotonic()

    def data_received(self, data: bytes, datatype: object) -> None:
        self.bytes += len(data)
        self.tail = (self.tail + data)[-8000:]
        self.last_output = time.monotonic()
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.changed.set()

    async def wait_for(self, words: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not shows(self.tail, words.encode()):
            if self.closed:
                raise SystemExit(f"a session closed while waiting for {words!r}: {self.tail[-300:]!r}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SystemExit(f"a session did not show {words!r} in time: {plain_text(self.tail)[-600:]}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)

    async def wait_for_hint(self, timeout: float = 10.0) -> None:
        """Until the hint's answer is drawn (not its "thinking…")."""
        deadline = time.monotonic() + timeout
        self.tail = b""
        while time.monotonic() < deadline and not self.closed:
            text = plain_text(self.tail)
            found = text.rfind("Hint:")
            if found >= 0 and not text[found:].startswith("Hint: thinking"):
                return
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))

    async def next_frame(self, timeout: float) -> float | None:
        """Seconds until the next bytes come (None: none within `timeout`)."""
        started = time.perf_counter()
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            return None
        return time.perf_counter() - started


class Server:
    def __init__(self, home: Path, watchers: int) -> None:
        self.home = home
        key = asyncssh.generate_private_key("ssh-ed25519")
        self.key_path = home / "client_key"
        key.write_private_key(self.key_path)
        line = key.export_public_key().decode().strip()
        names = ["ann", "ben"] + [f"w{index}" for index in range(watchers)]
        (home / "authorized_keys").write_text("".join(f"{line} {name}\n" for name in names))
        self.most = min(1000, watchers + 10)
        command = ["serve-ssh", "--port", "0", "--open", "--authorized-keys", str(home / "authorized_keys")]
        command += ["--max-sessions", str(watchers + 10), "--max-watchers", str(self.most)]
        command += ["--sign-ups-per-address", "1000", "--sign-ups-per-hour", "1000"]
        self.server, found = start_server(home, command, r"listening on [^:]+:(\d+)")
        self.port = int(found.group(1))
        self.connections: list[asyncssh.SSHClientConnection] = []

    async def session(self, user: str, key: Path | None = None) -> tuple[Terminal, Any]:
        connection = await asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=user,
            client_keys=[key or self.key_path],
            known_hosts=None,
            agent_path=None,
        )
        self.connections.append(connection)
        channel, terminal = await connection.create_session(
            Terminal, None, term_type="xterm-256color", term_size=SIZE, encoding=None
        )
        return terminal, channel  # type: ignore[return-value]

    async def stop(self) -> None:
        for connection in self.connections:
            connection.close()
        await asyncio.to_thread(stop_server, self.server, self.home)


async def sign_ups(server: Server, count: int) -> list[tuple[float, float]]:
    """Each newcomer's (connect to the sign-up screen drawn, Enter on the name to the lobby drawn)."""
    timings = []
    for index in range(count):
        path = server.home / f"newcomer{index}"
        asyncssh.generate_private_key("ssh-ed25519").write_private_key(path)
        started = time.perf_counter()
        terminal, channel = await server.session("newcomer", path)
        await terminal.wait_for(SIGN_UP)
        shown = time.perf_counter() - started
        channel.write(f"Newcomer {index}".encode())
        await asyncio.sleep(0.2)
        entered = time.perf_counter()
        channel.write(ENTER)
        await terminal.wait_for(LOBBY)
        timings.append((shown, time.perf_counter() - entered))
        channel.close()
    return timings


class Observer:
    """The run's own watcher at the table (over its socket): when the table's news went out, and
    whose turn it is."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.news: list[float] = []
        self.snapshot = client.snapshot
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for event in self.client.events():
            if hasattr(event, "view"):
                self.snapshot = event
                self.news.append(time.perf_counter())

    def news_between(self, start: float, end: float) -> bool:
        return any(start <= when <= end for when in reversed(self.news[-50:]))

    def to_move(self) -> int | None:
        view = self.snapshot.view
        return None if view.chance or view.over else view.to_move


class Player:
    def __init__(self, name: str, seat: int, terminal: Terminal, channel: Any) -> None:
        self.name, self.seat, self.terminal, self.channel = name, seat, terminal, channel
        self.latencies: list[float] = []
        self.ambiguous = 0
        self.silent = 0
        self.moves = 0


async def play(player: Player, observer: Observer, until: float, think: float) -> None:
    direction = RIGHT
    while time.monotonic() < until:
        if observer.to_move() == player.seat:
            await asyncio.sleep(think)
            # The hint puts the cursor on its tile (and the board on its end): Enter plays it there,
            # and d draws when the hint is to draw. Arrows pressed just before could have moved it.
            player.channel.write(b"h")
            with contextlib.suppress(SystemExit):
                await player.terminal.wait_for_hint()
            for key in (ENTER, ENTER, b"d"):
                player.channel.write(key)
                await asyncio.sleep(0.15)
            player.moves += 1
            continue
        if observer.snapshot.view.chance or observer.snapshot.view.over:
            player.channel.write(ENTER)  # the round's result: go on
            await asyncio.sleep(0.5)
            continue
        await asyncio.sleep(0.2)
        pressed = time.perf_counter()
        player.channel.write(direction)
        direction = LEFT if direction == RIGHT else RIGHT
        latency = await player.terminal.next_frame(2.0)
        if latency is None:
            player.silent += 1
        elif observer.news_between(pressed - NEWS_BEFORE, pressed + latency):
            player.ambiguous += 1
        else:
            player.latencies.append(latency)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="dm-watchers-"))
    os.environ["DOMINOES_HOME"] = str(home)
    server = Server(home, args.watchers)
    result: dict[str, Any] = {"watchers": args.watchers, "seconds": args.seconds}
    try:
        signed = await sign_ups(server, args.sign_ups)
        result["sign_up_screen_s"] = [round(shown, 3) for shown, _ in signed]
        result["name_to_lobby_s"] = [round(lobby, 3) for _, lobby in signed]
        seats = (TableSeat("human", "ann"), TableSeat("human", "ben"))
        seats += (TableSeat("bot", "Bot 3", "easy"), TableSeat("bot", "Bot 4", "easy"))
        environment = dict(os.environ, PYTHONPATH=str(ROOT))
        table = await asyncio.to_thread(
            create_table,
            "chicken-foot",
            seats,
            {"rounds": 10},
            "ann",
            environment=environment,
            limits=ServerLimits(max_watchers=server.most),
        )
        players = []
        for seat, name in enumerate(("ann", "ben")):
            terminal, channel = await server.session(name)
            await terminal.wait_for("▶ Chicken Foot")  # their own table, listed first
            channel.write(ENTER)  # Enter takes the seat
            await terminal.wait_for(SEATED)
            players.append(Player(name, seat, terminal, channel))
        observer = Observer(await TableClient.watch(str(table.socket)))
        watchers: list[Terminal] = []
        opened = time.monotonic()
        for first in range(0, args.watchers, BATCH):
            # Logged in one after another (the door lets few strangers from one address wait at
            # once), then watching side by side.
            group = [await server.session(f"w{index}") for index in range(first, min(args.watchers, first + BATCH))]

            async def watch(terminal: Terminal, channel: Any) -> Terminal:
                await terminal.wait_for("Chicken Foot")  # the table listed
                channel.write(b"w")
                await terminal.wait_for(WATCHING)
                return terminal

            watchers += await asyncio.gather(*(watch(terminal, channel) for terminal, channel in group))
        result["watchers_in_s"] = round(time.monotonic() - opened, 1)
        start_bytes = [terminal.bytes for terminal in watchers]
        started = time.monotonic()
        until = started + args.seconds
        await asyncio.gather(*(play(player, observer, until, args.think) for player in players))
        elapsed = time.monotonic() - started
        now = time.monotonic()
        result["watchers_alive"] = sum(1 for terminal in watchers if not terminal.closed)
        result["watchers_drawing"] = sum(
            1 for terminal, before in zip(watchers, start_bytes, strict=True) if terminal.bytes > before
        )
        result["watcher_longest_silence_s"] = round(max((now - t.last_output for t in watchers), default=0.0), 1)
        result["watcher_kib_per_s"] = round(
            statistics.median((t.bytes - b) / elapsed / 1024 for t, b in zip(watchers, start_bytes, strict=True))
            if watchers
            else 0.0,
            1,
        )
        result["table_updates"] = len(observer.news)
        latencies = [latency for player in players for latency in player.latencies]
        result["keys_measured"] = len(latencies)
        result["keys_ambiguous"] = sum(player.ambiguous for player in players)
        result["keys_without_frame"] = sum(player.silent for player in players)
        result["moves_played"] = sum(player.moves for player in players)
        result["key_to_frame_ms"] = {
            "median": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "p90": round(percentile(latencies, 0.9) * 1000, 1) if latencies else None,
            "max": round(max(latencies) * 1000, 1) if latencies else None,
        }
        sessions = await asyncio.to_thread(lambda: [tree_memory(pid) for pid in session_roots(server.server.pid)])
        if sessions:
            result["session_pss_mib_median"] = round(statistics.median(p for _, p, _ in sessions) / 1024, 1)
            result["session_rss_mib_median"] = round(statistics.median(r for r, _, _ in sessions) / 1024, 1)
        whole = tree_memory(server.server.pid)
        result["tree_pss_mib_per_session"] = round(whole[1] / 1024 / max(1, len(sessions)), 1)
        result["server_pss_mib"] = round(memory_kib(server.server.pid)[1] / 1024, 1)
        result["host_pss_mib"] = round(tree_memory(table.pid)[1] / 1024, 1)
        result["sessions_measured"] = len(sessions)
        await observer.client.close()
    finally:
        await server.stop()
    return result


def report(result: dict[str, Any]) -> str:
    keys = result["key_to_frame_ms"]
    lines = [
        f"{result['watchers']} watchers on one table for {result['seconds']:g} s (all in after "
        f"{result['watchers_in_s']} s): {result['watchers_alive']} alive, {result['watchers_drawing']} drawing; "
        f"longest silence {result['watcher_longest_silence_s']} s, {result['watcher_kib_per_s']} KiB/s each",
        f"table: {result['table_updates']} updates, {result['moves_played']} turns played by the two seated players",
        f"seated players' arrow key to frame: median {keys['median']} ms, p90 {keys['p90']} ms, max {keys['max']} ms "
        f"({result['keys_measured']} keys; {result['keys_ambiguous']} left out, the table's news came meanwhile; "
        f"{result['keys_without_frame']} with no frame in 2 s)",
        f"a watching session: {result.get('session_pss_mib_median')} MiB PSS, {result.get('session_rss_mib_median')} "
        f"MiB RSS (median of {result['sessions_measured']}); whole server {result['tree_pss_mib_per_session']} MiB "
        f"a session; the table's host {result['host_pss_mib']} MiB",
    ]
    if result["sign_up_screen_s"]:
        lines.append(
            f"sign-up over SSH: login to the sign-up screen {statistics.median(result['sign_up_screen_s']):.3f} s, "
            f"Enter on the name to the lobby drawn {statistics.median(result['name_to_lobby_s']):.3f} s "
            f"(medians of {len(result['sign_up_screen_s'])}, before the crowd came)"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a seated player waits before playing")
    parser.add_argument("--sign-ups", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=1) if args.json else report(result))
    return 0 if result["watchers_alive"] == args.watchers else 1


if __name__ == "__main__":
    raise SystemExit(main())
