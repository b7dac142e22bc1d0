"""The record: seeded matches played through the public API and saved, indexed in SQLite (wins,
places, what counts for rating), rebuilt the same, written by two processes at once, and rebuilt
when damaged."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

from core import Match, Seat
from records.database import FILE_NAME, Record
from records.eligibility import counts_for_rating
from records.sources import local_sources
from records.summary import played, summary
from saves import SavedMatch, SaveStore
from tests.records.helpers import DAY, START, finished_match, play_to_end, save, secret_of

LEVELS = ("easy", "hard")


def record_in(home: Path) -> Record:
    return Record(home / FILE_NAME, local_sources(home))


def seeded_saves(home: Path) -> dict[str, Match]:
    """Four finished matches of Chicken Foot (one round, three players) a day apart, and one that
    is not over."""
    saves = home / "saves"
    matches = {}
    for number, seed in enumerate((3, 4, 5, 6)):
        match = finished_match("chicken-foot", seed, LEVELS)
        save(saves, match, f"m{number}", START + number * DAY)
        matches[f"m{number}"] = match
    seats = finished_match("chicken-foot", 9, LEVELS).seats
    unfinished = Match("chicken-foot", 3, {"rounds": 1}, seats, None, secret=secret_of(9))
    unfinished.deal()
    save(saves, unfinished, "open", START + 5 * DAY)
    return matches


def test_the_record_holds_each_finished_match_with_its_places_and_wins(tmp_path):
    matches = seeded_saves(tmp_path)
    record = record_in(tmp_path)
    assert record.sync() == 5
    found = played(record, "you", "chicken-foot")
    assert [m.match_id for m in found] == ["m0", "m1", "m2", "m3"]  # oldest first; the open match is not finished
    for entry in found:
        state = matches[entry.match_id].state
        assert entry.score == state.scores[0]
        assert (entry.place == 1) == (0 in state.winners)
        assert entry.opponents == LEVELS and entry.counts
    data = summary(record, "you")["games"][0]
    wins = sum(1 for m in matches.values() if 0 in m.state.winners)
    assert (data["matches"], data["wins"], data["rated"]) == (4, wins, 4)
    assert data["abandoned"] == 1  # the open match, not played since 2025
    assert {row["opponent"]: row["wins"] for row in data["by_opponent"]} == {"easy": wins, "hard": wins}
    assert data["rated_matches"] == 4 and len(data["history"]) == 4
    assert record.sync() == 0  # nothing changed: no save is read again


def test_lessons_copies_seeds_and_undone_rounds_do_not_count(tmp_path):
    match = finished_match("chicken-foot", 3, LEVELS)
    saves = tmp_path / "saves"
    save(saves, match, "original", START)
    save(saves, match, "copy", START + DAY)  # the same deals saved again: a copy, or played on from it
    stacked = Match("chicken-foot", 3, {"rounds": 1}, match.seats, None, secret=secret_of(3))
    stacked.apply(stacked.game.deal(stacked.state, random.Random(99)))  # a deal the secret does not give
    save(saves, play_to_end(stacked), "stacked", START + 2 * DAY)
    record = record_in(tmp_path)
    record.sync()
    why = {m.match_id: (m.counts, m.excluded) for m in played(record, "you", "chicken-foot")}
    assert why["original"] == (True, None)
    assert why["copy"] == (False, "a copy of match original, or played on from it")
    assert why["stacked"] == (False, "a lesson or a stacked deal")
    # A practice match dealt from a seed (anyone who knows it knows every deal), and one whose
    # revealed round was undone, saved and read back as the save keeps them:
    save(saves, finished_match("chicken-foot", 4, LEVELS, chosen=True), "practice", START + 3 * DAY)
    undone = finished_match("chicken-foot", 5, LEVELS)
    assert undone.undo()  # with one person at the table, undo may go back into the round that was shown
    play_to_end(undone)
    assert undone.undid_revealed_round and undone.state.over
    save(saves, undone, "undone", START + 4 * DAY)
    record.sync()
    why = {m.match_id: (m.counts, m.excluded) for m in played(record, "you", "chicken-foot")}
    assert why["practice"] == (False, "dealt from a seed")
    assert why["undone"] == (False, "a revealed round was undone")
    assert why["original"] == (True, None)
    # The statistics say how many were not rated, and why.
    from records.text import game_lines

    part = summary(record, "you")["games"][0]
    assert {row["why"]: row["matches"] for row in part["not_rated"]} == {
        "a copy, or played on from another": 1,
        "a lesson or a stacked deal": 1,
        "dealt from a seed": 1,
        "a revealed round was undone": 1,
    }
    lines = game_lines(part)
    said = " ".join(line.strip() for line in lines if "not rated" in line or line.startswith("    "))
    assert said.startswith("not rated: 1 ") and "1 dealt from a seed" in said and "1 a revealed round" in said
    assert all(len(line) <= 78 for line in lines)
    bots = Match("chicken-foot", 2, {"rounds": 1}, [Seat("a", "bot", "easy"), Seat("b", "bot", "easy")], 1)
    assert counts_for_rating(bots) == "not finished"


def test_a_rebuild_gives_the_same_database(tmp_path):
    saves = tmp_path / "saves"
    record = record_in(tmp_path)
    for number, seed in enumerate((3, 4, 5)):
        save(saves, finished_match("chicken-foot", seed, LEVELS), f"m{number}", START + number * DAY)
        record.sync()  # brought up to date as each match ends, as the interface does
    SaveStore(saves).delete("m1")
    record.sync()
    built = record.dump()
    assert record.rebuild() == 2
    assert record.dump() == built
    assert [row[0] for row in built["matches"]] == ["m0", "m2"]


WRITER = """
import sys
from pathlib import Path
from records.database import Record
from records.sources import local_sources
home = Path(sys.argv[1])
record = Record(home / "record.sqlite", local_sources(home))
for turn in range(int(sys.argv[2])):
    record.sync()
    record.set_visibility(sys.argv[3], "listed")
