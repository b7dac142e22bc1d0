"""Views as plain data (core/view_data.py): an exact round trip for every seat's view after every
event of random matches of every game, through msgpack as on the wire; malformed data refused."""

from __future__ import annotations

import copy
import random
from typing import Any

import msgpack
import pytest

from core import GAME_NAMES, Match, Seat
from core.bots import get_bot
from core.view_data import view_from_data, view_to_data

PLAIN = (dict, list, int, str, bool, type(None))

TABLES = {
    "chicken-foot": [(2, {"rounds": 2}), (5, {"rounds": 1, "double_blank_50": True})],
    "doubles": [(2, {}), (4, {})],
    "moon": [(3, {"target": 7}), (3, {"target": 5, "all_pass": "force", "doubles_trump": False})],
}


def assert_plain(value: Any) -> None:
    assert type(value) in PLAIN, f"{type(value).__name__} in view data"
    if type(value) is dict:
        for key, item in value.items():
            assert type(key) is str
            assert_plain(item)
    elif type(value) is list:
        for item in value:
            assert_plain(item)


def views_along_match(game: str, players: int, options: dict[str, Any], seed: int, level: str):
    """Every seat's view after every event of one seeded bot match."""
    seats = [Seat(f"bot {i}", "bot", level) for i in range(players)]
    match = Match(game, players, options, seats, seed)
    rng = random.Random(seed)
    bot = get_bot(level)
    yield from (match.view(seat) for seat in range(players))
    while not match.state.over:
        if match.state.chance:
            match.deal()
        else:
            seat = match.state.to_move
            match.apply(bot.choose(match.view(seat), match.legal_moves(), rng))
        yield from (match.view(seat) for seat in range(players))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_view_of_random_matches_round_trips_through_msgpack(game):
    checked = 0
    for index, (players, options) in enumerate(TABLES[game]):
        for seed, level in ((index + 1, "random"), (index + 11, "easy")):
            for view in views_along_match(game, players, options, seed, level):
                data = view_to_data(view)
                assert data["game"] == game
                assert_plain(data)
                wire = msgpack.unpackb(msgpack.packb(data, use_bin_type=True), raw=False)
                back = view_from_data(wire)
                assert back == view and type(back) is type(view)
                checked += 1
    assert checked > 100


def a_view(game: str) -> dict[str, Any]:
    """The data of a mid-round view of `game`, with a layout or tricks and a history in it."""
    players, options = TABLES[game][0]
    chosen = None
    for view in views_along_match(game, players, options, 3, "easy"):
        if not view.chance and view.round == 1 and (getattr(view, "history", None) or getattr(view, "tricks", None)):
            chosen = view
            break
    assert chosen is not None
    return view_to_data(chosen)


def _set(path: tuple[Any, ...], value: Any):
    def change(data: dict[str, Any]) -> Any:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return data

    return change


def _drop(name: str):
    def change(data: dict[str, Any]) -> Any:
        del data[name]
        return data

    return change


MALFORMED = {
    "not a map": ("moon", lambda data: [data]),
    "unknown game": ("moon", _set(("game",), "go")),
    "missing field": ("moon", _drop("hand")),
    "extra field": ("moon", _set(("stock",), [11, 12])),
    "tile out of range": ("moon", _set(("hand", 0), 100)),
    "tile as a string": ("chicken-foot", _set(("hand", 0), "5-5")),
    "hand not a list": ("doubles", _set(("hand",), 12)),
    "boolean as a number": ("moon", _set(("round",), True)),
    "negative count": ("doubles", _set(("stock_size",), -1)),
    "unknown option": ("moon", _set(("options", "speed"), 3)),
    "bad option value": ("chicken-foot", _set(("options", "rounds"), "many")),
    "seat beyond the table": ("moon", _set(("seat",), 3)),
    "players out of range": ("moon", _set(("players",), 9)),
    "bad trump": ("moon", _set(("trump",), 8)),
    "bad trick": ("moon", _set(("tricks",), [[0, [11], 1, 4]])),
    "bad bid entry": ("moon", _set(("bids",), [[0]])),
    "layout end beyond its lines": ("chicken-foot", _set(("board", 2), [999])),
    "layout not a list": ("doubles", _set(("board",), {"centre": 66})),
    "history move garbage": ("chicken-foot", _set(("history",), [[0, ["teleport"]]])),
    "history entry shape": ("doubles", _set(("history",), [[0]])),
    "huge list": ("moon", _set(("trick",), [11] * 5000)),
    "float": ("moon", _set(("bid",), 4.5)),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_view_data_raises_one_line_value_error(case):
    game, change = MALFORMED[case]
    data = change(copy.deepcopy(a_view(game)))
    with pytest.raises(ValueError) as caught:
        view_from_data(data)
    message = str(caught.value)
    assert message and "\n" not in message and len(message) < 200


def test_the_unchanged_data_is_accepted():
    """The malformed cases fail because of their change, not because the base data is bad."""
    for game in GAME_NAMES:
        data = a_view(game)
        assert view_to_data(view_from_data(data)) == data


def test_view_to_data_refuses_what_is_not_a_view():
    with pytest.raises(ValueError):
        view_to_data({"game": "moon"})
