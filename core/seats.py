"""Who sits in each seat: a name, and either a human or a computer player of some level."""

from __future__ import annotations

from dataclasses import dataclass

SEAT_KINDS = ("human", "bot")
MAX_NAME = 20


def check_name(name: object) -> str:
    """A player's name as it comes in from anywhere (a form, an option, the network, a key file):
    1 to MAX_NAME printable characters once the spaces at its ends are dropped. Printable rules out
    control and format characters (escapes, newlines, direction overrides). ValueError with a
    one-line reason otherwise. The name is shown exactly so, as plain text, never as markup."""
    if type(name) is not str:
        raise ValueError("a name is text")
    name = name.strip()
    if not name:
        raise ValueError("a name cannot be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters, not {len(name)}")
    if not name.isprintable():
        raise ValueError("a name holds only printable characters (no control characters)")
    return name


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a name, and either a human or a bot of some level."""

    name: str
    kind: str = "human"
    level: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in SEAT_KINDS:
            raise ValueError(f"a seat is 'human' or 'bot', not {self.kind!r}")
        if (self.kind == "bot") != (self.level is not None):
            raise ValueError("a bot seat needs a level, and a human seat has none")

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def describe(self) -> str:
        return f"{self.name} ({self.level} bot)" if self.is_bot else self.name


def default_seats(players: int) -> tuple[Seat, ...]:
    return tuple(Seat(f"Seat {i + 1}") for i in range(players))
