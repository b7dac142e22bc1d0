"""The door's side of the warm session server (`warm_sessions.zygote`): sessions forked from a prepared process.

`WarmSessions.launch` is how the SSH and web doors start a session: a pty of its own and the
player's lobby in it, forked from the zygote (a few milliseconds) when one is ready, spawned as a
fresh `python -m cli` (`net.pty_session.spawn_in_pty`, the cold start) when none is: before the
zygote is up, while a dead one is restarted, for a request it refuses, with `spawn=True` (the
doors' `--spawn`), and where there is no `fork` or pidfd (not Linux).

The zygote is the door's child: one the door forked from its own process before its event loop
ran (`take_forked`, then a `ChildProcess` watched on a pidfd), or one it starts as `python -m
warm_sessions.zygote`. A forked session is a `ForkedSession`: the zygote's child, not the door's, so the door holds a
pidfd for it (its end is seen on the pidfd; a signal through it never reaches a recycled pid) and
the zygote reports its exit status once it has reaped it. A zygote that dies is restarted after a
pause that grows while it keeps dying; sessions it forked go on (their exit status is then 0, as
nobody can tell it any more). A request the zygote never answered (it died, or hung) leaves no
trace: its pty is closed, which hangs up any child forked on it, and the session is spawned on a
new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import socket
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from net.control_channel import ZYGOTE_NAME, close_all, receive, send
from net.pty_session import PtyProcess, open_pty, spawn_in_pty
from net.session_launch import SessionLauncher

READY_TIMEOUT = 60.0  # seconds the zygote may take to import everything (a busy machine)
FORK_TIMEOUT = 10.0  # seconds it may take to answer a request before it is taken for hung
REPORT_WAIT = 2.0  # seconds between a session's end (its pidfd) and the zygote's report of its status
RESTART_AFTER = (1.0, 60.0)  # the first pause before a dead zygote is started again, and the longest
CLI = ("-m", "cli")


def is_zygote(pid: int | str) -> bool:
    """Whether process `pid` is a door's zygote: forked from the door (named ZYGOTE_NAME) or started
    as `python -m warm_sessions.zygote`. (Its sessions are named again as they start.)"""
    try:
        with open(f"/proc/{pid}/comm", "rb") as handle:
            if handle.read().strip() == ZYGOTE_NAME.encode():
                return True
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"warm_sessions.zygote" in handle.read().split(b"\0")
    except OSError:
        return False


def fork_available() -> bool:
    """Whether this platform can fork sessions from a zygote (Linux: fork, pidfds, seqpacket sockets)."""
    return all(hasattr(os, name) for name in ("fork", "pidfd_open")) and hasattr(socket, "SOCK_SEQPACKET")


class NotForked(Exception):
    """The zygote did not fork this session (it refused, died or hung): spawn it instead."""


class ForkedSession:
    """A session process forked by the zygote, with what `PtyChild` uses of a process."""

    def __init__(self, pid: int, pidfd: int, zygote: Zygote) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd: int | None = pidfd
        self._zygote = zygote
        self._loop = asyncio.get_running_loop()
        self._done: asyncio.Future[int] = self._loop.create_future()
        self._fallback: asyncio.TimerHandle | None = None
        self._loop.add_reader(pidfd, self._ended)

    async def wait(self) -> int:
        return await asyncio.shield(self._done)

    def send_signal(self, number: int) -> None:
        if self.returncode is None and self._pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, number)

    @property
    def running(self) -> bool:
        """Whether the process is there still (its pid is not anyone else's)."""
        if self._pidfd is None:
            return False
        try:
            signal.pidfd_send_signal(self._pidfd, 0)
        except ProcessLookupError:
            return False
        return True

    def reported(self, code: int) -> None:
        """The zygote reaped the session: its status."""
        self._finish(code)

    def zygote_gone(self) -> None:
        """Nobody will report the status: the pidfd alone says when the session ends."""
        if self._pidfd is None:  # it ended already, and waits for a report that will not come
            self._finish(0)

    def _ended(self) -> None:
        """The session's process ended; the zygote reports its status once it has reaped it."""
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        if self._zygote.alive:
            self._fallback = self._loop.call_later(REPORT_WAIT, self._finish, 0)
        else:
            self._finish(0)

    def _finish(self, code: int) -> None:
        if self._done.done():
            return
        if self._fallback is not None:
            self._fallback.cancel()
        if self._pidfd is not None:
            self._loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        self.returncode = code
        self._zygote.sessions.pop(self.pid, None)
        self._done.set_result(code)


class ChildProcess:
    """A child process this one forked itself (the zygote forked from the door), with what `Zygote`
    uses of an asyncio subprocess: its end seen on a pidfd, then reaped."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._loop = asyncio.get_running_loop()
        self._done: asyncio.Future[int] = self._loop.create_future()
        self._pidfd: int | None = os.pidfd_open(pid)
        self._loop.add_reader(self._pidfd, self._ended)

    def _ended(self) -> None:
        if self._pidfd is None:
            return
        self._loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        self._pidfd = None
        try:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        except ChildProcessError:
            self.returncode = 0  # reaped by someone else: its status is gone
        self._done.set_result(self.returncode)

    async def wait(self) -> int:
        return await asyncio.shield(self._done)

    def kill(self) -> None:
        if self._pidfd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)


class Zygote:
    """One running zygote process and its control channel."""

    def __init__(self, on_gone: Any) -> None:
        self.on_gone = on_gone
        self.process: asyncio.subprocess.Process | ChildProcess | None = None
        self.channel: socket.socket | None = None
        self.alive = False
        self.ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.pending: dict[int, asyncio.Future[tuple[int, int]]] = {}
        self.sessions: dict[int, ForkedSession] = {}
        self._numbers = itertools.count(1)

    async def start(self, environment: Mapping[str, str], entry: str) -> None:
        """Start it, its sessions to run `entry`, and wait until it is ready. OSError, or
        TimeoutError, if it is not."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "warm_sessions.zygote",
                str(theirs.fileno()),
                entry,
                pass_fds=[theirs.fileno()],
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
                env=dict(environment),
                start_new_session=True,  # the keeper's Ctrl+C is the server's to handle
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        await self._connect(ours)

    async def adopt(self, pid: int, channel: socket.socket) -> None:
        """Take on a zygote this process forked (its pid, and this end of its channel), and wait
        until it is ready. OSError, or TimeoutError, if it is not."""
        try:
            self.process = ChildProcess(pid)
        except BaseException:
            channel.close()
            raise
        await self._connect(channel)

    async def _connect(self, channel: socket.socket) -> None:
        channel.setblocking(False)
        self.channel = channel
        self.alive = True
        asyncio.get_running_loop().add_reader(channel, self._readable)
        try:
            await asyncio.wait_for(asyncio.shield(self.ready), READY_TIMEOUT)
        except BaseException:
            await self.stop()
            raise

    async def fork(
        self, arguments: Sequence[str], environment: Mapping[str, str], terminal: int, nice: int = 0
    ) -> ForkedSession:
        """The session forked on `terminal` (a pty's slave side), at niceness `nice`. NotForked if it
        was not."""
        if not self.alive or not self.ready.done() or self.channel is None:
            raise NotForked("no zygote is ready")
        number = next(self._numbers)
        answer: asyncio.Future[tuple[int, int]] = asyncio.get_running_loop().create_future()
        self.pending[number] = answer
        try:
            request = {"session": number, "args": list(arguments), "environment": dict(environment), "nice": nice}
            send(self.channel, request, [terminal])
            pid, pidfd = await asyncio.wait_for(asyncio.shield(answer), FORK_TIMEOUT)
        except (OSError, ValueError) as error:
            raise NotForked(str(error)) from None
        except TimeoutError:
            self.kill()  # hung: a new one is started; the pty it may yet fork on is closed by the caller
            raise NotForked("the zygote did not answer") from None
        finally:
            self.pending.pop(number, None)
        session = ForkedSession(pid, pidfd, self)
        self.sessions[pid] = session
        return session

    def _readable(self) -> None:
        assert self.channel is not None
        while self.channel is not None:
            try:
                message, descriptors = receive(self.channel)
            except (BlockingIOError, InterruptedError):
                return
            except ValueError:
                continue
            except OSError:
                message, descriptors = None, []
            if message is None:
                self._gone()
                return
            self._dispatch(message, descriptors)

    def _dispatch(self, message: dict[str, Any], descriptors: list[int]) -> None:
        if "ready" in message and not self.ready.done():
            self.ready.set_result(message["ready"])
        elif "exited" in message:
            session = self.sessions.get(message["exited"])
            code = message.get("code")
            if session is not None and type(code) is int:
                session.reported(code)
        elif "session" in message:
            answer = self.pending.get(message["session"])
            pid = message.get("pid")
            if answer is not None and not answer.done() and type(pid) is int and len(descriptors) == 1:
                answer.set_result((pid, descriptors.pop()))
            elif answer is not None and not answer.done():
                answer.set_exception(NotForked(str(message.get("refused", "refused"))))
            elif type(pid) is int and descriptors:  # an answer come too late: its pty is closed already
                with contextlib.suppress(OSError):
                    signal.pidfd_send_signal(descriptors[0], signal.SIGHUP)
        close_all(descriptors)

    def _gone(self) -> None:
        if not self.alive:
            return
        self.alive = False
        if self.channel is not None:
            asyncio.get_running_loop().remove_reader(self.channel)
            self.channel.close()
            self.channel = None
        if not self.ready.done():
            self.ready.set_exception(OSError("the zygote ended before it was ready"))
            self.ready.exception()  # retrieved: nobody may be waiting any more
        for answer in self.pending.values():
            if not answer.done():
                answer.set_exception(NotForked("the zygote ended"))
        for session in list(self.sessions.values()):
            session.zygote_gone()
        if self.process is not None:
            asyncio.get_running_loop().create_task(self.process.wait())  # reaped, not left a zombie
        self.on_gone(self)

    def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        self._gone()

    async def stop(self) -> None:
        """Close the channel (it exits by itself), then make sure it has."""
        process = self.process
        self._gone()
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), 5.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()


