"""A table nobody sits at closes after a while, its match saved; the host tells a lobby who sits
where as it changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from net.client import TableClient
from net.tables import Table, TableSeat, read_seat_status, write_seat_status
from tests.net.helpers import moon_match, run, serving, snapshot_where


def test_an_idle_table_closes_only_once_nobody_is_connected():
    async def go() -> None:
        seats: list[tuple[str, ...]] = []
        async with serving(
            moon_match("human,human,easy"), idle_close_after=0.3, on_seats=lambda names, labels: seats.append(labels)
        ) as server:
            alice = await TableClient.connect(str(server.address), "Alice")
            await snapshot_where(alice, lambda snapshot: True)
            await asyncio.sleep(0.6)  # twice the idle time with a player connected: still open
            assert not server._closed
            await alice.close()
            await asyncio.wait_for(server.serve_until_over(), 30)  # ends by itself, nobody there
            assert "nobody was at the table" in server.end_reason
            assert any("closing: nobody" in line for line in server.lines)  # type: ignore[attr-defined]
            assert not server.match.state.over
        assert seats[0] == ("open", "open", "easy")
        assert ("human", "open", "easy") in seats
        assert seats[-1] == ("away", "open", "easy")

    run(go())


def test_a_table_without_idle_close_stays_open_with_nobody_there():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            await asyncio.sleep(0.3)
            assert not server._closed and server.end_reason == "the match is over"

    run(go())


def test_the_lobby_shows_the_hosts_live_seats(tmp_path: Path):
    opened = (TableSeat("human", "Alice"), TableSeat("open"), TableSeat("bot", "Bot 3", "hard"))
    table = Table("t1", "moon", opened, {}, "Alice", 0.0, 1, tmp_path / "t1.sock")
    assert table.open_seats == 1 and table.seat_texts() == ("Alice", "open", "Bot 3 (hard)")
    status = tmp_path / "t1.seats"
    write_seat_status(status, ("Alice", "Bob", "Bot 3"), ("away", "human", "hard"))
    live = read_seat_status(status, 3)
    assert live == (("Alice", "away"), ("Bob", "human"), ("Bot 3", "hard"))
    table = Table("t1", "moon", opened, {}, "Alice", 0.0, 1, tmp_path / "t1.sock", live)
    assert table.open_seats == 0 and table.seat_texts() == ("Alice (away)", "Bob", "Bot 3 (hard)")
    # A status for another table size, or damaged, is not believed.
    assert read_seat_status(status, 4) is None
    status.write_text('{"version": 1, "names": ["a"], "seats": [7]}')
    assert read_seat_status(status, 1) is None
    status.write_bytes(b"\xff" * 10)
    assert read_seat_status(status, 1) is None