"""


OPENER = """
import sys, time
from pathlib import Path
from records.database import Record
folder, start = Path(sys.argv[1]), float(sys.argv[2])
for trial in range(20):
    while time.time() < start + trial * 0.05:
        pass
    with Record(folder / str(trial) / "record.sqlite", []).connection() as connection:
        connection.execute("SELECT 1")
"""


def test_two_processes_opening_a_new_record_at_the_same_moment_both_get_in(tmp_path):
    # Each opens 20 new records, at the same moments as the other: setting write-ahead logging on a
    # new record found it locked by the other at once, without waiting (about one time in two).
    start = str(time.time() + 3.0)  # both are running by then, on a machine that is not swamped
    openers = [
        subprocess.Popen([sys.executable, "-c", OPENER, str(tmp_path), start], stderr=subprocess.PIPE) for _ in "ab"
    ]
    for opener in openers:
        _out, err = opener.communicate(timeout=120)
        assert opener.returncode == 0, err.decode()


def test_two_processes_write_at_once(tmp_path):
    saves = tmp_path / "saves"
    for number, seed in enumerate((3, 4, 5, 6)):
        save(saves, finished_match("chicken-foot", seed, LEVELS), f"m{number}", START + number * DAY)
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), "15", name], stderr=subprocess.PIPE)
        for name in ("ana", "bo")
    ]
    for writer in writers:
        _out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err.decode()
    record = record_in(tmp_path)
    both = record.dump()
    assert ("ana", "listed") in both["players"] and ("bo", "listed") in both["players"]
    record.rebuild()
    assert {k: v for k, v in record.dump().items() if k != "players"} == {
        k: v for k, v in both.items() if k != "players"
    }


def test_a_damaged_database_is_said_so_in_one_line_and_rebuilt(tmp_path):
    seeded_saves(tmp_path)
    record = record_in(tmp_path)
    record.sync()
    built = record.dump()
    (tmp_path / FILE_NAME).write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{tmp_path / FILE_NAME}{suffix}").unlink(missing_ok=True)
    again = record_in(tmp_path)
    again.check()
    assert len(again.notices) == 1 and "\n" not in again.notices[0]
    assert again.notices[0].startswith("the record record.sqlite was damaged (")
    assert again.dump() == built
    # The command says so the same way, and goes on.
    (tmp_path / FILE_NAME).write_bytes(b"\x00" * 4096)
    result = subprocess.run(
        [sys.executable, "-m", "cli", "stats", "--dir", str(tmp_path), "--player", "You"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("\n") == 1 and "was damaged" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout.startswith("Statistics of You") and "Chicken Foot: 4 matches" in result.stdout


def test_a_guest_at_a_players_own_screen_does_not_count_on_a_server(tmp_path):
    from records.entry import entry_of

    match = finished_match("chicken-foot", 3, LEVELS)
    seats = (Seat("ana"), Seat("someone"), Seat("easy 3", "bot", "easy"))
    hot_seat = Match("chicken-foot", 3, {"rounds": 1}, seats, None, match.events, secret=secret_of(3))
    entry = entry_of(SavedMatch("g1", hot_seat, START, START), owner="ana")
    assert [seat.player for seat in entry.seats] == ["ana", None, None]
    assert entry.why_not == "another person played whom no table's save vouches for"


def test_stats_takes_a_game_and_a_day_and_refuses_a_bad_one(tmp_path, capsys):
    import json
    from datetime import datetime

    from cli.main import main

    seeded_saves(tmp_path)
    day = datetime.fromtimestamp(START + 2 * DAY).strftime("%Y-%m-%d")
    assert main(["stats", "--dir", str(tmp_path), "--game", "chicken-foot", "--since", day, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [part] = data["games"]
    assert part["matches"] == 2 and [point["match"] for point in part["history"]] == ["m2", "m3"]
    assert part["rated_matches"] == 4  # the rating now comes from every rated match, before the day too
    assert main(["stats", "--dir", str(tmp_path), "--game", "moon", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == []
    assert main(["stats", "--since", "last week"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_a_database_another_process_keeps_locked_is_waited_for_not_rebuilt(tmp_path):
    import sqlite3

    import pytest

    seeded_saves(tmp_path)
    record_in(tmp_path).sync()
    built = record_in(tmp_path).dump()
    save(tmp_path / "saves", finished_match("chicken-foot", 11, LEVELS), "later", START + 9 * DAY)
    holder = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another writer, for longer than this one waits
    waiting = Record(tmp_path / FILE_NAME, local_sources(tmp_path), busy_seconds=0.2)
    with pytest.raises(OSError, match="cannot be read or written now"):
        waiting.sync()
    holder.execute("ROLLBACK")
    holder.close()
    assert waiting.notices == [] and record_in(tmp_path).dump() == built  # untouched, not rebuilt
    assert waiting.sync() == 1


def test_a_record_of_an_older_schema_is_rebuilt_without_a_word(tmp_path):
    import sqlite3

    seeded_saves(tmp_path)
    old = sqlite3.connect(tmp_path / FILE_NAME, isolation_level=None)
    old.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    old.execute("INSERT INTO meta VALUES ('schema', '1')")
    old.execute("CREATE TABLE matches (match_id TEXT PRIMARY KEY, source TEXT NOT NULL)")  # a row a match
    old.execute("INSERT INTO matches VALUES ('m0', 'saves')")
    old.close()
    record = record_in(tmp_path)
    record.check()
    assert record.notices == []
    assert [m.match_id for m in played(record, "you", "chicken-foot")] == ["m0", "m1", "m2", "m3"]
    fresh = Record(tmp_path / "fresh.sqlite", local_sources(tmp_path))
    fresh.sync()
    assert fresh.dump() == record.dump()
