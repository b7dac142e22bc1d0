"""An interface that stops on an error exits with status 1, never 0, whichever command opened it:
a screen is broken on purpose (in the process under test only) and the command run in a terminal."""

from __future__ import annotations

import os
import sys

import pytest

from saves import Autosave, SaveStore
from tests.processes import InTerminal, environment
from tests.saves.builders import small_match

BROKEN = (
    "import sys\n"
    "from tui.screens import title\n"
    "def broken(self):\n"
    "    raise RuntimeError('a screen that cannot be drawn')\n"
    "title.TitleScreen.compose = broken\n"
    "from cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize(
    "arguments",
    [(), ("new", "moon", "--seats", "human,bot,bot"), ("learn", "doubles"), ("--resume", "3f9a")],
    ids=["title", "new", "learn", "resume"],
)
def test_an_interface_stopped_by_an_error_exits_1(tmp_path, arguments):
    Autosave(SaveStore(tmp_path / "saves"), small_match(), "3f9a2c1b7e40")()
    terminal = InTerminal([sys.executable, "-c", BROKEN, *arguments], environment(tmp_path))
    try:
        assert terminal.finish() == 1
        assert "a screen that cannot be drawn" in terminal.text()  # Textual shows what went wrong
    finally:
        terminal.close()


def test_an_interface_left_normally_exits_0(tmp_path):
    terminal = InTerminal([sys.executable, "-m", "cli"], environment(tmp_path))
    try:
        terminal.wait_for("New match")  # the title screen is up: quit from it
        os.write(terminal.master, b"q")
        assert terminal.finish() == 0
    finally:
        terminal.close()
