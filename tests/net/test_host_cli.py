"""`dominoes host`: bad arguments exit 2 with one line; a hosted table serves a client and stops
cleanly on Ctrl+C with the match saved."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from net.client import TableClient
from saves.store import SaveStore

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "--game is required"),
        (["--game", "go"], "unknown game"),
        (["--game", "moon", "--players", "4"], "exactly 3 players"),
        (["--game", "moon", "--seats", "human,human"], "Three-player Moon takes exactly 3 players, not 2"),
        (["--game", "moon", "--seats", "human,human,wizard"], "a seat is 'human' or a bot level"),
        (["--game", "moon", "--seats", "easy,easy,hard"], "at least one human seat"),
        (["--game", "moon", "--names", "a,b,c,d"], "4 names for 3 players"),
        (["--game", "moon", "--names", "Ann,Ann"], "different name"),
        (["--game", "moon", "--option", "speed=3"], "unknown option 'speed'"),
        (["--game", "moon", "--option", "target"], "NAME=VALUE"),
        (["--game", "moon", "--port", "70000"], "port is a number from 0 to 65535"),
        (["--game", "moon", "--port", "1", "--socket", "/tmp/x.sock"], "not allowed with"),
        (["--game", "moon", "--takeover", "soon"], "--takeover is a number of seconds or 'never'"),
        (["--game", "moon", "--takeover", "-3"], "--takeover is a number of seconds or 'never'"),
        (["--game", "moon", "--idle-close", "later"], "--idle-close is a number of seconds or 'never'"),
        (["--game", "moon", "--takeover-bot", "wizard"], "unknown bot level"),
        (["--game", "moon", "--budget", "0"], "--budget must be a positive number"),
        (["--game", "moon", "--pause", "nan"], "--pause must be from 0 to 60"),
        (["--resume", "nothing"], "no saved match 'nothing'"),
        (["--game", "moon", "--resume", "abc"], "--resume takes the game"),
        (["--game", "moon", "--seed", "x"], "invalid int value"),
        (["--game", "moon", "--seat-name", "0", "Ann"], "--seat-name names seat 0, and the seats are 1 to 3"),
        (["--game", "moon", "--seat-name", "2", "a\x1bb"], "printable"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(home, capsys, argv, words):
    assert main(["host", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err and err.startswith("dominoes")


def start_host(home: Path, *arguments: str) -> tuple[subprocess.Popen[str], list[str]]:
    """`dominoes host` for a Moon table with one human seat, and what it said up to how to join."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DOMINOES_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "host", "--game", "moon", "--seats", "human,easy,easy", *arguments],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    while not any(line.startswith("join with:") for line in lines):
        line = process.stdout.readline()  # type: ignore[union-attr]
        if not line:
            process.kill()
            raise AssertionError(f"host ended early: {process.communicate()[1]}")
        lines.append(line)
    return process, lines


def test_host_serves_a_client_and_stops_on_ctrl_c_with_the_match_saved(home, tmp_path):
    path = str(tmp_path / "table.sock")
    process, lines = start_host(home, "--socket", path)
    try:
        assert f"join with: dominoes join {path} --name NAME\n" in lines

        async def join() -> None:
            client = await TableClient.connect(path, "Ann")
            assert client.seat == 0 and client.snapshot.view.hand
            await client.close()

        asyncio.run(asyncio.wait_for(join(), 60))
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "Ann joined at seat 1" in out and "stopped; the match is saved" in out
    store = SaveStore(home / "saves")
    (match_id,) = store.ids()
    assert store.load(match_id).record.match.names[0] == "Ann"
    assert not os.path.exists(path)


def test_host_listens_on_this_machine_only_unless_told_and_says_so(home):
    process, lines = start_host(home)
    try:
        said = "".join(lines)
        assert "listening on 127.0.0.1, this machine only (--bind 0.0.0.0 opens it to others)\n" in said
        assert "join with: dominoes join 127.0.0.1:" in said
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=10)


def test_reach_says_who_can_join():
    from cli.host_command import reach
    from net.address import tcp, unix

    assert reach(tcp("0.0.0.0", 1)).startswith("every interface (0.0.0.0): anyone who can reach this machine")
    assert reach(tcp("::1", 1)).startswith("::1, this machine only")
    assert reach(tcp("192.0.2.7", 1)).startswith("192.0.2.7: anyone who can reach that address")
    assert reach(unix("./t.sock")).startswith("a Unix socket")


def test_a_full_disk_is_named_when_the_socket_cannot_be_made(home, tmp_path, capsys, monkeypatch):
    import errno

    async def no_room(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("net.server.start_server", no_room)
    path = str(tmp_path / "t.sock")
    assert main(["host", "--game", "moon", "--seats", "human,easy,easy", "--socket", path]) == 1
    err = capsys.readouterr().err
    assert err == f"dominoes host: cannot make the table's socket at {path}: the disk is full\n"
