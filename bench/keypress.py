"""Key press to frame: how long the table takes to answer an arrow key, in a pseudo-terminal.

    .venv/bin/python bench/keypress.py            # 30 presses in each situation
    .venv/bin/python bench/keypress.py --presses 60 --board-lines 60

`dominoes new chicken-foot` runs in a pseudo-terminal (TERM=xterm-256color, no COLORTERM). The clock
runs from writing the key (→, which moves the selection in the hand and re-marks the board) to the
first bytes of the new frame. Four situations: the human's turn with bots at instant speed, while
an easy bot "thinks" (bots at slow speed, after the human has played), while hard bots search
(three hard bots at instant speed, each searching for its full budget of about a second), and the
human's turn at the same table with a board of `--board-lines` lines of play (60 by default), so
the two rows differ by the board alone.

No legal round has 60 lines (at most 8 trains and 3 toes under each of 9 doubles: 35), so that
board is made up: long trains and feet under feet, built by `big_board`, drawn in place of the
real one (the hand, the keys and the rest of the table are the real match's; the ends where the
picked tile fits keep their numbers, so they are marked on the made-up board). It measures what the
board costs to re-mark and scroll when it is larger than any game makes it.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import random
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.layout import Layout  # noqa: E402 (the repository's root is on the path only now)
from core.tiles import Tile  # noqa: E402

CODE = "import sys; from cli.main import main; sys.exit(main(sys.argv[1:]))"
# The same program, its table drawing a made-up board of N lines (sys.argv[1]) instead of the real one.
BIG_BOARD_CODE = """
import dataclasses, sys
sys.path.insert(0, {bench!r})
from keypress import big_board
import tui.table_model
board = big_board(int(sys.argv.pop(1)))
real_view = tui.table_model.LocalTable.view
def view(self):
    seen = real_view(self)
    return dataclasses.replace(seen, board=board) if seen.board is not None else seen
tui.table_model.LocalTable.view = view
from cli.main import main
sys.exit(main(sys.argv[1:]))
"""
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


def big_board(lines: int) -> Layout:
    """A made-up Chicken Foot layout of at least `lines` lines: doubles (feet) on feet and long
    trains, played at random ends (the same every run); tiles repeat, which the board ignores."""
    rng = random.Random(1)
    board = Layout.start(Tile(9, 9), 8)
    while len(board.lines) < lines:
        end = rng.choice(board.empty_ends or board.ends)
        number: int = board.lines[end].open  # type: ignore[assignment]
        double = rng.random() < 0.3 and bool(board.lines[end].tiles)
        board = board.play(end, Tile(number, number if double else rng.randrange(10)), 3)
    return board


def press_times(speed: str, bots: str, presses: int, board_lines: int = 0) -> list[float]:
    home = tempfile.mkdtemp()
    Path(home, "preferences.json").write_text(json.dumps({"bot_speed": speed}))
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", DOMINOES_HOME=home, PYTHONPATH=str(ROOT))
        os.environ.pop("COLORTERM", None)
        if board_lines:
            code = BIG_BOARD_CODE.format(bench=str(ROOT / "bench"))
            os.execv(sys.executable, [sys.executable, "-c", code, str(board_lines), *ARGS, bots])
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
    parser.add_argument("--board-lines", type=int, default=60, help="lines of the made-up large board")
    args = parser.parse_args()
    lines = len(big_board(args.board_lines).lines)
    situations = (
        ("human's turn", "instant", "easy", 0),
        ("while a bot thinks", "slow", "easy", 0),
        ("while hard bots search", "instant", "hard", 0),
        (f"{lines}-line board", "instant", "easy", args.board_lines),
    )
    for label, speed, bots, board_lines in situations:
        times = sorted(press_times(speed, bots, args.presses, board_lines))
        p90 = times[int(len(times) * 0.9) - 1]
        print(
            f"{label:<24} median {statistics.median(times) * 1000:5.1f} ms   p90 {p90 * 1000:5.1f} ms"
            f"   ({len(times)} presses)"
        )


if __name__ == "__main__":
    main()
