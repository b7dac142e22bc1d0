"""Load run of `dominoes serve-web`, warm (sessions forked from its zygote) against --spawn (a fresh
Python per session), side by side in one run: logins, memory idle and watching, sessions at once.

    python bench/web_load.py                   # both servers: 6 logins, 12 idle, 20 watching for 60 s
    python bench/web_load.py --doors warm --logins 0 --idle 0 --sessions 200 --seconds 60
    python bench/web_load.py --logins 1 --idle 2 --sessions 2 --seconds 5 --no-browser --json

Each server runs as `dominoes serve-web` (port 0, a temporary data directory). Every session is a
player of its own, invited with a link as `dominoes web-invite` makes it:
- a login: from opening the invite link to the lobby drawn whole (title and footer's keys) at the
  size of the page's terminal, in the system's
  Chromium (headless, driven by Playwright: the link, the page moving on to the lobby, its scripts,
  stylesheet and font, the terminal socket, the lobby's first frame), a fresh browser profile each
  time; with --no-browser (or without Chromium) the same steps without a browser (the link, the page
  and its files fetched, then the socket). Each server in turn with the cold start of `dominoes
  lobby` in a pty between them, so a busy moment falls on all three; the ratios compare medians;
- --idle sessions and --sessions watching, each speaking the page's socket protocol without a
  browser (the link's cookie, then textual-serve's socket messages on loopback, at 80x24): idle in
  the lobby, or pressing w there (watch bots play, rounds and rematches going on unattended; each
  player's bot speed set to --speed). Memory, output and failures as bench/ssh_load.py measures
  them: the PSS of the server's whole process tree per session, each session's own processes, the
  longest silence of a terminal. Exit status 1 if any watching session failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from load_run import LOBBY, TABLE, drawn, main, run_doors, start_server, stop_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from net.player_sessions import player_home  # noqa: E402
from net.web_auth import InviteBook  # noqa: E402
from tui.preferences import FILE_NAME, Preferences, save_preferences  # noqa: E402

SIZE = (80, 24)
LOBBY_TIMEOUT = 120.0  # seconds a session's lobby may take to show on a loaded machine
TAIL = 4000  # bytes of a terminal's last output kept, to say why a session failed
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
WINDOW = {"width": 1000, "height": 640}
TYPED = {"Sec-Fetch-Site": "none"}  # what a browser says of a link the player opened themselves
PAGE_FILES = ("/static/terminal/xterm.css", "/static/page/page.css", "/static/terminal/terminal.js")
PAGE_FILES += ("/static/page/page.js", "/static/textual/fonts/RobotoMono-VariableFont_wght.ttf")
# Run in every page before its own scripts: the moment its terminal first shows the whole lobby at
# the terminal's size, looked for at every frame the browser draws (window.dominoesTerminal is
# xterm's, see page.js). At its size: the session paints every cell, so the last cell has the
# lobby's background; a lobby drawn at another size, before the session heard the window's, leaves
# it bare. Whole: its title, and its keys on the last row (the footer).
WATCH_FOR_LOBBY = """(() => {
  function look() {
    const terminal = window.dominoesTerminal;
    if (terminal) {
      const buffer = terminal.buffer.active;
      const line = (row) => buffer.getLine(buffer.viewportY + row);
      const last = line(terminal.rows - 1);
      const corner = last?.getCell(terminal.cols - 1);
      const whole = corner && !corner.isBgDefault() && last.translateToString(true).includes("Quit");
      for (let row = 0; row < terminal.rows && whole; row++) {
        if (line(row)?.translateToString(true).includes("Dominoes lobby")) {
          window.lobbyDrawnAt = Date.now();
          return;
        }
      }
    }
    requestAnimationFrame(look);
  }
  requestAnimationFrame(look);
})();"""


class Session:
    """One browser's socket: what it received, and when."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse, client: aiohttp.ClientSession) -> None:
        self.websocket = websocket
        self.client = client
        self.tail = b""
        self.bytes = 0
        self.writes = 0
        self.closed = False
        self.words = LOBBY  # what shows it is drawn: the lobby, then the table watched
        self.lobby = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.bytes += len(message.data)
                self.writes += 1
                seen = self.tail + message.data  # a whole frame may come in one piece longer than the tail
                self.tail = seen[-TAIL:]
                if not self.lobby.is_set() and drawn(seen, self.words):
                    self.lobby.set()
        self.closed = True
        error = self.websocket.exception()
        self.tail += f" [the socket closed: code {self.websocket.close_code}{f', {error}' if error else ''}]".encode()
        self.lobby.set()

    def expect(self, words: str) -> None:
        """From now on, `lobby` is set once `words` are drawn (after the output so far)."""
        self.words = words
        self.lobby.clear()
        if self.closed:
            self.lobby.set()

    async def drawn(self) -> None:
        """Until what it expects is drawn (seen already, for the lobby it expects from the start)."""
        await asyncio.wait_for(self.lobby.wait(), LOBBY_TIMEOUT)

    async def close(self) -> None:
        await self.websocket.close()
        self.reader.cancel()
        await self.client.close()


