"""The process in which computer players think, so a long search never slows the interface.

It reads requests from standard input and writes answers to standard output, one frame each: a
4-byte big-endian length, then a msgpack map. A request carries a match as plain data (game,
players, options, seed, events) and the seat, level, budget and seed of the decision; the answer
is the chosen move's plain data, or an error sentence. The worker rebuilds the match by replaying
the events (keeping the last match, so a request that only adds events replays only those), and
its bot sees only the seat's view.
"""

from __future__ import annotations

import contextlib
import os
import random
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

import msgpack

from core import IllegalMove, Match
from core.bots import get_bot
from core.moves import Move

MAX_FRAME = 4 * 1024 * 1024
_HEADER = struct.Struct(">I")


def read_frame(stream: BinaryIO) -> Any | None:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    (length,) = _HEADER.unpack(header)
    if length > MAX_FRAME:
        raise ValueError(f"a frame of {length} bytes is over the limit of {MAX_FRAME}")
    body = stream.read(length)
    if len(body) < length:
        return None
    return msgpack.unpackb(body, raw=False, strict_map_key=True)


def write_frame(stream: BinaryIO, message: Any) -> None:
    body = msgpack.packb(message, use_bin_type=True)
    stream.write(_HEADER.pack(len(body)) + body)
    stream.flush()


class MatchMirror:
    """The worker's copy of the match, brought up to date from each request's events."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.match: Match | None = None
        self.data: list[Any] = []

    def update(self, request: dict[str, Any]) -> Match:
        key = (request["game"], request["players"], tuple(sorted(request["options"].items())), request["seed"])
        events = request["events"]
        if self.match is None or key != self.key or events[: len(self.data)] != self.data:
            self.key, self.data = key, []
            self.match = Match(request["game"], request["players"], request["options"], None, request["seed"])
        for data in events[len(self.data) :]:
            self.match.apply(Move.from_data(data))
            self.data.append(data)
        return self.match


def decide(mirror: MatchMirror, request: dict[str, Any]) -> dict[str, Any]:
    try:
        match = mirror.update(request)
        state = match.state
        seat = request["seat"]
        if state.to_move != seat:
            return {"error": f"it is not seat {seat}'s turn"}
        bot = get_bot(request["level"])
        legal = match.game.legal_moves(state)
        move = bot.choose(match.game.view(state, seat), legal, random.Random(request["rng"]), request.get("budget"))
        return {"id": request.get("id"), "move": move.to_data()}
    except (IllegalMove, ValueError, KeyError, TypeError) as error:
        mirror.match = None  # start afresh next time
        return {"id": request.get("id"), "error": str(error)}


NICENESS = 10  # below the interface: on a busy machine a key press is served before a search


def lower_priority(niceness: int) -> None:
    with contextlib.suppress(AttributeError, OSError):  # os.nice is POSIX only
        os.nice(niceness)


def serve(answer: Callable[[Any], Any]) -> int:
    """Answer each frame on standard input with a frame on standard output until the input ends
    (0); a frame that cannot be read is answered with an error and ends the process (1)."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            request = read_frame(stdin)
        except (ValueError, msgpack.UnpackException) as error:
            write_frame(stdout, {"error": f"bad request: {error}"})
            return 1
        if request is None:
            return 0
        write_frame(stdout, answer(request))


def main() -> int:
    lower_priority(NICENESS)
    mirror = MatchMirror()
    return serve(lambda request: decide(mirror, request))


if __name__ == "__main__":
    sys.exit(main())
