"""The `dominoes` command line: simulate, and one-line errors with exit status 2."""

from __future__ import annotations

import json

import pytest

from cli.main import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_summary(capsys):
    status, out, err = run(
        capsys,
        "simulate",
        "--game",
        "chicken-foot",
        "--players",
        "4",
        "--matches",
        "3",
        "--seed",
        "1",
        "--bots",
        "easy,random",
        "--option",
        "rounds=2",
    )
    assert status == 0 and err == ""
    assert "Chicken Foot: 3 matches, 4 players, seed 1" in out
    assert "rounds=2" in out and "matches per second" in out and "mean moves per match" in out


def test_simulate_json_and_determinism(capsys):
    args = (
        "simulate",
        "--game",
        "chicken-foot",
        "--players",
        "3",
        "--matches",
        "4",
        "--seed",
        "9",
        "--bots",
        "easy,random",
        "--option",
        "rounds=1",
        "--json",
    )
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    report, again = json.loads(first), json.loads(second)
    for volatile in ("seconds", "matches_per_second"):
        report.pop(volatile), again.pop(volatile)
    assert report == again
    assert report["matches"] == 4 and report["players"] == 3
    assert [seat["bot"] for seat in report["seats"]] == ["easy", "random", "easy"]
    assert sum(seat["wins"] for seat in report["seats"]) >= 4
    assert {bot["bot"] for bot in report["bots"]} == {"easy", "random"}


def test_simulate_moon_defaults_to_its_three_players(capsys):
    status, out, err = run(
        capsys, "simulate", "--game", "moon", "--matches", "3", "--bots", "easy,random", "--option", "target=7"
    )
    assert status == 0 and err == ""
    assert "Three-player Moon: 3 matches, 3 players, seed 1" in out
    assert "target=7, all_pass=redeal, doubles_trump=on" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["simulate", "--game", "go"], "unknown game 'go'"),
        (["simulate", "--game", "chicken-foot", "--players", "9"], "2 to 8 players"),
        (["simulate", "--game", "chicken-foot", "--players", "1"], "2 to 8 players"),
        (["simulate", "--game", "chicken-foot", "--option", "speed=3"], "unknown option 'speed'"),
        (["simulate", "--game", "chicken-foot", "--option", "rounds=eleven"], "option rounds"),
        (["simulate", "--game", "chicken-foot", "--option", "rounds"], "NAME=VALUE"),
        (["simulate", "--game", "chicken-foot", "--bots", "genius"], "unknown bot level 'genius'"),
        (["simulate", "--game", "chicken-foot", "--matches", "0"], "--matches"),
        (["simulate", "--game", "chicken-foot", "--players", "four"], "invalid int value"),
        (["simulate", "--game", "moon", "--players", "4"], "exactly 3 players"),
        (["simulate", "--game", "moon", "--option", "all_pass=shuffle"], "option all_pass must be redeal or force"),
        (["simulate"], "--game"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, fragment):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_doubles_plays_to_the_target(capsys, players):
    args = ("simulate", "--game", "doubles", "--players", str(players), "--matches", "3", "--seed", "2")
    status, out, err = run(capsys, *args, "--bots", "easy,random", "--option", "target=30", "--json")
    assert status == 0 and err == ""
    report = json.loads(out)
    assert report["game"] == "doubles" and report["matches"] == 3
    assert report["options"] == {"target": 30, "blocked_tie": "nobody"}
    assert sum(seat["wins"] for seat in report["seats"]) == 3  # DB-13: one winner per match


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--players", "5"], "2 to 4 players"),
        (["--option", "blocked_tie=maybe"], "option blocked_tie must be nobody or split"),
        (["--option", "target=0"], "option target must be a whole number from 1 to 1000"),
    ],
)
def test_simulate_doubles_bad_arguments(capsys, argv, fragment):
    status, out, err = run(capsys, "simulate", "--game", "doubles", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


def test_simulate_and_tournament_count_one_match_in_the_singular(capsys):
    assert main(["simulate", "--game", "moon", "--matches", "1", "--seed", "1", "--bots", "easy"]) == 0
    assert "Three-player Moon: 1 match, 3 players" in capsys.readouterr().out
    assert main(["tournament", "--game", "moon", "--bots", "easy,random", "--matches", "1", "--budget", "0.01"]) == 0
    assert "1 duplicate set (3 games)" in capsys.readouterr().out