class WebDoor:
    def __init__(self, name: str, home: Path, spawn: bool, players: int, browser: Any) -> None:
        self.name = name
        self.home = home
        self.browser = browser
        command = ["serve-web", "--port", "0", "--max-sessions", str(players + 1)] + (["--spawn"] if spawn else [])
        self.server, found = start_server(home, command, r"serving on (http://\S+)")
        self.base = found.group(1)
        self.open_sessions: list[Session] = []

    async def _session(self, name: str, speed: str | None = None) -> Session:
        """Sign `name` in with a fresh invite link and open the terminal socket, as the page does."""
        if speed is not None:
            save_preferences(Preferences(bot_speed=speed), player_home(self.home, name) / FILE_NAME)
        link = InviteBook(self.home).invite(name, self.base)
        client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        while True:  # the server signs in 30 browsers at once, then 2 a second: as a player would, try again
            async with client.get(link, headers=TYPED, allow_redirects=False) as response:  # not on to the page
                if response.status != 429:
                    response.raise_for_status()
                    break
            await asyncio.sleep(0.5)
        websocket = await client.ws_connect(
            f"{self.base}/ws?width={SIZE[0]}&height={SIZE[1]}", headers={"Origin": self.base}
        )
        session = Session(websocket, client)
        self.open_sessions.append(session)
        return session

    async def login(self, index: int) -> float:
        name = f"login{index}"
        link = InviteBook(self.home).invite(name, self.base)  # made before the clock starts, as a host sends it
        if self.browser is not None:
            return await self._browser_login(link)
        started = time.perf_counter()
        client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with client.get(link, headers=TYPED, allow_redirects=False) as response:  # then to the page, below
            response.raise_for_status()
        for path in ("/", *PAGE_FILES):
            async with client.get(self.base + path) as response:
                response.raise_for_status()
                await response.read()
        websocket = await client.ws_connect(
            f"{self.base}/ws?width={SIZE[0]}&height={SIZE[1]}", headers={"Origin": self.base}
        )
        session = Session(websocket, client)
        await session.drawn()
        elapsed = time.perf_counter() - started
        await session.close()
        return elapsed

    async def _browser_login(self, link: str) -> float:
        context = await self.browser.new_context(viewport=WINDOW)
        try:
            await context.add_init_script(WATCH_FOR_LOBBY)
            page = await context.new_page()
            started = time.time()
            await page.goto(link)
            await page.wait_for_url(self.base + "/", timeout=LOBBY_TIMEOUT * 1000)
            handle = await page.wait_for_function("() => window.lobbyDrawnAt", timeout=LOBBY_TIMEOUT * 1000)
            return float(await handle.json_value()) / 1000 - started
        finally:
            await context.close()

    async def open(self, count: int, watching: bool, speed: str) -> list[Any]:
        sessions = [await self._session(f"p{index}", speed) for index in range(count)]
        await asyncio.gather(*(session.drawn() for session in sessions))
        if watching:
            for session in sessions:
                session.expect(TABLE)
                await session.websocket.send_str(json.dumps(["stdin", "w"]))  # watch bots play
            await asyncio.gather(*(session.drawn() for session in sessions))
        return sessions

    async def close(self, sessions: list[Any]) -> None:
        for session in sessions:
            await session.close()
            self.open_sessions.remove(session)

    async def stop(self) -> None:
        await self.close(list(self.open_sessions))
        await asyncio.to_thread(stop_server, self.server, self.home)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    playwright = browser = None
    if args.logins and not args.no_browser and os.access(CHROMIUM, os.X_OK):
        from playwright.async_api import async_playwright

        playwright = await async_playwright().start()
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)

    async def start(name: str, args: argparse.Namespace) -> WebDoor:
        home = Path(tempfile.mkdtemp(prefix=f"dm-web-{name}-"))
        return WebDoor(name, home, name == "spawn", max(args.idle, args.sessions), browser)

    try:
        result = await run_doors(args, start)
    finally:
        if browser is not None:
            await browser.close()
        if playwright is not None:
            await playwright.stop()
    result["login_in"] = "chromium" if browser is not None else "no browser (the page's requests and socket)"
    return result


def more_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-browser", action="store_true", help="time logins without Chromium: the page's requests and socket"
    )


if __name__ == "__main__":
    raise SystemExit(
        main(run, __doc__.splitlines()[0], "browser", "invite link to the lobby drawn in the page", more_arguments)
    )
