"""The save commands: `dominoes saves` (list, show, delete) and `dominoes simulate --save-dir`."""

from __future__ import annotations

import json
import os
from datetime import datetime

import pytest

from cli.main import main
from core import Match
from core.simulation import match_seed, simulate_match
from core.tiles import format_tiles
from saves.autosave import Autosave
from saves.ids import simulated_match_id
from saves.store import SaveStore
from tests.saves.builders import CREATED, record_of, small_match

SIMULATE = ["simulate", "--game", "chicken-foot", "--players", "3", "--matches", "3", "--seed", "4"]


def run(capsys, *argv):
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_writes_every_match_as_a_save(capsys, tmp_path):
    status, out, err = run(capsys, *SIMULATE, "--option", "rounds=2", "--save-dir", tmp_path / "sims")
    assert status == 0 and err == ""
    assert out.rstrip().endswith(f"saved 3 matches in {tmp_path / 'sims'}")
    store = SaveStore(tmp_path / "sims")
    seeds = [match_seed(4, index) for index in range(3)]
    assert store.ids() == sorted(simulated_match_id("chicken-foot", 3, seed) for seed in seeds)
    for seed in seeds:
        expected, _ = simulate_match("chicken-foot", 3, {"rounds": 2}, ["easy"], seed)
        loaded = store.load(simulated_match_id("chicken-foot", 3, seed)).record.match
        assert loaded == expected and loaded.state.over
    status, out, _ = run(capsys, *SIMULATE, "--option", "rounds=1", "--json", "--save-dir", tmp_path / "sims")
    assert status == 0 and json.loads(out)["save_dir"] == str(tmp_path / "sims")


def test_simulations_of_other_games_or_tables_with_the_same_seed_keep_their_own_saves(capsys, tmp_path):
    sims = tmp_path / "sims"
    for game, players in (("chicken-foot", 3), ("moon", 3), ("chicken-foot", 4)):
        argv = ["simulate", "--game", game, "--players", players, "--matches", "1", "--seed", "1", "--save-dir", sims]
        assert run(capsys, *argv)[0] == 0
    store = SaveStore(sims)
    seed = match_seed(1, 0)
    assert store.ids() == sorted(
        simulated_match_id(game, players, seed)
        for game, players in (("chicken-foot", 3), ("moon", 3), ("chicken-foot", 4))
    )
    assert {store.load(match_id).record.match.game_name for match_id in store.ids()} == {"chicken-foot", "moon"}


def test_simulate_save_dir_that_cannot_be_a_directory(capsys, tmp_path):
    (tmp_path / "file").write_text("")
    status, out, err = run(capsys, *SIMULATE, "--save-dir", tmp_path / "file")
    assert status == 2 and out == "" and err.count("\n") == 1 and "--save-dir" in err


def saved_matches(tmp_path):
    """A finished simulated match, one in progress with a human, and a damaged file."""
    store = SaveStore(tmp_path)
    finished, _ = simulate_match("chicken-foot", 3, {"rounds": 1}, ["easy"], 9)
    store.save(record_of(finished, "done1"))
    in_play = small_match(decisions=4)
    Autosave(store, in_play, "play1", created=CREATED, clock=lambda: CREATED + 3600)()
    (tmp_path / "broken.dominoes").write_bytes(b"\x89DOM\r\n\x1a\n" + b"\x00" * 20)
    (tmp_path / "\x1b[2J.dominoes").write_bytes(b"")  # a name that would clear the terminal if printed raw
    return store, finished, in_play


def test_saves_lists_every_match_and_a_damaged_one_with_its_reason(capsys, tmp_path):
    _, finished, _ = saved_matches(tmp_path)
    status, out, err = run(capsys, "saves", "--dir", tmp_path)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"Saved matches in {tmp_path}:"
    played = datetime.fromtimestamp(CREATED + 3600).strftime("%Y-%m-%d %H:%M")
    assert f"play1  Chicken Foot  round 1 of 10  in progress  last played {played}" in lines
    assert "    Seat 1 0, Seat 2 0" in lines
    winner = finished.seats[finished.state.winners[0]].name
    done = next(line for line in lines if line.startswith("done1"))
    assert f"Chicken Foot  round 1 of 1  finished, {winner} won" in done
    pairs = zip(finished.seats, finished.state.scores, strict=True)
    scores = ", ".join(f"{seat.describe()} {score}" for seat, score in pairs)
    assert f"    {scores}" in lines
    assert "broken  damaged: the file is damaged (checksum mismatch)" in lines
    assert "'\\x1b[2J'  damaged: its name is not a match id (lowercase letters, digits and dashes)" in lines
    assert lines.index("broken  damaged: the file is damaged (checksum mismatch)") > lines.index(done)


