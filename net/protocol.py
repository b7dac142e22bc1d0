"""The wire protocol between a table server and its clients (see docs/protocol.md).

A frame is a 4-byte big-endian length, then that many bytes: one msgpack map with string keys,
holding "v" (the protocol version) and "type" (what the message is), and the message's fields.
Decoding is bounded the way save files are (saves/format.py): a frame size cap, msgpack's own
length limits, no binary strings or extension types, string keys only, and a nesting limit checked
level by level. Anything else is a `ProtocolError`, whose reason is one line to show or send back.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

from saves.plain_data import NotPlainData, unpack_plain

PROTOCOL_VERSION = 1
MAX_FRAME = 256 * 1024  # a snapshot of the largest table (eight players, double-nine) is under 10 KB
MAX_STRING = 1024
MAX_ARRAY = 4096
MAX_MAP = 64
MAX_DEPTH = 10  # message > view > layout > lines > line > tiles: 6 levels today

HEADER = struct.Struct(">I")


class ProtocolError(Exception):
    """A frame or message that breaks the protocol; `reason` is one line."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ConnectionClosed(ProtocolError):
    """The other end closed the connection between two frames (not a fault, but no more frames)."""

    def __init__(self, reason: str = "the connection closed") -> None:
        super().__init__(reason)


def encode_frame(message: dict[str, Any]) -> bytes:
    """One frame: the message with the protocol version added. ValueError if it is over MAX_FRAME."""
    if type(message) is not dict or type(message.get("type")) is not str:
        raise ValueError("a message is a map with a string 'type'")
    body = msgpack.packb({"v": PROTOCOL_VERSION, **message}, use_bin_type=True)
    if len(body) > MAX_FRAME:
        raise ValueError(f"a {message['type']} message of {len(body)} bytes is over the frame limit of {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader) -> dict[str, Any]:
    """The next message from `reader`. ConnectionClosed at a clean end of the stream; ProtocolError
    for an oversized, truncated, undecodable, wrong-version or wrong-shape frame."""
    try:
        header = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError as error:
        if not error.partial:
            raise ConnectionClosed() from None
        raise ProtocolError("the connection closed in the middle of a frame's length") from None
    (length,) = HEADER.unpack(header)
    check_length(length)
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError as error:
        raise ProtocolError(f"the connection closed {len(error.partial)} bytes into a {length}-byte frame") from None
    return decode_body(body)


def check_length(length: int) -> None:
    if length > MAX_FRAME:
        raise ProtocolError(f"a frame of {length} bytes is over the limit of {MAX_FRAME}")
    if length == 0:
        raise ProtocolError("an empty frame")


def decode_body(body: bytes) -> dict[str, Any]:
    """A frame's message: bounded msgpack, plain data only, a map with this version and a type."""
    try:
        message = unpack_plain(
            body, whole="message", max_string=MAX_STRING, max_array=MAX_ARRAY, max_map=MAX_MAP, max_depth=MAX_DEPTH
        )
    except NotPlainData as error:
        raise ProtocolError(f"a frame {error}{', which no message does' if error.decoded else ''}") from None
    if type(message) is not dict:
        raise ProtocolError("a frame holds something other than a map")
    version = message.get("v")
    if version != PROTOCOL_VERSION or type(version) is not int:
        raise ProtocolError(f"protocol version {version!r} is not spoken here (this end speaks {PROTOCOL_VERSION})")
    kind = message.get("type")
    if type(kind) is not str or not kind:
        raise ProtocolError("a message has no type")
    return message


# -- reading a message's fields ------------------------------------------------------------------------


def field(message: dict[str, Any], name: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    """`message[name]`, which must be of `kind` (bool is not an int here); ProtocolError otherwise."""
    if name not in message:
        if optional:
            return None
        raise ProtocolError(f"a {message['type']} message needs a {name!r} field")
    value = message[name]
    if value is None and optional:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if type(value) not in kinds:
        raise ProtocolError(f"the {name!r} field of a {message['type']} message has the wrong type")
    return value


__all__ = [
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "ConnectionClosed",
    "ProtocolError",
    "decode_body",
    "encode_frame",
    "field",
    "read_frame",
]
