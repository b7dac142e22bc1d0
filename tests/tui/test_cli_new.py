"""`dominoes new`: the settings it builds, and one-line errors with exit status 2 (no Textual needed)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cli.main import main
from cli.parser import build_parser
from cli.play_commands import new_match_settings


def settings_for(*argv):
    return new_match_settings(build_parser().parse_args(["new", *argv]))


def test_seat_one_is_human_and_the_bots_take_their_levels_in_order():
    settings = settings_for("chicken-foot", "--players", "5", "--bots", "easy,easy,random,easy", "--seed", "3")
    assert [(seat.kind, seat.level) for seat in settings.seats] == [
        ("human", None),
        ("bot", "easy"),
        ("bot", "easy"),
        ("bot", "random"),
        ("bot", "easy"),
    ]
    assert settings.seed == 3 and settings.options["rounds"] == 10 and settings.options["centre_trains"] == 5


def test_seats_names_and_options():
    settings = settings_for(
        "chicken-foot",
        "--players",
        "4",
        "--seats",
        "human,human,bot,bot",
        "--bots",
        "random",
        "--names",
        "Ana,Ben",
        "--option",
        "rounds=2",
    )
    assert [seat.name for seat in settings.seats] == ["Ana", "Ben", "Seat 3", "Seat 4"]
    assert [seat.level for seat in settings.seats] == [None, None, "random", "random"]
    assert settings.options["rounds"] == 2


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["new", "go"], "unknown game 'go'"),
        (["new", "chicken-foot", "--players", "9"], "2 to 8 players"),
        (["new", "chicken-foot", "--players", "3", "--seats", "human,bot"], "--seats names 2 seats for 3 players"),
        (["new", "chicken-foot", "--seats", "human,alien"], "a seat is 'human' or a bot level"),
        (["new", "chicken-foot", "--bots", "genius"], "unknown bot level 'genius'"),
        (["new", "chicken-foot", "--option", "rounds=0"], "option rounds"),
        (["new", "chicken-foot", "--names", "A,A"], "different name"),
        (["new", "chicken-foot", "--names", "A,B,C"], "3 names for 2 players"),
        (["new", "chicken-foot", "--seed", "x"], "invalid int value"),
        (["new"], "game"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, fragment):
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


def test_a_bad_argument_fails_before_textual_is_imported():
    code = (
        "import sys; from cli.main import main; status = main(['new', 'chicken-foot', '--players', '1']);"
        "print(status, 'textual' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["2", "False"]