def test_saves_uses_dominoes_home(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    status, out, _ = run(capsys, "saves")
    assert status == 0 and out.strip() == f"No saved matches in {tmp_path / 'saves'}."
    SaveStore().save(record_of(small_match(), "home1"))
    _, out, _ = run(capsys, "saves")
    assert "home1  Chicken Foot" in out


def test_show_prints_the_log_round_by_round_and_reveals_only_finished_deals(capsys, tmp_path):
    store = SaveStore(tmp_path)
    match, _ = simulate_match("chicken-foot", 3, {"rounds": 2}, ["easy"], 5)
    deals = [index for index, event in enumerate(match.events) if event.kind == "deal"]
    match.cursor = deals[1] + 6  # six events into round 2
    store.save(record_of(match, "show1"))
    status, out, err = run(capsys, "saves", "--dir", tmp_path, "show", "sho")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Match show1: Chicken Foot, 3 players"
    assert "Options: rounds=2, centre_trains=3, double_blank_50=off" in lines
    assert "Now: round 2 of 2, in progress" in lines
    first_deal, second_deal = match.events[deals[0]], match.events[deals[1]]
    assert lines.index("Round 1") < lines.index("Round 2")
    for seat, hand in zip(match.seats, first_deal.hands, strict=True):
        assert f"    {seat.name}: {format_tiles(hand)}" in lines
    assert f"    stock, in drawing order: {format_tiles(first_deal.stock)}" in lines
    assert out.count("The deal:") == 1  # round 2 is in play: its deal stays hidden
    assert not any(format_tiles(hand) in out for hand in second_deal.hands)
    assert "  The round is in play: its deal is shown once it is over." in lines
    names = match.names
    for index in range(match.cursor):
        said = match.game.describe_move(match.state_at(index), match.events[index], names)
        assert f"  {index + 1:>4}. {said}" in lines
    assert not any(line.startswith(f"  {match.cursor + 1:>4}. ") for line in lines)  # the redo tail is not shown
    undone = len(match.events) - match.cursor
    assert lines[-1] == f"({undone} undone events after this point can be redone.)"
    points = [b - a for a, b in zip(match.state_at(deals[0]).scores, match.state_at(deals[1]).scores, strict=True)]
    assert "  Round 1 over. Points: " + ", ".join(f"{n} {p}" for n, p in zip(names, points, strict=True)) + "." in lines


def test_show_a_damaged_save_is_one_line_and_status_1(capsys, tmp_path):
    saved_matches(tmp_path)
    status, out, err = run(capsys, "saves", "show", "broken", "--dir", tmp_path)
    assert status == 1 and out == ""
    assert err == f"dominoes saves show: {tmp_path / 'broken.dominoes'}: the file is damaged (checksum mismatch)\n"


@pytest.mark.parametrize("argv", [["list"], ["list", "--dir"]])
def test_saves_list_lists_as_saves_alone_does(capsys, tmp_path, argv):
    """`dominoes saves list`, as the help's "list, show, verify or delete" leads users to type."""
    saved_matches(tmp_path)
    _, alone, _ = run(capsys, "saves", "--dir", tmp_path)
    arguments = [*argv, tmp_path] if argv[-1] == "--dir" else ["--dir", tmp_path, *argv]
    status, out, err = run(capsys, "saves", *arguments)
    assert status == 0 and err == ""
    assert out == alone and f"Saved matches in {tmp_path}:" in out and "play1" in out


def test_show_and_list_say_when_the_backup_was_used(capsys, tmp_path):
    store = SaveStore(tmp_path)
    match = small_match(decisions=2)
    store.save(record_of(match, "bak1"))
    store.save(record_of(match, "bak1"))
    store.path("bak1").write_bytes(b"garbage")
    status, out, _ = run(capsys, "saves", "--dir", tmp_path, "show", "bak1")
    assert status == 0
    assert "Note: the save of match bak1 cannot be loaded: this is not a dominoes save file" in out
    _, out, _ = run(capsys, "saves", "--dir", tmp_path)
    assert "    note: the save of match bak1 cannot be loaded" in out


def test_delete_removes_the_save_and_its_backup(capsys, tmp_path):
    store, _, _ = saved_matches(tmp_path)
    store.save(record_of(small_match(), "done1"))
    status, out, err = run(capsys, "saves", "--dir", tmp_path, "delete", "do")
    assert status == 0 and err == ""
    assert out == "deleted match done1 (done1.dominoes, done1.dominoes.bak)\n"
    assert not any(name.startswith("done1") for name in os.listdir(tmp_path))
    status, _, _ = run(capsys, "saves", "--dir", tmp_path, "delete", "broken")  # damaged files can be deleted
    assert status == 0 and store.ids() == ["\x1b[2J", "play1"]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["show", "zzz"], "there is no saved match 'zzz'"),
        (["delete", "zzz"], "there is no saved match 'zzz'"),
        (["show"], "the following arguments are required: MATCH"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, tmp_path, argv, fragment):
    status, out, err = run(capsys, "saves", "--dir", tmp_path, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


def test_an_ambiguous_prefix_exits_2(capsys, tmp_path):
    store = SaveStore(tmp_path)
    store.save(record_of(small_match(), "abc1"))
    store.save(record_of(small_match(), "abc2"))
    status, out, err = run(capsys, "saves", "--dir", tmp_path, "show", "abc")
    assert status == 2 and out == "" and "names more than one saved match (abc1, abc2)" in err


def test_show_a_match_before_its_first_deal(capsys, tmp_path):
    SaveStore(tmp_path).save(record_of(Match("chicken-foot", 4, seed=1), "new1"))
    status, out, _ = run(capsys, "saves", "--dir", tmp_path, "show", "new1")
    assert status == 0
    assert "Now: not dealt yet, in progress" in out and out.rstrip().endswith("Nothing has been played yet.")
