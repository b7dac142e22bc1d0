"""Only a seat's player takes it back: the key given in `welcome`, kept by `dominoes join` in the
player's data directory, and presented when they come back. A hello with the seat's name alone, in
any case, is refused; so is a stranger's key."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from cli.join_command import join_and_play
from net.address import parse_address
from net.client import TableClient
from net.messages import Closed
from net.seat_keys import CLIENT_DIRECTORY, TokenStore, token_hash
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


def test_join_keeps_the_key_in_the_players_data_directory_and_comes_back_with_it(tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    seated: list[TableClient] = []

    async def run_async(app: object) -> None:  # the interface, left at once: the seat is the point here
        seated.append(app.start_remote)  # type: ignore[attr-defined]

    monkeypatch.setattr("tui.app.DominoesApp.run_async", run_async)

    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            address = parse_address(str(server.address))
            assert await join_and_play(address, "Ana", None) == 0
            (first,) = seated
            files = list((tmp_path / CLIENT_DIRECTORY).iterdir())
            assert len(files) == 1 and stat.S_IMODE(files[0].stat().st_mode) == 0o600
            assert stat.S_IMODE((tmp_path / CLIENT_DIRECTORY).stat().st_mode) == 0o700
            assert TokenStore(tmp_path / CLIENT_DIRECTORY).get(str(address), "ANA") == first.token
            await snapshot_where(await TableClient.connect(str(server.address), "Ben"), lambda s: s.seats[0] == "away")
            with pytest.raises(ConnectionError, match="kept for its player"):
                await TableClient.connect(str(server.address), "Ana")
            assert await join_and_play(address, "Ana", None) == 0  # the kept key takes the seat back
            assert seated[1].seat == 0 and seated[1].token == first.token
            assert server.table.keys[0] == token_hash(first.token)

    run(go())


def test_a_token_file_is_read_within_bounds(tmp_path: Path):
    store = TokenStore(tmp_path / "tokens")
    store.put("h:1", "Ana", "t" * 43, "m")
    assert store.get("h:1", "ana") == "t" * 43 and store.get("h:1", "Ben") is None and store.get("h:2", "Ana") is None
    (path,) = (tmp_path / "tokens").iterdir()
    path.write_text('{"token": "' + "t" * 200 + '"}')
    assert store.get("h:1", "Ana") is None  # longer than any key: not presented
    path.write_text("[" * 100000)
    assert store.get("h:1", "Ana") is None
