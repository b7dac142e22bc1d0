"""Load run of `dominoes serve-web`: N browser sessions at once, each watching bots play match after
match, with the memory each session costs.

    python bench/web_load.py                         # 20 sessions for 60 s
    python bench/web_load.py --sessions 2 --seconds 5 --json

The server runs as `dominoes serve-web` (port 0, a temporary data directory). Every session is a
player of its own, invited with a link as `dominoes web-invite` makes it, and speaks what the page
speaks, without a browser: the link's cookie, then textual-serve's socket protocol on loopback (JSON
text messages in, the terminal's bytes out) at 80x24. Once its lobby shows, it presses w (watch bots
play, rounds and rematches going on unattended; each player's bot speed set to --speed). Every few
seconds each session's process tree (the lobby child of the server and anything below it) is
measured from /proc, as bench/ssh_load.py does: RSS, and PSS (shared pages divided among the
processes sharing them, the fairer share). A session fails if its socket closes or if its terminal
receives nothing for --stall seconds; the longest silence is reported. Exit status 1 if any failed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from load_run import main, start_server, stop_server, watch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from net.player_sessions import player_home  # noqa: E402
from net.web_auth import InviteBook  # noqa: E402
from tui.preferences import FILE_NAME, Preferences, save_preferences  # noqa: E402

SIZE = (80, 24)
LOBBY_TIMEOUT = 120.0  # seconds a session's lobby may take to show on a loaded machine


class Session:
    """One browser's socket: what it received, and when."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.tail = b""
        self.bytes = 0
        self.writes = 0
        self.closed = False
        self.lobby = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.bytes += len(message.data)
                self.writes += 1
                self.tail = (self.tail + message.data)[-4000:]
                if b"Dominoes lobby" in self.tail:
                    self.lobby.set()
        self.closed = True
        self.lobby.set()


async def open_session(client: aiohttp.ClientSession, home: Path, base: str, name: str, speed: str) -> Session:
    """Sign `name` in with a fresh invite link and open the terminal socket, as the page does."""
    save_preferences(Preferences(bot_speed=speed), player_home(home, name) / FILE_NAME)
    link = InviteBook(home).invite(name, base)
    client.cookie_jar.clear()  # a browser of its own: signed in as nobody else yet
    async with client.get(link, headers={"Sec-Fetch-Site": "none"}) as response:  # as if typed in
        response.raise_for_status()
    websocket = await client.ws_connect(f"{base}/ws?width={SIZE[0]}&height={SIZE[1]}", headers={"Origin": base})
    return Session(websocket)


async def run(sessions: int, seconds: float, speed: str, every: float, stall: float) -> dict[str, object]:
    home = Path(tempfile.mkdtemp(prefix="dm-webload-"))
    server, found = start_server(
        home, ["serve-web", "--port", "0", "--max-sessions", str(sessions)], r"serving on (http://\S+)"
    )
    base = found.group(1)
    clients = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(sessions)]
    opened: list[Session] = []
    try:
        started = time.monotonic()
        for index, client in enumerate(clients):
            opened.append(await open_session(client, home, base, f"load{index}", speed))
        await asyncio.wait_for(asyncio.gather(*(session.lobby.wait() for session in opened)), LOBBY_TIMEOUT)
        for session in opened:
            await session.websocket.send_str(json.dumps(["stdin", "w"]))  # watch bots play
        connected = time.monotonic() - started
        measured = await watch(server.pid, opened, seconds, every, stall)
        return {
            "sessions": sessions,
            "seconds": seconds,
            "speed": speed,
            "connect_seconds": round(connected, 2),
            **measured,
        }
    finally:
        for session in opened:
            await session.websocket.close()
            session.reader.cancel()
        for client in clients:
            await client.close()
        stop_server(server, home)


if __name__ == "__main__":
    sys.exit(main(run, __doc__.splitlines()[0], "browser", "in their lobbies"))
