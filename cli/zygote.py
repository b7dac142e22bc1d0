"""The warm session server (a "zygote"): one prepared process the SSH and web doors fork sessions from.

`python -m cli.zygote FD` is started by a door (`net.session_fork.WarmSessions`), FD being its end
of a Unix socket pair (SOCK_SEQPACKET: one JSON message a packet, descriptors passed beside it).
It imports everything a session needs (Textual, the app and every screen, the engine, the games and
bots, the lobby's network parts), collects and freezes what it imported (`gc.freeze()`, so the
collector never writes to those pages and forked sessions keep sharing them), says it is ready and
then waits, having started nothing: no event loop, no thread, no open file but the control socket,
a wake-up pipe for SIGCHLD and its standard streams (/dev/null).

For each request (the session's `dominoes` arguments, its environment, and the slave side of a pty
the door opened, and the niceness it is to run at) it forks. The parent answers with the child's pid
and a pidfd for it, reaps it when it ends and reports its exit status. The child becomes what a
spawned session is: a new session whose controlling terminal is its pty (setsid, TIOCSCTTY), the pty
on its standard streams, every other inherited descriptor closed, the request's environment and no
other, the locale and standard streams that environment gives, the signal dispositions of a fresh
process, the niceness the door asks for (`net.session_priority`), and its own randomness from the OS
(the `random` module is seeded anew on fork; nothing else is seeded at import). Then it runs
`dominoes ARGS` and exits as that command would.

A request whose environment differs from the zygote's in what is read at import (PYTHON*, TEXTUAL_*,
ESCDELAY) is refused, and the door spawns that session instead. When the door closes its end the
zygote exits; sessions already forked go on, each tied to its pty.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import importlib
import locale
import os
import pkgutil
import random
import select
import signal
import socket
import sys
import termios
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.control_channel import close_all, receive, send
from net.session_priority import MOST_NICE, give_way_to_the_door

MAX_ARGUMENTS = 64
READ_AT_IMPORT = ("PYTHON", "TEXTUAL_", "ESCDELAY")  # variables whose value the imported modules keep
CLI_ENTRY = str(Path(__file__).resolve().parent.parent / "cli" / "__main__.py")  # sys.argv[0] of `python -m cli`

# What a session may run: the app's packages whole, the network parts the lobby uses (not the
# servers), and the parts of Textual and Rich imported only once an app runs.
PRELOAD_PACKAGES = ("tui", "core", "saves", "workers")
PRELOAD_MODULES = (
    "cli.main",
    "net.address",
    "net.client",
    "net.file_lock",
    "net.limits",
    "net.messages",
    "net.paths",
    "net.protocol",
    "net.seat_keys",
    "net.seats",
    "net.tables",
    "textual.drivers.linux_driver",
    "textual.drivers._writer_thread",
    "textual._xterm_parser",
    "textual._keyboard_protocol",
    "textual.layouts.factory",
    "textual.layouts.grid",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.layouts.vertical",
    "textual.scrollbar",
    "textual.pilot",
    "rich._emoji_codes",
    "concurrent.futures.thread",
    "tty",
)


# -- the request -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SessionRequest:
    number: int
    arguments: tuple[str, ...]  # after `dominoes`
    environment: dict[str, str]
    terminal: int  # the pty's slave side
    nice: int = 0  # its niceness, as the door asks (net.session_priority)

    @classmethod
    def from_message(cls, message: Mapping[str, Any], descriptors: Sequence[int]) -> SessionRequest:
        """ValueError (one line) for anything but a session's request with its terminal."""
        number, arguments, environment = message.get("session"), message.get("args"), message.get("environment")
        if type(number) is not int or len(descriptors) != 1:
            raise ValueError("a request names its session and passes one terminal")
        if not (isinstance(arguments, list) and len(arguments) <= MAX_ARGUMENTS):
            raise ValueError("a request's arguments are a short list")
        if not all(isinstance(word, str) and "\0" not in word for word in arguments):
            raise ValueError("a request's arguments are strings")
        if not isinstance(environment, dict) or not all(
            isinstance(name, str) and isinstance(value, str) and name and "=" not in name and "\0" not in name + value
            for name, value in environment.items()
        ):
            raise ValueError("a request's environment maps names to strings")
        nice = message.get("nice", 0)
        if type(nice) is not int or not -20 <= nice <= MOST_NICE:
            raise ValueError(f"a request's niceness is a whole number from -20 to {MOST_NICE}")
        if not os.isatty(descriptors[0]):
            raise ValueError("a request's terminal is not a terminal")
        return cls(number, tuple(arguments), environment, descriptors[0], nice)


def differs_at_import(environment: Mapping[str, str], own: Mapping[str, str]) -> str | None:
    """The first variable read at import whose value `environment` would change, if any."""
    names = {name for name in (*environment, *own) if name.startswith(READ_AT_IMPORT)}
    return next((name for name in sorted(names) if environment.get(name) != own.get(name)), None)


# -- the zygote --------------------------------------------------------------------------------------
def preload() -> None:
    """Import what a session may need, and fill the caches its first frame would fill."""
    for package in PRELOAD_PACKAGES:
        module = importlib.import_module(package)
        for found in pkgutil.walk_packages(module.__path__, f"{package}."):
            if not found.name.endswith(".__main__"):
                importlib.import_module(found.name)
    for name in PRELOAD_MODULES:
        importlib.import_module(name)
    from rich.cells import cell_len

    cell_len("·▶─é")  # Rich loads its table of character widths on first use


