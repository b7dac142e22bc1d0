"""bench/ismcts.py and its adapter, tiny: OpenSpiel's IS-MCTS plays our games through the adapter
from what its seat sees, and the bench plays `hard` against it in duplicate deals and reports."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import islice
from pathlib import Path

import pytest

from bench import ismcts_adapter
from bench.ismcts_adapter import IsmctsPlayer, RoundGame, view_key
from core.registry import get_game
from core.simulation import easy_play_decisions

ROOT = Path(__file__).resolve().parent.parent
TABLES = {"doubles": 2, "moon": 3, "chicken-foot": 4}
SHORT = {"doubles": "target=10", "moon": "target=5", "chicken-foot": "rounds=1"}


def bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(ROOT / "bench" / "ismcts.py"), *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.parametrize("worlds", ["engine", "hard"])
@pytest.mark.parametrize("game", list(TABLES))
def test_the_reference_chooses_a_legal_move_from_its_view_alone(game, worlds):
    player = IsmctsPlayer(worlds=worlds)
    for view, legal in islice(easy_play_decisions(game, TABLES[game]), 6):
        move = player.choose(view, legal, random.Random(3), 0.01)
        assert move in legal
    # every decision ran its simulations from worlds resampled from the view (a world that gave the
    # seat another view would have stopped the search)
    assert len(player.simulations) == 6 and min(player.simulations) >= 2


@pytest.mark.parametrize("game", list(TABLES))
def test_an_information_set_holds_what_its_seat_sees_and_nothing_hidden(game):
    engine = get_game(game)
    view, _ = next(islice(easy_play_decisions(game, TABLES[game]), 4, None))
    worlds = [engine.determinize(view, random.Random(seed)) for seed in range(8)]
    # Worlds the seat cannot tell apart are one node of its tree...
    assert len({view_key(engine.view(world, view.seat)) for world in worlds}) == 1
    # ... and another seat's node differs with what that seat holds in each world.
    other = (view.seat + 1) % TABLES[game]
    keys = {view_key(engine.view(world, other)) for world in worlds}
    hands = {engine.view(world, other).hand for world in worlds}
    assert len(keys) == len(hands) > 1


def test_moves_are_numbered_once_for_every_world():
    game = RoundGame("doubles", 2)
    view, legal = next(islice(easy_play_decisions("doubles", 2), 2, None))
    numbers = []
    for seed in range(3):
        state = game.state_of(get_game("doubles").determinize(view, random.Random(seed)))
        numbers.append(state.legal_actions())
    assert numbers[0] == numbers[1] == numbers[2]
    assert [game.move_of[number] for number in numbers[0]] == list(legal)


@pytest.mark.parametrize("game", list(TABLES))
def test_the_bench_plays_hard_against_the_reference_in_duplicate_deals(game):
    result = bench(
        "--game", game, "--option", SHORT[game], "--matches", "1", "--budget", "0.005", "--jobs", "1", "--json"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (report,) = json.loads(result.stdout)
    players = TABLES[game]
    assert report["matches"] == players and report["deals"] == 1  # one deal, in every rotation
    assert report["lineup"].count("hard") == 1 and len(report["lineup"]) == players
    low, high = report["hard_win_rate_ci95"]
    assert 0 <= low <= report["hard_win_rate"] <= high <= 1
    assert report["hard_decisions"]["decisions"] > 0 and report["reference_decisions"]["decisions"] > 0
    assert report["simulations_median"] >= 2
    if game == "chicken-foot":
        assert report["ratio"] > 0 and report["hard_points_a_round"] >= 0


def test_the_bound_plays_a_hard_that_sees_every_hand():
    result = bench("--game", "doubles", "--option", "target=10", "--matches", "2", "--budget", "0.005", "--seeing")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "hard (seeing every hand) wins" in result.stdout


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (("--game", "doubles", "--option", "rounds=1"), "unknown option 'rounds'"),
        (("--game", "moon", "--seeing"), "--seeing is for Doubles and Chicken Foot"),
        (("--budget", "0"), "--budget is above 0"),
    ],
)
def test_a_bad_argument_is_one_line(arguments, words):
    result = bench(*arguments)
    assert result.returncode == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_adapter_refuses_an_unknown_playout_or_worlds():
    with pytest.raises(ValueError, match="rollout is one of"):
        ismcts_adapter.IsmctsPlayer(rollout="greedy")
    with pytest.raises(ValueError, match="worlds are one of"):
        ismcts_adapter.IsmctsPlayer(worlds="all")


def test_the_bench_tells_its_progress_as_matches_finish():
    result = bench("--game", "doubles", "--option", "target=10", "--matches", "2", "--budget", "0.005", "--jobs", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr.splitlines()[-1].startswith("doubles: 2 of 2 matches")
    assert "doubles: 1 of 2 matches" in result.stderr


def run_doubles(*arguments: str) -> list[str]:
    return ["--game", "doubles", "--option", "target=10", "--budget", "0.005", "--jobs", "1", *arguments]


def test_a_recorded_run_stopped_part_way_goes_on_from_its_file_and_reports_from_it_alone(tmp_path, capsys):
    from bench import ismcts

    path = tmp_path / "run.jsonl"
    assert ismcts.main(run_doubles("--matches", "4", "--record", str(path), "--json")) == 0
    first = json.loads(capsys.readouterr().out)[0]
    assert first["matches"] == 4 and first["deals"] == 2
    lines = path.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 4
    # stopped as it wrote its fourth match: the last line is cut short
    path.write_text("".join(lines[:4]) + lines[4][:40])
    assert ismcts.main(["--report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 matches (1 duplicate deals)" in out
    assert "1 more not counted: their deals are not yet in every rotation" in out

    assert ismcts.main(run_doubles("--matches", "6", "--record", str(path), "--json")) == 0
    captured = capsys.readouterr()
    assert "3 of these 6 matches played before" in captured.err
    assert captured.err.splitlines()[-1].startswith("doubles: 6 of 6 matches")  # three played, not six
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6 and all(json.loads(line) for line in lines)  # the cut line is gone
    assert sorted((json.loads(line)["deal"], json.loads(line)["rotation"]) for line in lines[1:]) == [
        (deal, rotation) for deal in range(3) for rotation in range(2)
    ]
    played = json.loads(captured.out)[0]
    assert ismcts.main(["--report", str(path), "--json"]) == 0
    reported = json.loads(capsys.readouterr().out)[0]
    for key in ("matches", "deals", "hard_win_rate", "hard_win_rate_ci95", "hard_decisions", "simulations_median"):
        assert reported[key] == played[key]
    assert played["matches"] == 6 and played["matches_not_in_whole_deals"] == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("", "is not the records of a bench/ismcts.py run"),
        ('{"format": "dominoes-ismcts-run", "version": 9, "run": {}}\n', "records of version 9"),
        ("[1, 2]\n", "is not the records of a bench/ismcts.py run"),
    ],
)
def test_a_damaged_records_file_is_one_line_and_left_as_it_is(tmp_path, capsys, content, words):
    from bench import ismcts

    path = tmp_path / "run.jsonl"
    path.write_text(content)
    assert ismcts.main(["--report", str(path)]) == 2
    assert ismcts.main(run_doubles("--matches", "2", "--record", str(path))) == 2
    err = capsys.readouterr().err
    assert err.count(words) == 2 and len(err.strip().splitlines()) == 2
    assert path.read_text() == content


def test_a_records_file_of_another_run_is_not_gone_on_with(tmp_path, capsys):
    from bench import ismcts

    path = tmp_path / "run.jsonl"
    assert ismcts.main(run_doubles("--matches", "2", "--record", str(path))) == 0
    before = path.read_text()
    assert ismcts.main([*run_doubles("--matches", "2", "--record", str(path)), "--uct-c", "0.7"]) == 2
    assert "holds another run (uct_c 2.0, not 0.7)" in capsys.readouterr().err
    lines = before.splitlines(keepends=True)
    path.write_text(lines[0] + lines[1].replace('"rotation": 0', '"rotation": 5'))
    assert ismcts.main(["--report", str(path)]) == 2
    assert "line 2: a match has no deal or rotation" in capsys.readouterr().err


def test_a_records_file_is_read_within_bounds(tmp_path, monkeypatch):
    from bench import ismcts_records

    path = tmp_path / "run.jsonl"
    path.write_text("x" * 100)
    monkeypatch.setattr(ismcts_records, "MOST_BYTES", 50)
    with pytest.raises(ismcts_records.RecordsError, match="more than a run's records"):
        ismcts_records.read(path)
