"""Over SSH, end to end: a player whose connection dies comes back to what they were doing. Their
seat at a lobby table is shown as theirs and taken back with Enter (an easy bot played for them
meanwhile, so nobody waited); their match alone resumes from the lobby where it was; and their
saves are theirs alone."""

from __future__ import annotations

import asyncio
import os

from net.client import TableClient
from net.limits import ServerLimits
from net.tables import TableSeat, create_table
from saves.store import SaveStore
from tests.net.helpers import snapshot_where
from tests.net.ssh_client import Keys, connect, open_terminal, remove, running_door, short_home, stop_tables


def test_a_dropped_player_takes_their_seat_back_from_the_lobby_and_a_bot_played_meanwhile(monkeypatch):
    home = short_home()
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    keys = Keys(home)
    seats = (TableSeat("human", "alice"), TableSeat("open"), TableSeat("bot", "Seat 3", "easy"))
    table = create_table("moon", seats, {}, "alice", limits=ServerLimits(takeover=0.5))

    async def run() -> None:
        async with running_door(home, keys) as door:
            connection = await connect(door, keys.known, username="alice")
            channel, screen = await open_terminal(connection, (80, 24))
            await screen.wait_for("you (away), open")  # her table, listed as hers: her seat waits for her
            channel.write(b"\r")  # Enter: her seat
            await screen.wait_for("alice's tiles")  # seated, by `dominoes join`, which kept her key
            bob = await TableClient.connect(str(table.socket), "bob")
            await snapshot_where(bob, lambda s: s.seats == ("human", "human", "easy"))
            connection.abort()  # her network goes away: the session and its join die with it
            seen = await snapshot_where(bob, lambda s: s.seats[0] == "away")
            assert seen.seats[0] == "away"
            await snapshot_where(bob, lambda s: 0 in s.stand_ins)  # nobody waits for her forever

            again = await connect(door, keys.known, username="alice")
            channel, screen = await open_terminal(again, (80, 24))
            await screen.wait_for("you (away)")
            channel.write(b"\r")  # Enter: her seat back
            await screen.wait_for("alice's tiles")
            back = await snapshot_where(bob, lambda s: s.seats[0] == "human" and 0 not in s.stand_ins)
            assert back.names[0] == "alice"
            # A bare hello with her name, in any case, does not take it.
            for thief in ("alice", "ALICE"):
                try:
                    await TableClient.connect(str(table.socket), thief)
                except ConnectionError as refused:
                    assert str(refused) == "that seat is kept for its player"
                else:
                    raise AssertionError("her seat was taken by name")
            await bob.close()
            again.close()

    try:
        asyncio.run(asyncio.wait_for(run(), 120))
    finally:
        stop_tables(home)
        remove(home)


def test_a_match_alone_cut_off_resumes_from_the_lobby_where_it_was_and_is_nobody_elses(monkeypatch):
    home = short_home()
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    keys = Keys(home)
    alice_saves = SaveStore(home / "players" / "alice" / "saves")

    async def run() -> None:
        async with running_door(home, keys) as door:
            connection = await connect(door, keys.known, username="alice")
            channel, screen = await open_terminal(connection, (80, 24))
            await screen.wait_for("Dominoes lobby")
            channel.write(b"a")  # a match alone against bots
            await screen.wait_for("Start")
            channel.write(b"\x13")  # Ctrl+S: start it
            await screen.wait_for("alice's tiles")
            for _ in range(200):
                if alice_saves.ids():
                    break
                await asyncio.sleep(0.05)
            (match_id,) = alice_saves.ids()
            before = alice_saves.load(match_id).record.match
            connection.abort()  # cut off mid-match
            for _ in range(200):
                if not door.active:
                    break
                await asyncio.sleep(0.05)
            kept = alice_saves.load(match_id).record.match
            assert kept.events[: before.cursor] == before.events[: before.cursor]

            # Mallory's lobby offers nothing of hers.
            other = await connect(door, keys.mallory, username="mallory")
            _, hers = await open_terminal(other, (80, 24))
            await hers.wait_for("signed in as mallory")
            await asyncio.sleep(1.0)
            assert "resume your match" not in hers.text()
            other.close()

            again = await connect(door, keys.known, username="alice")
            channel, screen = await open_terminal(again, (80, 24))
            await screen.wait_for("resume your match")  # offered first
            channel.write(b"\r")
            await screen.wait_for("alice's tiles")
            resumed = alice_saves.load(match_id).record.match
            assert resumed.events[: kept.cursor] == kept.events[: kept.cursor]  # the same match, where it was
            assert alice_saves.ids() == [match_id]  # no new match was started
            assert not (home / "players" / "mallory" / "saves").exists() or not os.listdir(
                home / "players" / "mallory" / "saves"
            )
            assert not (home / "saves").exists() or match_id not in os.listdir(home / "saves")
            again.close()

    try:
        asyncio.run(asyncio.wait_for(run(), 120))
    finally:
        remove(home)
