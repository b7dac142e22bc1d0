"""The client side of a table: connect, say hello, take a seat, then send moves and read events.

    client = await TableClient.connect("example.org:4444", "Ada")
    async for event in client.events():    # Snapshot, Refused, UndoAsked, UndoResult, Notice,
                                           # Revealed (the match is over), then Closed
        ...
    await client.send_move(move)

`connect` returns once the server has welcomed the client and sent its first snapshot (in
`client.snapshot`, and also the first event). The welcome carries the commitment to the match's
secret (`client.commitment`, to show the player), and the seat's key (`client.token`):
presented with `connect(..., token=...)` it takes the seat back later, and nothing else does. The
frames are read by a task of its own, so events queue up while the caller is busy; `Closed` is
always the last event.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from core.moves import Move
from core.seats import check_name
from net.address import Address, open_connection, parse_address
from net.messages import (
    Closed,
    Notice,
    Refused,
    Revealed,
    RevealReader,
    Snapshot,
    UndoAsked,
    UndoResult,
    plain_line,
    seat_names,
)
from net.protocol import ConnectionClosed, ProtocolError, encode_frame, field, read_frame

CONNECT_TIMEOUT = 10.0
MAX_PLAYERS = 8  # the largest table of any game

Event = Snapshot | Refused | UndoAsked | UndoResult | Notice | Revealed | Closed


class TableClient:
    seat: int
    game: str
    players: int
    names: tuple[str, ...]
    seats: tuple[str, ...]
    options: dict[str, Any]
    match_id: str
    snapshot: Snapshot | None

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, welcome: dict[str, Any]) -> None:
        self._reader = reader
        self._writer = writer
        self.seat = field(welcome, "seat", int)
        self.game = field(welcome, "game", str)
        self.players = field(welcome, "players", int)
        if not 1 <= self.players <= MAX_PLAYERS or not 0 <= self.seat < self.players:
            raise ProtocolError("the welcome names a seat that is not at the table")
        self.names = seat_names(field(welcome, "names", list), self.players)
        self.seats = tuple(field(welcome, "seats", list))
        self.options = field(welcome, "options", dict)
        self.match_id = plain_line(field(welcome, "match_id", str))
        self.token: str | None = field(welcome, "token", str, optional=True)
        commitment = field(welcome, "commitment", str, optional=True)
        if commitment is not None and (len(commitment) != 64 or set(commitment) - set("0123456789abcdef")):
            raise ProtocolError("the welcome's commitment is not 64 hex digits")
        self.commitment: str | None = commitment  # to the match's secret, shown to the player now
        self.revealed: Revealed | None = None  # the secret and every event, once the match is over
        self._reveals = RevealReader()
        self.snapshot = None
        self.closed: Closed | None = None
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def connect(
        cls,
        address: str | Address,
        name: str,
        seat: int | None = None,
        timeout: float = CONNECT_TIMEOUT,
        token: str | None = None,
    ) -> TableClient:
        """Take a seat at the table at `address` (with `token`, the seat that key opens).
        ConnectionError or ProtocolError (one line) if the server cannot be reached or says no
        (table full, the seat kept for its player...); ValueError for a bad address."""
        where = parse_address(address) if isinstance(address, str) else address
        name = check_name(name)
        try:
            reader, writer = await asyncio.wait_for(open_connection(where), timeout)
        except (OSError, TimeoutError) as error:
            raise ConnectionError(f"cannot reach the table at {where}: {_why(error)}") from None
        try:
            hello: dict[str, Any] = {"type": "hello", "name": name}
            if seat is not None:
                hello["seat"] = seat
            if token is not None:
                hello["token"] = token
            writer.write(encode_frame(hello))
            await writer.drain()
            welcome = await asyncio.wait_for(read_frame(reader), timeout)
            if welcome["type"] == "bye":
                reason = welcome.get("reason")
                raise ConnectionError(plain_line(reason) if isinstance(reason, str) else "the table said no")
            if welcome["type"] != "welcome":
                raise ProtocolError(f"the table answered hello with {welcome['type']!r}, not a welcome")
            client = cls(reader, writer, welcome)
            first = await asyncio.wait_for(read_frame(reader), timeout)
            event = client._decode(first)
            if not isinstance(event, Snapshot):
                raise ProtocolError("the table sent no snapshot after its welcome")
        except BaseException as error:
            writer.close()
            if isinstance(error, ConnectionClosed):
                raise ConnectionError("the table closed the connection") from None
            if isinstance(error, (OSError, TimeoutError)) and not isinstance(error, ConnectionError):
                raise ConnectionError(f"the table did not answer: {_why(error)}") from None
            raise
        client._events.put_nowait(event)
        client._task = asyncio.get_running_loop().create_task(client._read_loop())
        return client

    # -- sending --------------------------------------------------------------------------------------
    async def _send(self, message: dict[str, Any]) -> None:
        if self.closed is not None:
            raise ConnectionError(f"the connection is closed: {self.closed.reason}")
        try:
            self._writer.write(encode_frame(message))
            await self._writer.drain()
        except OSError as error:
            raise ConnectionError(f"the connection broke: {_why(error)}") from None

    async def send_move(self, move: Move) -> None:
        await self._send({"type": "move", "move": move.to_data()})

    async def request_undo(self) -> None:
        await self._send({"type": "undo_request"})

    async def answer_undo(self, accept: bool) -> None:
        await self._send({"type": "undo_answer", "accept": bool(accept)})

    async def close(self) -> None:
        """Leave the table (the seat stays ours: connecting again with the same name takes it back)."""
        if self.closed is None:
            with contextlib.suppress(OSError, ConnectionError):
                await self._send({"type": "bye"})
            self._finish("you left the table")
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._writer.close()
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()

    # -- receiving ------------------------------------------------------------------------------------
    async def events(self) -> AsyncIterator[Event]:
        """Every event in order; ends after `Closed`."""
        while True:
            event = await self._events.get()
            yield event
            if isinstance(event, Closed):
                return

    async def next_event(self, timeout: float | None = None) -> Event:
        """The next event (a convenience for scripts and tests)."""
        return await asyncio.wait_for(self._events.get(), timeout)

    async def _read_loop(self) -> None:
        try:
            while True:
                event = self._decode(await read_frame(self._reader))
                if event is None:
                    continue
                if isinstance(event, Closed):
                    self._finish(event.reason)
                    return
                self._events.put_nowait(event)
        except ConnectionClosed:
            self._finish("the table closed the connection")
        except ProtocolError as error:
            self._finish(f"the table sent a bad frame: {error.reason}")
        except OSError as error:
            self._finish(f"the connection broke: {_why(error)}")

    def _finish(self, reason: str) -> None:
        if self.closed is None:
            self.closed = Closed(reason)
            self._events.put_nowait(self.closed)
            self._writer.close()

    def _decode(self, message: dict[str, Any]) -> Event | None:
        kind = message["type"]
        if kind == "update":
            snapshot = Snapshot.from_message(message)
            self.snapshot = snapshot
            self.names, self.seats = snapshot.names, snapshot.seats
            return snapshot
        if kind == "refused":
            return Refused(plain_line(field(message, "reason", str)))
        if kind == "undo_asked":
            return UndoAsked(field(message, "by", int))
        if kind == "undo_result":
            return UndoResult(
                field(message, "accepted", bool),
                field(message, "by", int),
                field(message, "declined_by", int, optional=True),
                plain_line(field(message, "reason", str, optional=True) or ""),
            )
        if kind == "notice":
            return Notice(plain_line(field(message, "text", str)))
        if kind == "reveal":
            revealed = self._reveals.take(message)
            if revealed is not None:
                self.revealed = revealed
            return revealed
        if kind == "bye":
            return Closed(plain_line(field(message, "reason", str, optional=True) or "the table said goodbye"))
        return None  # a message type from a newer server: ignored


def _why(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "timed out"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