class WarmSessions(SessionLauncher):
    """Sessions forked from a zygote the door keeps running (spawned while none is ready).
    `entry` is what a forked session runs, as "module:function" (`warm_sessions.zygote`)."""

    def __init__(self, environment: Mapping[str, str], entry: str, *, spawn: bool = False) -> None:
        super().__init__(environment)
        self.entry = entry
        self.warm = not spawn and fork_available()
        self._forked: tuple[int, socket.socket] | None = None
        self.zygote: Zygote | None = None
        self.restarts = 0  # zygotes started after one died
        self._pause = RESTART_AFTER[0]
        self._restart: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def ready(self) -> bool:
        zygote = self.zygote
        return zygote is not None and zygote.alive and zygote.ready.done() and not zygote.ready.exception()

    def take_forked(self, pid: int, channel: socket.socket) -> None:
        """The zygote the door forked from itself (`warm_sessions.zygote.fork_zygote`), before its event loop
        ran: `start` takes it on instead of starting one. One that dies is started afresh."""
        self._forked = (pid, channel)

    def end_forked(self) -> None:
        """End a forked zygote that was never taken on (the door did not start): its channel closed,
        it leaves by itself; killed if it has not within FORK_TIMEOUT; reaped either way."""
        forked, self._forked = self._forked, None
        if forked is None:
            return
        pid, channel = forked
        channel.close()
        deadline = time.monotonic() + FORK_TIMEOUT
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(pid, os.WNOHANG) == (0, 0):
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    return
                time.sleep(0.05)

    async def start(self) -> None:
        """Start the zygote (or take on the one forked) and wait for it; if it does not come up,
        sessions are spawned until it does."""
        if self.warm:
            await self._start_zygote()

    async def _start_zygote(self) -> bool:
        zygote = Zygote(self._zygote_gone)
        self.zygote = zygote
        forked, self._forked = self._forked, None  # once: a zygote started again is started afresh
        try:
            if forked is not None:
                await zygote.adopt(*forked)
            else:
                await zygote.start(self.environment, self.entry)
        except (OSError, TimeoutError):
            return False
        self._pause = RESTART_AFTER[0]
        return True

    def _zygote_gone(self, zygote: Zygote) -> None:
        if zygote is self.zygote and not self._closing and (self._restart is None or self._restart.done()):
            self._restart = asyncio.get_running_loop().create_task(self._start_again())

    async def _start_again(self) -> None:
        while not self._closing:
            await asyncio.sleep(self._pause)
            self._pause = min(self._pause * 2, RESTART_AFTER[1])
            if self._closing:
                return
            self.restarts += 1
            if await self._start_zygote():
                return

    def _can_lower(self, process: PtyProcess) -> bool:
        return not isinstance(process, ForkedSession) or process.running

    async def _start(
        self, argv: Sequence[str], environment: Mapping[str, str], size: tuple[int, int, int, int], nice: int
    ) -> tuple[int, PtyProcess]:
        zygote = self.zygote
        if self.ready and zygote is not None and list(argv[:3]) == [sys.executable, *CLI]:
            master, slave = open_pty(size)
            try:
                return master, await zygote.fork(argv[3:], environment, slave, nice)
            except NotForked:
                os.close(master)
            except BaseException:
                os.close(master)
                raise
            finally:
                os.close(slave)
        return await spawn_in_pty(argv, environment, size, nice)

    async def close(self) -> None:
        self._closing = True
        if self._restart is not None:
            self._restart.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restart
        if self.zygote is not None:
            await self.zygote.stop()
