"""The store: where saves live, atomic writes, the backup and the fallback to it, autosave."""

from __future__ import annotations

import errno
import os
import random
import time
from pathlib import Path

import pytest

from core import Match
from core.simulation import play_out, simulate_match
from saves.autosave import Autosave
from saves.codec import decode, encode
from saves.errors import SaveError
from saves.store import SaveStore, default_save_dir
from tests.saves.builders import CREATED, record_of, small_match


def test_saves_live_in_the_user_data_directory_unless_dominoes_home_says_otherwise(monkeypatch, tmp_path):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path / "home"))
    assert default_save_dir() == tmp_path / "home" / "saves"
    assert SaveStore().directory == tmp_path / "home" / "saves"
    monkeypatch.delenv("DOMINOES_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # where platformdirs looks on Linux
    assert default_save_dir() == tmp_path / "data" / "dominoes" / "saves"


def test_a_save_is_one_file_named_for_its_match(tmp_path):
    store = SaveStore(tmp_path / "saves")
    record = record_of(small_match(), "abc123")
    path = store.save(record)
    assert path == tmp_path / "saves" / "abc123.dominoes"
    assert path.read_bytes() == encode(record)
    assert os.listdir(tmp_path / "saves") == ["abc123.dominoes"]  # no temporary file is left behind
    loaded = store.load("abc123")
    assert loaded.record.match == record.match and loaded.notice is None and loaded.path == path


def test_the_previous_save_is_kept_as_the_backup(tmp_path):
    store = SaveStore(tmp_path)
    match = small_match(decisions=1)
    first = encode(record_of(match, "m1"))
    store.save(record_of(match, "m1"))
    assert not store.backup_path("m1").exists()
    match.apply(match.legal_moves()[0])
    store.save(record_of(match, "m1"))
    assert store.backup_path("m1").read_bytes() == first
    assert decode(store.path("m1").read_bytes()).match == match


def test_without_hard_links_the_backup_is_a_copy(tmp_path, monkeypatch):
    def no_links(source: object, target: object) -> None:
        raise OSError(errno.EPERM, "hard links are not supported here")

    monkeypatch.setattr(os, "link", no_links)
    store = SaveStore(tmp_path)
    match = small_match(decisions=1)
    store.save(record_of(match, "m1"))
    first = store.path("m1").read_bytes()
    match.apply(match.legal_moves()[0])
    store.save(record_of(match, "m1"))
    assert store.backup_path("m1").read_bytes() == first
    assert sorted(os.listdir(tmp_path)) == ["m1.dominoes", "m1.dominoes.bak"]
    assert store.load("m1").record.match == match


def test_a_damaged_save_falls_back_to_its_backup_with_a_notice(tmp_path):
    store = SaveStore(tmp_path)
    match = small_match(decisions=1)
    store.save(record_of(match, "m1"))
    older = Match(match.game_name, match.players, match.options, match.seats, match.seed, match.events)
    match.apply(match.legal_moves()[0])
    store.save(record_of(match, "m1"))
    data = bytearray(store.path("m1").read_bytes())
    data[40] ^= 0x10
    store.path("m1").write_bytes(bytes(data))
    loaded = store.load("m1")
    assert loaded.record.match == older and loaded.path == store.backup_path("m1")
    assert loaded.notice == (
        "the save of match m1 cannot be loaded: the file is damaged (checksum mismatch); "
        "its backup was loaded instead, so the last move may be missing"
    )
    # Saving again does not put the damaged file in the backup's place.
    store.save(record_of(loaded.record.match, "m1"))
    assert decode(store.backup_path("m1").read_bytes()).match == older
    assert store.load("m1").notice is None


def test_a_missing_save_falls_back_to_its_backup(tmp_path):
    store = SaveStore(tmp_path)
    match = small_match()
    store.save(record_of(match, "m1"))
    store.save(record_of(match, "m1"))
    store.path("m1").unlink()
    assert store.ids() == ["m1"]
    loaded = store.load("m1")
    assert loaded.record.match == match and "the file is missing" in loaded.notice


def test_when_both_files_are_damaged_the_reason_is_given(tmp_path):
    store = SaveStore(tmp_path)
    store.save(record_of(small_match(), "m1"))
    store.save(record_of(small_match(), "m1"))
    store.path("m1").write_bytes(b"")
    store.backup_path("m1").write_bytes(b"junk")
    with pytest.raises(SaveError) as caught:
        store.load("m1")
    assert caught.value.reason == "the file is empty, and its backup is damaged too"
    assert caught.value.path == str(store.path("m1"))


def test_a_file_must_hold_the_match_its_name_says(tmp_path):
    store = SaveStore(tmp_path)
    store.save(record_of(small_match(), "m1"))
    os.replace(store.path("m1"), store.path("m2"))
    with pytest.raises(SaveError, match="holds match m1, not the match m2 its name says"):
        store.load("m2")


def test_loading_a_match_that_does_not_exist(tmp_path):
    with pytest.raises(SaveError, match="there is no such file"):
        SaveStore(tmp_path).load("nothing")


def test_a_named_pipe_where_a_save_should_be_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "m1.dominoes")
    with pytest.raises(SaveError, match="not a regular file"):
        SaveStore(tmp_path).load("m1")


