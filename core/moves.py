"""Moves: every event of a match, chance's deals included, as small frozen dataclasses.

Each move has a plain-data form (`to_data()` / `Move.from_data()`) made of lists, ints, strings and
None, so a match's events can be written with msgpack and read back exactly. A tile's data is the
number low·10 + high (see `Tile.to_data`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from core.tiles import DOUBLE_NINE, TILE_BIT, Tile

TrumpSuit = int | str  # 0..6, "doubles" or "none"
TRUMP_WORDS = ("doubles", "none")


class Move(ABC):
    """Base of all moves. Subclasses are frozen dataclasses with a `kind` tag."""

    __slots__ = ()
    kind: ClassVar[str]

    @abstractmethod
    def to_data(self) -> list[Any]:
        """The move as plain data: a list starting with its kind."""

    @staticmethod
    def from_data(data: Any) -> Move:
        """Rebuild a move from its plain-data form; ValueError if the data is not a move."""
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            raise ValueError(f"a move is a list starting with its kind, not {_short(data)}")
        kind = data[0]
        parser = _PARSERS.get(kind)
        if parser is None:
            raise ValueError(f"unknown move kind {kind!r}")
        return parser(data)


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def _expect_length(data: list[Any], length: int) -> None:
    if len(data) != length:
        raise ValueError(f"a {data[0]!r} move has {length - 1} field(s), not {len(data) - 1}")


def _tiles(data: Any, what: str) -> tuple[Tile, ...]:
    if not isinstance(data, list):
        raise ValueError(f"{what} must be a list of tiles, not {_short(data)}")
    return tuple(Tile.from_data(item) for item in data)


def _optional_seat(data: Any, what: str) -> int | None:
    if data is None or (type(data) is int and 0 <= data < 64):
        return data
    raise ValueError(f"{what} must be a seat number or nil, not {_short(data)}")


@dataclass(frozen=True, slots=True)
class Deal(Move):
    """Everything chance decided at the start of a round (or a redeal).

    `hands`: each seat's tiles. `stock`: the face-down tiles in drawing order (Moon: the widow).
    `first`: a seat chance picked (Chicken Foot: who found the starting double; Moon: the first
    bidder of the first hand), else None. `search_start`: Chicken Foot only, the seat where the
    search for the starting double began.
    """

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    first: int | None = None
    search_start: int | None = None
    kind: ClassVar[str] = "deal"

    def to_data(self) -> list[Any]:
        return [
            "deal",
            [[t.to_data() for t in hand] for hand in self.hands],
            [t.to_data() for t in self.stock],
            self.first,
            self.search_start,
        ]

    @staticmethod
    def _parse(data: list[Any]) -> Deal:
        _expect_length(data, 5)
        if not isinstance(data[1], list) or not 1 <= len(data[1]) <= 16:
            raise ValueError("a deal's hands must be a list with one entry per seat")
        hands = tuple(_tiles(hand, "a hand") for hand in data[1])
        return Deal(
            hands,
            _tiles(data[2], "the stock"),
            _optional_seat(data[3], "first"),
            _optional_seat(data[4], "search_start"),
        )

    def __str__(self) -> str:
        return "deal"


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play `tile` on the open end `target` (draw games), or into the trick / centre (target None)."""

    tile: Tile
    target: int | None = None
    # The tile's numbers and bit, worked out once (plays are interned), for the engines' hot paths:
    # reading them is several times cheaper than indexing a tile (a tuple subclass) or hashing it.
    # Not part of the move's value: they are left out of equality, hashing and the plain data.
    low: int = field(init=False, repr=False, compare=False)
    high: int = field(init=False, repr=False, compare=False)
    bit: int = field(init=False, repr=False, compare=False)
    kind: ClassVar[str] = "play"

    def __post_init__(self) -> None:
        tile = self.tile
        real = type(tile) is Tile  # a move from outside may name anything: apply refuses it
        object.__setattr__(self, "low", tile[0] if real else -1)
        object.__setattr__(self, "high", tile[1] if real else -1)
        object.__setattr__(self, "bit", TILE_BIT[tile] if real else 0)

    def to_data(self) -> list[Any]:
        return ["play", self.tile.to_data(), self.target]

    @staticmethod
    def _parse(data: list[Any]) -> Play:
        _expect_length(data, 3)
        target = data[2]
        if target is not None and not (type(target) is int and 0 <= target < 1000):
            raise ValueError(f"a play's target must be an end number or nil, not {_short(target)}")
        return play(Tile.from_data(data[1]), target)

    def __str__(self) -> str:
        return f"play {self.tile}" if self.target is None else f"play {self.tile} on end {self.target}"


