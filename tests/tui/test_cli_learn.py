"""`dominoes learn GAME`: a bad game name is one line and status 2, before Textual starts; a good
one opens the lesson's table in a terminal."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cli.main import main
from tests.processes import InTerminal, dominoes_argv, environment


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["learn", "chess"], "there is no lesson for 'chess' (games: chicken-foot, doubles, moon)"),
        (["learn", "Doubles"], "there is no lesson for 'Doubles'"),
        (["learn"], "the following arguments are required: game"),
        (["learn", "moon", "extra"], "unrecognized arguments: extra"),
    ],
)
def test_a_bad_game_name_is_one_line_and_status_2(capsys, argv, fragment):
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


def test_a_bad_game_name_fails_before_textual_is_imported():
    code = (
        "import sys; from cli.main import main; status = main(['learn', 'chess']);"
        "print(status, 'textual' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["2", "False"]


def test_learn_opens_the_lessons_match_in_a_terminal(tmp_path):
    terminal = InTerminal(dominoes_argv("learn", "moon"), environment(tmp_path))
    try:
        terminal.wait_for("Lesson · step 1 of")  # the lesson's table, its panel beside the bid
        terminal.wait_for("Ben spoke first and bid 4")
        os.write(terminal.master, b"\x1b")  # the bid dialog goes
        terminal.wait_for("Press b when you are ready to bid")
        os.write(terminal.master, b"q")  # leave the table (saved), then quit from the title screen
        terminal.wait_for("Resume: Three-player Moon lesson, step 1")
        os.write(terminal.master, b"q")
        assert terminal.finish() == 0
    finally:
        terminal.close()
