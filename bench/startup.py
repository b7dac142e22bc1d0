"""Start-up time: from launching `dominoes` to its first frame, against a bare Textual app.

    .venv/bin/python bench/startup.py                          # 15 runs of each, best and median
    .venv/bin/python bench/startup.py --runs 30
    .venv/bin/python bench/startup.py --python .venv/bin/python  # an environment that has it already

The project is first installed as a user installs it, `pip install .` into a new virtual
environment (about 15 s), and both programs run on that environment's Python: the figure is a
user's start, not a checkout's (an editable install adds an import hook to every start, and with
PYTHONDONTWRITEBYTECODE a checkout's modules are compiled again each time).

Each program runs in a pseudo-terminal (TERM=xterm-256color, no COLORTERM: as over SSH); the clock
stops when the terminal shows a text that only the first frame contains (the title screen's
banner and its menu; the bare app's one Label), read with the terminal's escape sequences left
out. The title's footer of keys comes a frame later: its time is printed too. The runs alternate
between the two programs, so a busy moment on the machine falls on both. The ratio compares
medians.
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE = """
from textual.app import App
from textual.widgets import Label

class Bare(App):
    def compose(self):
        yield Label("FIRST-FRAME")

Bare().run()
"""
DOMINOES = "import sys; from cli.main import main; sys.exit(main())"  # as the console script does
TIMEOUT = 30.0
ESCAPE = re.compile(rb"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def plain_text(data: bytes) -> str:
    """What a terminal's output says, without its escape sequences, its runs of spaces as one."""
    return " ".join(ESCAPE.sub(b" ", data).decode("utf-8", "replace").split())


def shows(data: bytes, marker: bytes) -> bool:
    """Whether `marker` is in the output, as written or as read on the screen (styled in parts)."""
    return marker in data or marker.decode() in plain_text(data)


def install(folder: Path) -> str:
    """The Python of a new virtual environment in `folder` with the project installed in it."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = str(folder / "bin" / "python")
    build = tempfile.mkdtemp(prefix="dominoes-build-")  # a copy: the build leaves nothing in the checkout
    shutil.copytree(
        ROOT, build, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info")
    )
    subprocess.run([python, "-m", "pip", "install", "--quiet", build], check=True)
    shutil.rmtree(build, ignore_errors=True)
    return python


def first_frame(code: str, marker: bytes, home: str, python: str = sys.executable) -> float:
    """Seconds from the fork to the arrival of `marker` on the terminal."""
    return frames(code, (marker,), home, python)[0]


def frames(code: str, markers: tuple[bytes, ...], home: str, python: str = sys.executable) -> list[float]:
    """Seconds from the fork to the arrival of each of `markers` on the terminal."""
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program under test
        os.environ.update(TERM="xterm-256color", DOMINOES_HOME=home)
        os.environ.pop("COLORTERM", None)
        os.chdir(home)  # not the checkout: `python -c` would import the project from the folder it runs in
        os.execv(python, [python, "-c", code])
    seen = b""
    elapsed: list[float] = []
    try:
        while time.perf_counter() - started < TIMEOUT:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(fd, 1 << 16)
                except OSError:
                    break
                while len(elapsed) < len(markers) and shows(seen, markers[len(elapsed)]):
                    elapsed.append(time.perf_counter() - started)
                if len(elapsed) == len(markers):
                    break
        os.write(fd, b"\x11")  # Ctrl+Q quits both programs
        end = time.perf_counter() + 5
        while time.perf_counter() < end:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    os.read(fd, 1 << 16)
                except OSError:
                    break
    finally:
        os.waitpid(pid, 0)
        os.close(fd)
    if len(elapsed) < len(markers):
        raise RuntimeError(f"no {markers[len(elapsed)].decode()!r} on the screen within {TIMEOUT} s")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--python", help="a Python whose environment has dominoes installed (default: a new one)")
    args = parser.parse_args()
    home = tempfile.mkdtemp()
    environment = Path(tempfile.mkdtemp(prefix="dominoes-startup-"))
    bare: list[float] = []
    ours: list[float] = []
    keys: list[float] = []
    try:
        python = args.python or install(environment)
        first_frame(BARE, b"FIRST-FRAME", home, python)  # warm the file cache for both
        first_frame(DOMINOES, b"D O M I N O E S", home, python)
        for _ in range(args.runs):
            bare.append(first_frame(BARE, b"FIRST-FRAME", home, python))
            title, footer = frames(DOMINOES, (b"D O M I N O E S", b"palette"), home, python)
            ours.append(title)
            keys.append(footer)
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(environment, ignore_errors=True)
    for name, times in (("bare Textual app", bare), ("dominoes", ours), ("… and its keys", keys)):
        print(f"{name:<18} best {min(times) * 1000:6.0f} ms   median {statistics.median(times) * 1000:6.0f} ms")
    print(f"ratio (median)     {statistics.median(ours) / statistics.median(bare):.2f}")


if __name__ == "__main__":
    main()
