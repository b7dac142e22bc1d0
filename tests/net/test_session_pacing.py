"""A session's keys are paced: an SSH client that sends key after key faster than anyone types is
read more slowly (its keys wait; none is lost), so one flood costs the other sessions nothing."""

from __future__ import annotations

from net import pty_session
from net.rate import TokenBucket
from tests.net.ssh_client import connect, open_terminal, running_door
from tests.net.test_web_server import run, until


def test_a_key_flood_over_ssh_is_read_at_its_pace_and_no_key_is_lost(home, keys, monkeypatch):
    paced: list[bool] = []
    pause = pty_session.TerminalSession._pause

    def watched(self: pty_session.TerminalSession, why: str, paused: bool) -> None:
        if why == "paced":
            paced.append(paused)
        pause(self, why, paused)

    monkeypatch.setattr(pty_session.TerminalSession, "_pause", watched)

    async def go() -> None:
        async with running_door(home, keys) as door:
            connection = await connect(door, keys.known)
            channel, screen = await open_terminal(connection)
            await screen.wait_for("signed in as alice")
            for _ in range(int(pty_session.KEY_BURST) * 2):
                channel.write(b"x")  # a key the lobby does nothing with, in a packet of its own
            channel.write(b"?")  # after every one of them
            await screen.wait_for("CF-1 ")
            assert any(paced) and paced[-1] is False  # held back for a while, then read again
            connection.close()

    run(go())


def test_a_token_bucket_allows_its_burst_then_its_rate():
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=3.0, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    assert bucket.wait() == 0.5
    now[0] += 0.5
    assert bucket.take() and not bucket.take()
    assert bucket.spend() == 0.5 and bucket.spend() == 1.0  # in debt: how long until it is paid
    now[0] += 10
    assert bucket.wait() == 0 and [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_output_that_comes_as_a_session_closes_is_dropped_without_an_error(home, keys):
    """The interface's output can arrive after its channel began to close (the client left, or the
    door ended it) and before the session hears it is lost: asyncssh then refuses to send, and that
    must be no traceback in the server's log; the interface is hung up as the session ends."""

    async def go() -> None:
        async with running_door(home, keys) as door:
            connection = await connect(door, keys.known)
            _, screen = await open_terminal(connection)
            await screen.wait_for("signed in as alice")
            (session,) = door.active
            assert session.channel is not None and session.child is not None
            session.channel.close()  # closing: asyncssh's write would raise BrokenPipeError now
            session._output(b"a frame drawn just as the player left")  # as the pty's reader passes it on
            assert not session.child._reading  # nobody takes the output now: the pty is no longer read
            await until(lambda: not door.active, "the session lost, its interface hung up, released")
            connection.close()

    run(go())
