"""What a client receives, decoded: snapshots of its seat's table and the other server messages.

The server builds an `update` message with `snapshot_message`; a client turns it back into a
`Snapshot` with `Snapshot.from_message`, which checks every field (the data came from the network)
and raises ProtocolError with a one-line reason for anything malformed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.moves import Move
from core.view_data import view_from_data, view_to_data
from net.protocol import ProtocolError, field

SEAT_STATES = ("human", "away", "open")  # or a bot level
LOG_LINES = 30  # the recent move lines each snapshot carries
UNDO_MOVE_LINES = 16  # the move lines an undo request may carry (a table sends at most 8)
SAVED_NAME = 64  # the longest name a save file may hold (saves/body.py); new names have at most 20
MAX_REVEALED = 100_000  # events a revealed match may hold: as many as a save file may


def plain_line(text: str) -> str:
    """A line from the other end, safe to show: any control or format character (a terminal escape,
    a newline, a direction override) becomes U+FFFD. It is shown as plain text, never markup."""
    return "".join(c if c.isprintable() else "\ufffd" for c in text)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One seat's table after a change: its view, its legal moves (empty unless it is to move), the
    names and states of the seats, the recent move lines, the undo cursor, who moves and who thinks."""

    view: Any
    legal: tuple[Move, ...]
    names: tuple[str, ...]
    seats: tuple[str, ...]  # per seat: "human", "away", "open" or a bot level
    log: tuple[str, ...]
    cursor: int
    can_undo: bool
    to_move: int | None
    thinking: int | None
    stand_ins: tuple[int, ...] = ()  # away seats a bot is playing for until their player is back
    undo_refusal: str = ""  # why the undo due is not allowed here (a round's end stops it), if it is not
    watchers: int = 0  # people watching the table from no seat

    @staticmethod
    def from_message(message: dict[str, Any]) -> Snapshot:
        try:
            view = view_from_data(field(message, "view", dict))
            legal = tuple(Move.from_data(item) for item in field(message, "legal", list))
        except ValueError as error:
            raise ProtocolError(f"a snapshot is malformed: {error}") from None
        players = view.players
        names = seat_names(field(message, "names", list), players)
        seats = _strings(field(message, "seats", list), players, "seats")
        log = tuple(plain_line(line) for line in _strings(field(message, "log", list), None, "log"))
        to_move = _seat(field(message, "to_move", int, optional=True), players, "to_move")
        thinking = _seat(field(message, "thinking", int, optional=True), players, "thinking")
        covered = field(message, "stand_ins", list, optional=True) or []
        stand_ins = tuple(_seat(seat, players, "stand_ins") for seat in covered)
        cursor = field(message, "cursor", int)
        if cursor < 0:
            raise ProtocolError("a snapshot's cursor is negative")
        refusal = plain_line(field(message, "undo_refusal", str, optional=True) or "")
        watchers = field(message, "watchers", int, optional=True) or 0
        if watchers < 0:
            raise ProtocolError("a snapshot counts fewer than no watchers")
        return Snapshot(
            view,
            legal,
            names,
            seats,
            log,
            cursor,
            field(message, "can_undo", bool),
            to_move,
            thinking,
            stand_ins,  # type: ignore[arg-type]
            refusal,
            watchers,
        )


def snapshot_message(snapshot: Snapshot) -> dict[str, Any]:
    """The `update` message carrying `snapshot`."""
    return {
        "type": "update",
        "view": view_to_data(snapshot.view),
        "legal": [move.to_data() for move in snapshot.legal],
        "names": list(snapshot.names),
        "seats": list(snapshot.seats),
        "log": list(snapshot.log),
        "cursor": snapshot.cursor,
        "can_undo": snapshot.can_undo,
        "to_move": snapshot.to_move,
        "thinking": snapshot.thinking,
        "stand_ins": list(snapshot.stand_ins),
        "undo_refusal": snapshot.undo_refusal or None,
        "watchers": snapshot.watchers,
    }


def undo_words(message: dict[str, Any]) -> tuple[tuple[str, ...], str, int | None]:
    """The moves an undo request names, whose decision it goes back to, and when it lapses, as
    plain lines (optional fields: an older table sends none)."""
    moves = field(message, "moves", list, optional=True) or []
    if len(moves) > UNDO_MOVE_LINES or any(type(line) is not str for line in moves):
        raise ProtocolError("an undo request's moves are not a few lines")
    back_to = plain_line(field(message, "back_to", str, optional=True) or "")
    expires = field(message, "expires", int, optional=True)
    return tuple(plain_line(line) for line in moves), back_to, expires


