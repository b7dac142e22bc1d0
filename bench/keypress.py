"""Key press to frame: how long the table takes to answer an arrow key, in a pseudo-terminal.

    python bench/keypress.py            # 30 presses in each situation
    python bench/keypress.py --presses 60

`dominoes new chicken-foot` runs in a pseudo-terminal (TERM=xterm-256color, no COLORTERM). The clock
runs from writing the key (→, which moves the selection in the hand and re-marks the board) to the
first bytes of the new frame. Three situations: the human's turn with bots at instant speed,
while an easy bot "thinks" (bots at slow speed, after the human has played), and while hard bots
search (three hard bots at instant speed, each searching for its full budget of about a second).
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = "import sys; from cli.main import main; sys.exit(main(sys.argv[1:]))"
ARGS = ["new", "chicken-foot", "--players", "4", "--seed", "3", "--bots"]
RIGHT = b"\x1b[C"


def read_until(fd: int, marker: bytes, timeout: float) -> bytes:
    seen = b""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        ready, _, _ = select.select([fd], [], [], 0.02)
        if ready:
            seen += os.read(fd, 1 << 16)
            if marker in seen:
                return seen
    raise RuntimeError(f"{marker!r} did not appear")


def drain(fd: int, quiet: float) -> None:
    """Read until the terminal has been quiet for `quiet` seconds."""
    while select.select([fd], [], [], quiet)[0]:
        try:
            os.read(fd, 1 << 16)
        except OSError:  # the program has ended
            return


def press_times(speed: str, bots: str, presses: int) -> list[float]:
    home = tempfile.mkdtemp()
    Path(home, "preferences.json").write_text(json.dumps({"bot_speed": speed}))
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", DOMINOES_HOME=home, PYTHONPATH=str(ROOT))
        os.environ.pop("COLORTERM", None)
        os.execv(sys.executable, [sys.executable, "-c", CODE, *ARGS, bots])
    times = []
    try:
        read_until(fd, b"your turn", 30)
        drain(fd, 0.3)
        if speed != "instant" or bots != "easy":
            os.write(fd, b"\r")  # play: the bots start thinking (slowly, or searching)
            read_until(fd, b"thinking", 10)
            drain(fd, 0.05)
        for _ in range(presses):
            started = time.perf_counter()
            os.write(fd, RIGHT)
            if select.select([fd], [], [], 2.0)[0]:
                times.append(time.perf_counter() - started)
            drain(fd, 0.03)
    finally:
        os.write(fd, b"\x11")
        drain(fd, 0.5)
        os.waitpid(pid, 0)
        os.close(fd)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=30)
    args = parser.parse_args()
    situations = (
        ("human's turn", "instant", "easy"),
        ("while a bot thinks", "slow", "easy"),
        ("while hard bots search", "instant", "hard"),
    )
    for label, speed, bots in situations:
        times = sorted(press_times(speed, bots, args.presses))
        p90 = times[int(len(times) * 0.9) - 1]
        print(
            f"{label:<24} median {statistics.median(times) * 1000:5.1f} ms   p90 {p90 * 1000:5.1f} ms"
            f"   ({len(times)} presses)"
        )


if __name__ == "__main__":
    main()
