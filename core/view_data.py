"""A seat's `View` as plain data, and back: what a table server sends each client.

`view_to_data(view)` gives a map of lists, ints, strings, booleans and None only (tiles as
`Tile.to_data()`, moves as `Move.to_data()`, options as a map), with `"game"` naming the game.
`view_from_data(data)` is its exact inverse, and checks everything, since the data comes from the
network: anything malformed raises ValueError with a one-line reason.

Each game's view is described once, as a list of (field, codec) pairs; a codec turns one field into
plain data and back. The view's own fields are all there is: nothing is added that the seat may
not see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from core.games.chicken_foot import ChickenFootView
from core.games.doubles import DoublesView
from core.games.moon import HandRecord, MoonView, Trick
from core.layout import CENTRE, Layout, Line
from core.moves import TRUMP_WORDS, Move
from core.options import Options
from core.registry import get_game
from core.tiles import Tile
from core.words import article

MAX_ITEMS = 4096  # no list in a view comes near this (a double-nine set has 55 tiles)
MAX_NUMBER = 1 << 31  # scores, counts and seats are far below this


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True, slots=True)
class Codec:
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


# -- scalars -------------------------------------------------------------------------------------------


def _same(value: Any) -> Any:
    return value


def _int(data: Any) -> int:
    if type(data) is not int or not -MAX_NUMBER <= data <= MAX_NUMBER:
        raise ValueError(f"expected a whole number, not {_short(data)}")
    return data


def _count(data: Any) -> int:
    if _int(data) < 0:
        raise ValueError(f"expected a count from 0 up, not {data}")
    return data


def _bool(data: Any) -> bool:
    if type(data) is not bool:
        raise ValueError(f"expected true or false, not {_short(data)}")
    return data


def _str(data: Any) -> str:
    if type(data) is not str or len(data) > 64:
        raise ValueError(f"expected a short string, not {_short(data)}")
    return data


def _optional(decode: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda data: None if data is None else decode(data)


def _list(data: Any) -> list[Any]:
    if type(data) is not list:
        raise ValueError(f"expected a list, not {_short(data)}")
    if len(data) > MAX_ITEMS:
        raise ValueError(f"a list of {len(data)} items is longer than any view holds")
    return data


def _tuple_of(decode: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, ...]]:
    return lambda data: tuple(decode(item) for item in _list(data))


def _fixed(data: Any, length: int, what: str) -> list[Any]:
    items = _list(data)
    if len(items) != length:
        raise ValueError(f"{what} has {length} parts, not {len(items)}")
    return items


def _tile_out(tile: Tile) -> int:
    return tile.to_data()


def _tiles_out(tiles: tuple[Tile, ...]) -> list[int]:
    return [tile.to_data() for tile in tiles]


def _trump(data: Any) -> int | str:
    if (type(data) is int and 0 <= data <= 6) or (type(data) is str and data in TRUMP_WORDS):
        return data
    raise ValueError(f"trump is a number 0-6, 'doubles' or 'none', not {_short(data)}")


INT = Codec(_same, _int)
COUNT = Codec(_same, _count)
OPTIONAL_COUNT = Codec(_same, _optional(_count))
BOOL = Codec(_same, _bool)
STR = Codec(_same, _str)
TILE = Codec(_tile_out, Tile.from_data)
OPTIONAL_TILE = Codec(lambda tile: None if tile is None else tile.to_data(), _optional(Tile.from_data))
TILES = Codec(_tiles_out, _tuple_of(Tile.from_data))
INTS = Codec(list, _tuple_of(_int))
COUNTS = Codec(list, _tuple_of(_count))
INT_ROWS = Codec(lambda rows: [list(row) for row in rows], _tuple_of(_tuple_of(_int)))
OPTIONAL_TRUMP = Codec(_same, _optional(_trump))
OPTIONAL_HANDS = Codec(
    lambda hands: None if hands is None else [_tiles_out(hand) for hand in hands],
    _optional(_tuple_of(_tuple_of(Tile.from_data))),
)


# -- structures ----------------------------------------------------------------------------------------


def _layout_out(layout: Layout | None) -> Any:
    if layout is None:
        return None
    return [
        layout.centre.to_data(),
        [[line.parent, _tiles_out(line.tiles), line.open] for line in layout.lines],
        list(layout.ends),
        list(layout.empty_ends),
    ]


def _line_in(data: Any) -> Line:
    parent, tiles, open_end = _fixed(data, 3, "a line of play")
    parent = _int(parent)
    if parent < CENTRE:
        raise ValueError(f"a line's parent is a line number or {CENTRE}, not {parent}")
    if open_end is not None and not (type(open_end) is int and 0 <= open_end <= 9):
        raise ValueError(f"a line's open end is a number 0-9 or nil, not {_short(open_end)}")
    return Line(parent, _tuple_of(Tile.from_data)(tiles), open_end)


def _layout_in(data: Any) -> Layout | None:
    if data is None:
        return None
    centre, lines, ends, empty_ends = _fixed(data, 4, "a layout")
    layout = Layout(
        Tile.from_data(centre), _tuple_of(_line_in)(lines), _tuple_of(_count)(ends), _tuple_of(_count)(empty_ends)
    )
    for end in (*layout.ends, *layout.empty_ends):
        if end >= len(layout.lines):
            raise ValueError(f"open end {end} names no line of the layout")
    return layout


def _history_in(data: Any) -> tuple[tuple[int, Move], ...]:
    entries = []
    for item in _list(data):
        seat, move = _fixed(item, 2, "a history entry")
        entries.append((_count(seat), Move.from_data(move)))
    return tuple(entries)


def _bids_in(data: Any) -> tuple[tuple[int, int], ...]:
    bids = []
    for item in _list(data):
        seat, amount = _fixed(item, 2, "a bid")
        bids.append((_count(seat), _count(amount)))
    return tuple(bids)


def _trick_in(data: Any) -> Trick:
    leader, tiles, winner = _fixed(data, 3, "a trick")
    return Trick(_count(leader), _tuple_of(Tile.from_data)(tiles), _count(winner))


def _record_in(data: Any) -> HandRecord:
    hand, bidder, bid, trump, tricks, points, made = _fixed(data, 7, "a hand record")
    return HandRecord(
        _count(hand),
        _count(bidder),
        _count(bid),
        _trump(trump),
        _tuple_of(_count)(tricks),
        _tuple_of(_int)(points),
        _bool(made),
    )


LAYOUT = Codec(_layout_out, _layout_in)
HISTORY = Codec(lambda history: [[seat, move.to_data()] for seat, move in history], _history_in)
BIDS = Codec(lambda bids: [list(bid) for bid in bids], _bids_in)
TRICKS = Codec(lambda tricks: [[t.leader, _tiles_out(t.tiles), t.winner] for t in tricks], _tuple_of(_trick_in))
RECORDS = Codec(
    lambda records: [[r.hand, r.bidder, r.bid, r.trump, list(r.tricks), list(r.points), r.made] for r in records],
    _tuple_of(_record_in),
)

# -- the views -----------------------------------------------------------------------------------------

_COMMON = {
    "seat": COUNT,
    "players": COUNT,
    "round": COUNT,
    "chance": BOOL,
    "over": BOOL,
    "to_move": OPTIONAL_COUNT,
    "hand": TILES,
    "hand_sizes": COUNTS,
    "stock_size": COUNT,
    "scores": INTS,
    "winners": COUNTS,
}
_DRAW_GAME = {
    **_COMMON,
    "board": LAYOUT,
    "drawn": OPTIONAL_TILE,
    "must_play_drawn": BOOL,
    "idle": COUNT,
    "round_scores": INT_ROWS,
    "went_out": OPTIONAL_COUNT,
    "history": HISTORY,
    "revealed": OPTIONAL_HANDS,
}
CODECS: dict[str, tuple[type, dict[str, Codec]]] = {
    "chicken-foot": (ChickenFootView, {**_DRAW_GAME, "search_start": OPTIONAL_COUNT}),
    "doubles": (
        DoublesView,
        {
            **_DRAW_GAME,
            "unlocked": COUNT,
            "leading": OPTIONAL_TILE,
            "round_pips": INT_ROWS,
            "redeal": BOOL,
        },
    ),
    "moon": (
        MoonView,
        {
            **_COMMON,
            "phase": STR,
            "first_bidder": OPTIONAL_COUNT,
            "bids": BIDS,
            "bidder": OPTIONAL_COUNT,
            "bid": COUNT,
            "trump": OPTIONAL_TRUMP,
            "widow": OPTIONAL_TILE,
            "discard": OPTIONAL_TILE,
            "leader": OPTIONAL_COUNT,
            "trick": TILES,
            "tricks": TRICKS,
            "taken": COUNTS,
            "records": RECORDS,
            "redeal": BOOL,
        },
    ),
}

# Every field of every view has a codec (options are handled apart: they need the game's specs).
for _game, (_cls, _codecs) in CODECS.items():
    _names = {f.name for f in fields(_cls)} - {"options"}
    if _names != set(_codecs):
        raise RuntimeError(f"view_data does not describe the {_game} view: {sorted(_names ^ set(_codecs))}")


def view_to_data(view: Any) -> dict[str, Any]:
    """The view as plain data, with "game" naming its game."""
    entry = CODECS.get(getattr(view, "game", None))  # type: ignore[arg-type]
    if entry is None or type(view) is not entry[0]:
        raise ValueError(f"not a view of any game: {_short(view)}")
    data: dict[str, Any] = {"game": view.game, "options": dict(view.options)}
    for name, codec in entry[1].items():
        data[name] = codec.encode(getattr(view, name))
    return data


def view_from_data(data: Any) -> Any:
    """The view that `view_to_data` gave `data`; ValueError with a one-line reason if malformed."""
    if type(data) is not dict:
        raise ValueError(f"a view is a map, not {_short(data)}")
    game_name = data.get("game")
    entry = CODECS.get(game_name) if type(game_name) is str else None
    if entry is None:
        raise ValueError(f"a view names no known game: {_short(game_name)}")
    cls, codecs = entry
    expected = {"game", "options", *codecs}
    if set(data) != expected:
        missing, extra = sorted(expected - set(data)), sorted(map(str, set(data) - expected))
        raise ValueError(f"a {game_name} view's fields are wrong (missing: {missing}, unexpected: {extra})")
    values: dict[str, Any] = {}
    for name, codec in codecs.items():
        try:
            values[name] = codec.decode(data[name])
        except ValueError as error:
            raise ValueError(f"view field {name}: {error}") from None
    game = get_game(game_name)
    try:
        players = game.check_players(values["players"])
        options = data["options"]
        if type(options) is not dict:
            raise ValueError(f"options are a map, not {_short(options)}")
        resolved: Options = game.resolve_options(players, options)
    except ValueError as error:
        raise ValueError(f"view field options: {error}") from None
    if not values["seat"] < players:
        raise ValueError(f"view field seat: there is no seat {values['seat']} at {article(str(players))}-player table")
    return cls(options=resolved, **values)


__all__ = ["view_from_data", "view_to_data"]
