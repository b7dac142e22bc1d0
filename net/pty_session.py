"""One SSH session = one child process in its own pseudo-terminal.

The child (the lobby interface) gets a new pty whose size and TERM come from the SSH pty request;
bytes flow both ways between the SSH channel and the pty's master side, a window change becomes a
TIOCSWINSZ (the kernel then signals the child), and the two ends are tied: the connection closes
when the child exits, and the child is hung up (then killed) when the connection drops. What the
client asks for is bounded: a window is at most MAX_COLUMNS x MAX_ROWS (a 20000 x 20000 one would
have the interface draw gigabytes), a TERM is a plain terminal name, a passed variable a short line,
and the client's keys are paced (beyond KEY_RATE packets a second, bursts of KEY_BURST, the channel
is read more slowly: keys wait, none is lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import functools
import os
import re
import signal
import struct
import termios
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from net.rate import TokenBucket
from net.session_priority import give_way_to_the_door
from net.ssh_library import asyncssh

DEFAULT_SIZE = (80, 24)
MAX_COLUMNS, MAX_ROWS = 500, 200  # larger windows are drawn at this size
MAX_PIXELS = 65535
DEFAULT_TERM = "xterm-256color"
TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
MAX_PASSED_VALUE = 64
READ_CHUNK = 65536
INPUT_BUFFER_LIMIT = 256 * 1024  # stop reading the client while this much input waits for the child
KILL_AFTER = 3.0  # seconds a hung-up child gets to exit before it is killed
DRAIN_AFTER_EXIT = 0.5  # seconds to pass on the last output of a child that has exited
PASSED_ENVIRONMENT = frozenset({"COLORTERM", "LANG", "LC_ALL", "LC_CTYPE", "NO_COLOR"})
KEY_RATE, KEY_BURST = 200.0, 400.0  # data packets a second from one SSH session (a paste comes in large ones)


def clamped_size(columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> tuple[int, int, int, int]:
    """A window size a terminal can be given: 80x24 for none, at most MAX_COLUMNS x MAX_ROWS."""
    columns, rows = (columns, rows) if columns > 0 and rows > 0 else DEFAULT_SIZE
    pixels = (min(max(xpixels, 0), MAX_PIXELS), min(max(ypixels, 0), MAX_PIXELS))
    return (min(columns, MAX_COLUMNS), min(rows, MAX_ROWS), *pixels)


def set_window_size(fd: int, columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
    columns, rows, xpixels, ypixels = clamped_size(columns, rows, xpixels, ypixels)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, xpixels, ypixels))


def terminal_name(term_type: str | None) -> str:
    """The client's TERM if it is a plain terminal name, else a common one."""
    return term_type if term_type and TERM_NAME.fullmatch(term_type) else DEFAULT_TERM


class PtyProcess(Protocol):
    """What a session's process is to its pty: asyncio's Process, or a forked session."""

    pid: int
    returncode: int | None

    async def wait(self) -> int: ...

    def send_signal(self, number: int) -> None: ...


Launch = Callable[[Sequence[str], Mapping[str, str], tuple[int, int, int, int]], Awaitable[tuple[int, PtyProcess]]]


def open_pty(size: tuple[int, int, int, int]) -> tuple[int, int]:
    """A new pty at `size`: its master side (non-blocking) and its slave side."""
    master, slave = os.openpty()
    try:
        set_window_size(slave, *size)
        os.set_blocking(master, False)
    except BaseException:
        os.close(master)
        os.close(slave)
        raise
    return master, slave


async def spawn_in_pty(
    argv: Sequence[str], environment: Mapping[str, str], size: tuple[int, int, int, int], nice: int = 0
) -> tuple[int, PtyProcess]:
    """`argv` started afresh in a new pty of its own, at niceness `nice`: the pty's master side and
    the process."""
    master, slave = open_pty(size)
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(environment),
            preexec_fn=functools.partial(_become_terminal_owner, nice),
        )
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)  # the child holds it now; the master reads EIO once the child's side is gone
    return master, process