class Zygote:
    def __init__(self, channel: socket.socket) -> None:
        self.channel = channel
        self.wake_read, self.wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def prepare(self) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the keeper's Ctrl+C is for the server, which ends sessions
        preload()
        signal.set_wakeup_fd(self.wake_write)
        signal.signal(signal.SIGCHLD, lambda number, frame: None)  # a byte on the wake-up pipe is enough
        gc.collect()
        gc.freeze()

    def serve(self) -> SessionRequest | None:
        """Fork a session for every request until the door closes its end (None); in a forked
        session, its request (the session is ready to run it)."""
        poller = select.poll()
        poller.register(self.channel, select.POLLIN)
        poller.register(self.wake_read, select.POLLIN)
        try:
            send(self.channel, {"ready": os.getpid()})
            while True:
                for descriptor, _ in poller.poll():
                    if descriptor == self.wake_read:
                        with contextlib.suppress(BlockingIOError):
                            while os.read(self.wake_read, 512):
                                pass
                        self.reap()
                        continue
                    try:
                        message, descriptors = receive(self.channel)
                    except ValueError:
                        continue
                    if message is None:
                        return None
                    request = self.fork(message, descriptors)
                    if request is not None:
                        return request
        except (BrokenPipeError, ConnectionError):
            return None  # the door is gone

    def fork(self, message: Mapping[str, Any], descriptors: list[int]) -> SessionRequest | None:
        try:
            request = SessionRequest.from_message(message, descriptors)
        except ValueError as error:
            close_all(descriptors)
            send(self.channel, {"session": message.get("session"), "refused": str(error)})
            return None
        changed = differs_at_import(request.environment, os.environ)
        if changed is not None:
            os.close(request.terminal)
            send(self.channel, {"session": request.number, "refused": f"its {changed} is not this process's"})
            return None
        try:
            pid = os.fork()
        except OSError as error:
            os.close(request.terminal)
            send(self.channel, {"session": request.number, "refused": f"fork: {error.strerror or error}"})
            return None
        if pid == 0:
            self.become_session(request)
            return request
        os.close(request.terminal)
        pidfd = os.pidfd_open(pid)
        try:
            send(self.channel, {"session": request.number, "pid": pid}, [pidfd])
        finally:
            os.close(pidfd)
        return None

    def reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            send(self.channel, {"exited": pid, "code": os.waitstatus_to_exitcode(status)})

    def become_session(self, request: SessionRequest) -> None:  # pragma: no cover - runs in the forked child
        """In the child: everything a session spawned with its pty and environment would have."""
        try:
            signal.set_wakeup_fd(-1)
            for number in (signal.SIGCHLD, signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT):
                signal.signal(number, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self.channel.close()
            close_all([self.wake_read, self.wake_write])
            os.setsid()
            give_way_to_the_door(request.nice)
            fcntl.ioctl(request.terminal, termios.TIOCSCTTY, 0)
            for standard in (0, 1, 2):
                os.dup2(request.terminal, standard)
            os.closerange(3, os.sysconf("SC_OPEN_MAX"))  # the terminal's first descriptor, and anything else
            os.environ.clear()
            os.environ.update(request.environment)
            reopen_standard_streams(session_encoding())
            random.seed()  # done on fork already (random's at-fork hook); the one stream seeded at import
            sys.argv = [CLI_ENTRY, *request.arguments]
        except BaseException as error:  # nothing else can say it: the pty is all the player sees
            line = f"dominoes: the session could not start ({error})\r\n".encode()
            for descriptor in (request.terminal, 2):
                with contextlib.suppress(OSError):
                    os.write(descriptor, line)
                    break
            os._exit(1)


def session_encoding() -> str:
    """The locale the session's environment gives (as a fresh Python would take it, the C locale
    coerced to C.UTF-8), and the encoding of its standard streams."""
    with contextlib.suppress(locale.Error):
        locale.setlocale(locale.LC_CTYPE, "")
    if locale.setlocale(locale.LC_CTYPE) in ("C", "POSIX") and "LC_ALL" not in os.environ:
        with contextlib.suppress(locale.Error):
            locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
            os.environ["LC_CTYPE"] = "C.UTF-8"
    return "utf-8" if sys.flags.utf8_mode else locale.getencoding()


def reopen_standard_streams(encoding: str) -> None:
    """Standard streams on the pty, as Python makes them for a terminal: line-buffered output."""
    sys.stdin = sys.__stdin__ = open(0, encoding=encoding, closefd=False)  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(1, "w", buffering=1, encoding=encoding, closefd=False)  # noqa: SIM115
    sys.stderr = sys.__stderr__ = open(2, "w", buffering=1, encoding=encoding, errors="backslashreplace", closefd=False)  # noqa: SIM115


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2 or not argv[1].isdigit():
        print("usage: python -m cli.zygote FD (started by serve-ssh and serve-web)", file=sys.stderr)
        return 2
    zygote = Zygote(socket.socket(fileno=int(argv[1])))
    zygote.prepare()
    request = zygote.serve()
    if request is None:
        return 0
    del zygote
    from cli.main import main as dominoes

    return dominoes(list(request.arguments))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
