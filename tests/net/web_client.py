"""A browser-protocol client for the web door's tests: plain HTTP and textual-serve's socket
messages on loopback, against the real server, whose sessions run the real lobby."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
from yarl import URL

from net.web_auth import InviteBook
from net.web_server import COOKIE, WebFrontDoor
from tests.net.ssh_client import TIMEOUT, plain, with_launcher


class WebScreen:
    """A terminal socket: everything the server sends, and what the browser would send."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.received = bytearray()
        self.texts: list[str] = []
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self.websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.received += message.data
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.texts.append(message.data)
            self.changed.set()
        self.closed.set()
        self.changed.set()

    def text(self, since: int = 0) -> str:
        return plain(bytes(self.received[since:]))

    async def wait_for(self, words: str, timeout: float = TIMEOUT, since: int = 0) -> None:
        """Until `words` appear in what came after the first `since` bytes."""

        async def seen() -> None:
            while words not in self.text(since):
                if self.closed.is_set():
                    raise AssertionError(f"closed before {words!r} appeared: {self.text()[-500:]!r}")
                self.changed.clear()
                await self.changed.wait()

        try:
            await asyncio.wait_for(seen(), timeout)
        except TimeoutError:
            raise AssertionError(f"{words!r} did not appear: {self.text()[-500:]!r}") from None

    async def wait_closed(self, timeout: float = TIMEOUT) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    async def send(self, kind: str, data: object) -> None:
        await self.websocket.send_str(json.dumps([kind, data]))

    async def keys(self, text: str) -> None:
        await self.send("stdin", text)


@asynccontextmanager
async def running_web_door(home: Path, **options: object) -> AsyncIterator[WebFrontDoor]:
    door = WebFrontDoor(home, **with_launcher(options))  # type: ignore[arg-type]
    await door.start("127.0.0.1", 0)
    try:
        yield door
    finally:
        await door.close()


def invite(door: WebFrontDoor, name: str) -> str:
    """The path of a new invite link for `name` (as `dominoes web-invite` makes it)."""
    link = InviteBook(door.data).invite(name, door.base_url)
    return link.removeprefix(door.base_url)


@asynccontextmanager
async def browser(door: WebFrontDoor) -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client with a cookie jar that, like a browser, keeps the cookies of 127.0.0.1."""
    async with aiohttp.ClientSession(
        base_url=f"http://127.0.0.1:{door.port}",
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        timeout=aiohttp.ClientTimeout(total=TIMEOUT),
    ) as session:
        yield session


TYPED = {"Sec-Fetch-Site": "none"}  # what a browser says of an address the player typed or opened themselves


async def signed_in(session: aiohttp.ClientSession, door: WebFrontDoor, name: str) -> None:
    async with session.get(invite(door, name), headers=TYPED, allow_redirects=False) as response:
        assert response.status == 303 and response.headers["Location"] == "/", await response.text()
    assert session.cookie_jar.filter_cookies(URL(f"http://127.0.0.1:{door.port}/")).get(COOKIE) is not None


async def open_screen(
    session: aiohttp.ClientSession, size: tuple[int, int] | None = (80, 24), **options: object
) -> WebScreen:
    """The terminal's socket, as the page opens it: at its window's size, or (None) before it knows it."""
    address = "/ws" if size is None else f"/ws?width={size[0]}&height={size[1]}"
    websocket = await session.ws_connect(address, **options)  # type: ignore[arg-type]
    return WebScreen(websocket)
