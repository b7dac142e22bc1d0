"""The warm session server (a "zygote"): one prepared process the SSH and web doors fork sessions from.

A door that runs as the program (`dominoes serve-ssh`, `dominoes serve-web`) prepares its own
process and forks the zygote from it before it starts anything (`fork_zygote`), so that what both
hold (the Python runtime, the standard library, the engine, the interface) is one copy in memory for
the door, the zygote and every session. Otherwise (a door inside another program, a zygote started
again after one died) the door starts `python -m warm_sessions.zygote FD ENTRY`, which prepares
itself. Either way FD is its end of a Unix socket pair (SOCK_SEQPACKET: one JSON message a packet, descriptors passed
beside it) and the zygote is a process session of its own, named ZYGOTE_NAME.

Preparing (`prepare_to_fork`): import everything a session needs (Textual, the app and every
screen, the engine, the games and bots, the lobby's network parts); start a lobby headless and end
it, its CSS kept parsed for every stylesheet (`parse_lobby_css`: a session's lobby then parses
none, a tenth of its start, and the parsed rules are shared); collect; copy the code a
session runs next to each other (`warm_sessions.hot_code`: CPython writes into code as it runs it, and a
session then copies a few hundred pages of code instead of a thousand); fill in what CPython
otherwise writes into an object on its first use (`warm_sessions.settled`: strings' hashes, classes' version
tags, the versions of modules' globals); make every object
immortal where CPython can (3.12 and newer, `warm_sessions.immortal`: a session reading an object then no
longer copies its page to count a reference); take up the heap's holes (`warm_sessions.heap_holes`: a
session's new objects go to pages of its own, not into pages it shares); freeze what the collector
tracks (`gc.freeze()`: its collections never write to those pages either); offer its memory to
the kernel's same-page merging (`warm_sessions.page_merging`: where the machine runs it, the pages a session
copied and left as they were are shared again). Then the zygote says it
is ready and waits, with nothing running: no event loop, no thread, no open file but the control
socket, a wake-up pipe for SIGCHLD and its standard streams (/dev/null).

For each request (the session's `dominoes` arguments, its environment, and the slave side of a pty
the door opened, and the niceness it is to run at) it forks. The parent answers with the child's pid
and a pidfd for it, reaps it when it ends and reports its exit status. The child becomes what a
spawned session is: a new session whose controlling terminal is its pty (setsid, TIOCSCTTY), the pty
on its standard streams, every other inherited descriptor closed, the request's environment and no
other, the locale and standard streams that environment gives, the signal dispositions of a fresh
process, the niceness the door asks for (`net.session_priority`), and its own randomness from the OS
(the `random` module is seeded anew on fork; nothing else is seeded at import). Then it runs
its ENTRY, the front end's function that runs a command line (`cli.session_entry:run_session`:
`dominoes ARGS`), and exits as that command would. The front end names it, so that this package
imports nothing above it.

A request whose environment differs from the zygote's in what is read at import (PYTHON*, TEXTUAL_*,
ESCDELAY) is refused, and the door spawns that session instead. When the door closes its end the
zygote exits; sessions already forked go on, each tied to its pty.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
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
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from net.control_channel import ZYGOTE_NAME, close_all, receive, send
from net.session_priority import MOST_NICE, give_way_to_the_door
from warm_sessions import heap_holes, hot_code, page_merging
from warm_sessions.immortal import Immortalized, immortalize, reachable
from warm_sessions.settled import Settled, settle

MAX_ARGUMENTS = 64
PR_SET_NAME = 15  # prctl's option that names the calling thread (and a process, by its main thread)
READ_AT_IMPORT = ("PYTHON", "TEXTUAL_", "ESCDELAY")  # variables whose value the imported modules keep
THREAD_WAIT = 5.0  # seconds the lobby parsed for its CSS may take to end a worker's thread
CLI_ENTRY = str(Path(__file__).resolve().parent.parent / "cli" / "__main__.py")  # sys.argv[0] of `python -m cli`

# What a session may run: the app's packages whole, the network parts the lobby uses (not the
# servers), and the parts of Textual and Rich imported only once an app runs.
PRELOAD_PACKAGES = ("tui", "core", "saves", "workers")
PRELOAD_MODULES = (
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
def preload(entry: str | None = None) -> None:
    """Import what a session may need (the module of its `entry` too), and fill the caches its
    first frame would fill."""
    for package in PRELOAD_PACKAGES:
        module = importlib.import_module(package)
        for found in pkgutil.walk_packages(module.__path__, f"{package}."):
            if not found.name.endswith(".__main__"):
                importlib.import_module(found.name)
    for name in PRELOAD_MODULES:
        importlib.import_module(name)
    if entry is not None:
        session_entry(entry)
    from rich.cells import cell_len

    # Rich loads its table of character widths the first time a string is not all of characters
    # it knows are one cell wide (box lines and Latin letters are): a session's first ✓ or tile.
    cell_len("✓")


def parse_lobby_css() -> int:
    """Parse the CSS a lobby session parses, kept for every stylesheet (`share_parsed_css`): a
    lobby, in the default theme, started and ended headless, in a scratch data directory that is
    then removed (`hot_code.nobody_s_folders`, as for the lobby the hot code is listed from). The
    number of CSS sources kept; 0, and nothing kept, if the lobby would not start (sessions then
    parse their CSS as they start, as before)."""
    from tui.lobby_app import LobbyApp
    from tui.preferences import Preferences
    from tui.styles import STYLES
    from tui.textual_fixes import share_parsed_css

    share_parsed_css()

    async def lobby_once() -> None:
        app = LobbyApp("warm", preferences=Preferences())
        async with app.run_test(headless=True, size=(80, 24)) as pilot:
            await pilot.pause()
            for path in sorted(STYLES.glob("*.tcss")):  # and every screen's, read as each first opens
                app.stylesheet.read(path)
            app.stylesheet.reparse()

    with hot_code.nobody_s_folders():
        try:
            asyncio.run(lobby_once())
        except Exception:  # a lobby that would not start here starts in each session, as before
            return 0
        finally:
            for thread in threading.enumerate():  # the lobby's workers have ended: a fork takes no thread along
                if thread is not threading.main_thread():
                    thread.join(THREAD_WAIT)
    return share_parsed_css()


def session_entry(entry: str) -> Callable[[list[str]], int]:
    """The function "module:function" names, which runs a session's command line (its status);
    ValueError for a name that is not of that form or names no function."""
    module, colon, name = entry.partition(":")
    if not (colon and module and name.isidentifier()):
        raise ValueError(f"a session's entry is module:function, not {entry!r}")
    function = getattr(importlib.import_module(module), name, None)
    if not callable(function):
        raise ValueError(f"{entry} names no function")
    return function


def prepare_to_fork(entry: str | None = None) -> Prepared:
    """Import, parse the lobby's CSS, collect, pack the hot code, settle, make immortal, fill the
    heap's holes, freeze and offer the pages for merging: what a process does before it forks
    sessions (see the module's doc)."""
    preload(entry)
    parse_lobby_css()
    gc.collect()
    heap_holes.fill()  # so that the packed code goes to pages of its own
    packed = hot_code.pack(hot_code.hot_names())
    gc.collect()
    found = reachable()
    settled = settle(found.values())
    immortalized = immortalize(found)
    found.clear()
    gc.collect()  # what the walks made
    filled = heap_holes.fill()
    gc.freeze()
    # A full collection now, of nothing: the collector's count of long-lived objects was every object
    # imported, and a session's first full collection would wait until a quarter as many of its own
    # had lived long, holding its garbage meanwhile. Now it counts the session's own.
    gc.collect()
    offered = page_merging.offer()  # last: the mappings are all there now, and a fork inherits the offer
    return Prepared(immortalized, settled, filled, packed, offered)


@dataclass(frozen=True)
class Prepared:
    immortalized: Immortalized
    settled: Settled
    filled: heap_holes.Filled
    packed: hot_code.Packed
    offered: page_merging.Offered


class Zygote:
    def __init__(self, channel: socket.socket, entry: str) -> None:
        self.channel = channel
        self.entry = entry  # what its sessions run, "module:function"
        self.wake_read, self.wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def prepare(self, prepared: Prepared | None = None) -> None:
        """Ready to serve: prepared here, unless the process it was forked from was (`prepared`)."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the keeper's Ctrl+C is for the server, which ends sessions
        signal.set_wakeup_fd(self.wake_write)
        signal.signal(signal.SIGCHLD, lambda number, frame: None)  # a byte on the wake-up pipe is enough
        if prepared is None:
            prepare_to_fork(self.entry)

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
            name_process(os.path.basename(sys.executable))  # as a spawned session is named
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


def name_process(name: str) -> None:
    """The name `ps` and `top` show (the kernel keeps 15 bytes of it), where Linux lets it be set.
    The C library is the one this process runs on (ctypes.util.find_library would run ldconfig
    in a subprocess, at every session's start)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_NAME, name.encode()[:15], 0, 0, 0)


# -- forked from the door ----------------------------------------------------------------------------
@dataclass(frozen=True)
class ForkedZygote:
    """A zygote forked from the door's own process: its pid, and the door's end of its channel."""

    pid: int
    channel: socket.socket


def fork_zygote(environment: Mapping[str, str], entry: str) -> ForkedZygote | None:
    """Prepare this process as a zygote prepares itself, then fork the zygote from it.

    For a door (`serve-ssh`, `serve-web`), called before it starts anything: what the door and the
    zygote both imported (the Python runtime, the standard library, the engine) is then one copy in
    memory for the door, the zygote and every session, where a zygote started on its own has a copy
    of its own. The zygote forked here is a new process session with its standard streams on
    /dev/null, no descriptor but its channel, and `environment`, as `python -m warm_sessions.zygote` started
    by the door would be. None where this process cannot fork it (no fork, a thread running
    already): the door starts `python -m warm_sessions.zygote` then.
    """
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return None
    prepared = prepare_to_fork(entry)
    door_end, zygote_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        pid = os.fork()
    except OSError:
        door_end.close()
        zygote_end.close()
        return None
    if pid == 0:  # pragma: no cover - the forked zygote, and then each session it forks
        door_end.close()
        try:
            code = run_forked_zygote(zygote_end, environment, entry, prepared)
        except SystemExit:
            raise
        except BaseException:
            sys.excepthook(*sys.exc_info())  # as the interpreter would say it (in a session, on its terminal)
            code = 1
        raise SystemExit(code)  # never back into the door's code: out of the interpreter, as any process ends
    zygote_end.close()
    return ForkedZygote(pid, door_end)


def run_forked_zygote(  # pragma: no cover - runs in the forked zygote
    channel: socket.socket, environment: Mapping[str, str], entry: str, prepared: Prepared
) -> int:
    """In the forked zygote: serve until the door closes the channel; in a session, run it."""
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for standard in (0, 1, 2):
        os.dup2(null, standard)
    kept = channel.fileno()
    os.closerange(3, kept)  # the door's descriptors, /dev/null's too
    os.closerange(kept + 1, os.sysconf("SC_OPEN_MAX"))
    os.environ.clear()
    os.environ.update(environment)
    name_process(ZYGOTE_NAME)
    zygote = Zygote(channel, entry)
    zygote.prepare(prepared)
    return run_request(zygote.serve(), entry)


def run_request(request: SessionRequest | None, entry: str) -> int:
    """A zygote's end: 0 when its door closed the channel; in a forked session, its command's status."""
    if request is None:
        return 0
    return session_entry(entry)(list(request.arguments))


def main(argv: Sequence[str]) -> int:
    if len(argv) != 3 or not argv[1].isdigit():
        print(
            "usage: python -m warm_sessions.zygote FD MODULE:FUNCTION (started by serve-ssh and serve-web)",
            file=sys.stderr,
        )
        return 2
    try:
        session_entry(argv[2])
    except (ImportError, ValueError) as error:
        print(f"warm_sessions.zygote: {error}", file=sys.stderr)
        return 2
    name_process(ZYGOTE_NAME)
    zygote = Zygote(socket.socket(fileno=int(argv[1])), argv[2])
    zygote.prepare()
    return run_request(zygote.serve(), argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
