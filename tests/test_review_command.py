"""`dominoes review`: the report, its JSON, the ranking of the bot levels it gives, its errors and
Ctrl+C."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main
from core import Match, Seat
from core.bots import get_bot
from core.bots.hard import HardBot
from core.review.verdicts import FLAWED, VERDICTS
from core.simulation import seat_rng
from saves.record import SavedMatch
from saves.store import SaveStore

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def sims(tmp_path, capsys):
    """Two simulated Doubles matches, saved as `simulate --save-dir` saves them."""
    directory = tmp_path / "sims"
    status, _, _ = run(
        capsys, "simulate", "--game", "doubles", "--matches", "2", "--bots", "easy,random", "--save-dir", directory
    )
    assert status == 0
    return directory


def review_json(capsys, directory, match_id, *extra):
    status, out, err = run(capsys, "review", match_id, "--dir", directory, "--worlds", 4, "--jobs", 2, "--json", *extra)
    assert status == 0, err
    assert err == ""  # no progress bar with --json (nor off a terminal)
    return json.loads(out)


def test_the_review_of_a_simulated_save_as_json(capsys, sims):
    match_id = SaveStore(sims).ids()[0]
    report = review_json(capsys, sims, match_id[: len("sim-doubles-2p-") + 4])  # enough of its start
    assert list(report) == ["game", "match", "seats", "decisions", "in_play"]
    assert report["in_play"] is None  # the match is over: every round is reviewed
    assert (report["game"], report["match"]) == ("doubles", match_id)
    assert [(s["seat"], s["name"]) for s in report["seats"]] == [(1, "easy 1"), (2, "random 2")]
    match = SaveStore(sims).load(match_id).record.match
    decisions = [i for i, event in enumerate(match.events) if event.kind != "deal"]
    assert [d["event"] for d in report["decisions"]] == [i + 1 for i in decisions]
    for seat in report["seats"]:
        assert list(seat) == ["seat", "name", "decisions", "mean_loss", "verdicts", "worst"]
        assert list(seat["verdicts"]) == list(VERDICTS)
        assert sum(seat["verdicts"].values()) == seat["decisions"]
        assert len(seat["worst"]) <= 3
    decision = report["decisions"][0]
    assert list(decision) == [
        "event", "round", "seat", "name", "move", "best", "loss", "error", "verdict", "reason", "alternatives", "deals"
    ]  # fmt: skip
    one = review_json(capsys, sims, match_id, "--seat", "2")
    assert [s["seat"] for s in one["seats"]] == [2] and {d["seat"] for d in one["decisions"]} == {2}


def test_the_review_in_words_and_kept_for_next_time(capsys, sims):
    store = SaveStore(sims)
    match_id = store.ids()[0]
    status, out, err = run(capsys, "review", match_id, "--dir", sims, "--worlds", "3", "--seat", "1")
    assert status == 0 and err == ""
    assert out.startswith(f"Review of match {match_id}: Doubles (3 sampled deals a decision, seed 0;")
    assert "Seat 1, easy 1:" in out and "mean loss" in out and "Round 1" in out
    assert store.review_path(match_id).exists()
    assert run(capsys, "review", match_id, "--dir", sims, "--worlds", "3", "--seat", "1")[1] == out


def test_fewer_than_eight_deals_find_fault_with_nothing_and_say_so(capsys, sims):
    match_id = SaveStore(sims).ids()[0]
    report = review_json(capsys, sims, match_id, "--worlds", "2")
    verdicts = [decision["verdict"] for decision in report["decisions"]]
    assert "unclear" in verdicts and not set(verdicts) & set(FLAWED)
    assert all(seat["verdicts"][name] == 0 for seat in report["seats"] for name in FLAWED)
    status, out, err = run(capsys, "review", match_id, "--dir", sims, "--worlds", "2", "--seat", "1")
    assert status == 0, err
    unclear = next(d for d in report["decisions"] if d["verdict"] == "unclear" and d["seat"] == 1)
    line = f"{unclear['move']} · unclear, {unclear['loss']:.2f} in 2 deals (perhaps better: {unclear['best']})"
    assert line in out
    assert "        2 sampled deals are too few to tell (a verdict takes 8)." in out


def test_one_decision_is_counted_in_the_singular(capsys, tmp_path):
    from cli.review_command import format_review
    from core.review import ReviewSettings, build_report, decisions, review_decision, weigh_decision

    match = Match("moon", 3, {}, None, 4)
    match.deal()
    while not match.state.chance:  # hand 1 played to its end, so that it is reviewed
        match.apply(match.legal_moves()[0])
    SaveStore(tmp_path).save(SavedMatch("one", match, 1, 1))
    status, out, err = run(capsys, "review", "one", "--dir", tmp_path, "--worlds", "1", "--seat", 1)
    assert status == 0, err
    assert "(1 sampled deal a decision," in out and " in 1 deal (perhaps better:" in out
    # A seat reviewed on one decision alone: "1 decision", the report's own words for it.
    first = decisions(match)[0]
    settings = ReviewSettings(seed=0, worlds=1)
    state, move = match.state_at(first.index), match.events[first.index]
    weighing = weigh_decision(match.game, state, move, first.index, settings)
    names = ("Ann", "Ben", "Cy")
    review = review_decision(match.game, state, move, first, weighing)
    report = build_report("moon", "one", names, [first.seat], [review])
    assert f"Seat {first.seat + 1}, {names[first.seat]}: 1 decision, mean loss" in format_review(report, settings)


def test_the_same_seed_gives_the_same_review(capsys, sims, tmp_path):
    match_id = SaveStore(sims).ids()[1]
    twin = tmp_path / "twin"
    twin.mkdir()
    shutil.copy(SaveStore(sims).path(match_id), twin)
    first = review_json(capsys, sims, match_id, "--seed", "5")
    assert review_json(capsys, twin, match_id, "--seed", "5") == first  # computed afresh, beside another copy
    assert review_json(capsys, twin, match_id, "--seed", "6") != first


def bot_match(levels: list[str], seed: int) -> Match:
    """A three-player Doubles match to 40 between these bot levels; the hard bot searches a fixed
    number of deals, so the match is the same on any machine."""
    seats = [Seat(f"{level} {n}", "bot", level) for n, level in enumerate(levels, 1)]
    match = Match("doubles", 3, {"target": 40}, seats, seed)
    bots = [HardBot(max_worlds=30) if level == "hard" else get_bot(level) for level in levels]
    rngs = [seat_rng(seed, seat) for seat in range(3)]
    while not match.state.over:
        if match.state.chance:
            match.deal()
        else:
            seat = match.state.to_move
            match.apply(bots[seat].choose(match.view(seat), match.legal_moves(), rngs[seat], 600.0))
    return match


def test_the_review_ranks_random_below_easy_and_easy_no_better_than_hard(capsys, tmp_path):
    store = SaveStore(tmp_path)
    levels = ["random", "easy", "hard"]
    losses = {level: [] for level in levels}
    for seed in range(6):  # each level in each seat twice
        lineup = levels[seed % 3 :] + levels[: seed % 3]
        store.save(SavedMatch(f"m{seed}", bot_match(lineup, seed), 1, 1))
        status, out, err = run(capsys, "review", f"m{seed}", "--dir", tmp_path, "--worlds", "12", "--json")
        assert status == 0, err
        for seat in json.loads(out)["seats"]:
            losses[lineup[seat["seat"] - 1]].append((seat["mean_loss"], seat["decisions"]))
    mean = {level: sum(m * n for m, n in found) / sum(n for _, n in found) for level, found in losses.items()}
    assert sum(n for _, n in losses["easy"]) >= 120  # enough decisions for the difference to be clear
    assert mean["random"] > mean["easy"] >= mean["hard"], mean


def test_bad_arguments_and_saves_are_one_line(capsys, sims, tmp_path):
    match_id = SaveStore(sims).ids()[0]
    for argv, words in [
        (["review", "nothing", "--dir", sims], "there is no saved match 'nothing'"),
        (["review", "sim-", "--dir", sims], "names more than one saved match"),
        (["review", match_id, "--dir", sims, "--seat", "3"], "--seat must be from 1 to 2 for this match, not 3"),
        (["review", match_id, "--dir", sims, "--seat", "0"], "--seat must be from 1 to 2"),
        (["review", match_id, "--dir", sims, "--budget", "0"], "--budget must be a number of seconds above 0"),
        (["review", match_id, "--dir", sims, "--budget", "nan"], "--budget must be"),
        (["review", match_id, "--dir", sims, "--budget", "-1"], "(at most 3600), not -1\n"),
        (["review", match_id, "--dir", sims, "--worlds", "0"], "--worlds must be from 1 to 100000"),
        (["review", match_id, "--dir", sims, "--jobs", "0"], "--jobs must be at least 1"),
        (["review", match_id, "--dir", sims, "--seed", "x"], "invalid int value"),
    ]:
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, ""), argv
        assert err.startswith("dominoes") and words in err and err.count("\n") == 1, err
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "broken.dominoes").write_bytes(b"not a save at all")
    status, out, err = run(capsys, "review", "broken", "--dir", damaged)
    assert (status, out) == (1, "") and err.startswith("dominoes review: ") and err.count("\n") == 1


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def test_ctrl_c_stops_the_review_cleanly_and_keeps_what_it_weighed(sims):
    match_id = SaveStore(sims).ids()[0]
    primary, secondary = pty.openpty()  # a terminal for stderr, so the progress bar shows
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "review", match_id, "--dir", str(sims), "--budget", "0.5", "--jobs", "2"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=secondary,
        start_new_session=True,  # a process group of its own, as a command run at a terminal has
    )
    os.close(secondary)
    try:
        seen = b""
        while b"1/" not in seen:  # the first decision is weighed
            chunk = os.read(primary, 4096)
            assert chunk, "the review ended early"
            seen += chunk
        assert b"reviewing [" in seen
        workers = children(process.pid)
        assert len(workers) == 2
        os.killpg(process.pid, signal.SIGINT)  # Ctrl+C reaches the whole foreground group
        out, _ = process.communicate(timeout=20)
        with contextlib.suppress(OSError):  # the terminal's last words, if the command closed it first
            seen += os.read(primary, 65536)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(primary)
    err = seen.decode(errors="replace")
    assert process.returncode == 130 and out == b""
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "dominoes review: stopped;" in err and "kept for next time" in err
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)  # the workers are gone
    kept = json.loads(SaveStore(sims).review_path(match_id).read_text())["decisions"]
    assert kept  # what was weighed is kept


def test_a_review_of_an_unfinished_match_and_of_one_not_yet_dealt(capsys, tmp_path):
    store = SaveStore(tmp_path)
    match = Match("moon", 3, {}, None, 4)
    store.save(SavedMatch("fresh", match, 1, 1))
    report = review_json(capsys, tmp_path, "fresh")
    assert report["decisions"] == [] and all(seat["decisions"] == 0 for seat in report["seats"])
    assert report["in_play"] is None
    match.deal()
    rng = random.Random(1)
    for _ in range(5):
        match.apply(rng.choice(match.legal_moves()))
    store.save(SavedMatch("going", match, 1, 1))
    report = review_json(capsys, tmp_path, "going")
    # The hand in play is not judged (its verdicts would tell of hands still hidden): it is named.
    assert report["decisions"] == [] and all(seat["decisions"] == 0 for seat in report["seats"])
    assert report["in_play"] == "hand 1 is still being played: it is reviewed once it is over"


@pytest.mark.parametrize("game", ["chicken-foot", "doubles", "moon"])
def test_a_match_stopped_in_its_second_round_is_reviewed_up_to_the_first_only(capsys, tmp_path, game):
    """No decision of the round in play is judged, in the JSON or the words (its verdicts and reasons
    would tell of hands still hidden): it is named as reviewed once it is over."""
    from core.moves import Deal
    from tests.core.test_review import stopped_in_round_two

    match = stopped_in_round_two(game)
    second = max(i for i, event in enumerate(match.events) if type(event) is Deal)
    SaveStore(tmp_path).save(SavedMatch("going", match, 1, 1))
    report = review_json(capsys, tmp_path, "going")
    word = "hand" if game == "moon" else "round"
    assert report["in_play"] == f"{word} 2 is still being played: it is reviewed once it is over"
    assert report["decisions"] and all(d["event"] <= second and d["round"] == 1 for d in report["decisions"])
    assert all(worst["round"] == 1 for seat in report["seats"] for worst in seat["worst"])
    status, out, _ = run(capsys, "review", "going", "--dir", tmp_path, "--worlds", 4, "--jobs", 2)
    assert status == 0
    assert f"\n{word.capitalize()} 1\n" in out and f"\n{word.capitalize()} 2\n" not in out
    assert out.rstrip().endswith(f"{word.capitalize()} 2 is still being played: it is reviewed once it is over.")
    events = [int(line.split(".")[0]) for line in out.splitlines() if line[:6].strip().rstrip(".").isdigit()]
    assert events and max(events) <= second
