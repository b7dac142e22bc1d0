"""Any name the key file takes works everywhere: one that begins with `-`, and one that is not
ASCII (José), log in over SSH, reach their lobby, and open a lobby table, whose host is started with
`--seat-name=SEAT:NAME` (a name beginning with `-` is no option)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import asyncssh
import pytest

from cli.main import main
from net.ssh_keys import load_authorized_keys
from net.tables import TableSeat, create_table, host_argv, process_alive, read_seat_status
from tests.net.ssh_client import connect, key_line, make_key, open_terminal, running_door
from tests.net.test_web_server import run
from tests.net.web_client import browser, open_screen, running_web_door, signed_in
from tests.processes import environment, wait_until

NAMES = ("José", "-dash", "Zoë-Ann")


@pytest.fixture
def named_keys(home: Path) -> dict[str, Path]:
    paths = {}
    lines = []
    for index, name in enumerate(NAMES):
        path = home / f"key{index}"
        lines.append(key_line(make_key(path), name))
        paths[name] = path
    (home / "named_keys").write_text("".join(lines), encoding="utf-8")
    return paths


def test_the_key_file_takes_names_that_begin_with_a_dash_or_are_not_ascii(home, named_keys):
    keys = load_authorized_keys(home / "named_keys")
    assert keys.names() == list(NAMES)
    assert keys.name_of("josé") == "José" and keys.keys_for("JOSÉ") is not None


def test_such_names_log_in_over_ssh_and_reach_their_lobby(home, named_keys, keys):
    async def go() -> None:
        keys.authorized = home / "named_keys"
        async with running_door(home, keys) as door:
            for name in ("José", "-dash"):
                connection = await connect(door, named_keys[name], username=name)
                _, screen = await open_terminal(connection)
                await screen.wait_for(f"signed in as {name}")
                connection.close()
            with pytest.raises(asyncssh.PermissionDenied):  # José's key is José's only
                await connect(door, named_keys["José"], username="-dash")

    run(go())


def test_such_names_sign_in_at_the_web_door(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as session:
            await signed_in(session, door, "José")
            screen = await open_screen(session)
            await screen.wait_for("signed in as José")

    run(go())


def test_a_lobby_table_opened_by_a_player_whose_name_begins_with_a_dash_starts(home, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    seats = (TableSeat("human", "-dash"), TableSeat("open"), TableSeat("bot", level="easy"))
    argv = host_argv("moon", seats, {}, home / "t.sock")
    assert "--seat-name=1:-dash" in argv
    table = create_table("moon", seats, {}, "-dash", environment=environment(home))
    try:
        status = table.socket.with_suffix(".seats")
        wait_until(lambda: read_seat_status(status, 3) is not None, "the host to say who sits where")
        assert read_seat_status(status, 3)[0] == ("-dash", "away")  # kept for its player
    finally:
        os.kill(table.pid, signal.SIGTERM)
        wait_until(lambda: not process_alive(table.pid), "the table's host to end")


def test_seat_name_takes_seat_and_name_as_two_words_or_one(home, capsys):
    assert main(["host", "--game", "moon", "--seat-name", "2"]) == 2
    assert "--seat-name takes SEAT NAME, or SEAT:NAME in one word, not '2'" in capsys.readouterr().err
    assert main(["host", "--game", "moon", "--seat-name=4:-x"]) == 2
    assert "--seat-name names seat 4, and the seats are 1 to 3" in capsys.readouterr().err


def test_seat_name_in_one_word_names_the_seat(home, monkeypatch):
    from cli.host_command import _new_match
    from cli.parser import build_parser

    parser = build_parser()
    args = parser.parse_args(["host", "--game", "moon", "--seat-name=2:-bob:x", "--seat-name", "3", "Ana, the elder"])
    assert _new_match(args).names == ("Seat 1", "-bob:x", "Ana, the elder")
