"""`dominoes join`: a bad argument is one line and exit status 2; a table that cannot be joined is
one line and exit status 1, before any interface starts."""

from __future__ import annotations

import asyncio
import socket

import pytest

from cli.main import main
from core import Match
from net.address import tcp
from net.client import TableClient
from net.server import TableServer
from tests.tui.test_join import seats


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["join", "nowhere", "--name", "Ana"], "an address is HOST:PORT"),
        (["join", "127.0.0.1:99999", "--name", "Ana"], "a port is a number from 0 to 65535"),
        (["join", "127.0.0.1:4444", "--name", "  "], "a name cannot be empty"),
        (["join", "127.0.0.1:4444", "--name", "A" * 21], "at most 20 characters"),
        (["join", "127.0.0.1:4444", "--name", "Ana", "--seat", "0"], "--seat counts from 1"),
        (["join", "127.0.0.1:4444"], "--name"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.fixture
def as_if_in_a_terminal(monkeypatch):
    """pytest's standard streams are not a terminal; the check for one is tested on its own
    (tests/test_outside_a_terminal.py), so these tests of joining pass it."""
    monkeypatch.setattr("cli.join_command.require_terminal", lambda command: None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_nobody_listening_is_one_line_and_status_1(capsys, as_if_in_a_terminal):
    assert main(["join", f"127.0.0.1:{free_port()}", "--name", "Ana"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dominoes join: cannot reach the table at 127.0.0.1:") and err.count("\n") == 1


async def test_a_full_table_is_one_line_and_status_1(capsys, as_if_in_a_terminal):
    server = TableServer(Match("doubles", 2, None, seats("human", "easy"), seed=5))
    await server.start(tcp("127.0.0.1", 0))
    ana = await TableClient.connect(str(server.address), "Ana")
    try:
        # The command runs its own event loop, so it runs in a thread while this loop serves.
        status = await asyncio.to_thread(main, ["join", str(server.address), "--name", "Ben"])
    finally:
        await ana.close()
        await server.close()
    assert status == 1
    assert capsys.readouterr().err == "dominoes join: the table is full: every seat is taken\n"
