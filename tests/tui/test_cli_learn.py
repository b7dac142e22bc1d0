"""`dominoes learn GAME`: a bad game name is one line and status 2, before Textual starts; a good
one opens the lesson's table."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cli.main import main


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


def test_learn_opens_the_lessons_match(monkeypatch):
    opened = []

    class FakeApp:
        def __init__(self, match):
            opened.append(match)

        def run(self):
            opened.append("ran")

    import tui.app

    monkeypatch.setattr(tui.app, "DominoesApp", FakeApp)
    monkeypatch.setattr("cli.learn_command.require_terminal", lambda command: None)  # tested on its own
    assert main(["learn", "moon"]) == 0
    match, ran = opened
    assert ran == "ran" and match.game_name == "moon" and match.cursor == 1
    assert match.names == ("You", "Ben", "Cleo")
