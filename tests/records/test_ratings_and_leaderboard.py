"""Ratings go the right way (beating `hard` raises a rating more than beating `easy`), and the
leaderboard shows only the players who chose to be listed, each viewer's own line always, and of a
player's record only what they made public."""

from __future__ import annotations

import json
from pathlib import Path

from net.player_sessions import safe_folder_name
from records.database import FILE_NAME, Record
from records.leaderboard import leaderboard, public_record
from records.ratings import NEW, bot_rating, level_words, rate
from records.sources import folder_player, local_sources, server_sources
from records.summary import rating_history
from tests.records.helpers import DAY, START, finished_match, save, winning_seed


def test_beating_hard_raises_a_rating_more_than_beating_easy(tmp_path):
    seed = winning_seed("chicken-foot", ("easy", "easy"))
    gains = {}
    for level in ("easy", "hard"):
        home = tmp_path / level
        match = finished_match("chicken-foot", seed, (level, level))  # the same tiles and play; who sat there differs
        save(home / "saves", match, "won", START)
        record = Record(home / FILE_NAME, local_sources(home))
        record.sync()
        [(_, _, before, after)] = rating_history(record, "you", "chicken-foot")
        assert before == NEW and after.sigma < before.sigma  # a new player, less uncertain after a match
        gains[level] = after.mu - before.mu
    assert gains["hard"] > gains["easy"] > 0
    # And losing to easy costs more than losing to hard.
    lost_to = {level: rate([NEW, bot_rating("moon", level)], [2, 1], [False, True])[0].mu for level in ("easy", "hard")}
    assert lost_to["easy"] < lost_to["hard"] < NEW.mu
    # A bot's rating never moves.
    assert rate([NEW, bot_rating("moon", "hard")], [1, 2], [False, True])[1] == bot_rating("moon", "hard")


def test_a_rating_is_said_against_the_bot_levels():
    hard = bot_rating("doubles", "hard")
    assert level_words("doubles", hard) == "about hard"
    assert level_words("doubles", type(hard)(hard.mu + 100, 1)) == "above hard"


def player_folder(server: Path, name: str, visibility: str, seed: int, day: int) -> None:
    home = server / "players" / safe_folder_name(name)
    (home / "saves").mkdir(parents=True)
    (home / "preferences.json").write_text(json.dumps({"leaderboard": visibility}))
    match = finished_match("chicken-foot", seed, ("easy", "easy"), name=name)
    save(home / "saves", match, f"{name.lower()}-m", START + day * DAY)


def test_the_leaderboard_lists_only_who_chose_to_be_and_opens_only_what_they_made_public(tmp_path):
    server = tmp_path / "server"
    chosen = (("Ana", "private"), ("Bo", "listed"), ("Cy", "public"), ("Dee", "listed"))
    for day, (name, visibility) in enumerate(chosen):
        player_folder(server, name, visibility, 3 + day, day)
    assert folder_player(safe_folder_name("José Ö")) == "josé ö"
    record = Record(server / FILE_NAME, server_sources(server))
    record.sync()
    board = leaderboard(record, "chicken-foot", "ana")
    listed = [line for line in board if not line.own]
    assert sorted(line.name for line in listed) == ["Bo", "Cy", "Dee"]
    assert [line.rank for line in listed] == [1, 2, 3]
    assert board[-1].own and board[-1].name == "Ana" and board[-1].rank is None  # her own line, unranked
    assert [line.name for line in leaderboard(record, "chicken-foot", "bo") if line.own] == ["Bo"]
    assert "ana" not in [line.player for line in leaderboard(record, "chicken-foot", "bo")]
    # What a record opened from the board shows.
    assert public_record(record, "ana", "bo") is None  # private: nothing
    limited = public_record(record, "bo", "ana")
    assert limited is not None and limited["games"][0]["limited"]
    assert set(limited["games"][0]) == {"game", "title", "rating", "rated_matches", "trend", "limited"}
    whole = public_record(record, "cy", "ana")
    assert whole is not None and "accuracy" in whole["games"][0] and "best" in whole["games"][0]
    own = public_record(record, "ana", "ana")
    assert own is not None and "accuracy" in own["games"][0]  # one's own record, whole
    # Choosing to be listed takes effect at once.
    record.set_visibility("ana", "listed")
    assert [line.rank is not None for line in leaderboard(record, "chicken-foot", "ana") if line.own] == [True]


def test_the_bot_ratings_file_is_read_with_bounds():
    import pytest

    from records.ratings import read_bot_ratings

    levels = {"random": {"mu": -3.2, "sigma": 6.2}, "easy": {"mu": 29.0, "sigma": 5.5}}
    levels |= {"medium": {"mu": 36.0, "sigma": 5.6}, "hard": {"mu": 37.0, "sigma": 5.7}}
    data = {"games": {game: levels for game in ("chicken-foot", "doubles", "moon")}}
    assert read_bot_ratings(data)["doubles"]["random"].mu == -3.2  # far below a new player: below 0
    for bad in ({"mu": "high", "sigma": 1}, {"mu": 25, "sigma": 0}, {"mu": 1e9, "sigma": 1}):
        broken = {"games": {**data["games"], "moon": {**levels, "hard": bad}}}
        with pytest.raises(ValueError, match="the rating of hard in moon is not two numbers"):
            read_bot_ratings(broken)
