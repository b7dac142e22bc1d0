"""`dominoes web-invite` and `dominoes serve-web` as commands: what they print, what they refuse."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import pytest

from cli.main import main
from net import web_server
from net.accounts import RoomBook
from net.tables import TableSeat, create_table, list_tables, process_alive
from net.web_auth import InviteBook
from tests.net.ssh_client import TIMEOUT
from tests.processes import environment

LINK = re.compile(r"(https?://[^/\s]+(?:/[^\s]*)?)/join/([A-Za-z0-9_-]{43})")


def test_web_invite_prints_one_line_a_link_with_256_random_bits(home, capsys):
    assert main(["web-invite", "Ann"]) == 0
    first = capsys.readouterr().out
    assert main(["web-invite", "Ann"]) == 0
    second = capsys.readouterr().out
    assert first.count("\n") == 1 and second.count("\n") == 1
    (base, token), (_, other) = LINK.fullmatch(first.strip()).groups(), LINK.fullmatch(second.strip()).groups()
    assert base == "http://127.0.0.1:8000"  # no server has said where it is: the default address
    assert token != other
    assert token not in (home / "web" / "invites.json").read_text()


def test_web_invite_begins_links_as_the_server_says_or_as_told(home, capsys):
    InviteBook(home).folder.mkdir(mode=0o700)
    (home / "web" / "server.json").write_text('{"base_url": "https://dominoes.example.org"}')
    assert main(["web-invite", "Ann"]) == 0
    assert capsys.readouterr().out.startswith("https://dominoes.example.org/join/")
    assert main(["web-invite", "Ann", "--base-url", "http://192.0.2.7:8000/"]) == 0
    assert capsys.readouterr().out.startswith("http://192.0.2.7:8000/join/")


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["web-invite", ""], "a name cannot be empty"),
        (["web-invite", "x" * 21], "at most 20 characters"),
        (["web-invite", "a\x1b[31m"], "printable"),
        (["web-invite", "Ann", "--base-url", "javascript:alert(1)"], "a base URL is http(s)://"),
        (["web-invite", "Ann", "--revoke", "--base-url", "http://x"], "--revoke takes no --base-url"),
        (["serve-web", "--port", "70000"], "--port must be from 0 to 65535"),
        (["serve-web", "--base-url", "ftp://x"], "a base URL is http(s)://"),
        (["serve-web", "--max-sessions", "0"], "--max-sessions must be at least 1"),
        (["serve-web", "--open", "--sign-ups-per-address", "0"], "--sign-ups-per-address must be from 1 to 1000000"),
    ],
)
def test_a_bad_argument_is_one_line_and_status_2(home, capsys, arguments, words):
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert words in error and error.count("\n") == 1
    assert not (home / "web" / "invites.json").exists()


def test_serve_web_without_the_pages_terminal_script_says_so_in_one_line(home, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(web_server, "TERMINAL", tmp_path)  # an installation left incomplete: no xterm.js
    assert main(["serve-web", "--port", "0"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("dominoes serve-web: cannot start:") and "xterm.js" in error and error.count("\n") == 1


def test_web_invite_revoke_says_what_it_ended(home, capsys):
    main(["web-invite", "Ann"])
    main(["web-invite", "ann"])
    capsys.readouterr()
    assert main(["web-invite", "ANN", "--revoke"]) == 0
    assert capsys.readouterr().out == "dominoes web-invite: ANN's 2 links and every session of theirs ended\n"


def test_serve_web_says_where_it_is_how_to_open_it_up_and_stops_on_sigterm(home):
    seats = (TableSeat("human", "Ann"), TableSeat("open"), TableSeat("bot", level="easy"))
    table = create_table("moon", seats, {}, "Ann", environment=environment(home))  # opened from its lobby
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve-web", "--port", "0"],
        env={**os.environ, "DOMINOES_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(5)]
        port = re.fullmatch(
            r"dominoes serve-web: serving on http://127\.0\.0\.1:(\d+) \(Ctrl\+C stops it\)\n", lines[0]
        )[1]
        assert "web-invite NAME" in lines[1] and lines[2] == f"  their links begin with http://127.0.0.1:{port}/join/\n"
        assert "this machine alone can reach it" in lines[3] and "reverse proxy with TLS" in lines[4]
        assert all(len(line) <= 81 for line in lines)  # each fits an 80-column terminal
        assert InviteBook(home).base_url() == f"http://127.0.0.1:{port}"  # web-invite's links will match
        process.send_signal(signal.SIGTERM)  # as `systemctl stop` does
        assert process.wait(TIMEOUT) == 0
        rest = process.stdout.read()
        assert "Traceback" not in rest
        assert "closed 1 table; their matches are saved" in rest and rest.endswith("dominoes serve-web: stopped\n")
        assert not process_alive(table.pid, table.socket) and list_tables(table.socket.parent) == []
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process_alive(table.pid, table.socket):
            os.kill(table.pid, signal.SIGKILL)


def test_web_invite_refuses_a_name_an_open_rooms_player_holds_in_one_line(home, capsys):
    book = RoomBook(home)
    book.sign_up_browser("Zoé", "10.0.0.1")
    book.sign_up("Ken", "SHA256:" + "K" * 43, "10.0.0.2")
    for typed, held in (("ZOÉ", "Zoé"), ("ken", "Ken")):  # the invitee would share that player's folder
        assert main(["web-invite", typed]) == 1
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line.startswith(f"dominoes web-invite: {held} is a name of this server's open room")
    assert InviteBook(home).base_url() is None and not (home / "web" / "invites.json").exists()
    assert main(["web-invite", "Ann"]) == 0 and "/join/" in capsys.readouterr().out
    assert main(["web-invite", "--revoke", "Zoé"]) == 0  # revoking refuses nothing
    (home / "accounts.json").write_text("{damaged")
    assert main(["web-invite", "Ben"]) == 1
    assert "the open room's names cannot be read" in capsys.readouterr().err
