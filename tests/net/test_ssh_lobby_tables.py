"""Over SSH, end to end: the lobby opens a table (a `dominoes host` process), seats its maker there
with `dominoes join` in the same terminal, and comes back to the lobby, which lists the table."""

from __future__ import annotations

import asyncio

from net.tables import list_tables
from tests.net.ssh_client import Keys, connect, open_terminal, remove, running_door, short_home, stop_tables


def test_a_table_opened_from_the_lobby_over_ssh_is_played_and_listed(monkeypatch):
    home = short_home()
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    keys = Keys(home)

    async def run() -> None:
        async with running_door(home, keys) as door, await connect(door, keys.known, username="alice") as connection:
            channel, screen = await open_terminal(connection, (80, 24))
            await screen.wait_for("Dominoes lobby")
            channel.write(b"n")
            await screen.wait_for("Open the table")
            channel.write(b"\x13")  # Ctrl+S: open it
            await screen.wait_for("alice's tiles")  # seated at the table, through `dominoes join`
            (table,) = list_tables()
            assert table.creator == "alice" and table.seats[0].name == "alice"
            screen.received.clear()
            channel.write(b"q")  # leave the table: back in the lobby, which lists it
            await screen.wait_for("Dominoes lobby")
            await screen.wait_for("Chicken Foot")
            channel.write(b"q")
            await asyncio.wait_for(screen.closed.wait(), 30)

    try:
        asyncio.run(run())
    finally:
        stop_tables(home)
        remove(home)
