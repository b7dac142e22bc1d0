"""Duplicate tournaments: rotations, determinism whatever the parallelism, and the report."""

from __future__ import annotations

import json
from dataclasses import replace

from cli.main import main
from core.tournament import jobs, play, tally


def test_every_deal_is_played_in_every_rotation():
    work = jobs("chicken-foot", 3, {"rounds": 1}, ["medium", "easy"], 2, 5, {"medium": 0.01})
    assert len(work) == 6
    for seed in {job.seed for job in work}:
        rotations = [job.levels() for job in work if job.seed == seed]
        # Each seat sees each member of the line-up once across the rotations.
        for seat in range(3):
            assert sorted(levels[seat] for levels in rotations) == sorted(["medium", "easy", "medium"])


def test_a_game_is_a_pure_function_of_its_job():
    job = jobs("chicken-foot", 3, {"rounds": 1}, ["easy", "random"], 1, 9)[1]
    first, second = play(job), play(job)
    assert replace(first, decision_seconds=()) == replace(second, decision_seconds=())
    assert {level for level, _ in first.decision_seconds} <= {"easy", "random"}


def test_tally_counts_shared_wins_as_fractions_and_intervals_bracket_the_mean():
    records = [play(job) for job in jobs("chicken-foot", 2, {"rounds": 1}, ["easy", "random"], 3, 4)]
    report = {entry.level: entry.report() for entry in tally(records).values()}
    assert abs(sum(bot["win_rate"] * bot["seat_games"] for bot in report.values()) - len(records)) < 1e-9
    for bot in report.values():
        low, high = bot["win_rate_ci95"]
        assert 0 <= low <= bot["win_rate"] <= high <= 1
        low, high = bot["mean_score_ci95"]
        assert low <= bot["mean_score"] <= high


def test_tournament_command_json_is_the_same_with_more_processes(capsys):
    args = [
        "tournament",
        "--game",
        "chicken-foot",
        "--players",
        "2",
        "--bots",
        "easy,random",
        "--matches",
        "2",
        "--seed",
        "3",
        "--option",
        "rounds=1",
        "--json",
    ]
    reports = []
    for jobs_count in ("1", "2"):
        assert main([*args, "--jobs", jobs_count]) == 0
        report = json.loads(capsys.readouterr().out)
        for bot in report["bots"]:
            for timing in ("decision_median_s", "decision_p95_s"):
                bot.pop(timing)
        report.pop("seconds")
        reports.append(report)
    assert reports[0] == reports[1]
    assert {"bot", "win_rate", "mean_score", "win_rate_ci95", "mean_score_ci95"} <= set(reports[0]["bots"][0])


def test_tournament_bad_arguments(capsys):
    assert main(["tournament", "--game", "chicken-foot", "--bots", "genius"]) == 2
    assert "unknown bot level" in capsys.readouterr().err
    assert main(["tournament", "--game", "chicken-foot", "--bots", "easy", "--jobs", "0"]) == 2
    assert main(["tournament", "--game", "chicken-foot", "--bots", "easy", "--budget", "-1"]) == 2


def test_budgets_and_worlds_are_per_level_and_a_bare_number_sets_every_level(capsys):
    args = ["tournament", "--game", "doubles", "--players", "2", "--bots", "hard,medium", "--matches", "1", "--json"]
    extra = ["--budget", "5", "--budget", "medium=4", "--worlds", "3", "--worlds", "hard=5"]
    assert main([*args, *extra]) == 0
    report = {bot["bot"]: bot for bot in json.loads(capsys.readouterr().out)["bots"]}
    assert (report["hard"]["budget_s"], report["hard"]["worlds"]) == (5.0, 5)
    assert (report["medium"]["budget_s"], report["medium"]["worlds"]) == (4.0, 3)
    # A fixed number of worlds under a generous budget: the same games on any machine.
    assert main([*args, *extra]) == 0
    again = {bot["bot"]: bot for bot in json.loads(capsys.readouterr().out)["bots"]}
    for level in report:
        assert again[level]["mean_score"] == report[level]["mean_score"]


def test_the_report_shows_each_levels_budget_and_decision_times_within_80_columns(capsys):
    args = ["tournament", "--game", "moon", "--bots", "hard,medium,easy", "--matches", "1"]
    assert main([*args, "--budget", "hard=0.02", "--budget", "medium=0.01", "--option", "target=7"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    header = next(i for i, line in enumerate(lines) if line.startswith("decisions"))
    timing = {line.split()[0]: line.split() for line in lines[header + 1 : header + 4]}
    assert timing["hard"][1:3] == ["0.02", "s"]
    assert timing["medium"][1:3] == ["0.01", "s"]
    assert timing["easy"][1] == "-"


def test_budget_and_worlds_arguments_are_refused_in_one_line(capsys):
    base = ["tournament", "--game", "doubles", "--players", "2", "--bots", "hard,easy", "--matches", "1"]
    for extra, words in [
        (["--budget", "medium=0.1"], "medium is not one of the levels playing (hard, easy)"),
        (["--budget", "hard=-1"], "--budget takes [LEVEL=]SECONDS"),
        (["--budget", "nan"], "--budget takes [LEVEL=]SECONDS"),
        (["--worlds", "easy=3"], "easy is not one of the searching levels playing (hard)"),
        (["--worlds", "0"], "--worlds takes [LEVEL=]N"),
    ]:
        assert main([*base, *extra]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1
    assert main([*base[:6], "easy,random", "--worlds", "3"]) == 2
    assert "none is playing" in capsys.readouterr().err
