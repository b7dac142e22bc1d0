"""Lobby tables and watchers: the table's maker leaves it open to watchers (as many as the server
allows) or closes it; its host counts its watchers in the status the lobby reads."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from cli.main import main
from net.client import TableClient
from net.limits import ServerLimits
from net.tables import Table, TableSeat, create_table, host_argv, list_tables, process_alive, read_table_status
from tests.net.helpers import run
from tests.processes import environment, wait_until

SEATS = (TableSeat("human", "Ann"), TableSeat("open"), TableSeat("bot", level="easy"))


def opened(home: Path, **kwargs) -> Table:
    return create_table("moon", SEATS, {}, "Ann", environment=environment(home), **kwargs)


def close(table: Table) -> None:
    os.kill(table.pid, signal.SIGTERM)
    wait_until(lambda: not process_alive(table.pid), "the table's host to end")


def test_a_watchable_table_takes_the_servers_number_and_counts_its_watchers(home, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    table = opened(home, limits=ServerLimits(max_watchers=2))
    try:
        listed = next(found for found in list_tables() if found.table_id == table.table_id)
        assert listed.watchable and listed.max_watchers == 2

        async def watch() -> str:
            first = await TableClient.watch(str(table.socket))
            second = await TableClient.watch(str(table.socket))
            status = table.socket.with_suffix(".seats")
            while (read_table_status(status, 3) or ((), 0))[1] != 2:
                await asyncio.sleep(0.05)
            with pytest.raises(ConnectionError) as third:
                await TableClient.watch(str(table.socket))
            for watcher in (first, second):
                await watcher.close()
            while (read_table_status(status, 3) or ((), 2))[1] != 0:
                await asyncio.sleep(0.05)
            return str(third.value)

        assert run(watch()) == "this table has as many watchers as it takes (2); try again later"
        assert next(found for found in list_tables() if found.table_id == table.table_id).watching == 0
    finally:
        close(table)


def test_a_table_its_maker_closed_to_watchers_refuses_them(home, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    table = opened(home, watchable=False)
    try:
        assert "--watchers" in host_argv("moon", SEATS, {}, table.socket)
        listed = next(found for found in list_tables() if found.table_id == table.table_id)
        assert not listed.watchable

        async def watch() -> str:
            with pytest.raises(ConnectionError) as refused:
                await TableClient.watch(str(table.socket))
            return str(refused.value)

        assert run(watch()) == "this table is closed to watchers"
    finally:
        close(table)


def test_a_sidecar_from_before_watching_is_read_as_closed(tmp_path):
    table = Table("t1", "moon", SEATS, {}, "Ann", 0.0, 1, tmp_path / "t1.sock", max_watchers=7)
    data = table.to_data()
    assert Table.from_data(data).max_watchers == 7
    del data["watchers"]
    assert not Table.from_data(data).watchable
    for wrong in (-1, 10**6, "50", True):
        with pytest.raises(ValueError):
            Table.from_data({**data, "watchers": wrong})


def test_host_and_lobby_take_the_watchers_flags(home, capsys):
    assert main(["host", "--game", "moon", "--watchers", "-1"]) == 2
    assert "--watchers must be from 0 to 1000, not -1" in capsys.readouterr().err
    assert main(["serve-ssh", "--open", "--max-watchers", "5000"]) == 2
    assert "--max-watchers must be from 0 to 1000, not 5000" in capsys.readouterr().err
