"""Who holds each seat of a hosted table: which human seats are open, taken, or away, and which
away seats a bot is standing in for.

A human seat is *human* while its player is connected and *away* when they are not: the seat is
kept for its name, and connecting with that name takes it back. A seat still called by its default
name ("Seat 2") is *open*: the first player to join without a name of the table takes it, and the
seat takes their name. So a match hosted with names (or resumed, after players took seats) keeps
each named seat for its player.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.seats import Seat, default_seats
from core.words import article

OPEN, HUMAN, AWAY = "open", "human", "away"


def default_name(index: int) -> str:
    return default_seats(index + 1)[index].name


class SeatRefused(Exception):
    """A hello that cannot be seated; the message is one line for the client."""


@dataclass
class SeatTable:
    seats: tuple[Seat, ...]
    status: list[str] = field(default_factory=list)  # per human seat: OPEN, HUMAN or AWAY
    stand_ins: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.status = [
            seat.level if seat.is_bot else OPEN if seat.name == default_name(index) else AWAY  # type: ignore[misc]
            for index, seat in enumerate(self.seats)
        ]

    def labels(self) -> tuple[str, ...]:
        """Per seat: "human", "away", "open", or a bot's level."""
        return tuple(self.status)

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].is_bot

    def connected(self) -> tuple[int, ...]:
        return tuple(i for i, status in enumerate(self.status) if status == HUMAN)

    def choose(self, name: str, wanted: int | None) -> int:
        """The seat a hello with `name` (and maybe a wanted seat) takes; SeatRefused if none.

        A name that some seat already has takes that seat back unless its player is connected;
        another name takes the wanted open seat, or the first open one."""
        key = name.casefold()
        for index, seat in enumerate(self.seats):
            if seat.name.casefold() != key:
                continue
            if seat.is_bot:
                raise SeatRefused(f"the name {name!r} belongs to a computer player at this table")
            if self.status[index] == HUMAN:
                raise SeatRefused(f"the name {name!r} is taken: {seat.name} is already at the table")
            if wanted is not None and wanted != index:
                raise SeatRefused(f"{seat.name} sits at seat {index + 1}, not seat {wanted + 1}")
            return index
        if wanted is not None:
            if not 0 <= wanted < len(self.seats):
                raise SeatRefused(f"there is no seat {wanted + 1} at this {len(self.seats)}-player table")
            if self.status[wanted] != OPEN:
                raise SeatRefused(f"seat {wanted + 1} is not free (it is {self.describe(wanted)})")
            return wanted
        for index, status in enumerate(self.status):
            if status == OPEN:
                return index
        raise SeatRefused("the table is full: every seat is taken")

    def take(self, index: int, name: str) -> bool:
        """Seat `name` at `index`; True if the seat's name changed (the match must record it)."""
        self.status[index] = HUMAN
        self.stand_ins.discard(index)
        seat = self.seats[index]
        if seat.name == name:
            return False
        seats = list(self.seats)
        seats[index] = Seat(name, seat.kind, seat.level)
        self.seats = tuple(seats)
        return True

    def leave(self, index: int) -> None:
        self.status[index] = AWAY

    def describe(self, index: int) -> str:
        status = self.status[index]
        if self.is_bot(index):
            return f"{article(status)} bot"
        return {OPEN: "open", HUMAN: f"taken by {self.seats[index].name}", AWAY: f"kept for {self.seats[index].name}"}[
            status
        ]