def test_a_directory_where_a_save_should_be(tmp_path):
    (tmp_path / "m1.dominoes").mkdir()
    with pytest.raises(SaveError, match="could not be read"):
        SaveStore(tmp_path).load("m1")


def test_a_failed_write_raises_save_error_and_keeps_the_old_save(tmp_path, monkeypatch):
    store = SaveStore(tmp_path)
    store.save(record_of(small_match(), "m1"))
    before = store.path("m1").read_bytes()

    def disk_full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(SaveError) as caught:
        store.save(record_of(small_match(decisions=2), "m1"))
    assert caught.value.reason == "match m1 could not be saved (the disk is full)"
    assert store.path("m1").read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["m1.dominoes"]  # the temporary file is gone


def test_a_save_that_cannot_be_written_names_the_reason(tmp_path):
    (tmp_path / "file").write_text("not a directory")
    with pytest.raises(SaveError) as caught:
        SaveStore(tmp_path / "file" / "saves").save(record_of(small_match(), "m1"))
    assert "match m1 could not be saved" in caught.value.reason


def test_bad_match_ids_are_refused_before_writing(tmp_path):
    with pytest.raises(SaveError, match="not a match id"):
        SaveStore(tmp_path).save(record_of(small_match(), "../escape"))
    assert os.listdir(tmp_path) == []


def test_a_seed_too_large_for_the_format_is_refused(tmp_path):
    match = Match("chicken-foot", 2, seed=2**70)
    with pytest.raises(SaveError, match="seed is too large"):
        SaveStore(tmp_path).save(record_of(match, "m1"))


def test_ids_resolve_and_delete(tmp_path):
    store = SaveStore(tmp_path)
    for match_id in ("abc111", "abc222", "bcd333"):
        store.save(record_of(small_match(), match_id))
    store.save(record_of(small_match(), "bcd333"))
    (tmp_path / ".abc111.dominoes.x.tmp").write_bytes(b"")  # a temporary file is never a save
    (tmp_path / "notes.txt").write_text("")
    assert store.ids() == ["abc111", "abc222", "bcd333"]
    assert store.resolve("abc111") == "abc111"
    assert store.resolve("b") == "bcd333"
    with pytest.raises(ValueError, match="names more than one saved match"):
        store.resolve("abc")
    with pytest.raises(ValueError, match="there is no saved match 'zzz'"):
        store.resolve("zzz")
    with pytest.raises(ValueError, match="there is no saved match ''"):
        store.resolve("")
    removed = store.delete("bcd333")
    assert [path.name for path in removed] == ["bcd333.dominoes", "bcd333.dominoes.bak"]
    assert store.ids() == ["abc111", "abc222"]
    assert store.delete("bcd333") == []


def test_stale_temporary_files_are_cleaned_up(tmp_path):
    store = SaveStore(tmp_path)
    stale = tmp_path / ".m1.dominoes.abcd.tmp"
    fresh = tmp_path / ".m1.dominoes.efgh.tmp"
    stale.write_bytes(b"left by a crash")
    fresh.write_bytes(b"being written by another process")
    old = time.time() - 7200
    os.utime(stale, (old, old))
    store.save(record_of(small_match(), "m1"))
    assert not stale.exists() and fresh.exists()


def test_the_directory_is_listed_empty_before_anything_is_saved(tmp_path):
    assert SaveStore(tmp_path / "not yet").ids() == []


def test_autosave_after_every_event_keeps_the_file_equal_to_the_match(tmp_path):
    store = SaveStore(tmp_path)
    match, _ = simulate_match("chicken-foot", 3, {"rounds": 1}, ["random"], 4)
    fresh = Match(match.game_name, match.players, match.options, match.seats, match.seed)
    clock = iter(range(CREATED, CREATED + 10_000))
    autosave = Autosave(store, fresh, "auto1", clock=lambda: next(clock))
    checked = 0

    def after_event(m: Match) -> None:
        nonlocal checked
        autosave(m)
        if random.Random(len(m.events)).random() < 0.2:
            loaded = store.load("auto1").record
            assert loaded.match == m and loaded.created == CREATED and loaded.updated > CREATED
            checked += 1

    play_out(fresh, on_event=after_event)
    assert checked > 5
    assert store.load("auto1").record.match == fresh == match


def test_autosave_resumes_a_loaded_match_in_its_own_file(tmp_path):
    store = SaveStore(tmp_path)
    match = small_match()
    Autosave(store, match, "m1", created=CREATED)()
    loaded = store.load("m1")
    resumed = Autosave.resume(store, loaded, clock=lambda: CREATED + 500)
    resumed.match.apply(resumed.match.legal_moves()[0])
    assert resumed() == Path(tmp_path / "m1.dominoes")
    again = store.load("m1").record
    assert again.created == CREATED and again.updated == CREATED + 500
    assert len(again.match.events) == len(match.events) + 1


def test_new_matches_get_distinct_ids(tmp_path):
    store = SaveStore(tmp_path)
    ids = {Autosave(store, small_match()).match_id for _ in range(50)}
    assert len(ids) == 50