def seat_names(items: list[Any], players: int) -> tuple[str, ...]:
    """The names of the seats as the server sent them: one printable name per seat."""
    names = _strings(items, players, "names")
    if not all(0 < len(name) <= SAVED_NAME and name.isprintable() for name in names):
        raise ProtocolError("the names of the seats are not all printable names")
    return names


def _strings(items: list[Any], count: int | None, what: str) -> tuple[str, ...]:
    if any(type(item) is not str for item in items):
        raise ProtocolError(f"a snapshot's {what} are not all strings")
    if count is not None and len(items) != count:
        raise ProtocolError(f"a snapshot has {len(items)} {what} for {count} seats")
    return tuple(items)


def _seat(value: Any, players: int, what: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < players:
        raise ProtocolError(f"a snapshot's {what} names no seat: {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Refused:
    """The server refused the last move or request; nothing changed. `reason` is the rule's message."""

    reason: str


@dataclass(frozen=True, slots=True)
class UndoAsked:
    """Seat `by` asks to undo; answer with `answer_undo`. `moves`: the moves it takes back, in words
    (each names whose it is); `back_to`: whose decision play goes back to; `expires`: seconds
    before the request lapses unanswered (None from a table that does not say)."""

    by: int
    moves: tuple[str, ...] = ()
    back_to: str = ""
    expires: int | None = None


@dataclass(frozen=True, slots=True)
class UndoPending:
    """This player's undo request waits for `waiting` (seats) to agree; withdraw it with
    `withdraw_undo`. `moves`, `back_to` and `expires` as in `UndoAsked`."""

    waiting: tuple[int, ...]
    moves: tuple[str, ...] = ()
    back_to: str = ""
    expires: int | None = None


@dataclass(frozen=True, slots=True)
class UndoResult:
    """The outcome of seat `by`'s undo request; `declined_by` is the seat that said no, if one did."""

    accepted: bool
    by: int
    declined_by: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Notice:
    """Something every player at the table should know (the match is not being saved...)."""

    text: str


@dataclass(frozen=True, slots=True)
class Revealed:
    """The match is over: its secret (or chosen seed) and every event, to check the deals with. All
    the `reveal` messages taken together; `events` are checked moves (`Move.from_data`)."""

    secret: bytes | None
    seed: int | None
    events: tuple[Move, ...]


class RevealReader:
    """Puts `reveal` messages together: each carries `first` (the index of its first event), `total`
    and its events; the last one completes it. ProtocolError for one that does not fit."""

    def __init__(self) -> None:
        self.events: list[Move] = []
        self.total: int | None = None

    def take(self, message: dict[str, Any]) -> Revealed | None:
        secret_text = field(message, "secret", str, optional=True)
        seed = field(message, "seed", int, optional=True)
        first = field(message, "first", int)
        total = field(message, "total", int)
        items = field(message, "events", list)
        if (secret_text is None) == (seed is None):
            raise ProtocolError("a reveal carries a secret or a seed")
        if secret_text is not None and (len(secret_text) != 64 or set(secret_text) - set("0123456789abcdef")):
            raise ProtocolError("a reveal's secret is not 64 hex digits")
        if not 0 <= total <= MAX_REVEALED or first != len(self.events) or (self.total not in (None, total)):
            raise ProtocolError("a reveal's events do not follow on from the ones before")
        try:
            moves = [Move.from_data(item) for item in items]
        except ValueError as error:
            raise ProtocolError(f"a reveal holds something that is not a move: {error}") from None
        self.total = total
        self.events += moves
        if len(self.events) > total:
            raise ProtocolError("a reveal holds more events than it said")
        if len(self.events) < total:
            return None
        secret = bytes.fromhex(secret_text) if secret_text is not None else None
        done = Revealed(secret, seed, tuple(self.events))
        self.events, self.total = [], None
        return done


@dataclass(frozen=True, slots=True)
class Said:
    """Seat `seat` sent quick message `phrase` (`net.talk.PHRASES`) after event `cursor`."""

    seat: int
    phrase: int
    cursor: int


@dataclass(frozen=True, slots=True)
class Closed:
    """The connection is over: the server said bye (its reason), or the connection broke."""

    reason: str
