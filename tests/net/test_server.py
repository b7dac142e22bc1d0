"""The table server with real clients on loopback: seats, refusals, bad frames, drops and
reconnection, bot takeover, undo by agreement, autosave and a resumed match, a Unix socket."""

from __future__ import annotations

import asyncio
import os
import stat
import struct
import tempfile
from pathlib import Path

import pytest

from core import Match
from core.errors import IllegalMove
from core.moves import Bid, Move, Play
from core.tiles import Tile
from net import server as server_module
from net.address import unix
from net.client import TableClient
from net.messages import Closed, Refused, Snapshot, UndoAsked, UndoResult
from net.protocol import MAX_FRAME
from saves.autosave import Autosave
from saves.store import SaveStore
from tests.net.helpers import (
    RawClient,
    ann_and_ben,
    event_of,
    garbage_frame,
    moon_match,
    run,
    seed_where,
    serving,
    snapshot_where,
)


def my_turn(snapshot: Snapshot) -> bool:
    return bool(snapshot.legal)


def test_seats_by_name_and_refusals():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            assert (ann.seat, ann.game, ann.players) == (0, "moon", 3)
            assert ann.snapshot is not None and ann.snapshot.view.seat == 0
            with pytest.raises(ConnectionError, match="that seat is kept for its player"):
                await TableClient.connect(str(server.address), "ann")
            with pytest.raises(ConnectionError, match="computer player"):
                await TableClient.connect(str(server.address), "Bot 3")
            with pytest.raises(ConnectionError, match="not free"):
                await TableClient.connect(str(server.address), "Cy", seat=2)
            ben = await TableClient.connect(str(server.address), "Ben", seat=1)
            assert ben.seat == 1 and server.match.names == ("Ann", "Ben", "Bot 3")
            with pytest.raises(ConnectionError, match="full"):
                await TableClient.connect(str(server.address), "Cy")
            seen = await snapshot_where(ann, lambda s: s.seats == ("human", "human", "easy"))
            assert seen.names == ("Ann", "Ben", "Bot 3")
            await ann.close()
            await ben.close()

    run(go())


def test_illegal_move_is_refused_with_the_rules_message_and_nothing_changes():
    async def go() -> None:
        async with ann_and_ben() as (server, ann, ben):
            await snapshot_where(ann, my_turn)
            match = server.match
            events, cursor, state = match.events, match.cursor, match.state
            bad: Move = Bid(3)  # MN-9: bids are 4, 5, 6, 7 or 21
            with pytest.raises(IllegalMove) as expected:
                match.game.apply(state, bad)
            await ann.send_move(bad)
            refused = await event_of(ann, Refused)
            assert refused.reason == expected.value.message and refused.reason.startswith("MN-9")
            foreign = Play(Tile(6, 6)) if Tile(6, 6) not in state.hands[0] else Play(Tile(0, 0))
            await ann.send_move(foreign)
            assert (await event_of(ann, Refused)).reason.startswith("MN-")
            await ben.send_move(Bid(4))  # not Ben's turn
            assert "not your turn" in (await event_of(ben, Refused)).reason
            assert (match.events, match.cursor, match.state) == (events, cursor, state)
            await ann.send_move(state.legal[0])  # a legal move still goes through
            after = await snapshot_where(ann, lambda s: s.cursor > cursor)
            assert match.events[cursor] == state.legal[0] and after.cursor >= cursor + 1
            await ann.close()
            await ben.close()

    run(go())


def test_garbage_and_oversized_frames_disconnect_only_that_client():
    async def go() -> None:
        seed = seed_where(lambda seat: seat != 1)  # Ann (seat 0) gets a turn without waiting for seat 1
        async with serving(moon_match("human,human,easy", seed)) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            bad = await RawClient.connect(server.address, "Ben")
            await bad.send_bytes(garbage_frame())
            assert "not valid msgpack" in await bad.until_bye()
            await bad.close()
            await snapshot_where(ann, lambda s: s.seats[1] == "away")
            huge = await RawClient.connect(server.address, "Ben", bad.welcome["token"])  # back at seat 1
            await huge.send_bytes(struct.pack(">I", MAX_FRAME + 1) + b"\x00" * 64)
            assert "over the limit" in await huge.until_bye()
            await huge.close()
            wrong = await RawClient.connect(server.address)
            await wrong.send({"type": "hello", "name": "Ben", "v": 2})
            assert "version 2" in await wrong.until_bye()
            await wrong.close()
            unhello = await RawClient.connect(server.address)
            await unhello.send({"type": "move", "move": ["pass"]})
            assert "first message must be hello" in await unhello.until_bye()
            await unhello.close()
            twice = await RawClient.connect(server.address, "Ben", bad.welcome["token"])
            await twice.send({"type": "hello", "name": "Ben"})
            assert "one hello" in await twice.until_bye()
            await twice.close()
            # Ann plays on.
            turn = await snapshot_where(ann, my_turn)
            await ann.send_move(turn.legal[0])
            after = await snapshot_where(ann, lambda s: s.cursor > turn.cursor)
            assert server.match.events[turn.cursor] == turn.legal[0] and after.seats[1] == "away"
            assert any("dropped a client" in line for line in server.lines)
            await ann.close()

    run(go())


