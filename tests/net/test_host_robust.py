"""`dominoes host` as an operator runs it: one host per match, a table that outlives its log output,
a clean stop on Ctrl+C or SIGTERM (socket removed, no traceback), a lobby's table that leaves no
files behind, and `serve-ssh` that closes its lobby's tables when it stops."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

import pytest

from net.client import TableClient
from net.messages import Snapshot
from net.tables import TableSeat, create_table, list_tables, process_alive
from saves.autosave import Autosave
from saves.store import SaveStore
from tests.net.ssh_client import Keys, remove, short_home
from tests.processes import WAIT, environment, piped_dominoes, run_dominoes, wait_until

HOST = ("host", "--game", "moon", "--seats", "human,easy,easy", "--pause", "0")


@pytest.fixture
def home():
    path = short_home()  # Unix socket paths are short
    yield path
    remove(path)


def start_host(home: Path, *arguments: str) -> subprocess.Popen[str]:
    """A host whose first line (`hosting ...`) has been read."""
    process = piped_dominoes(home, *arguments)
    line = process.stdout.readline()
    assert line.startswith("hosting "), line + process.stderr.read()
    return process


def stop(process: subprocess.Popen[str], how: int = signal.SIGINT) -> tuple[str, str]:
    process.send_signal(how)
    try:
        return process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def play(path: str, name: str, events: int) -> int:
    """Sit at the table and play the first legal move at each turn until `events` more events have
    happened there; the cursor then."""
    client = await TableClient.connect(path, name)
    start = client.snapshot.cursor
    snapshot = client.snapshot
    try:
        while snapshot.cursor < start + events:
            if snapshot.legal:
                await client.send_move(snapshot.legal[0])
            event = await client.next_event(WAIT)
            while not isinstance(event, Snapshot):
                event = await client.next_event(WAIT)
            snapshot = event
    finally:
        await client.close()
    return snapshot.cursor


def test_two_hosts_of_one_match(home):
    socket = home / "a.sock"
    first = start_host(home, *HOST, "--socket", str(socket))
    try:
        (match_id,) = SaveStore(home / "saves").ids()
        second = run_dominoes(home, "host", "--resume", match_id, "--socket", str(home / "b.sock"))
        assert second.returncode == 1 and second.stdout == "" and second.stderr.count("\n") == 1
        holder = f"(process {first.pid}, dominoes host --game moon"
        assert second.stderr.startswith(f"dominoes host: match {match_id} is open in another process {holder}")
        assert not (home / "b.sock").exists()
        asyncio.run(play(str(socket), "Ann", 4))
        _, err = stop(first)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 0 and "Traceback" not in err
    played = SaveStore(home / "saves").load(match_id).record.match
    again = start_host(home, "host", "--resume", match_id, "--socket", str(home / "b.sock"))
    try:
        _, err = stop(again)
    finally:
        if again.poll() is None:
            again.kill()
    assert again.returncode == 0, err
    assert SaveStore(home / "saves").load(match_id).record.match.events[: len(played.events)] == played.events


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_table_outlives_its_closed_output_and_stops_cleanly(home, how):
    socket = home / "t.sock"
    host = start_host(home, *HOST, "--socket", str(socket))
    try:
        host.stdout.close()  # `dominoes host ... | head -1`: the reader is gone
        cursor = asyncio.run(play(str(socket), "Ann", 12))  # every event would print a line
        assert host.poll() is None
        _, err = stop(host, how)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert host.returncode == 0 and err == ""  # no traceback, nothing lost
    assert not socket.exists()
    store = SaveStore(home / "saves")
    (match_id,) = store.ids()
    assert store.load(match_id).record.match.cursor >= cursor
    assert sorted(os.listdir(store.directory)) == [f"{match_id}.dominoes", f"{match_id}.dominoes.bak"]  # no lock


def table_files(directory: Path) -> list[str]:
    """The tables' own files in the lobby's folder, not the lock that counts them (it stays)."""
    return sorted(name for name in os.listdir(directory) if name != ".lock")


def test_a_lobby_table_that_ends_leaves_no_files(home, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    seats = (TableSeat("human", "Ann"), TableSeat("open"), TableSeat("bot", level="easy"))
    table = create_table("moon", seats, {}, "Ann", environment=environment(home))
    directory = table.socket.parent
    files = sorted(f"{table.table_id}{suffix}" for suffix in (".json", ".log", ".seats", ".sock"))
    try:
        wait_until(lambda: table_files(directory) == files, "the host to write its seat status")
        os.kill(table.pid, signal.SIGTERM)  # as an idle table closing: the host ends on its own
        wait_until(lambda: not process_alive(table.pid), "the table's host to end")
    finally:
        if process_alive(table.pid, table.socket):  # a failed test leaves no table behind
            os.kill(table.pid, signal.SIGKILL)
    assert table_files(directory) == []  # removed by the host itself, before any lobby looks
    (match_id,) = SaveStore(home / "saves").ids()
    Autosave.open(SaveStore(home / "saves"), match_id).close()  # saved, and free to resume


def test_stopping_serve_ssh_closes_its_lobbys_tables_saved(home, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    keys = Keys(home)
    seats = (TableSeat("human", "Ann"), TableSeat("open"), TableSeat("bot", level="easy"))
    table = create_table("moon", seats, {}, "Ann", environment=environment(home))
    server = piped_dominoes(home, "serve-ssh", "--port", "0", "--authorized-keys", str(keys.authorized))
    try:
        assert "listening on" in server.stdout.readline()
        out, err = stop(server, signal.SIGTERM)  # as `systemctl stop` does
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        if process_alive(table.pid, table.socket):
            os.kill(table.pid, signal.SIGKILL)
    assert server.returncode == 0 and "Traceback" not in err, err
    assert "closed 1 table; their matches are saved" in out
    assert not process_alive(table.pid, table.socket) and list_tables(table.socket.parent) == []
    assert table_files(table.socket.parent) == []
    (match_id,) = SaveStore(home / "saves").ids()
    Autosave.open(SaveStore(home / "saves"), match_id).close()
