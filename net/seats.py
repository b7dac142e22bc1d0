"""Who holds each seat of a hosted table: which human seats are open, taken, or away, and which
away seats a bot is standing in for.

A human seat is *human* while its player is connected and *away* when they are not. A seat still
called by its default name ("Seat 2") is *open*: the first player to join without a name of the
table takes it, and the seat takes their name. A seat named for a player who has not come yet
(`host --names`, or a match saved before seats had keys) is taken by the first to join with that
name. Whoever takes a seat is given its key (a secret token; the table keeps only its hash): from
then on the seat is kept for its player, and only that key takes it back. A hello with the seat's
name alone, in any case, is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.seats import Seat, default_seats
from core.words import article
from net.seat_keys import new_token, same_hash, seat_proof, token_hash

OPEN, HUMAN, AWAY = "open", "human", "away"
KEPT = "that seat is kept for its player"


def default_name(index: int) -> str:
    return default_seats(index + 1)[index].name


class SeatRefused(Exception):
    """A hello that cannot be seated; the message is one line for the client."""


@dataclass
class SeatTable:
    seats: tuple[Seat, ...]
    status: list[str] = field(default_factory=list)  # per human seat: OPEN, HUMAN or AWAY
    stand_ins: set[int] = field(default_factory=set)
    keys: dict[int, str] = field(default_factory=dict)  # per seat that has had a player: its token's hash

    def __post_init__(self) -> None:
        self.status = [
            seat.level if seat.is_bot else OPEN if seat.name == default_name(index) else AWAY  # type: ignore[misc]
            for index, seat in enumerate(self.seats)
        ]

    def set_keys(self, keys: dict[int, str]) -> None:
        """The keys kept for a resumed match: a seat that has had a player is kept for them."""
        self.keys = dict(keys)
        for index in keys:
            if self.status[index] == OPEN:
                self.status[index] = AWAY

    def labels(self) -> tuple[str, ...]:
        """Per seat: "human", "away", "open", or a bot's level."""
        return tuple(self.status)

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].is_bot

    def connected(self) -> tuple[int, ...]:
        return tuple(i for i, status in enumerate(self.status) if status == HUMAN)

    def prover(self, proof: str | None, nonce: str, match: str) -> int | None:
        """The seat whose key `proof` proves, for the challenge `nonce` at match `match`, if any.
        Every seat's proof is checked, in constant time, so the answer's timing says nothing."""
        if proof is None:
            return None
        found = None
        for seat, kept in self.keys.items():
            if same_hash(seat_proof(kept, nonce, match), proof) and found is None:
                found = seat
        return found

    def choose(self, name: str, wanted: int | None, keyed: int | None = None) -> int:
        """The seat a hello with `name` (and maybe a wanted seat, and the seat whose key it proved)
        takes; SeatRefused if none.

        A proof of a seat's key, with the seat's name (in any case), takes that seat back, even
        from a connection of its own player that has not yet noticed it is gone. Without it, a name
        that a seat has takes that seat only if nobody has sat there yet; another name takes the
        wanted open seat, or the first open one."""
        key = name.casefold()
        if keyed is not None and self.seats[keyed].name.casefold() == key:
            if wanted is not None and wanted != keyed:
                raise SeatRefused(f"your seat at this table is seat {keyed + 1}, not seat {wanted + 1}")
            return keyed
        for index, seat in enumerate(self.seats):
            if seat.name.casefold() != key:
                continue
            if seat.is_bot:
                raise SeatRefused(f"the name {name!r} belongs to a computer player at this table")
            if index in self.keys or self.status[index] == HUMAN:
                raise SeatRefused(KEPT)
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

    def key(self, index: int, proven: bool) -> str | None:
        """The key to give the player now seated at `index`: none if they proved they hold this
        seat's, else a new one (the seat's old key, if any, stops working; the table must keep the
        keys again)."""
        if proven:
            return None
        token = new_token()
        self.keys[index] = token_hash(token)
        return token

    def leave(self, index: int) -> None:
        self.status[index] = AWAY

    def describe(self, index: int) -> str:
        status = self.status[index]
        if self.is_bot(index):
            return f"{article(status)} bot"
        return {OPEN: "open", HUMAN: f"taken by {self.seats[index].name}", AWAY: f"kept for {self.seats[index].name}"}[
            status
        ]