def test_a_dropped_client_keeps_its_seat_and_reconnects():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            ben = await TableClient.connect(str(server.address), "Ben")
            hand = ann.snapshot.view.hand
            ann._writer.transport.abort()  # the connection breaks, without a bye
            await snapshot_where(ben, lambda s: s.seats[0] == "away")
            with pytest.raises(ConnectionError, match="not free"):
                await TableClient.connect(str(server.address), "Cy", seat=0)
            with pytest.raises(ConnectionError, match="full"):
                await TableClient.connect(str(server.address), "Cy")
            with pytest.raises(ConnectionError, match="that seat is kept for its player"):
                await TableClient.connect(str(server.address), "Ann")  # her name alone is not enough
            again = await TableClient.connect(str(server.address), "Ann", token=ann.token)
            assert again.seat == 0 and again.snapshot.view.hand == hand
            await snapshot_where(ben, lambda s: s.seats[0] == "human")
            assert any("Ann is back at seat 1" in line for line in server.lines)
            await again.close()
            await ben.close()
            await ann.close()

    run(go())


def test_a_bot_stands_in_after_the_timeout_and_the_seat_returns_to_its_player():
    async def go() -> None:
        async with ann_and_ben(takeover_after=0.05) as (server, ann, ben):
            start = (await snapshot_where(ann, my_turn)).cursor
            await ann.close()
            # The stand-in makes Ann's bid; then Ben or the bot is to move.
            moved = await snapshot_where(ben, lambda s: s.cursor > start and 0 in s.stand_ins)
            assert any(seat == 0 for seat, _ in moved.view.bids)
            assert moved.seats[0] == "away"
            back = await TableClient.connect(str(server.address), "Ann", token=ann.token)
            assert back.seat == 0 and back.snapshot.stand_ins == () and back.snapshot.seats[0] == "human"
            assert any("plays for Ann" in line for line in server.lines)
            await back.close()
            await ben.close()

    run(go())


def test_no_takeover_when_the_host_says_never():
    async def go() -> None:
        async with ann_and_ben() as (server, ann, ben):
            turn = await snapshot_where(ann, my_turn)
            await ann.close()
            away = await snapshot_where(ben, lambda s: s.seats[0] == "away")
            await asyncio.sleep(0.1)
            assert server.match.cursor == turn.cursor and away.stand_ins == ()
            await ben.close()

    run(go())


def test_undo_needs_every_other_humans_agreement(monkeypatch):
    async def go() -> None:
        async with ann_and_ben() as (server, ann, ben):
            turn = await snapshot_where(ann, my_turn)
            await ann.send_move(turn.legal[0])
            await snapshot_where(ann, lambda s: s.cursor > turn.cursor and s.can_undo)
            match = server.match
            cursor, events = match.cursor, match.events

            await ann.request_undo()
            assert (await event_of(ben, UndoAsked)).by == 0
            held = await snapshot_where(ben, lambda s: True)
            assert held.legal == ()  # nobody moves while the request waits
            await ben.answer_undo(False)
            assert await event_of(ann, UndoResult) == UndoResult(False, 0, 1)
            assert (match.cursor, match.events) == (cursor, events)

            monkeypatch.setattr(server_module, "UNDO_AGAIN_AFTER", 0.0)  # declined: asked again only later
            await ann.request_undo()
            await event_of(ben, UndoAsked)
            await ben.answer_undo(True)
            result = await event_of(ann, UndoResult)
            assert result.accepted and result.by == 0
            expected = Match("moon", 3, match.options, match.seats, match.seed, events, cursor)
            expected.undo()
            assert match.cursor == expected.cursor < cursor
            back = await snapshot_where(ann, lambda s: s.cursor == expected.cursor)
            assert back.legal  # Ann's decision again
            await ben.answer_undo(True)  # nothing is waiting now
            assert "no undo request" in (await event_of(ben, Refused)).reason
            await ann.close()
            await ben.close()

    run(go())


