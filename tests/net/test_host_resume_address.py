"""`dominoes host --resume` listens where the match was last hosted (the same port, or the same
socket) when it can, and says so; when it cannot, it says why and where it listens instead, and the
players' seats are kept for them there (seat keys are the match's, not the address's)."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from net.client import TableClient
from net.seat_keys import TokenStore
from saves.store import SaveStore
from tests.net.ssh_client import remove, short_home
from tests.processes import WAIT, dominoes_argv, environment, run_dominoes


@pytest.fixture
def home():
    path = short_home()
    yield path
    remove(path)


def host(home: Path, *arguments: str) -> tuple[subprocess.Popen[str], list[str]]:
    """`dominoes host ...` and what it said up to its seats line."""
    process = subprocess.Popen(
        dominoes_argv("host", *arguments),
        env=environment(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    while not lines or not lines[-1].startswith("seats:"):
        line = process.stdout.readline()
        if not line:
            process.kill()
            raise AssertionError(f"host ended early: {lines} {process.communicate()[1]}")
        lines.append(line)
    return process, lines


def stopped(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0 and "Traceback" not in err, err
    return out


def address_in(lines: list[str]) -> str:
    (found,) = re.findall(r"^hosting .* at (\S+)$", "".join(lines), re.M)
    return found


async def sit(address: str, name: str, keys: TokenStore) -> int:
    client = await TableClient.connect(address, name, keys=keys)
    if client.new_key:
        keys.put(client.table_id, name, client.token)  # as `dominoes join` keeps it
    seat = client.seat
    await client.close()
    return seat


def hosted_with_ann_seated(home: Path, keys: TokenStore) -> tuple[str, str]:
    """A Moon table hosted until Ann has taken a seat, then stopped: (its address, the match's id)."""
    first, lines = host(home, "--game", "moon", "--seats", "human,human,easy")
    address = address_in(lines)
    try:
        assert asyncio.run(sit(address, "Ann", keys)) == 0
    finally:
        stopped(first)
    (match_id,) = SaveStore(home / "saves").ids()
    return address, match_id


def test_a_resumed_match_listens_on_its_last_port_and_a_player_takes_their_seat_back_there(home, tmp_path):
    keys = TokenStore(tmp_path / "keys")
    address, match_id = hosted_with_ann_seated(home, keys)
    again, lines = host(home, "--resume", match_id)
    try:
        assert address_in(lines) == address
        assert f"listening where match {match_id} was last hosted: players join at the same address\n" in lines
        port = address.rsplit(":", 1)[1]
        assert asyncio.run(sit(f"localhost:{port}", "ann", keys)) == 0  # her seat, at another spelling
    finally:
        stopped(again)


def test_when_the_last_port_is_taken_the_match_moves_says_why_and_keeps_its_seats(home, tmp_path):
    keys = TokenStore(tmp_path / "keys")
    address, match_id = hosted_with_ann_seated(home, keys)
    squatter = socket.socket()
    squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    squatter.bind(("127.0.0.1", int(address.rsplit(":", 1)[1])))
    squatter.listen()
    try:
        again, lines = host(home, "--resume", match_id)
        moved = address_in(lines)
        try:
            assert moved != address
            said = f"{address}, where match {match_id} was last hosted, is in use: listening at {moved} instead"
            assert any(line.startswith(said) for line in lines)
            assert asyncio.run(sit(moved, "Ann", keys)) == 0  # the seat is kept, at the new address
        finally:
            stopped(again)
    finally:
        squatter.close()


def test_a_resumed_match_listens_on_its_last_socket_unless_a_server_answers_there(home):
    path = str(home / "t.sock")
    first, lines = host(home, "--game", "moon", "--seats", "human,easy,easy", "--socket", path)
    stopped(first)
    (match_id,) = SaveStore(home / "saves").ids()
    again, lines = host(home, "--resume", match_id)
    try:
        assert address_in(lines) == path
        other = run_dominoes(home, "host", "--game", "moon", "--seats", "human,easy,easy", "--socket", path)
        assert other.returncode == 1  # it cannot take the socket a live table answers at
        assert other.stderr == f"dominoes host: cannot listen at {path}: another server is listening there\n"
        assert asyncio.run(sit(path, "Ann", TokenStore(home / "keys"))) == 0  # the table is still there
    finally:
        stopped(again)
