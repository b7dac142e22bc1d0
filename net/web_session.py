"""One browser session = one player's lobby session in a pseudo-terminal of its own, as over SSH.

The browser runs textual-serve's terminal (textual.js: xterm.js and the browser side of
textual-serve's protocol). It sends JSON text messages, `["stdin", TEXT]`, `["resize", {"width": W,
"height": H}]` and `["ping", TEXT]`, and receives the terminal's bytes as binary messages (and
`["pong", TEXT]`). Here they meet the same `PtyChild` the SSH door uses: keys go into the pty, a
resize (clamped) becomes the pty's window size, output goes back to the browser. The two ends are
tied: the socket closes when the lobby exits, and the lobby is hung up when the socket goes.

Everything a browser sends is checked: a message that is not one of these, or not of that shape, is
dropped; a message is at most MAX_MESSAGE bytes (the page splits a long paste below it); input stops
being read while the pty is full, and the pty stops being read while the browser is slow to take
its output. A browser is paced: beyond MESSAGE_RATE messages a second (bursts of MESSAGE_BURST) its
socket is read more slowly, so keys wait and are never lost, and beyond PING_RATE pings a second
(bursts of PING_BURST) a ping gets no answer: a flood from one browser costs the others nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Coroutine
from typing import Any

from aiohttp import WSMsgType, web

from net.pty_session import DEFAULT_SIZE, PtyChild, clamped_size
from net.rate import TokenBucket
from net.web_auth import Session
from saves.os_errors import os_error_text

MAX_MESSAGE = 64 * 1024  # bytes in one message from a browser (page.js splits a paste well below this)
OUTPUT_LIMIT = 1024 * 1024  # stop reading the pty while this much output waits for the browser
MAX_PING = 64
SOCKET_ENDED = (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR)
FIRST_SIZE_WAIT = 3.0  # seconds a page that opened its socket before it knew its size has to send it
MESSAGE_RATE, MESSAGE_BURST = 200.0, 400.0  # messages a second from one browser (keys, sizes, pings)
PING_RATE, PING_BURST = 2.0, 10.0  # pings answered a second (textual.js sends one now and then)


def clamped(columns: Any, rows: Any) -> tuple[int, int] | None:
    """A window size from a browser, clamped as over SSH; None for anything but two positive integers."""
    if type(columns) is not int or type(rows) is not int or columns < 1 or rows < 1:
        return None
    return clamped_size(columns, rows)[:2]


def parsed(text: str) -> tuple[Any, Any] | None:
    """A browser's message, [KIND, DATA]; None for anything else."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(envelope, list) or len(envelope) != 2:
        return None
    return envelope[0], envelope[1]


def size_asked(kind: Any, data: Any) -> tuple[int, int] | None:
    """The window size a ["resize", {"width": W, "height": H}] message asks for, clamped; None for
    any other message."""
    if kind != "resize" or not isinstance(data, dict):
        return None
    return clamped(data.get("width"), data.get("height"))


def size_from_query(query: Any) -> tuple[int, int] | None:
    """The window size a socket's address gives (`?width=W&height=H`), clamped; None if it gives none."""
    try:
        return clamped(int(query.get("width", "")[:6]), int(query.get("height", "")[:6]))
    except ValueError:
        return None


