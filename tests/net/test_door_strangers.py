"""Strangers at the doors are bounded: connections that have not signed in are capped from one
address and in all (the oldest of the busiest address goes first), closed if they take too long,
and what is turned away is one counted line a second, never a traceback. A signed-in player's
page and a valid key's login keep working meanwhile."""

from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys

from net.door_guard import (
    MAX_STRANGERS,
    Notes,
    SignedIn,
    address_key,
    quiet_accept_errors,
    stranger_places,
)
from net.ssh_server import LOGIN_TIMEOUT, SSHFrontDoor
from tests.net.ssh_client import TIMEOUT, connect
from tests.net.test_web_server import run, until
from tests.net.web_client import browser, running_web_door, signed_in
from tests.processes import ROOT

HALF_REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"


class HalfOpen:
    """A connection that starts a request (or says nothing) and never finishes it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer  # the writer kept: a writer let go closes its connection

    def at_eof(self) -> bool:
        return self.reader.at_eof()


async def half_open(port: int, source: str = "127.0.0.1", send: bytes = HALF_REQUEST) -> HalfOpen:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    if send:
        writer.write(send)
        await writer.drain()
    return HalfOpen(reader, writer)


async def closed_by_server(connection: HalfOpen) -> bool:
    """Whether the server closes this connection (read on to its end; False if it stays open)."""
    try:
        while await asyncio.wait_for(connection.reader.read(65536), TIMEOUT):
            pass
    except ConnectionError:
        return True
    except TimeoutError:
        return False
    return True


def test_strangers_from_one_address_crowd_out_only_each_other_and_a_player_gets_in(home):
    async def go() -> None:
        lines: list[str] = []
        async with running_web_door(home, on_note=lines.append) as door, browser(door) as ann:
            most = door.strangers.per_address
            crowd = [await half_open(door.port) for _ in range(most + 5)]
            for reader in crowd[:5]:  # the oldest five made room for the newest
                assert await closed_by_server(reader)
            await until(lambda: len(door.strangers) == most, "the newest strangers held")
            await signed_in(ann, door, "Ann")  # a player from the same address still signs in...
            async with ann.get("/") as response:
                assert response.status == 200  # ...and their page loads
            await until(lambda: any("closed (the oldest of too many from one address" in x for x in lines), "a note")
            assert len(door.strangers) <= most and not any("Traceback" in line for line in lines)

    run(go())


def test_when_strangers_are_full_the_busiest_address_gives_way(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann:
            door.strangers.most, door.strangers.per_address = 6, 4
            busy = [await half_open(door.port, "127.0.0.2") for _ in range(4)]
            await until(lambda: door.strangers.from_address("127.0.0.2") == 4, "four from the busy address")
            quiet = [await half_open(door.port, "127.0.0.3") for _ in range(2)]
            await until(lambda: len(door.strangers) == 6, "the strangers full")
            newcomer = await half_open(door.port, "127.0.0.4")
            assert await closed_by_server(busy[0])  # the oldest of the busiest address
            await until(lambda: door.strangers.from_address("127.0.0.4") == 1, "the newcomer held")
            assert door.strangers.from_address("127.0.0.3") == 2 and door.strangers.from_address("127.0.0.2") == 3
            await signed_in(ann, door, "Ann")  # Ann's connection was a stranger too, for a moment
            assert await closed_by_server(busy[1])  # and the busiest address made room for it
            for connection in (*busy[2:], *quiet, newcomer):
                assert not connection.at_eof()

    run(go())


def test_a_stranger_that_sends_no_whole_request_in_time_is_closed(home):
    async def go() -> None:
        lines: list[str] = []
        async with running_web_door(home, on_note=lines.append) as door:
            door.strangers.timeout = 0.3  # 10 s at the door; shortened so the test is quick
            slow = await half_open(door.port)
            assert await closed_by_server(slow)
            await until(lambda: any("not signed in within 0.3 seconds" in line for line in lines), "a note")
            assert len(door.strangers) == 0

    run(go())


def test_a_strangers_connection_ends_with_its_answer_and_a_players_is_kept(home):
    async def go() -> None:
        async with running_web_door(home) as door, browser(door) as ann:
            reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), TIMEOUT)  # to the end: the server closed it
            assert answer.startswith(b"HTTP/1.1 401") and b"Connection: close" in answer
            writer.close()
            await signed_in(ann, door, "Ann")
            async with ann.get("/") as response:
                assert response.status == 200 and response.headers.get("Connection") != "close"
            await until(lambda: len(door.strangers) == 0, "no strangers left")

    run(go())


def test_one_players_connections_beside_their_sessions_are_capped_oldest_first():
    closed: list[int] = []
    lines: list[str] = []
    signed = SignedIn(Notes(lines.append), most=2)
    for number in range(3):
        signed.add(number, "Ann", lambda number=number: closed.append(number))
    signed.add("b", "BEN", lambda: closed.append(-1))
    assert closed == [0] and lines == [
        "connections turned away: 1 closed (the oldest of too many of one player's connections)"
    ]
    signed.left(1)
    signed.add(3, "ann", lambda: closed.append(3))  # the same player in any case; room again
    assert closed == [0]


def test_notes_are_one_line_a_second_with_counts():
    async def go() -> None:
        lines: list[str] = []
        notes = Notes(lines.append, every=0.2)
        for _ in range(100):
            notes.note("closed (why)")
        notes.note("not accepted (Too many open files)")
        assert lines == ["connections turned away: 1 closed (why)"]  # the first at once...
        await until(lambda: len(lines) == 2, "the rest, counted")  # ...the rest once the interval is over
        assert lines[1] == "connections turned away: 99 closed (why); 1 not accepted (Too many open files)"
        notes.close()
        assert len(lines) == 2

    run(go())


def test_an_accept_that_fails_is_counted_not_a_traceback_and_other_errors_go_on_as_before():
    async def go() -> None:
        loop = asyncio.get_running_loop()
        seen: list[dict[str, object]] = []
        loop.set_exception_handler(lambda loop, context: seen.append(context))
        lines: list[str] = []
        notes = Notes(lines.append)
        restore = quiet_accept_errors(loop, notes)
        error = OSError(24, "Too many open files")
        loop.call_exception_handler({"message": "socket.accept() out of system resource", "exception": error})
        loop.call_exception_handler({"message": "something else"})

        def _start_serving() -> None:  # asyncio's retry of accepting, a second after EMFILE
            pass

        retry = asyncio.Handle(_start_serving, (), loop)
        closed = ValueError("Invalid file descriptor: -1")  # the listening socket closed meanwhile
        loop.call_exception_handler({"message": "Exception in callback", "handle": retry, "exception": closed})
        notes.flush()
        assert lines == ["connections turned away: 1 not accepted (Too many open files)"]
        assert [context["message"] for context in seen] == ["something else"]
        restore()
        loop.call_exception_handler({"message": "socket.accept() out of system resource", "exception": error})
        assert len(seen) == 2  # the handler is the test's own again

    run(go())


def test_the_open_file_limit_is_raised_to_the_hard_limit_and_strangers_fit_under_it():
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = min(128, hard)

    def lowered() -> None:  # pragma: no cover - in the child
        resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))

    done = subprocess.run(
        [sys.executable, "-c", "from net.door_guard import raise_open_file_limit as r; print(r())"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lowered,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert (
        int(done.stdout) == (hard if hard != resource.RLIM_INFINITY else int(done.stdout)) and int(done.stdout) >= low
    )
    assert stranger_places(256, 32) == 16 and stranger_places(100_000, 32) == MAX_STRANGERS
    assert stranger_places(64, 32) == 4  # never none: a player must always be able to come in
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff") == "2001:db8::/64"
    assert address_key("::ffff:127.0.0.2") == "127.0.0.2" and address_key("local") == "local"


def test_idle_connections_to_the_ssh_door_never_keep_a_valid_key_out(home, keys):
    async def go() -> None:
        lines: list[str] = []
        door = SSHFrontDoor(keys.authorized, home / "host_key", data=home, on_note=lines.append)
        await door.start("127.0.0.1", 0)
        try:
            most = door.strangers.per_address
            idle = [await half_open(door.port, send=b"") for _ in range(most + 3)]
            for reader in idle[:3]:
                assert await closed_by_server(reader)
            connection = await connect(door, keys.known)  # a valid key logs in meanwhile
            assert len(door.strangers) <= most
            connection.close()
            await until(lambda: any("one address not yet signed in" in line for line in lines), "a note")
        finally:
            await door.close()

    run(go())


def test_an_ssh_connection_that_does_not_log_in_in_time_is_closed(home, keys):
    assert LOGIN_TIMEOUT == 10.0  # the real limit; shortened below so the test is quick

    async def go() -> None:
        lines: list[str] = []
        door = SSHFrontDoor(keys.authorized, home / "host_key", data=home, on_note=lines.append)
        door.strangers.timeout = 0.5
        await door.start("127.0.0.1", 0)
        try:
            silent = await half_open(door.port, send=b"")
            assert await closed_by_server(silent)
            chatty = await half_open(door.port, send=b"SSH-2.0-OpenSSH_9.6\r\n")  # a version, then nothing
            assert await closed_by_server(chatty)
            await until(lambda: len(door.strangers) == 0, "no strangers left")
            connection = await connect(door, keys.known)  # a client that logs in is not timed out
            assert not connection.is_closed()
            connection.close()
        finally:
            await door.close()
        assert any("not signed in within 0.5 seconds" in line for line in lines)

    run(go())