def test_undo_is_immediate_for_a_lone_human_and_refused_with_nothing_to_undo():
    async def go() -> None:
        seed = seed_where(lambda seat: seat == 0, "human,easy,easy")
        async with serving(moon_match("human,easy,easy", seed)) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            turn = await snapshot_where(ann, my_turn)
            await ann.request_undo()
            assert "nothing to undo" in (await event_of(ann, Refused)).reason
            await ann.send_move(turn.legal[0])
            await snapshot_where(ann, lambda s: s.cursor > turn.cursor and s.can_undo and s.thinking is None)
            await ann.request_undo()
            assert (await event_of(ann, UndoResult)).accepted
            back = await snapshot_where(ann, lambda s: s.cursor == turn.cursor)
            assert back.legal == turn.legal
            await ann.close()

    run(go())


def test_every_event_is_autosaved_and_a_resumed_match_is_hosted():
    async def go(directory: str) -> None:
        store = SaveStore(directory, durable=False)
        match = moon_match("human,human,easy", seed_where(lambda seat: seat == 0))
        autosave = Autosave(store, match)
        keys = Path(directory) / "seat-keys" / f"{autosave.match_id}.json"
        async with serving(match, autosave=autosave, keys_path=keys) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            token = ann.token
            turn = await snapshot_where(ann, my_turn)
            await ann.send_move(turn.legal[0])
            await snapshot_where(ann, lambda s: s.cursor > turn.cursor)
            saved = store.load(autosave.match_id).record.match
            assert saved == server.match and saved.names[0] == "Ann"
            await ann.close()
        loaded = store.load(autosave.match_id)
        resumed = loaded.record.match
        assert stat.S_IMODE(keys.stat().st_mode) == 0o600 and token not in keys.read_text()  # only its hash
        async with serving(resumed, autosave=Autosave.resume(store, loaded), keys_path=keys) as server:
            ben = await TableClient.connect(str(server.address), "Ben")
            assert ben.seat == 1  # Ann's seat is kept for her, under her saved name
            with pytest.raises(ConnectionError, match="that seat is kept for its player"):
                await TableClient.connect(str(server.address), "ANN")
            ann = await TableClient.connect(str(server.address), "Ann", token=token)
            assert ann.seat == 0 and ann.match_id == autosave.match_id and ann.token == token
            assert ann.snapshot.view == resumed.view(0) and ann.snapshot.cursor == saved.cursor
            await ann.close()
            await ben.close()

    with tempfile.TemporaryDirectory() as directory:
        run(go(directory))


def test_a_unix_socket_address_works():
    async def go(path: str) -> None:
        async with serving(moon_match("human,easy,easy"), unix(path)) as server:
            assert str(server.address) == path
            ann = await TableClient.connect(path, "Ann")
            assert ann.seat == 0 and ann.snapshot.view.hand
            await ann.close()
        assert not os.path.exists(path)  # removed when the table closes

    with tempfile.TemporaryDirectory() as directory:
        run(go(os.path.join(directory, "table.sock")))


def test_closing_the_table_says_bye_to_clients():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
        closed = await event_of(ann, Closed)
        assert "closed the table" in closed.reason
        with pytest.raises(ConnectionError):
            await ann.send_move(Bid(4))
        await ann.close()

    run(go())


def test_connect_to_nowhere_is_a_one_line_connection_error():
    async def go() -> None:
        with tempfile.TemporaryDirectory() as directory:
            with pytest.raises(ConnectionError) as caught:
                await TableClient.connect(os.path.join(directory, "none.sock"), "Ann")
            assert "\n" not in str(caught.value)

    run(go())


def test_searching_bots_think_in_the_bot_process_and_it_ends_with_the_table():
    async def go() -> None:
        match = moon_match("human,medium,medium")
        async with serving(match, bot_budget=0.05) as server:
            ann = await TableClient.connect(str(server.address), "Ann")
            # Play on (the first legal move) until the bots have made a few decisions.
            while server.match.cursor < 6:
                snapshot = await snapshot_where(ann, lambda s: True)
                if snapshot.legal:
                    await ann.send_move(snapshot.legal[0])
            bots = server._bots
            assert bots is not None and bots._process is not None and bots._process.poll() is None
            await ann.close()
        assert bots._process is None  # closed with the table

    run(go())
