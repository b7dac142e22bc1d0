"""The client side of a table: connect, say hello, take a seat, then send moves and read events.

    client = await TableClient.connect("example.org:4444", "Ada")
    async for event in client.events():    # Snapshot, Refused, UndoAsked, UndoResult, Notice,
                                           # Said, Revealed (the match is over), then Closed
        ...
    await client.send_move(move)

`TableClient.watch(address)` watches instead, at no seat: the table sends what every seat sees, and
refuses anything a watcher sends but `bye` (`client.watching`, `client.seat` None).

`connect` returns once the server has welcomed the client and sent its first snapshot (in
`client.snapshot`, and also the first event). The welcome carries the commitment to the match's
secret (`client.commitment`, to show the player). A new seat's welcome carries its key
(`client.token`, with `client.new_key` set): kept, and given again with `connect(..., token=...)`
(or found in `keys`, a `TokenStore`, by the match the table names), it takes the seat back later,
and nothing else does. The key itself is never sent: the client asks the table for a challenge and
answers with a proof of the key for that match and that challenge (`net.seat_keys.prove`). The
frames are read by a task of its own, so events queue up while the caller is busy; `Closed` is
always the last event.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
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
    Said,
    Snapshot,
    UndoAsked,
    UndoPending,
    UndoResult,
    plain_line,
    seat_names,
    undo_words,
)
from net.protocol import ConnectionClosed, ProtocolError, encode_frame, field, read_frame
from net.seat_keys import MAX_TOKEN, TokenStore, prove
from saves.ids import is_match_id

CONNECT_TIMEOUT = 10.0
MAX_PLAYERS = 8  # the largest table of any game

Event = Snapshot | Refused | UndoAsked | UndoPending | UndoResult | Notice | Revealed | Said | Closed


class TableClient:
    seat: int | None  # None for a watcher
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
        self.watching = welcome.get("watching") is True
        self.seat = None if self.watching else field(welcome, "seat", int)
        self.game = field(welcome, "game", str)
        self.players = field(welcome, "players", int)
        if not 1 <= self.players <= MAX_PLAYERS or not (self.seat is None or 0 <= self.seat < self.players):
            raise ProtocolError("the welcome names a seat that is not at the table")
        self.names = seat_names(field(welcome, "names", list), self.players)
        self.seats = tuple(field(welcome, "seats", list))
        self.options = field(welcome, "options", dict)
        self.match_id = plain_line(field(welcome, "match_id", str))
        self.token: str | None = field(welcome, "token", str, optional=True)
        self.new_key = self.token is not None  # a new seat's key, to keep (None: the one proved)
        self.table_id = self.match_id  # what the seat's key is kept for: the match, as the challenge names it
        self.challenged = False  # the table asked for a proof (a table that knows withdrawals, expiries...)
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
        keys: TokenStore | None = None,
    ) -> TableClient:
        """Take a seat at the table at `address` (with `token`, or the key `keys` holds for `name`
        at the table's match, the seat that key opens: proved, never sent). ConnectionError or
        ProtocolError (one line) if the server cannot be reached or says no (table full, the seat
        kept for its player...); ValueError for a bad address."""
        name = check_name(name)

        async def greet(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> TableClient:
            hello: dict[str, Any] = {"type": "hello", "name": name, "challenge": True}
            if seat is not None:
                hello["seat"] = seat
            writer.write(encode_frame(hello))
            await writer.drain()
            welcome = await asyncio.wait_for(read_frame(reader), timeout)
            table_id = None
            if welcome["type"] == "challenge":
                nonce, table_id = _challenge(welcome)
                key = token if token is not None else keys.get(table_id, name) if keys is not None else None
                writer.write(encode_frame({"type": "proof", "proof": prove(key, nonce, table_id) if key else None}))
                await writer.drain()
                welcome = await asyncio.wait_for(read_frame(reader), timeout)
            _refused(welcome)
            if welcome["type"] != "welcome":
                raise ProtocolError(f"the table answered hello with {welcome['type']!r}, not a welcome")
            client = cls(reader, writer, welcome)
            if table_id is not None:
                client.table_id, client.challenged = table_id, True
                if client.token is None:
                    client.token = key  # the seat is ours again by the key we proved
            return client

        return await cls._open(address, timeout, greet)

    @classmethod
    async def watch(cls, address: str | Address, timeout: float = CONNECT_TIMEOUT) -> TableClient:
        """Watch the table at `address` from no seat. ConnectionError (one line) if it cannot be
        reached or says no (closed to watchers, as many watchers as it takes)."""

        async def greet(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> TableClient:
            writer.write(encode_frame({"type": "hello", "watch": True}))
            await writer.drain()
            welcome = await asyncio.wait_for(read_frame(reader), timeout)
            _refused(welcome)
            if welcome["type"] != "welcome" or welcome.get("watching") is not True:
                raise ProtocolError("the table did not let this client watch")
            return cls(reader, writer, welcome)

        return await cls._open(address, timeout, greet)

    @classmethod
    async def _open(
        cls,
        address: str | Address,
        timeout: float,
        greet: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[TableClient]],
    ) -> TableClient:
        """Connect, `greet` the table (hello, and whatever follows until its welcome), read the
        first snapshot, and start reading events. Every failure is one line (ConnectionError or
        ProtocolError), the connection closed."""
        where = parse_address(address) if isinstance(address, str) else address
        try:
            reader, writer = await asyncio.wait_for(open_connection(where), timeout)
        except (OSError, TimeoutError) as error:
            raise ConnectionError(f"cannot reach the table at {where}: {_why(error)}") from None
        try:
            client = await greet(reader, writer)
            event = client._decode(await asyncio.wait_for(read_frame(reader), timeout))
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

    async def say(self, phrase: int) -> None:
        """Send quick message number `phrase` (`net.talk.PHRASES`) to the table."""
        await self._send({"type": "say", "phrase": phrase})

    async def request_undo(self) -> None:
        await self._send({"type": "undo_request"})

    async def answer_undo(self, accept: bool) -> None:
        await self._send({"type": "undo_answer", "accept": bool(accept)})

    @property
    def can_withdraw_undo(self) -> bool:
        """Whether the table takes back a request (one that asks for proofs does; an older one
        would drop the connection for a message it does not know)."""
        return self.challenged

    async def withdraw_undo(self) -> None:
        """Take back this player's undo request while it waits for answers."""
        if self.can_withdraw_undo:
            await self._send({"type": "undo_withdraw"})

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

    def waiting_events(self) -> int:
        """How many events have come that `events()` has not yet given out."""
        return self._events.qsize()

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
            return UndoAsked(field(message, "by", int), *undo_words(message))
        if kind == "undo_pending":
            waiting = field(message, "waiting", list)
            if len(waiting) > MAX_PLAYERS or any(type(seat) is not int for seat in waiting):
                raise ProtocolError("an undo request waits for seats that are not at the table")
            return UndoPending(tuple(waiting), *undo_words(message))
        if kind == "undo_result":
            return UndoResult(
                field(message, "accepted", bool),
                field(message, "by", int),
                field(message, "declined_by", int, optional=True),
                plain_line(field(message, "reason", str, optional=True) or ""),
            )
        if kind == "notice":
            return Notice(plain_line(field(message, "text", str)))
        if kind == "said":
            seat, phrase, cursor = (
                field(message, "seat", int),
                field(message, "phrase", int),
                field(message, "cursor", int),
            )
            if not 0 <= seat < self.players or cursor < 0:
                raise ProtocolError("a quick message names no seat at the table")
            return Said(seat, phrase, cursor)
        if kind == "reveal":
            revealed = self._reveals.take(message)
            if revealed is not None:
                self.revealed = revealed
            return revealed
        if kind == "bye":
            return Closed(plain_line(field(message, "reason", str, optional=True) or "the table said goodbye"))
        return None  # a message type from a newer server: ignored


def _refused(answer: dict[str, Any]) -> None:
    """ConnectionError with the table's reason if it answered hello with bye."""
    if answer["type"] == "bye":
        reason = answer.get("reason")
        raise ConnectionError(plain_line(reason) if isinstance(reason, str) else "the table said no")


def _challenge(message: dict[str, Any]) -> tuple[str, str]:
    """The nonce of a table's challenge, and the match it names (as seat keys are kept)."""
    nonce, match = field(message, "nonce", str), field(message, "match", str)
    if not 32 <= len(nonce) <= MAX_TOKEN or not nonce.isascii() or not nonce.isalnum():
        raise ProtocolError("the table's challenge is not a nonce")
    if not is_match_id(match):
        raise ProtocolError("the table's challenge names no match")
    return nonce, match


def _why(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return "timed out"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__
