"""The wire protocol (net/protocol.py) and addresses (net/address.py): frames, bounds, refusals."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest

from net.address import Address, parse_address
from net.protocol import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    ConnectionClosed,
    ProtocolError,
    decode_body,
    encode_frame,
    read_frame,
)


def read(data: bytes, eof: bool = True) -> dict:
    async def go() -> dict:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        if eof:
            reader.feed_eof()
        return await read_frame(reader)

    return asyncio.run(go())


def frame_of(value: object) -> bytes:
    body = msgpack.packb(value, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def refusal(data: bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        read(data)
    reason = caught.value.reason
    assert reason and "\n" not in reason
    return reason


def test_a_frame_round_trips_with_the_version_added():
    frame = encode_frame({"type": "move", "move": ["play", 56, None]})
    assert struct.unpack(">I", frame[:4])[0] == len(frame) - 4
    assert read(frame) == {"v": PROTOCOL_VERSION, "type": "move", "move": ["play", 56, None]}


def test_two_frames_in_one_stream_are_read_one_at_a_time():
    async def go() -> list[dict]:
        reader = asyncio.StreamReader()
        reader.feed_data(encode_frame({"type": "a"}) + encode_frame({"type": "b"}))
        reader.feed_eof()
        first, second = await read_frame(reader), await read_frame(reader)
        with pytest.raises(ConnectionClosed):
            await read_frame(reader)
        return [first, second]

    assert [m["type"] for m in asyncio.run(go())] == ["a", "b"]


def test_oversized_frame_is_refused_before_its_body_is_read():
    header = struct.pack(">I", MAX_FRAME + 1)
    assert "over the limit" in refusal(header)  # no body follows: the length alone is enough


def test_encoding_an_oversized_message_is_refused():
    with pytest.raises(ValueError, match="over the frame limit"):
        encode_frame({"type": "update", "log": ["x" * 1000] * (MAX_FRAME // 1000 + 1)})


def test_truncated_frames():
    frame = encode_frame({"type": "hello", "name": "Ada"})
    assert "middle of a frame's length" in refusal(frame[:2])
    assert "bytes into a" in refusal(frame[:-3])


def test_clean_end_of_stream_is_connection_closed():
    with pytest.raises(ConnectionClosed):
        read(b"")


def test_wrong_version_is_refused():
    assert "version 2" in refusal(frame_of({"v": 2, "type": "hello"}))
    assert "version None" in refusal(frame_of({"type": "hello"}))
    assert "version True" in refusal(frame_of({"v": True, "type": "hello"}))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (struct.pack(">I", 3) + b"\xc1\xc1\xc1", "not valid msgpack"),
        (struct.pack(">I", 0), "empty frame"),
        (frame_of([1, 2, 3]), "other than a map"),
        (frame_of({"v": 1}), "no type"),
        (frame_of({"v": 1, "type": 5}), "no type"),
        (frame_of({"v": 1, "type": "x", "f": 1.5}), "float"),
        (frame_of({"v": 1, "type": "x", 3: 1}), "not valid msgpack"),  # strict_map_key
        (frame_of({"v": 1, "type": "x", "b": b"\x00"}), "not valid msgpack"),  # no binary strings
        (frame_of({"v": 1, "type": "x", "s": "y" * 5000}), "not valid msgpack"),
        (frame_of({"v": 1, "type": "x", "deep": [[[[[[[[[[[[1]]]]]]]]]]]]}), "deeper"),
        (frame_of({"v": 1, "type": "x", "t": msgpack.ExtType(1, b"ab")}), "not valid msgpack"),
        (frame_of({"v": 1, "type": "x"}) + b"", "x"),
    ],
)
def test_garbage_and_wrong_shapes_are_refused(data, words):
    if words == "x":  # a well-formed frame, for contrast
        assert read(data)["type"] == "x"
        return
    assert words in refusal(data)


def test_extra_bytes_inside_a_frame_are_refused():
    body = msgpack.packb({"v": 1, "type": "x"}) + b"\x00"
    with pytest.raises(ProtocolError, match="extra bytes"):
        decode_body(body)


def test_random_bytes_never_escape_as_anything_but_protocol_error():
    import random

    rng = random.Random(5)
    for _ in range(300):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        try:
            decode_body(body)
        except ProtocolError as error:
            assert "\n" not in error.reason


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("localhost:4444", Address(host="localhost", port=4444)),
        ("127.0.0.1:0", Address(host="127.0.0.1", port=0)),
        ("[::1]:80", Address(host="::1", port=80)),
        ("/tmp/table.sock", Address(path="/tmp/table.sock")),
        ("./table.sock", Address(path="./table.sock")),
    ],
)
def test_parse_address(text, address):
    assert parse_address(text) == address
    assert parse_address(str(address)) == address


@pytest.mark.parametrize("text", ["", "localhost", "host:", ":80", "host:port", "host:70000", "host:-1", "a:1:2:x"])
def test_bad_addresses_raise_one_line(text):
    with pytest.raises(ValueError) as caught:
        parse_address(text)
    assert "\n" not in str(caught.value)