@dataclass(frozen=True, slots=True)
class Draw(Move):
    """Draw one tile from the stock (only when no tile can be played)."""

    kind: ClassVar[str] = "draw"

    def to_data(self) -> list[Any]:
        return ["draw"]

    @staticmethod
    def _parse(data: list[Any]) -> Draw:
        _expect_length(data, 1)
        return DRAW

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass(Move):
    """Pass: for a player who can neither play nor draw."""

    kind: ClassVar[str] = "pass"

    def to_data(self) -> list[Any]:
        return ["pass"]

    @staticmethod
    def _parse(data: list[Any]) -> Pass:
        _expect_length(data, 1)
        return PASS

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bid(Move):
    """A bid in Moon: 4..7 or 21 tricks; 0 passes."""

    amount: int
    kind: ClassVar[str] = "bid"

    def to_data(self) -> list[Any]:
        return ["bid", self.amount]

    @staticmethod
    def _parse(data: list[Any]) -> Bid:
        _expect_length(data, 2)
        if type(data[1]) is not int or not 0 <= data[1] <= 1000:
            raise ValueError(f"a bid is a number, not {_short(data[1])}")
        return Bid(data[1])

    def __str__(self) -> str:
        return "pass" if self.amount == 0 else f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Discard(Move):
    """Moon: the bidder lays one tile aside face down after taking the widow."""

    tile: Tile
    kind: ClassVar[str] = "discard"

    def to_data(self) -> list[Any]:
        return ["discard", self.tile.to_data()]

    @staticmethod
    def _parse(data: list[Any]) -> Discard:
        _expect_length(data, 2)
        return Discard(Tile.from_data(data[1]))

    def __str__(self) -> str:
        return f"discard {self.tile}"


@dataclass(frozen=True, slots=True)
class Trump(Move):
    """Moon: the bidder names trump: a number 0..6, "doubles" or "none"."""

    suit: TrumpSuit
    kind: ClassVar[str] = "trump"

    def to_data(self) -> list[Any]:
        return ["trump", self.suit]

    @staticmethod
    def _parse(data: list[Any]) -> Trump:
        _expect_length(data, 2)
        suit = data[1]
        if not ((type(suit) is int and 0 <= suit <= 6) or suit in TRUMP_WORDS):
            raise ValueError(f"trump is a number 0-6, 'doubles' or 'none', not {_short(suit)}")
        return Trump(suit)

    def __str__(self) -> str:
        return f"trump {self.suit}"


_PARSERS = {
    "deal": Deal._parse,
    "play": Play._parse,
    "draw": Draw._parse,
    "pass": Pass._parse,
    "bid": Bid._parse,
    "discard": Discard._parse,
    "trump": Trump._parse,
}

DRAW = Draw()
PASS = Pass()

# Plays are interned, so the engine hands out the same object for the same play and can check a
# move against its legal moves by identity. Targets above the table are built on demand.
_PLAY_TARGETS = 48
_PLAYS: dict[Tile, tuple[Play, ...]] = {
    tile: tuple(Play(tile, target) for target in range(_PLAY_TARGETS)) for tile in DOUBLE_NINE
}
_CENTRE_PLAYS: dict[Tile, Play] = {tile: Play(tile, None) for tile in _PLAYS}


PLAYS_BY_BIT: dict[int, tuple[Play, ...]] = {TILE_BIT[tile]: plays for tile, plays in _PLAYS.items()}
"""The interned plays of a tile, looked up by its bit and indexed by target (for the engines' move lists)."""


def play(tile: Tile, target: int | None = None) -> Play:
    """The interned `Play(tile, target)`."""
    if target is None:
        return _CENTRE_PLAYS[tile]
    if 0 <= target < _PLAY_TARGETS:
        return _PLAYS[tile][target]
    return Play(tile, target)


__all__ = ["DRAW", "PASS", "Bid", "Deal", "Discard", "Draw", "Move", "Pass", "Play", "Trump", "play"]
