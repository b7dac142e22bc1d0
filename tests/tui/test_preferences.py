"""Preferences: persisted as JSON in $DOMINOES_HOME, tolerant of a damaged or huge file."""

from __future__ import annotations

import json

from tui.preferences import MAX_BYTES, Preferences, load_preferences, preferences_path, save_preferences


def test_round_trip_in_dominoes_home(tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    prefs = Preferences(theme="ansi-dark", bot_speed="slow", names=("Ana",) + Preferences().names[1:])
    assert save_preferences(prefs)
    assert preferences_path() == tmp_path / "preferences.json"
    assert load_preferences() == prefs


def test_missing_file_gives_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path / "nowhere"))
    assert load_preferences() == Preferences()


def test_damaged_file_gives_defaults(tmp_path):
    path = tmp_path / "preferences.json"
    path.write_bytes(b'{"theme": "ansi-dark", \x00\xff')
    assert load_preferences(path) == Preferences()


def test_oversized_file_is_not_read(tmp_path):
    path = tmp_path / "preferences.json"
    path.write_text(json.dumps({"theme": "ansi-light", "pad": "x" * MAX_BYTES}))
    assert load_preferences(path) == Preferences()


def test_bad_fields_fall_back_one_by_one(tmp_path):
    path = tmp_path / "preferences.json"
    path.write_text(json.dumps({"theme": "ansi-light", "bot_speed": "warp", "names": ["Ana", 7, "x" * 99], "seats": 3}))
    prefs = load_preferences(path)
    assert prefs.theme == "ansi-light"
    assert prefs.bot_speed == Preferences().bot_speed
    assert prefs.names[:3] == ("Ana", "Seat 2", "Seat 3")
    assert prefs.seats == Preferences().seats


def test_unwritable_directory_reports_false(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert not save_preferences(Preferences(), blocker / "preferences.json")
