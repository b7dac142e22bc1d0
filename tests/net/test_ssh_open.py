"""`serve-ssh --open`: any key comes in, signs up for a name and is that name the next time; the
owner's keys work as before; a ban ends the player's sessions within a second and refuses their
key from then on; too many new names from one address get one line."""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager

import asyncssh
import pytest

from cli.main import main
from net.accounts import RoomBook, SignUpLimits
from net.ssh_server import SSHFrontDoor
from tests.net.ssh_client import TIMEOUT, connect, make_key, open_terminal, plain, with_launcher


@asynccontextmanager
async def open_door(home, keys, **limits):
    room = RoomBook(home, limits=SignUpLimits(**limits))
    door = SSHFrontDoor(keys.authorized, home / "ssh_host_ed25519_key", room=room, **with_launcher({}))
    await door.start("127.0.0.1", 0)
    try:
        yield door
    finally:
        await door.close()


async def sign_up(door, key, name: str, username: str = "newcomer"):
    connection = await connect(door, key, username=username)
    channel, screen = await open_terminal(connection)
    await screen.wait_for("Choose the name you will play under")
    channel.write(name.encode() + b"\r")
    return connection, channel, screen


async def wait_for_new(screen, mark: int, words: str) -> None:
    """Until `words` is among what the screen received after `mark` bytes. (A key sent in the same
    burst as a Ctrl+U or a backspace is lost in Textual's input parser: wait for it to be done.)"""

    async def seen() -> None:
        while words not in plain(bytes(screen.received[mark:])):
            screen.changed.clear()
            await screen.changed.wait()

    await asyncio.wait_for(seen(), TIMEOUT)


def test_a_stranger_signs_up_and_comes_back_as_the_same_name(home, keys):
    async def run() -> None:
        async with open_door(home, keys) as door:
            connection, channel, screen = await sign_up(door, keys.stranger, "José")
            await screen.wait_for("signed in as José")
            connection.close()
            other = home / "other_key"
            make_key(other)
            connection, channel, screen = await sign_up(door, other, "JOSÉ")
            await screen.wait_for("JOSÉ is taken; choose another")  # another key cannot have it
            mark = len(screen.received)
            channel.write(b"\x15")  # Ctrl+U: the name typed is kept to be edited, or cleared
            await wait_for_new(screen, mark, "your name")  # the empty input's placeholder
            channel.write(b"Ana\r")
            await screen.wait_for("signed in as Ana")
            connection.close()
            async with await connect(door, keys.stranger, username="anything") as again:
                _, screen = await open_terminal(again)
                await screen.wait_for("signed in as José")  # straight in, by the key
                assert "Choose the name" not in screen.text()
            async with await connect(door, keys.known, username="alice") as owner:  # the listed keys as before
                _, screen = await open_terminal(owner)
                await screen.wait_for("signed in as alice")
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(door, keys.stranger, username="alice")  # a listed name takes only its keys

    asyncio.run(run())


def test_a_ban_ends_the_players_session_within_a_second_and_refuses_their_key(home, keys, capsys):
    async def run() -> None:
        async with open_door(home, keys) as door:
            _, _, screen = await sign_up(door, keys.stranger, "Mallet")
            await screen.wait_for("signed in as Mallet")
            banned_at = time.monotonic()
            assert await asyncio.to_thread(main, ["admin", "--data", str(home), "ban", "mallet"]) == 0
            await screen.wait_for("the keeper of this server has banned you", timeout=TIMEOUT)
            await asyncio.wait_for(screen.closed.wait(), TIMEOUT)
            assert time.monotonic() - banned_at < 1.5  # within a second, and the time to say it
            async with await connect(door, keys.stranger, username="Mallet") as again:
                _, screen = await open_terminal(again)
                await screen.wait_for("dominoes: the keeper of this server has banned you")
                await asyncio.wait_for(screen.closed.wait(), TIMEOUT)
                assert "signed in" not in screen.text()

    asyncio.run(run())
    assert "banned Mallet" in capsys.readouterr().out


def test_a_sign_up_flood_from_one_address_gets_one_line_each(home, keys):
    async def run() -> None:
        async with open_door(home, keys, per_address=2) as door:
            for number in range(2):
                path = home / f"key{number}"
                make_key(path)
                connection, _, screen = await sign_up(door, path, f"flood{number}")
                await screen.wait_for(f"signed in as flood{number}")
                connection.close()
            path = home / "key_more"
            make_key(path)
            async with await connect(door, path, username="flood") as connection:
                _, screen = await open_terminal(connection)
                await screen.wait_for("dominoes: at most 2 new names an hour may come from one address")
                await asyncio.wait_for(screen.closed.wait(), TIMEOUT)
            assert len(RoomBook(home).read().accounts) == 2

    asyncio.run(run())
