"""The same match in several folders: a player who joins a table keeps a copy of the finished match
under the table's id, so on a server the table's save and each seated player's copy hold it. The
record counts it once, as the table's (whose names are the players'), for each player at it, and a
copy's review gives its player's accuracy."""

from __future__ import annotations

from pathlib import Path

from core import Match, Seat
from core.review import decisions
from core.review.weigh import Weighing
from net.player_sessions import safe_folder_name
from records.accuracy import STANDARD
from records.database import FILE_NAME, Record
from records.entry import GUEST
from records.sources import player_sources, server_sources
from records.summary import known_players, match_result, played, rating_history
from saves import SaveStore
from saves.review_sidecar import save_review
from tests.records.helpers import START, play_to_end, save, secret_of

TABLE = "a1b2c3d4e5f6"


def shared_match() -> Match:
    seats = (Seat("Ana"), Seat("Bo"), Seat("easy 3", "bot", "easy"))
    return play_to_end(Match("chicken-foot", 3, {"rounds": 1}, seats, None, secret=secret_of(21)))


def home_of(server: Path, name: str) -> Path:
    return server / "players" / safe_folder_name(name)


def served_machine(server: Path) -> Match:
    """The table's save, and each seated player's copy of it (saved when it ended, as a joined
    player's is)."""
    match = shared_match()
    save(server / "saves", match, TABLE, START)
    for name in ("Ana", "Bo"):
        save(home_of(server, name) / "saves", match, TABLE, START + 60)
    return match


def review_in_copy(server: Path, name: str, match: Match, seat: int) -> float:
    """A review beside the player's copy in which each of the seat's decisions is weighed with the
    first legal move best and each later one a point worse; the mean loss it gives."""
    weighings = {}
    losses = []
    for decision in decisions(match, [seat]):
        legal = match.game.legal_moves(match.state_at(decision.index))
        weighings[decision.index] = Weighing(tuple(-float(i) for i in range(len(legal))), 100, 0.0)
        losses.append(float(legal.index(match.events[decision.index])))
    store = SaveStore(home_of(server, name) / "saves", durable=False)
    save_review(store.review_path(TABLE), match, STANDARD, weighings)
    return sum(losses) / len(losses)


def test_a_match_held_by_the_table_and_each_players_copy_counts_once_for_each(tmp_path):
    server = tmp_path / "server"
    match = served_machine(server)
    record = Record(server / FILE_NAME, server_sources(server))
    assert record.sync() == 3  # the table's save and two copies
    for player in ("ana", "bo"):
        [entry] = played(record, player, "chicken-foot")
        assert entry.match_id == TABLE and entry.counts and entry.excluded is None
        assert entry.score == match.state.scores[entry.seat]
        assert [row[0] for row in rating_history(record, player, "chicken-foot")] == [TABLE]
    assert {(player, count) for player, _, count in known_players(record)} == {("ana", 1), ("bo", 1)}
    # Ana is at seat 0 and Bo at seat 1 whichever folder is read: the copies are not theirs twice.
    assert played(record, "ana", "chicken-foot")[0].seat == 0 and played(record, "bo", "chicken-foot")[0].seat == 1
    rows = record.dump()["matches"]
    assert sorted((row[1], row[11]) for row in rows) == [
        ("player:ana", "tables"),
        ("player:bo", "tables"),
        ("tables", None),
    ]
    built = record.dump()
    record.rebuild()
    assert record.dump() == built


def test_a_copys_review_gives_its_players_accuracy_in_the_tables_match(tmp_path):
    server = tmp_path / "server"
    match = served_machine(server)
    loss = review_in_copy(server, "Bo", match, 1)
    record = Record(server / FILE_NAME, server_sources(server))
    record.sync()
    [entry] = played(record, "bo", "chicken-foot")
    assert entry.mean_loss is not None and abs(entry.mean_loss - loss) < 1e-9
    assert played(record, "ana", "chicken-foot")[0].mean_loss is None  # Bo's review is of Bo's seat alone
    result = match_result(record, TABLE, "bo")
    assert result is not None and result["rated"] and result["mean_loss"] == round(loss, 3)


def test_a_served_players_own_record_holds_the_table_and_their_copy_once(tmp_path):
    server = tmp_path / "server"
    served_machine(server)
    home = home_of(server, "Ana")
    record = Record(home / FILE_NAME, player_sources(home, server, "Ana"))
    record.sync()
    [entry] = played(record, "ana", "chicken-foot")
    assert entry.counts and entry.seat == 0
    assert len(rating_history(record, "ana", "chicken-foot")) == 1


def test_copies_without_the_tables_save_are_each_their_players_and_not_rated(tmp_path):
    server = tmp_path / "server"
    served_machine(server)
    SaveStore(server / "saves").delete(TABLE)
    record = Record(server / FILE_NAME, server_sources(server))
    record.sync()
    for player in ("ana", "bo"):
        [entry] = played(record, player, "chicken-foot")  # each their own copy, once
        assert not entry.counts and entry.excluded == GUEST
        assert rating_history(record, player, "chicken-foot") == []
