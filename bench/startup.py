"""Start-up time: from launching `dominoes` to its first frame, against a bare Textual app.

    python bench/startup.py            # 10 launches of each, medians
    python bench/startup.py --runs 20

Both programs run in a pseudo-terminal (80x24, TERM=xterm-256color); the clock stops when the
first frame's text appears in the terminal output. The bare app shows one Label; the figure to
watch is the ratio of the two medians.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BARE_APP = """
from textual.app import App
from textual.widgets import Label

class Bare(App):
    def compose(self):
        yield Label("bare app ready")

Bare().run()
"""


def time_to_text(argv: list[str], marker: bytes, env: dict[str, str], timeout: float = 30.0) -> float:
    """Seconds from spawning `argv` in a pty until `marker` appears in its output."""
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the program
        os.execvpe(argv[0], argv, env)
    seen = b""
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                seen += chunk
                if marker in seen:
                    return time.perf_counter() - started
        raise RuntimeError(f"{' '.join(argv)} showed no {marker!r} within {timeout} s")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--marker", default="Dominoes", help="text of the title screen's first frame")
    args = parser.parse_args()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    env.pop("COLORTERM", None)
    env["DOMINOES_HOME"] = tempfile.mkdtemp(prefix="dominoes-bench-")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as bare:
        bare.write(BARE_APP)
    programs = {
        "bare Textual app": ([sys.executable, bare.name], b"bare app ready"),
        "dominoes": ([sys.executable, "-m", "tui.cli"], args.marker.encode()),
    }
    medians = {}
    for name, (argv, marker) in programs.items():
        time_to_text(argv, marker, env)  # warm the file cache
        runs = [time_to_text(argv, marker, env) for _ in range(args.runs)]
        medians[name] = statistics.median(runs)
        print(f"{name:>17}: {medians[name] * 1000:.0f} ms median over {args.runs} launches")
    print(f"ratio: {medians['dominoes'] / medians['bare Textual app']:.2f}")
    os.unlink(bare.name)


if __name__ == "__main__":
    main()
