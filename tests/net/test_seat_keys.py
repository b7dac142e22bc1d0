"""Only a seat's player takes it back: the key given in `welcome`, kept by `dominoes join` in the
player's data directory by the match (not the address), and proved when they come back by answering
the table's fresh challenge, never sent. A hello with the seat's name alone, in any case, is
refused; so is a stranger's key, a replayed proof, and an older client that sends its key."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest

from cli.join_command import join_and_play
from net.address import parse_address, tcp
from net.client import TableClient
from net.messages import Closed
from net.protocol import encode_frame, read_frame
from net.seat_keys import CLIENT_DIRECTORY, TokenStore, token_hash
from net.server import OLD_CLIENT_KEY
from saves.json_file import write_json_file
from tests.net.helpers import RawClient, event_of, moon_match, run, serving, snapshot_where


def test_an_away_players_seat_and_hand_are_not_taken_by_name_in_any_case():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ana = await TableClient.connect(str(server.address), "Ana")
            ben = await TableClient.connect(str(server.address), "Ben")
            token, hand = ana.token, ana.snapshot.view.hand
            assert token is not None and len(token) >= 32  # 256 random bits, url-safe
            await ana.close()
            await snapshot_where(ben, lambda s: s.seats[0] == "away")
            for thief in ("Ana", "ANA", "ana", " ana "):
                with pytest.raises(ConnectionError) as refused:
                    await TableClient.connect(str(server.address), thief)
                assert str(refused.value) == "that seat is kept for its player"
            with pytest.raises(ConnectionError, match="kept for its player"):
                await TableClient.connect(str(server.address), "Ana", token=ben.token)  # another seat's key
            with pytest.raises(ConnectionError, match="kept for its player"):
                await TableClient.connect(str(server.address), "Ana", token="x" * 43)
            back = await TableClient.connect(str(server.address), "ana", token=token)
            assert back.seat == 0 and back.snapshot.view.hand == hand
            assert back.names[0] == "Ana"  # the seat keeps its name as first typed
            assert back.token == token
            await back.close()
            await ben.close()

    run(go())


def test_the_key_takes_the_seat_back_from_a_connection_that_has_not_noticed_it_is_gone():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ana = await TableClient.connect(str(server.address), "Ana")
            again = await TableClient.connect(str(server.address), "Ana", token=ana.token)
            assert again.seat == 0
            closed = await event_of(ana, Closed)
            assert closed.reason == "you took your seat at this table from another connection"
            assert server.table.connected() == (0,)
            await again.close()

    run(go())


def test_a_seat_key_for_another_seat_is_refused_when_a_seat_is_asked_for():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ana = await TableClient.connect(str(server.address), "Ana")
            await ana.close()
            with pytest.raises(ConnectionError, match="your seat at this table is seat 1, not seat 2"):
                await TableClient.connect(str(server.address), "Ana", seat=1, token=ana.token)

    run(go())


def test_a_negative_seat_is_refused_as_the_number_it_is():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            raw = await RawClient.connect(server.address)
            await raw.send({"type": "hello", "name": "Ana", "seat": -1})
            reason = await raw.until_bye()
            assert "-1 names no seat" in reason and "seat 0" not in reason
            await raw.close()
            with pytest.raises(ConnectionError, match="there is no seat 4 at this 3-player table"):
                await TableClient.connect(str(server.address), "Ana", seat=3)  # `join --seat 4`

    run(go())


def test_join_keeps_the_key_by_match_and_comes_back_with_it_at_any_spelling_of_the_address(tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    seated: list[TableClient] = []

    async def run_async(app: object) -> None:  # the interface, left at once: the seat is the point here
        seated.append(app.start_remote)  # type: ignore[attr-defined]

    monkeypatch.setattr("tui.app.DominoesApp.run_async", run_async)

    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            port = server.address.port
            assert await join_and_play(parse_address(f"127.0.0.1:{port}"), "Ana", None) == 0
            (first,) = seated
            files = list((tmp_path / CLIENT_DIRECTORY).iterdir())
            assert len(files) == 1 and stat.S_IMODE(files[0].stat().st_mode) == 0o600
            assert stat.S_IMODE((tmp_path / CLIENT_DIRECTORY).stat().st_mode) == 0o700
            assert first.table_id == server.table_id
            assert TokenStore(tmp_path / CLIENT_DIRECTORY).get(server.table_id, "ANA") == first.token
            await snapshot_where(await TableClient.connect(str(server.address), "Ben"), lambda s: s.seats[0] == "away")
            with pytest.raises(ConnectionError, match="kept for its player"):
                await TableClient.connect(str(server.address), "Ana")
            # The kept key takes the seat back, typed as localhost this time.
            assert await join_and_play(parse_address(f"localhost:{port}"), "Ana", None) == 0
            assert seated[1].seat == 0 and seated[1].token == first.token and not seated[1].new_key
            assert server.table.keys[0] == token_hash(first.token)

    run(go())


def test_a_key_kept_per_address_by_an_older_version_is_found_by_its_match(tmp_path):
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ana = await TableClient.connect(str(server.address), "Ana")
            await ana.close()
            store = TokenStore(tmp_path)
            old = {"address": "somewhere:1", "name": "Ana", "match": server.table_id, "token": ana.token, "kept": 1}
            write_json_file(tmp_path / ("0" * 40 + ".json"), old)
            back = await TableClient.connect(str(server.address), "ana", keys=store)
            assert back.seat == 0 and back.token == ana.token
            await back.close()

    run(go())


class FakeTable:
    """Something listening where a table used to be: it asks a client for a proof with the match's
    id, keeps every frame the client sends, and says no."""

    def __init__(self, match: str) -> None:
        self.match = match
        self.frames: list[dict[str, object]] = []
        self.raw = bytearray()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hello = await read_frame(reader)
        self.frames.append(hello)
        writer.write(encode_frame({"type": "challenge", "nonce": "ab" * 32, "match": self.match}))
        await writer.drain()
        self.frames.append(await read_frame(reader))
        writer.write(encode_frame({"type": "bye", "reason": "no such seat"}))
        await writer.drain()
        writer.close()


def test_a_fake_table_at_the_old_address_learns_nothing_it_can_use_at_the_real_one():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ana = await TableClient.connect(str(server.address), "Ana")
            token = ana.token
            await ana.close()
            fake = FakeTable(server.table_id)
            listener = await asyncio.start_server(fake.handle, "127.0.0.1", 0)
            where = f"127.0.0.1:{listener.sockets[0].getsockname()[1]}"
            with pytest.raises(ConnectionError, match="no such seat"):
                await TableClient.connect(where, "Ana", token=token)
            listener.close()
            hello, answer = fake.frames
            assert "token" not in hello and token not in str(fake.frames)  # the key never travelled
            assert answer["type"] == "proof" and isinstance(answer["proof"], str)
            # Replayed at the real table, the proof opens nothing: its challenge is a fresh one.
            thief = RawClient(*await asyncio.open_connection("127.0.0.1", server.address.port))
            await thief.send(hello)
            assert (await thief.receive())["type"] == "challenge"
            await thief.send(answer)
            assert await thief.until_bye() == "that seat is kept for its player"
            await thief.close()
            back = await TableClient.connect(str(server.address), "Ana", token=token)  # Ana herself still can
            assert back.seat == 0
            await back.close()

    run(go())


def test_an_older_client_that_sends_its_key_is_told_to_update_and_the_key_opens_nothing():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            ana = await TableClient.connect(str(server.address), "Ana")
            await ana.close()
            old = await RawClient.connect(server.address)
            await old.send({"type": "hello", "name": "Ana", "token": ana.token})
            assert await old.until_bye() == OLD_CLIENT_KEY
            await old.close()
            fresh = await RawClient.connect(server.address)  # an older client's first hello still seats it
            await fresh.send({"type": "hello", "name": "Ben"})
            welcome = await fresh.receive()
            assert welcome["type"] == "welcome" and welcome["seat"] == 1 and isinstance(welcome["token"], str)
            await fresh.close()

    run(go())


def test_a_client_never_sends_its_key_to_a_table_that_asks_for_no_proof():
    async def go() -> None:
        received: list[dict[str, object]] = []

        async def older_table(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            received.append(await read_frame(reader))
            writer.write(encode_frame({"type": "bye", "reason": "that seat is kept for its player"}))
            await writer.drain()
            writer.close()

        listener = await asyncio.start_server(older_table, "127.0.0.1", 0)
        address = tcp("127.0.0.1", listener.sockets[0].getsockname()[1])
        with pytest.raises(ConnectionError, match="kept for its player"):
            await TableClient.connect(address, "Ana", token="k" * 43)
        listener.close()
        (hello,) = received
        assert hello["challenge"] is True and "token" not in hello and "k" * 43 not in str(hello)

    run(go())


def test_a_token_file_is_read_within_bounds(tmp_path: Path):
    store = TokenStore(tmp_path / "tokens")
    store.put("m1", "Ana", "t" * 43)
    assert store.get("m1", "ana") == "t" * 43 and store.get("m1", "Ben") is None and store.get("m2", "Ana") is None
    (path,) = (tmp_path / "tokens").iterdir()
    path.write_text('{"token": "' + "t" * 200 + '"}')
    assert store.get("m1", "Ana") is None  # longer than any key: not presented
    path.write_text("[" * 100000)
    assert store.get("m1", "Ana") is None
