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
    ],
)
def test_bad_arguments_exit_2_with_one_line(home, capsys, argv, words):
    assert main(["host", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err and err.startswith("dominoes")


def test_host_serves_a_client_and_stops_on_ctrl_c_with_the_match_saved(home, tmp_path):
    path = str(tmp_path / "table.sock")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DOMINOES_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "host", "--game", "moon", "--seats", "human,easy,easy", "--socket", path],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        while not any(line.startswith("join with:") for line in lines):
            line = process.stdout.readline()
            assert line, f"host ended early: {process.stderr.read()}"
            lines.append(line)
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
