"""Helpers for the table-server tests: a server on loopback, raw protocol clients, waiting on events."""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections.abc import AsyncIterator, Callable
from typing import Any

from core import Match, Seat
from net.address import Address, open_connection, tcp
from net.client import TableClient
from net.messages import Snapshot
from net.protocol import ConnectionClosed, encode_frame, read_frame
from net.seat_keys import prove
from net.server import TableServer

TIMEOUT = 30.0  # generous: every wait ends on an event long before this, unless something is broken


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 120))  # a bound for a broken test, even on a busy machine


def moon_match(seats: str = "human,human,easy", seed: int = 1, **options: Any) -> Match:
    """A Moon match; `seats` per seat: "human" or a bot level."""
    made = [
        Seat(f"Seat {i + 1}") if kind == "human" else Seat(f"Bot {i + 1}", "bot", kind)
        for i, kind in enumerate(seats.split(","))
    ]
    return Match("moon", 3, {"target": 21, **options}, made, seed)


def seed_where(first: Callable[[int], bool], seats: str = "human,human,easy") -> int:
    """A seed whose first deal leaves a seat with `first(seat)` true to move."""
    for seed in range(1, 200):
        match = moon_match(seats, seed)
        match.deal()
        if first(match.state.to_move):
            return seed
    raise AssertionError("no such seed")


@contextlib.asynccontextmanager
async def serving(match: Match, address: Address | None = None, **kwargs: Any) -> AsyncIterator[TableServer]:
    lines: list[str] = []
    server = TableServer(match, on_event=lines.append, **kwargs)
    server.lines = lines  # type: ignore[attr-defined]
    await server.start(address or tcp("127.0.0.1", 0))
    try:
        yield server
    finally:
        await server.close()


@contextlib.asynccontextmanager
async def ann_and_ben(**kwargs: Any) -> AsyncIterator[tuple[TableServer, TableClient, TableClient]]:
    """A human,human,easy Moon table whose first decision is seat 1's, with Ann (seat 1) and Ben
    (seat 2) seated; `kwargs` go to the server."""
    seed = seed_where(lambda seat: seat == 0)
    async with serving(moon_match("human,human,easy", seed), **kwargs) as server:
        ann = await TableClient.connect(str(server.address), "Ann")
        ben = await TableClient.connect(str(server.address), "Ben")
        yield server, ann, ben


async def snapshot_where(client: TableClient, test: Callable[[Snapshot], bool]) -> Snapshot:
    """The next snapshot that passes `test` (every event before it is skipped)."""
    while True:
        event = await client.next_event(TIMEOUT)
        if isinstance(event, Snapshot) and test(event):
            return event


async def event_of(client: TableClient, kind: type) -> Any:
    """The next event of type `kind` (snapshots and other events before it are skipped)."""
    while True:
        event = await client.next_event(TIMEOUT)
        if isinstance(event, kind):
            return event


class RawClient:
    """A client speaking the protocol by hand, to send what a real client never would."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.welcome: dict[str, Any] = {}

    @classmethod
    async def connect(cls, address: Address, name: str | None = None, token: str | None = None) -> RawClient:
        """Connected; with a `name`, seated (with `token`, the seat that key opens, proved as a
        real client proves it)."""
        client = cls(*await open_connection(address))
        if name is not None:
            await client.send({"type": "hello", "name": name, "challenge": True})
            challenge = await client.receive()
            assert challenge["type"] == "challenge", challenge
            proof = prove(token, challenge["nonce"], challenge["match"]) if token is not None else None
            await client.send({"type": "proof", "proof": proof})
            client.welcome = await client.receive()
            assert client.welcome["type"] == "welcome", client.welcome
            if token is not None and client.welcome["token"] is None:
                client.welcome["token"] = token  # the seat is ours again by the key proved
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_bytes(encode_frame(message))

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def receive(self) -> dict[str, Any]:
        return await asyncio.wait_for(read_frame(self.reader), TIMEOUT)

    async def until_bye(self) -> str:
        """Read until the server's bye; its reason. The connection must then be closed."""
        while True:
            message = await self.receive()
            if message["type"] == "bye":
                with contextlib.suppress(ConnectionClosed, ConnectionResetError):
                    extra = await self.receive()
                    raise AssertionError(f"a frame after bye: {extra}")
                return message["reason"]

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


def garbage_frame() -> bytes:
    return struct.pack(">I", 5) + b"\xc1\xc1\xc1\xc1\xc1"


def strings_in(value: Any) -> list[str]:
    """Every string in a decoded message: keys and values, however deep."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (key, *strings_in(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    return []
