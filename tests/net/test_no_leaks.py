"""Two clients on loopback TCP play a whole Moon hand against the table server, and every frame
each one receives is walked, raw, for any tile its seat may not see (from the true match state)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from core.games.moon_suits import MOON_SET
from core.tiles import Tile
from net.protocol import ConnectionClosed
from tests.core.harness import ACCOUNTS
from tests.net.helpers import RawClient, moon_match, run, serving, strings_in

VIEW_KEYS = {
    "game", "options", "seat", "players", "round", "chance", "over", "phase", "to_move", "hand", "hand_sizes",
    "stock_size", "first_bidder", "bids", "bidder", "bid", "trump", "widow", "discard", "leader", "trick",
    "tricks", "taken", "scores", "records", "winners", "redeal",
}  # fmt: skip
MESSAGE_KEYS = {
    "welcome": {"v", "type", "seat", "game", "players", "names", "seats", "options", "match_id", "token",
                "commitment"},
    "update": {"v", "type", "view", "legal", "names", "seats", "log", "cursor", "can_undo", "to_move", "thinking",
               "stand_ins", "undo_refusal", "watchers"},
    "refused": {"v", "type", "reason", "rule"},
    "bye": {"v", "type", "reason"},
    "notice": {"v", "type", "text"},
}  # fmt: skip
TILE_TEXTS = {tile: {f"{tile.low}-{tile.high}", f"{tile.high}-{tile.low}"} for tile in MOON_SET}


def tile_ints(view: dict[str, Any], legal: list[Any]) -> list[int]:
    """Every tile in a raw Moon view and its legal moves, read from where tiles are carried."""
    found = [*view["hand"], *view["trick"]]
    for trick in view["tricks"]:
        found += trick[1]
    found += [tile for tile in (view["widow"], view["discard"]) if tile is not None]
    found += [move[1] for move in legal if move[0] in ("play", "discard")]
    return found


class LeakCheck:
    def __init__(self, server: Any) -> None:
        self.server = server
        self.tiles_checked = 0
        self.frames = 0
        self.saw_widow = False
        self.tokens: dict[int, str] = {}  # each seat's key, from its welcome

    def check(self, seat: int, frame: dict[str, Any]) -> None:
        self.frames += 1
        kind = frame["type"]
        assert set(frame) <= MESSAGE_KEYS[kind], f"unexpected fields in {kind}: {set(frame) - MESSAGE_KEYS[kind]}"
        if kind == "welcome":
            self.tokens[seat] = frame["token"]
        others = [token for other, token in self.tokens.items() if other != seat]
        assert not any(token in text for token in others for text in strings_in(frame)), "another seat's key"
        match = self.server.match
        if kind != "update":
            own_key = frame.get("token")  # random letters, which may spell "2-5" by chance
            for text in strings_in(frame):  # a welcome or refusal names no tile of anyone else's
                if text == own_key:
                    continue
                state = match.state
                hidden = set(MOON_SET) - ACCOUNTS["moon"].visible(state, seat) if state.round else set(MOON_SET)
                assert not any(t in text for tile in hidden for t in TILE_TEXTS[tile]), text
            return
        view = frame["view"]
        assert set(view) == VIEW_KEYS, f"the view's fields changed: {set(view) ^ VIEW_KEYS}"
        assert view["seat"] == seat
        state = match.state_at(frame["cursor"])  # no undo in this test: the history is fixed
        visible = ACCOUNTS["moon"].visible(state, seat) if state.round else set()
        hidden = set(MOON_SET) - visible
        for number in tile_ints(view, frame["legal"]):
            assert Tile.from_data(number) in visible, f"seat {seat} was sent {Tile.from_data(number)}"
            self.tiles_checked += 1
        self.saw_widow |= view["widow"] is not None
        for text in strings_in(frame):
            leaked = [str(tile) for tile in hidden if any(t in text for t in TILE_TEXTS[tile])]
            assert not leaked, f"seat {seat} was told {leaked} in {text!r}"
        assert view["hand"] == [t.to_data() for t in state.hands[seat]]


async def play_hand(seed: int) -> LeakCheck:
    match = moon_match("human,human,easy", seed, all_pass="force")
    async with serving(match) as server:
        check = LeakCheck(server)

        async def player(name: str, rng: random.Random) -> None:
            client = await RawClient.connect(server.address)
            await client.send({"type": "hello", "name": name})
            seat = None
            acted = -1
            while True:
                try:
                    frame = await client.receive()
                except ConnectionClosed:
                    return
                if frame["type"] == "welcome":
                    seat = frame["seat"]
                assert seat is not None
                check.check(seat, frame)
                if frame["type"] != "update":
                    continue
                if frame["view"]["records"]:  # the hand is scored: done
                    await client.close()
                    return
                if frame["legal"] and frame["cursor"] != acted:
                    acted = frame["cursor"]
                    await client.send({"type": "move", "move": rng.choice(frame["legal"])})

        await asyncio.gather(player("Ann", random.Random(seed)), player("Ben", random.Random(seed + 1)))
        assert server.match.state.records, "the hand was not finished"
    return check


def test_every_frame_of_a_whole_moon_hand_hides_what_each_seat_may_not_see():
    for seed in (3, 4):
        check = run(play_hand(seed))
        assert check.frames > 20 and check.tiles_checked > 100
    assert check.saw_widow or run(play_hand(5)).saw_widow  # a human bidder was shown the widow at least once


def test_the_leak_check_catches_a_leak():
    """The walker fails on a frame carrying another seat's tile (so the test above can fail)."""

    async def go() -> None:
        match = moon_match("human,human,easy", 3)
        async with serving(match) as server:
            while not match.state.round:  # the server deals as it starts
                await asyncio.sleep(0.01)
            check = LeakCheck(server)
            frame = {"v": 1, "type": "update", **_update_for(server, 0)}
            check.check(0, frame)
            other = match.state.hands[1][0].to_data()
            frame["view"]["hand"] = [*frame["view"]["hand"][:-1], other]
            try:
                check.check(0, frame)
            except AssertionError:
                return
            raise AssertionError("the leak went unnoticed")

    run(go())


def _update_for(server: Any, seat: int) -> dict[str, Any]:
    from net.messages import snapshot_message

    message = snapshot_message(server.snapshot(seat))
    del message["type"]
    return message


def test_a_drawn_tile_is_named_in_the_drawers_log_alone():
    """The move log each seat is sent names the tiles that seat drew, and no one else's."""
    from core import Match, Seat
    from core.moves import Draw
    from net.server import TableServer

    seats = [Seat("Ann", "human"), Seat("Ben", "human"), Seat("Cy", "bot", "easy")]
    match = Match("chicken-foot", 3, {"rounds": 1}, seats, seed=5)
    rng = random.Random(5)
    drawn: dict[int, Tile] = {}
    while len(drawn) < 2 and not match.state.over:
        state = match.state
        if state.chance:
            match.deal()
            continue
        legal = match.legal_moves()
        move = rng.choice(legal)
        if type(move) is Draw and state.to_move in (0, 1):
            drawn.setdefault(state.to_move, state.stock[0])
        match.apply(move)
    assert set(drawn) == {0, 1}, "seed 5: both humans draw in the first round"
    server = TableServer(match)
    for seat, tile in drawn.items():
        own = " ".join(server.snapshot(seat).log)
        other = " ".join(server.snapshot(1 - seat).log)
        assert f"{match.names[seat]} drew the {tile}" in own
        assert f"drew the {tile}" not in other
