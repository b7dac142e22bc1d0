"""Running `dominoes` as a user would, in a process of its own: in a terminal (a pty) or with its
output piped, and waiting for what it shows or does, never for a fixed time."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WAIT = 60.0  # generous: every wait ends on a condition long before this on a machine that works
ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def dominoes_argv(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "cli", *arguments]


def environment(home: Path, **extra: str) -> dict[str, str]:
    """The test's environment, with the project importable and `home` as the data directory."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "DOMINOES_HOME": str(home), **extra}


def run_dominoes(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """`dominoes ARGUMENTS` run to its end, its output captured."""
    return subprocess.run(
        dominoes_argv(*arguments), env=environment(home), capture_output=True, text=True, timeout=WAIT
    )


def piped_dominoes(home: Path, *arguments: str) -> subprocess.Popen[str]:
    """`dominoes ARGUMENTS` started with `home` as its data directory, its output piped as text."""
    return subprocess.Popen(
        dominoes_argv(*arguments), env=environment(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def children(pid: int) -> list[int]:
    """The processes `pid` started (the children of each of its threads), from /proc."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as handle:
            found += [int(word) for word in handle.read().split()]
    return found


def wait_until(condition: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Poll `condition` until it holds; AssertionError naming `what` if it never does."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class InTerminal:
    """A process in a pseudo-terminal of its own (80x24, TERM=xterm-256color unless `env` says
    otherwise), its output collected as it comes."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], size: tuple[int, int] = (80, 24)) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.master = master
        self.process = subprocess.Popen(
            argv,
            cwd=ROOT,
            env={"TERM": "xterm-256color", **env},
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
        )
        os.close(slave)
        self._output = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: the terminal's other side is closed
                return
            if not data:
                return
            self._output += data

    def text(self) -> str:
        return ESCAPES.sub("", bytes(self._output).decode("utf-8", "replace"))

    def wait_for(self, words: str, timeout: float = WAIT) -> None:
        wait_until(lambda: words in self.text() or self.process.poll() is not None, repr(words), timeout)
        assert words in self.text(), f"ended without showing {words!r}: {self.text()[-500:]!r}"

    def finish(self, timeout: float = WAIT) -> int:
        """Wait for the process to end on its own; its exit status."""
        status = self.process.wait(timeout)
        self._reader.join(timeout)
        return status

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self._reader.join(5)
        os.close(self.master)
