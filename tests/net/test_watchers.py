"""Watchers: someone at no seat is sent what every seat sees, never a hidden tile, and changes nothing."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from core import Match, Seat, Tile
from core.chance import SECRET_BYTES
from core.view_data import view_from_data
from net.client import TableClient
from net.messages import Refused, Snapshot
from net.server import CLOSED_TO_WATCHERS, WATCHER_REFUSAL
from tests.net.helpers import RawClient, ann_and_ben, event_of, run, serving, snapshot_where


def tiles_in(value: Any) -> set[Tile]:
    """Every tile a decoded view holds, however deep (the layout's through its `tiles()`)."""
    if isinstance(value, Tile):
        return {value}
    if isinstance(value, (tuple, list)):
        return set().union(*(tiles_in(item) for item in value)) if value else set()
    if hasattr(value, "tiles") and callable(value.tiles):
        return set(value.tiles())
    if is_dataclass(value):
        return set().union(*(tiles_in(getattr(value, f.name)) for f in fields(value) if f.name != "options"))
    return set()


def hidden_tiles(match: Match, cursor: int) -> set[Tile]:
    """The tiles in hands and the stock that not every seat could see after `cursor` events."""
    state = match.state_at(cursor)
    held = {tile for hand in state.hands for tile in hand} | set(state.stock)
    seen_by_all = set.intersection(*(tiles_in(match.game.view(state, seat)) for seat in range(match.players)))
    return held - seen_by_all


def secret_match(game: str, players: int, seats: list[Seat], **options: Any) -> Match:
    return Match(game, players, options, seats, None, secret=secrets.token_bytes(SECRET_BYTES))


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("chicken-foot", 3, {"rounds": 2}), ("doubles", 3, {"target": 50}), ("moon", 3, {"target": 7})],
)
def test_a_watcher_sees_no_hidden_tile_in_a_whole_match(game, players, options):
    seats = [Seat("Ann")] + [Seat(f"Bot {i + 1}", "bot", "easy") for i in range(1, players)]
    match = secret_match(game, players, seats, **options)

    async def scenario():
        frames: list[dict[str, Any]] = []
        async with serving(match, deal_delay=0.0) as server:
            watcher = await RawClient.connect(server.address)
            await watcher.send({"type": "hello", "watch": True})
            ann = await TableClient.connect(str(server.address), "Ann")

            async def ann_plays():
                async for event in ann.events():
                    if isinstance(event, Snapshot) and event.legal:
                        await ann.send_move(event.legal[0])

            playing = asyncio.ensure_future(ann_plays())
            serving_to_the_end = asyncio.ensure_future(server.serve_until_over())
            while True:
                frame = await watcher.receive()
                frames.append(frame)
                if frame["type"] == "bye":
                    break
            await playing
            await serving_to_the_end
            await watcher.close()
        return frames

    frames = run(scenario())
    assert match.state.over
    kinds = [frame["type"] for frame in frames]
    assert kinds[0] == "welcome" and kinds[-1] == "bye" and "reveal" in kinds
    secret = match.secret.hex()
    first_reveal = kinds.index("reveal")
    for frame in frames[:first_reveal]:
        assert secret not in repr(frame)
        assert "seed" not in frame
    updates = [frame for frame in frames if frame["type"] == "update"]
    assert updates[-1]["cursor"] == match.cursor  # it saw the match to its end
    for frame in updates:
        view = view_from_data(frame["view"])
        assert view.hand == ()
        leaked = tiles_in(view) & hidden_tiles(match, frame["cursor"])
        assert not leaked, f"at event {frame['cursor']} a watcher was sent {sorted(map(str, leaked))}"
        assert frame["legal"] == [] and frame["can_undo"] is False
        cursor = frame["cursor"]
        expected = [
            match.game.describe_move(match.state_at(i), match.events[i], match.names, None)
            for i in range(max(0, cursor - len(frame["log"])), cursor)
        ]
        assert frame["log"] == expected  # the lines every seat reads: none written for one seat
        assert not any(line.startswith("You ") for line in frame["log"])


def test_a_watchers_move_and_requests_are_refused_and_change_nothing():
    async def scenario():
        async with ann_and_ben() as (server, ann, _ben):
            watcher = await TableClient.watch(str(server.address))
            assert watcher.watching and watcher.seat is None
            before = (server.match.cursor, server.match.state)
            legal = ann.snapshot.legal
            assert legal
            await watcher.send_move(legal[0])
            refused = await event_of(watcher, Refused)
            assert refused.reason == WATCHER_REFUSAL
            await watcher.request_undo()
            assert (await event_of(watcher, Refused)).reason == WATCHER_REFUSAL
            assert (server.match.cursor, server.match.state) == before
            assert server.watchers == 1
            await watcher.close()

    run(scenario())


def test_the_51st_watcher_is_refused_with_one_line():
    async def scenario():
        async with ann_and_ben() as (server, _ann, _ben):
            watchers = [await TableClient.watch(str(server.address)) for _ in range(50)]
            assert server.watchers == 50
            with pytest.raises(ConnectionError, match="as many watchers as it takes"):
                await TableClient.watch(str(server.address))
            for watcher in watchers:
                await watcher.close()

    run(scenario())


def test_a_table_closed_to_watchers_refuses_them():
    async def scenario():
        async with ann_and_ben(max_watchers=0) as (server, _ann, _ben):
            with pytest.raises(ConnectionError) as refused:
                await TableClient.watch(str(server.address))
            assert str(refused.value) == CLOSED_TO_WATCHERS
            assert server.watchers == 0

    run(scenario())


def test_the_watcher_count_is_told_as_it_changes():
    counts: list[int] = []

    async def scenario():
        async with ann_and_ben(on_watchers=counts.append) as (server, _ann, _ben):
            watcher = await TableClient.watch(str(server.address))
            while counts != [1]:
                await asyncio.sleep(0.01)
            crowd = [await TableClient.watch(str(server.address)) for _ in range(5)]
            for other in [watcher, *crowd]:
                await other.close()
            while counts[-1] != 0:
                await asyncio.sleep(0.01)

    run(scenario())
    assert counts in ([1, 0], [1, 6, 0]), counts  # at most once a second, never once a watcher


def test_a_table_that_has_been_watched_counts_as_shared_for_undo():
    async def scenario():
        async with ann_and_ben() as (server, _ann, _ben):
            assert not server.match.watched
            watcher = await TableClient.watch(str(server.address))
            await watcher.close()
            return server.match.watched

    assert run(scenario()) is True


def test_the_seats_are_told_how_many_watch_within_a_second():
    async def scenario():
        async with ann_and_ben() as (server, ann, _ben):
            assert ann.snapshot.watchers == 0
            watchers = [await TableClient.watch(str(server.address)) for _ in range(3)]
            told = await snapshot_where(ann, lambda snapshot: snapshot.watchers == 3)
            assert told.view.hand  # Ann's own snapshot: her hand is still hers
            for watcher in watchers:
                await watcher.close()
            await snapshot_where(ann, lambda snapshot: snapshot.watchers == 0)

    run(scenario())
