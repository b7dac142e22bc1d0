"""No client can lock the others out: connections that have not said hello are limited (from one
address and in all, the oldest dropped first) and must say it within a few seconds; a save that
fails is told to every player at the table, and a full disk is named as such."""

from __future__ import annotations

import errno

import pytest

from net import server as server_module
from net.client import TableClient
from net.messages import Notice
from saves.errors import SaveError
from saves.os_errors import os_error_text
from tests.net.helpers import RawClient, event_of, moon_match, run, seed_where, serving, snapshot_where


def test_sixty_four_idle_connections_do_not_keep_a_player_out():
    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            idle = [await RawClient.connect(server.address) for _ in range(64)]
            ana = await TableClient.connect(str(server.address), "Ana")
            assert ana.seat == 0
            # Only the newest few from this address still wait (Ana was one of them, and is seated);
            # the older ones were told why and let go.
            assert len(server._waiting) == server_module.MAX_WAITING_PER_ADDRESS - 1
            dropped = idle[0]
            assert "too many connections are waiting to say hello" in await dropped.until_bye()
            await ana.close()
            for client in idle:
                await client.close()

    run(go())


def test_a_connection_that_says_nothing_is_dropped(monkeypatch):
    assert server_module.HELLO_TIMEOUT == 5.0  # the real limit; shortened here so the test is quick
    monkeypatch.setattr(server_module, "HELLO_TIMEOUT", 0.2)

    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            silent = await RawClient.connect(server.address)
            assert "no hello within 0.2 seconds" in await silent.until_bye()
            await silent.close()
            assert not server._waiting and not server._connections

    run(go())


class FailingSave:
    """An autosave whose disk is full until told otherwise."""

    match_id = "full-disk"

    def __init__(self) -> None:
        self.full = True

    def __call__(self) -> None:
        if self.full:
            raise SaveError(f"match full-disk could not be saved ({os_error_text(OSError(errno.ENOSPC, 'No space'))})")


def test_a_save_that_fails_is_told_to_every_player_once_and_when_it_works_again():
    autosave = FailingSave()

    async def go() -> None:
        seed = seed_where(lambda seat: seat == 0)
        async with serving(moon_match("human,human,easy", seed), autosave=autosave) as server:
            ana = await TableClient.connect(str(server.address), "Ana")
            told = await event_of(ana, Notice)
            assert told.text == "the match is not being saved: match full-disk could not be saved (the disk is full)"
            ben = await TableClient.connect(str(server.address), "Ben")
            assert (await event_of(ben, Notice)).text == told.text  # a latecomer is told too
            autosave.full = False
            turn = await snapshot_where(ana, lambda snapshot: bool(snapshot.legal))
            await ana.send_move(turn.legal[0])
            for client in (ana, ben):
                assert (await event_of(client, Notice)).text == "the match is being saved again"
            assert sum("could not be saved" in line for line in server.lines) >= 1
            await ana.close()
            await ben.close()

    run(go())


@pytest.mark.parametrize(
    "number, words",
    [
        (errno.ENOSPC, "the disk is full"),
        (errno.EDQUOT, "the disk quota is used up"),
        (errno.EROFS, "the file system is read-only"),
    ],
)
def test_disk_errors_are_named_as_such(number, words):
    assert os_error_text(OSError(number, "system words")).startswith(words)
    assert os_error_text(OSError(errno.EADDRINUSE, "Address already in use")) == "Address already in use"
