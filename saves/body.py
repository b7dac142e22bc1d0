"""The body of a save (format 2): a match as a msgpack map, and the checks of every field but the events.

match    the match id (saves/ids.py)
game     one of GAME_NAMES
players  the number of seats
seed     the seed chosen for practice, or nil (deals are drawn from it; the events record them anyway)
secret   the match's secret (64 hex digits) when no seed was chosen, or nil: its deals come from it
commitment  the commitment the players were shown: the secret's SHA-256 (64 hex digits), or nil
undid_revealed_round  whether an undo went back into a round whose hands had been shown
options  every rule option, name -> value
seats    one [name, kind, level] per seat: kind "human" (level nil) or "bot" (its level)
events   every event in its plain-data form (`Move.to_data()`), deals included, oldest first
cursor   how many events are in effect; the ones after it are the redo tail
created  when the match started, whole seconds since the Unix epoch (UTC)
updated  when it was last saved, likewise
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.bots import BOT_LEVELS
from core.registry import GAME_NAMES
from core.seats import SEAT_KINDS, Seat
from saves.errors import SaveError
from saves.ids import ID_RULE, is_match_id
from saves.record import SavedMatch

FIELDS = (
    "match",
    "game",
    "players",
    "seed",
    "secret",
    "commitment",
    "undid_revealed_round",
    "options",
    "seats",
    "events",
    "cursor",
    "created",
    "updated",
)
HEX_DIGITS = 64  # a secret of 32 bytes, and a SHA-256
MAX_NAME = 64
MAX_TIME = 253_402_300_799  # the last second of the year 9999
SEED_RANGE = (-(2**63), 2**64 - 1)  # what msgpack can hold


@dataclass(frozen=True)
class Header:
    """Every checked field of a body except the events, which only a replay can check."""

    match_id: str
    game: str
    players: int
    seed: int | None
    secret: bytes | None
    commitment: str | None
    undid_revealed_round: bool
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    cursor: int
    created: int
    updated: int


def body_of(record: SavedMatch) -> dict[str, Any]:
    match = record.match
    if match.seed is None and match.secret is None:
        raise SaveError(f"match {record.match_id} holds neither its seed nor its secret: it cannot be saved")
    if match.seed is not None and not SEED_RANGE[0] <= match.seed <= SEED_RANGE[1]:
        raise SaveError(f"match {record.match_id}'s seed is too large to save (it must fit in 64 bits)")
    return {
        "match": record.match_id,
        "game": match.game_name,
        "players": match.players,
        "seed": match.seed,
        "secret": match.secret.hex() if match.secret is not None else None,
        "commitment": match.commitment,
        "undid_revealed_round": match.undid_revealed_round,
        "options": dict(match.options),
        "seats": [[seat.name, seat.kind, seat.level] for seat in match.seats],
        "events": [event.to_data() for event in match.events],
        "cursor": match.cursor,
        "created": record.created,
        "updated": record.updated,
    }


def read_header(body: dict[str, Any]) -> Header:
    """Check every field but the events; SaveError names the first one that is wrong."""
    for name in FIELDS:
        if name not in body:
            raise SaveError(f"the file's body has no {name!r} field")
    for name in body:
        if name not in FIELDS:
            raise SaveError(f"the file's body has an unknown field {name!r}")
    match_id = body["match"]
    if not is_match_id(match_id):
        raise SaveError(f"the file's 'match' field is not a match id ({ID_RULE})")
    game = body["game"]
    if game not in GAME_NAMES:
        raise SaveError(f"the file's 'game' field names no game this version knows ({_short(game)})")
    players = _whole(body, "players", 1, 64)
    seed = None if body["seed"] is None else _whole(body, "seed", *SEED_RANGE)
    secret = _hex(body, "secret")
    commitment = _hex(body, "commitment")
    if (seed is None) == (secret is None):
        raise SaveError("the file's body must hold a 'seed' or a 'secret', one of them and not both")
    if (commitment is None) != (secret is None):
        raise SaveError("the file's 'commitment' field goes with its 'secret': both are given, or neither")
    undid = body["undid_revealed_round"]
    if type(undid) is not bool:
        raise SaveError("the file's 'undid_revealed_round' field must be true or false")
    options = body["options"]
    if type(options) is not dict:
        raise SaveError("the file's 'options' field is not a map of option names to values")
    seats = read_seats(body["seats"], players)
    events = body["events"]
    if type(events) is not list:
        raise SaveError("the file's 'events' field is not a list")
    cursor = _whole(body, "cursor", 0, len(events))
    created = _whole(body, "created", 0, MAX_TIME)
    updated = _whole(body, "updated", 0, MAX_TIME)
    return Header(
        match_id,
        game,
        players,
        seed,
        bytes.fromhex(secret) if secret is not None else None,
        commitment,
        undid,
        options,
        seats,
        cursor,
        created,
        updated,
    )


def read_seats(data: Any, players: int) -> tuple[Seat, ...]:
    if type(data) is not list or len(data) != players:
        seats = f"{players} seat" if players == 1 else f"{players} seats"
        raise SaveError(f"the file's 'seats' field must list {seats}, one per player")
    seats = []
    for number, seat in enumerate(data, 1):
        where = f"seat {number} in the file's 'seats' field"
        if type(seat) is not list or len(seat) != 3:
            raise SaveError(f"{where} is not [name, kind, level]")
        name, kind, level = seat
        if type(name) is not str or not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise SaveError(f"{where} has no usable name (1 to {MAX_NAME} printable characters)")
        if kind not in SEAT_KINDS:
            raise SaveError(f"{where} is neither 'human' nor 'bot'")
        if kind == "human" and level is not None:
            raise SaveError(f"{where} is a human with a bot level")
        if kind == "bot" and level not in BOT_LEVELS:
            raise SaveError(f"{where} is a bot of a level this version does not know ({_short(level)})")
        seats.append(Seat(name, kind, level))
    return tuple(seats)


def _whole(body: dict[str, Any], name: str, low: int, high: int) -> int:
    value = body[name]
    if type(value) is not int or not low <= value <= high:
        raise SaveError(f"the file's {name!r} field must be a whole number from {low} to {high}, not {_short(value)}")
    return value


def _hex(body: dict[str, Any], name: str) -> str | None:
    value = body[name]
    if value is None:
        return None
    if type(value) is not str or len(value) != HEX_DIGITS or any(c not in "0123456789abcdef" for c in value):
        raise SaveError(
            f"the file's {name!r} field must be {HEX_DIGITS} lowercase hex digits or nil, not {_short(value)}"
        )
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
