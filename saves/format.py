"""The save file's envelope, and a bounded decode of its msgpack body (see docs/save-format.md).

    magic        8 bytes   89 44 4F 4D 0D 0A 1A 0A  ("\\x89DOM\\r\\n\\x1a\\n")
    format       2 bytes   the body's format version, unsigned big-endian
    app version  1 byte n, then n bytes of ASCII: the version of dominoes that wrote the file
    body         msgpack   a map with string keys (its fields: saves/body.py)
    checksum     4 bytes   CRC-32 of every byte before it, unsigned big-endian

The envelope never changes; the format version describes the body, so a file from a newer version
still passes the envelope's checks and is then refused by the migration chain with a clear message.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Any

import msgpack

from core.version import APP_VERSION
from saves.errors import SaveError
from saves.plain_data import NotPlainData, kind_name, unpack_plain

MAGIC = b"\x89DOM\r\n\x1a\n"  # a high byte and CR LF, as in PNG: a text-mode copy mangles it visibly
MAX_FILE_SIZE = 1 << 20  # a ten-round 8-player match is about 5 KB; the longest matches stay far below
MAX_APP_VERSION = 32
CHECKSUM_SIZE = 4
MIN_SIZE = len(MAGIC) + 3 + CHECKSUM_SIZE

# Bounds for the msgpack decoder, far above anything a real save holds.
MAX_EVENTS = 100_000
MAX_STRING = 1024
MAX_MAP = 64
MAX_DEPTH = 8  # body map > events > event > a deal's hands > one hand: 5 levels today

_FORMAT = struct.Struct(">HB")
_CHECKSUM = struct.Struct(">I")


@dataclass(frozen=True, slots=True)
class Envelope:
    format_version: int
    app_version: str
    body: bytes


def wrap(body: bytes, format_version: int, app_version: str = APP_VERSION) -> bytes:
    """A whole save file around an encoded body."""
    version = app_version.encode("ascii")
    if len(version) > MAX_APP_VERSION:
        raise ValueError(f"an app version has at most {MAX_APP_VERSION} characters")
    head = MAGIC + _FORMAT.pack(format_version, len(version)) + version + body
    return head + _CHECKSUM.pack(zlib.crc32(head))


def intact(data: bytes) -> bool:
    """Whether `data` starts with the magic bytes and its checksum matches (nothing decoded)."""
    return (
        len(data) >= MIN_SIZE
        and data.startswith(MAGIC)
        and zlib.crc32(memoryview(data)[:-CHECKSUM_SIZE]) == _CHECKSUM.unpack_from(data, len(data) - CHECKSUM_SIZE)[0]
    )


def unwrap(data: bytes) -> Envelope:
    """Check the size cap, the magic bytes and the checksum, then split the header from the body."""
    if len(data) > MAX_FILE_SIZE:
        raise SaveError(f"the file is too large to be a save (over {MAX_FILE_SIZE // 1024} KB)")
    if not data:
        raise SaveError("the file is empty")
    if not data.startswith(MAGIC):
        if MAGIC.startswith(data):
            raise SaveError("the file is damaged (cut short)")
        raise SaveError("this is not a dominoes save file (it does not start with the save format's magic bytes)")
    if len(data) < MIN_SIZE:
        raise SaveError("the file is damaged (cut short)")
    if not intact(data):
        raise SaveError("the file is damaged (checksum mismatch)")
    format_version, length = _FORMAT.unpack_from(data, len(MAGIC))
    start = len(MAGIC) + _FORMAT.size
    end = start + length
    raw_version = data[start:end]
    if length > MAX_APP_VERSION or end > len(data) - CHECKSUM_SIZE or not raw_version.isascii():
        raise SaveError("the file's header is not valid (its app version is not readable)")
    return Envelope(format_version, raw_version.decode("ascii"), data[end:-CHECKSUM_SIZE])


def pack_body(body: dict[str, Any]) -> bytes:
    return msgpack.packb(body, use_bin_type=True)


def unpack_body(body: bytes) -> dict[str, Any]:
    """Decode the body with msgpack's own limits, then check its shape: a map of plain data only."""
    try:
        value = unpack_plain(
            body, whole="body", max_string=MAX_STRING, max_array=MAX_EVENTS, max_map=MAX_MAP, max_depth=MAX_DEPTH
        )
    except NotPlainData as error:
        raise SaveError(f"the file's body {error}{', which a save never does' if error.decoded else ''}") from None
    if type(value) is not dict:
        raise SaveError(f"the file's body is a {kind_name(value)}, not a map")
    return value
