"""One writer per match: an OS lock on a file beside the save, held while a process has the match open.

The lock is `flock` on `<id>.dominoes.lock` (on Windows, `msvcrt.locking`): the operating system
drops it when its holder exits, however it exits, so a match left by a process that died is
simply taken over. The holder writes who it is into the file (process id, command, user and host,
since when), so a refusal can name it. Releasing removes the file; a process that locked a file
just as its holder removed it sees that the name now leads elsewhere and tries again. A process
ended by SIGTERM or SIGHUP (a `kill`, a closed terminal, a dropped SSH session) removes its lock
files on the way out, unless it handles those signals itself; after SIGKILL the file stays, and the
next process to open the match takes it over without a word.
"""

from __future__ import annotations

import getpass
import json
import os
import signal
import socket
import stat
import sys
import threading
import time
import weakref
from contextlib import suppress
from pathlib import Path
from types import FrameType

from saves.errors import SaveError

LOCK_SUFFIX = ".dominoes.lock"
MAX_HOLDER = 4096  # bytes of the holder's description read back; anything longer is not ours
MAX_FIELD = 80  # characters of each field shown in a refusal
ATTEMPTS = 5  # locks of a file its holder removed meanwhile, before giving up

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt


ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_held: weakref.WeakSet[MatchLock] = weakref.WeakSet()  # the locks this process holds


def _release_and_end(number: int, frame: FrameType | None) -> None:
    """A signal that ends the process: let go of every lock (removing its file), then end as the
    signal would have ended it."""
    for lock in list(_held):
        with suppress(Exception):
            lock.release()
    signal.signal(number, signal.SIG_DFL)
    os.kill(os.getpid(), number)


def _remove_locks_when_ended() -> None:
    """From the first lock on, SIGTERM and SIGHUP remove the lock files before the process ends
    (where nobody else handles them: a program that does releases its locks itself)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for number in ENDING_SIGNALS:
        with suppress(ValueError, OSError):
            if signal.getsignal(number) is signal.SIG_DFL:
                signal.signal(number, _release_and_end)


class MatchInUse(SaveError):
    """The match is open in another process; the reason names that process as its lock file says."""


def lock_path(directory: Path, match_id: str) -> Path:
    return directory / f"{match_id}{LOCK_SUFFIX}"


class MatchLock:
    """The lock of one match, held by this process until `release()` (or until it exits)."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @classmethod
    def acquire(cls, directory: Path, match_id: str) -> MatchLock:
        """Lock the match `match_id` of the saves in `directory`. MatchInUse if another process
        holds it; SaveError if the lock file cannot be made."""
        path = lock_path(directory, match_id)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for _ in range(ATTEMPTS):
                flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                descriptor = os.open(path, flags, 0o600)
                try:
                    if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # left there by someone else
                        raise OSError(0, "the lock file is not a regular file")
                    if not _try_lock(descriptor):
                        os.lseek(descriptor, 0, os.SEEK_SET)
                        holder = describe_holder(os.read(descriptor, MAX_HOLDER + 1))
                        reason = f"match {match_id} is open in another process ({holder}); close it there first"
                        raise MatchInUse(reason)
                    if _same_file(descriptor, path):
                        # Held, and the ending signals handled, before the holder is named: whoever
                        # sees the name may signal at once, and the file must still go with us.
                        lock = cls(path, descriptor)
                        _held.add(lock)
                        _remove_locks_when_ended()
                        try:
                            _write_holder(descriptor)
                        except BaseException:
                            _held.discard(lock)
                            lock._descriptor = None  # closed below: never to be closed twice
                            raise
                        return lock
                except BaseException:
                    os.close(descriptor)
                    raise
                os.close(descriptor)  # its holder removed it as we locked it: lock the new one
        except OSError as error:
            reason = f"the lock of match {match_id} cannot be taken ({error.strerror or error})"
            raise SaveError(reason, str(path)) from None
        raise SaveError(f"the lock of match {match_id} kept changing hands", str(path))

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def release(self) -> None:
        """Remove the lock file, then let go: whoever waits on the old file sees it is gone."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        _held.discard(self)
        if fcntl is not None:
            with suppress(OSError):
                self.path.unlink()
            os.close(descriptor)
        else:  # an open file cannot be removed on Windows
            os.close(descriptor)
            with suppress(OSError):
                self.path.unlink()

    def __del__(self) -> None:  # a lock nobody refers to any more is let go, as at exit
        with suppress(Exception):  # at interpreter shutdown what it needs may be gone: the OS lets go
            self.release()

    def __enter__(self) -> MatchLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _try_lock(descriptor: int) -> bool:
    """Take the lock without waiting; False if another open file holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            os.lseek(descriptor, MAX_HOLDER + 1, os.SEEK_SET)  # a byte past the holder's description
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
    except (BlockingIOError, PermissionError):
        return False
    return True


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        named = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _write_holder(descriptor: int) -> None:
    holder = {
        "pid": os.getpid(),
        "command": _command(),
        "user": _user(),
        "host": socket.gethostname(),
        "since": int(time.time()),
    }
    data = json.dumps(holder).encode()
    os.ftruncate(descriptor, 0)
    os.lseek(descriptor, 0, os.SEEK_SET)
    os.write(descriptor, data)


def _command() -> str:
    """This process's command line as a user typed it: `dominoes ...` however it was started."""
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    if program in ("", "-c", "__main__.py", "-m"):
        program = "dominoes"
    return " ".join([program, *sys.argv[1:]])


def _user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return "?"


def describe_holder(data: bytes) -> str:
    """The holder as its lock file says, in a few plain words; the file may say anything, so every
    field is checked, shortened and shown only if printable."""
    try:
        holder = json.loads(data[:MAX_HOLDER].decode("utf-8")) if len(data) <= MAX_HOLDER else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        holder = None
    if not isinstance(holder, dict):
        return "it has not said which"

    def text(name: str) -> str | None:
        value = holder.get(name)
        if type(value) is int:
            value = str(value)
        if not isinstance(value, str) or not value or not value.isprintable():
            return None
        return value if len(value) <= MAX_FIELD else value[: MAX_FIELD - 1] + "…"

    parts = []
    if (pid := text("pid")) is not None:
        parts.append(f"process {pid}")
    if (command := text("command")) is not None:
        parts.append(command)
    user, host = text("user"), text("host")
    if user or host:
        parts.append(f"{user or '?'}@{host or '?'}")
    since = holder.get("since")
    if type(since) is int and 0 < since < 2**40:
        parts.append("since " + time.strftime("%Y-%m-%d %H:%M", time.localtime(since)))
    return ", ".join(parts) or "it has not said which"