def _become_terminal_owner(nice: int) -> None:  # pragma: no cover - runs in the child between fork and exec
    """A new session whose controlling terminal is the pty on stdin: resize signals reach the child.
    It gives way to the door as a forked session does."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    give_way_to_the_door(nice)


class PtyChild:
    """A child process attached to a new pty; output and exit are reported through callbacks."""

    def __init__(self, on_output: Callable[[bytes], None], on_exit: Callable[[int], None]) -> None:
        self._on_output = on_output
        self._on_exit = on_exit
        self.master: int | None = None
        self.process: PtyProcess | None = None
        self._pending = bytearray()  # input not yet taken by the pty
        self._reading = False
        self._finished = False
        self._watch: asyncio.Task[None] | None = None
        self.on_input_full: Callable[[bool], None] | None = None  # True: stop sending input; False: go on

    async def start(
        self,
        argv: Sequence[str],
        environment: Mapping[str, str],
        size: tuple[int, int, int, int],
        launch: Launch | None = None,
    ) -> None:
        """Start the child at `size`: spawned (`spawn_in_pty`), or as `launch` starts it (forked
        from a warm process: `warm_sessions.session_fork`). OSError if it cannot be started."""
        self.master, self.process = await (launch or spawn_in_pty)(argv, environment, size)
        self.resume_output()
        self._watch = asyncio.get_running_loop().create_task(self._wait_for_exit())

    # -- output: pty -> client -------------------------------------------------------------------
    def pause_output(self) -> None:
        if self._reading and self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)
            self._reading = False

    def resume_output(self) -> None:
        if not self._reading and self.master is not None and not self._finished:
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self._reading = True

    def _readable(self) -> None:
        assert self.master is not None
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as error:
            if error.errno != errno.EIO:
                raise
            data = b""  # Linux: every slave descriptor is closed
        if data:
            self._on_output(data)
        else:
            self.pause_output()

    def _drain(self) -> None:
        """Pass on what the child wrote before it exited."""
        if self.master is None:
            return
        with contextlib.suppress(OSError):
            while data := os.read(self.master, READ_CHUNK):
                self._on_output(data)

    # -- input: client -> pty --------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        if self.master is None or self._finished:
            return
        if not self._pending:
            try:
                written = os.write(self.master, data)
            except BlockingIOError:
                written = 0
            except OSError:
                return  # the child is gone; its exit is reported by the watcher
            data = data[written:]
            if not data:
                return
            asyncio.get_running_loop().add_writer(self.master, self._writable)
        self._pending += data
        if len(self._pending) > INPUT_BUFFER_LIMIT and self.on_input_full is not None:
            self.on_input_full(True)

    def _writable(self) -> None:
        assert self.master is not None
        try:
            written = os.write(self.master, self._pending)
        except BlockingIOError:
            return
        except OSError:
            written = len(self._pending)
        del self._pending[:written]
        if not self._pending:
            asyncio.get_running_loop().remove_writer(self.master)
            if self.on_input_full is not None:
                self.on_input_full(False)

    def resize(self, columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
        if self.master is not None and not self._finished:
            with contextlib.suppress(OSError):
                set_window_size(self.master, columns, rows, xpixels, ypixels)

    # -- the end ---------------------------------------------------------------------------------
    async def _wait_for_exit(self) -> None:
        assert self.process is not None
        code = await self.process.wait()
        await asyncio.sleep(DRAIN_AFTER_EXIT if self._reading else 0)
        self._drain()
        self._close_master()
        self._finished = True
        self._on_exit(code)

    def _close_master(self) -> None:
        if self.master is None:
            return
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.master)
        loop.remove_writer(self.master)
        self._reading = False
        os.close(self.master)
        self.master = None

    async def hang_up(self) -> None:
        """The connection dropped: hang up the child's whole session, then kill it if it lingers."""
        process = self.process
        if process is None or process.returncode is not None:
            self._close_master()
            return
        self._signal(signal.SIGHUP)
        self._close_master()
        try:
            await asyncio.wait_for(process.wait(), KILL_AFTER)
        except TimeoutError:
            self._signal(signal.SIGKILL)
            await process.wait()

    def _signal(self, number: int) -> None:
        assert self.process is not None
        try:
            os.killpg(self.process.pid, number)  # the child leads its own process group
        except (ProcessLookupError, PermissionError):  # not yet its group's leader (just forked), or gone
            if self.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.process.send_signal(number)


# Leave the alternate screen, stop mouse reports, show the cursor, reset colours.
RESET_TERMINAL = b"\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?25h\x1b[0m\r\n"


class TerminalSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """An SSH session that runs the door's command for its player in a pty, or refuses without one.
    `on_end` is called once the session is over."""

    def __init__(self, door: Any, player: str, on_end: Callable[[TerminalSession], None] | None = None) -> None:
        self.door = door  # the SSHFrontDoor: the command to run, the session count
        self.player = player  # the verified player's name
        self.address = "local"  # where the connection comes from (the door sets it)
        self.on_end = on_end
        self.channel: asyncssh.SSHServerChannel | None = None  # type: ignore[type-arg]
        self.term_type: str | None = None
        self.size: tuple[int, int, int, int] = (*DEFAULT_SIZE, 0, 0)
        self.command: str | None = None
        self.child: PtyChild | None = None
        self.counted = False
        self.closed = False
        self._pace = TokenBucket(KEY_RATE, KEY_BURST)
        self._paused = {"full": False, "paced": False}  # why reading the channel is paused

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:  # type: ignore[type-arg]
        self.channel = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term_type = terminal_name(term_type)
        self.size = clamped_size(*term_size)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def session_started(self) -> None:
        asyncio.get_running_loop().create_task(self._start())

    def end_with(self, message: str) -> None:
        """End the session in play, telling the player why in one line: the terminal first leaves the
        interface's screen (its mouse reports and hidden cursor too), so the line is read."""
        if self.channel is None or self.closed or self.channel.is_closing():
            return
        if self.child is not None:
            self.child.pause_output()  # nothing of the interface after the line
        self.channel.write(RESET_TERMINAL + f"dominoes: {message}\r\n".encode())
        self.channel.exit(1)

    def _refuse(self, message: str) -> None:
        assert self.channel is not None
        if self.channel.is_closing():
            return  # gone while its session was weighed: nobody to tell
        self.channel.write(f"dominoes: {message}\r\n".encode())
        self.channel.exit(1)

    async def _start(self) -> None:
        assert self.channel is not None
        if self.term_type is None:
            self._refuse("this server runs an interactive interface: connect from a terminal (ssh -t)")
            return
        try:
            argv, environment = self.door.command_for(self.player, self.command or "", self.address)
        except ValueError as error:
            self._refuse(str(error))
            return
        except OSError as error:
            self._refuse(f"your data folder cannot be made ({error.strerror or error}); tell the server's keeper")
            return
        refused = self.door.take_session(self)
        if refused is not None:
            self._refuse(refused)
            return
        self.counted = True
        environment["TERM"] = self.term_type
        for name, value in self.channel.get_environment().items():
            if (
                name in PASSED_ENVIRONMENT
                and isinstance(value, str)
                and len(value) <= MAX_PASSED_VALUE
                and value.isprintable()
            ):
                environment[name] = value
        self.child = PtyChild(self._output, self._child_exited)
        self.child.on_input_full = self._input_full
        try:
            await self.child.start(argv, environment, self.size, self.door.launch)
        except OSError as error:
            self._release()
            self._refuse(f"the interface could not be started ({error.strerror or error})")
            return
        if self.closed:  # the client left while the child was starting
            await self.child.hang_up()

    def _output(self, data: bytes) -> None:
        if self.channel is None or self.closed:
            return
        if self.channel.is_closing():  # the client (or the door) is ending it: lost is soon called
            if self.child is not None:
                self.child.pause_output()  # the child is hung up then; its output is nobody's now
            return
        self.channel.write(data)

    def _child_exited(self, code: int) -> None:
        self._release()
        if self.channel is not None and not self.closed:
            self.channel.exit(code if code >= 0 else 128 - code)

    def _input_full(self, full: bool) -> None:
        self._pause("full", full)

    def _pause(self, why: str, paused: bool) -> None:
        """Read the channel only while nothing (a full pty, a fast client) says to wait."""
        was = any(self._paused.values())
        self._paused[why] = paused
        now = any(self._paused.values())
        if self.channel is not None and not self.closed and was != now:
            if now:
                self.channel.pause_reading()
            else:
                self.channel.resume_reading()

    def _release(self) -> None:
        if self.counted:
            self.counted = False
            self.door.release_session(self)

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.child is not None:
            self.child.write(data)
        wait = self._pace.spend()
        if wait > 0 and not self._paused["paced"]:
            self._pause("paced", True)
            asyncio.get_running_loop().call_later(wait, self._pause, "paced", False)

    def eof_received(self) -> bool:
        return True  # keep the channel open: the interface decides when the session ends

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = clamped_size(width, height, pixwidth, pixheight)
        if self.child is not None:
            self.child.resize(*self.size)

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause_output()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.on_end is not None:
            self.on_end(self)
        if self.child is not None and self.child.process is not None:
            task = asyncio.get_running_loop().create_task(self.child.hang_up())
            task.add_done_callback(lambda _: self._release())
            self.door.track(task)
        else:
            self._release()