class BrowserSession:
    """A player's session through one websocket. `run()` lasts as long as the session.

    A session may be started before its socket comes (`prepare`, when the page is served): its
    lobby then draws while the page loads, its output waits here (bounded, as for a slow
    browser), and the socket that comes attaches to it, at its window's size."""

    def __init__(self, door: Any, signed_in: Session, websocket: web.WebSocketResponse | None) -> None:
        self.door = door  # the WebFrontDoor: the command to run, the session count
        self.signed_in = signed_in  # the browser's sign-in: checked again while the session lasts
        self.player = signed_in.player
        self.began = signed_in.began  # when the browser's sign-in began (a revocation after it ends this session)
        self.websocket = websocket  # None until a socket attaches to a prepared session
        self.child: PtyChild | None = None
        self.size = DEFAULT_SIZE
        self.prepared = False  # counted, and its child started, before any socket
        self.exited = False  # its child has ended
        self._outgoing = bytearray()
        self._output_ready = asyncio.Event()
        self._may_read = asyncio.Event()
        self._may_read.set()
        self._ending = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._pace = TokenBucket(MESSAGE_RATE, MESSAGE_BURST)
        self._pings = TokenBucket(PING_RATE, PING_BURST)

    @property
    def ending(self) -> bool:
        return self._ending

    async def prepare(self, size: tuple[int, int]) -> bool:
        """Count the session and start its child, before a socket comes; False (nothing held) if it
        cannot be (the socket then says why, as for any session)."""
        self.size = size
        if self.door.take_session(self) is not None:
            return False
        try:
            argv, environment = self.door.command_for(self.player)
            self.child = PtyChild(self._output, self._child_exited)
            self.child.on_input_full = self._input_full
            await self.child.start(argv, environment, (*size, 0, 0), self.door.launch)
        except OSError:
            self.child = None
            self.door.release_session(self)
            return False
        if self._ending:  # ended (revoked, the server stopping) while it started
            await self.discard()
            return False
        self.prepared = True
        return True

    async def discard(self) -> None:
        """A prepared session no socket came for: hang its child up, and count it no more."""
        self._ending = True
        if self.child is not None:
            await self.child.hang_up()
        self.door.release_session(self)

    async def run(self, size: tuple[int, int] | None) -> None:
        """The session, for as long as its socket and its child last. A `size` of None: the page
        opened its socket before it knew its window's size (early.js), and sends it first."""
        assert self.websocket is not None
        if size is None and self.child is None:
            size = await self._size_from_page()
            if size is None:
                return  # the page went before it said
        self.size = size or self.size
        if not self.prepared:
            refused = self.door.take_session(self)
            if refused is not None:
                await self._say_and_close(refused)
                return
        writer = asyncio.get_running_loop().create_task(self._send_output())
        try:
            if self.child is not None:  # prepared: the lobby is drawn already, at the size it was given
                self.child.resize(*self.size)
                self._output_ready.set()
            else:
                try:
                    argv, environment = self.door.command_for(self.player)
                except OSError as error:
                    await self._say_and_close(
                        f"your data folder cannot be made ({os_error_text(error)}); tell the server's keeper"
                    )
                    return
                self.child = PtyChild(self._output, self._child_exited)
                self.child.on_input_full = self._input_full
                try:
                    await self.child.start(argv, environment, (*self.size, 0, 0), self.door.launch)
                except OSError as error:
                    await self._say_and_close(f"the interface could not be started ({os_error_text(error)})")
                    return
            await self._read_input()
        finally:
            self._ending = True
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            if self.child is not None:
                await self.child.hang_up()
            self.door.release_session(self)

    def end(self, reason: str) -> None:
        """End the session from the server's side (revoked, server stopping): say why, then close."""
        if not self._ending:
            self._ending = True
            self._spawn(self._say_and_close(reason) if self.websocket is not None else self.discard())

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run `coroutine` on its own, kept until it is done (a task nobody holds may be collected)."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- browser -> pty --------------------------------------------------------------------------
    async def _size_from_page(self) -> tuple[int, int] | None:
        """The window's size, from the page's first ["resize", ...] (the session then starts at it,
        where one started at another size drew its first screen twice); DEFAULT_SIZE if none comes
        within FIRST_SIZE_WAIT. What else comes first is dropped: there is nothing to take it yet.
        None if the socket closes first."""
        assert self.websocket is not None
        deadline = asyncio.get_running_loop().time() + FIRST_SIZE_WAIT
        while not self.websocket.closed:
            wait = self._pace.spend()
            if wait > 0:
                await asyncio.sleep(wait)
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await self.websocket.receive(timeout=max(left, 0.001))
            except TimeoutError:
                return DEFAULT_SIZE
            if message.type == WSMsgType.TEXT:
                envelope = parsed(message.data)
                size = size_asked(*envelope) if envelope else None
                if size is not None:
                    return size
            elif message.type in SOCKET_ENDED:
                return None
        return None

    async def _read_input(self) -> None:
        while not self.websocket.closed:
            await self._may_read.wait()
            wait = self._pace.spend()
            if wait > 0:
                await asyncio.sleep(wait)  # too fast: the browser's messages wait in its socket
            message = await self.websocket.receive()
            if message.type == WSMsgType.TEXT:
                self._handle(message.data)
            elif message.type in SOCKET_ENDED:
                return

    def _handle(self, text: str) -> None:
        envelope = parsed(text)
        if envelope is None or self.child is None:
            return
        kind, data = envelope
        if kind == "stdin" and isinstance(data, str):
            self.child.write(data.encode("utf-8", "replace"))
        elif (size := size_asked(kind, data)) is not None:
            self.size = size
            self.child.resize(*size)
        elif kind == "ping" and isinstance(data, str) and len(data) <= MAX_PING and self._pings.take():
            self._spawn(self._send_text(json.dumps(["pong", data])))

    def _input_full(self, full: bool) -> None:
        if full:
            self._may_read.clear()
        else:
            self._may_read.set()

    # -- pty -> browser --------------------------------------------------------------------------
    def _output(self, data: bytes) -> None:
        self._outgoing += data
        self._output_ready.set()
        if len(self._outgoing) > OUTPUT_LIMIT and self.child is not None:
            self.child.pause_output()

    async def _send_output(self) -> None:
        while True:
            await self._output_ready.wait()
            self._output_ready.clear()
            if not self._outgoing:
                continue
            chunk = bytes(self._outgoing)
            self._outgoing.clear()
            try:
                await self.websocket.send_bytes(chunk)
            except (ConnectionError, RuntimeError):
                return
            if self.child is not None:
                self.child.resume_output()

    async def _send_text(self, text: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.websocket.send_str(text)

    def _child_exited(self, code: int) -> None:
        """The lobby ended (the player quit): pass on its last output, then close the socket."""
        self.exited = True
        self._ending = True
        if self.websocket is None:  # prepared, and no socket came yet: it is over
            self.door.release_session(self)
            return
        self._spawn(self._close_after_output())

    async def _close_after_output(self) -> None:
        for _ in range(100):
            if not self._outgoing:
                break
            await asyncio.sleep(0.01)
        await self.websocket.close(code=1000, message=b"the session ended")
        self._may_read.set()

    async def _say_and_close(self, reason: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.websocket.send_bytes(f"\r\n\x1b[0mdominoes: {reason}\r\n".encode())
        await self.websocket.close(code=1000, message=reason[:120].encode())
        self._may_read.set()
