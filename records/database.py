"""The record: an SQLite index of the matches in its sources' save folders, kept beside them.

The saves are the truth. `sync` brings the index up to date with them (at start, and when a match
ends): every save whose file changed since the last look (its size, time and inode, and its
review's) is loaded, as the game loads it, and its entry (`records.entry`) written; a save that is
gone is dropped; the ratings of each game touched are worked out again, in the order the matches
ended, with openskill (`records.ratings`). `rebuild` makes it all afresh from the saves.

The same match can be in several folders: a player who joins a table keeps a copy of the finished
match in their own saves, under the table's id, so on a server the table's save and each seated
player's copy hold it, and a served player's own record sees the table's and their own. Each
folder's save has its row (`matches` is keyed by source and id), and `recompute` picks the match's
own: the row from a folder whose names are the players' (the server's tables, or one's own machine)
before a player's folder, where only the folder's player is vouched for. Another row of the same id
and first deal whose persons all sit, as the same players in the same seats, in the chosen one is a
copy of it (`same_as`): it is neither shown nor rated again, and lends only its review (a copy's
review, beside it in the player's folder, gives that seat's accuracy: `seats.reviewed_in`).

Several processes may write at once (a server's sessions): the database is in WAL mode, each
sync writes in one transaction (`BEGIN IMMEDIATE`, which waits for another writer rather than
failing), and writing the same save twice gives the same rows. A database that cannot be read
(damaged, or not a database at all) is said so in one line (`notices`) and rebuilt from the saves;
one made by another version of the schema is rebuilt without a word.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from records.accuracy import accuracy_from_review
from records.entry import MatchEntry, entry_of
from records.ratings import NEW, Rating, bot_rating, rate
from records.sources import Source
from records.visibility import VISIBILITIES
from saves.autosave import file_signature
from saves.errors import SaveError
from saves.ids import is_match_id
from saves.json_file import load_json_file
from saves.store import SaveStore

FILE_NAME = "record.sqlite"
SCHEMA_VERSION = "2"  # 2: a row per folder that holds a match, and which of them is the match's
BUSY_SECONDS = 30.0  # how long a writer waits for another to finish
MAX_PREFERENCES = 64 * 1024
Result = TypeVar("Result")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    source TEXT NOT NULL, match_id TEXT NOT NULL, signature TEXT NOT NULL, PRIMARY KEY (source, match_id));
CREATE TABLE IF NOT EXISTS matches (
    match_id TEXT NOT NULL, source TEXT NOT NULL, owned INTEGER NOT NULL, game TEXT NOT NULL,
    players INTEGER NOT NULL, created INTEGER NOT NULL, ended INTEGER NOT NULL, over INTEGER NOT NULL,
    rounds INTEGER NOT NULL, why_not TEXT, deal_key TEXT NOT NULL, same_as TEXT,
    counts INTEGER NOT NULL DEFAULT 0, excluded TEXT, PRIMARY KEY (source, match_id));
CREATE INDEX IF NOT EXISTS matches_game ON matches (game, ended);
CREATE INDEX IF NOT EXISTS matches_id ON matches (match_id);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL, source TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
    kind TEXT NOT NULL, level TEXT, player TEXT, place INTEGER, score INTEGER NOT NULL, reviewed_in TEXT,
    PRIMARY KEY (source, match_id, seat));
CREATE INDEX IF NOT EXISTS seats_player ON seats (player);
CREATE TABLE IF NOT EXISTS accuracy (
    match_id TEXT NOT NULL, source TEXT NOT NULL, seat INTEGER NOT NULL, decisions INTEGER NOT NULL,
    mean_loss REAL NOT NULL, PRIMARY KEY (source, match_id, seat));
CREATE TABLE IF NOT EXISTS verdicts (
    match_id TEXT NOT NULL, source TEXT NOT NULL, seat INTEGER NOT NULL, verdict TEXT NOT NULL,
    kind TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (source, match_id, seat, verdict, kind));
CREATE TABLE IF NOT EXISTS ratings (
    match_id TEXT NOT NULL, player TEXT NOT NULL, game TEXT NOT NULL, ended INTEGER NOT NULL,
    mu_before REAL NOT NULL, sigma_before REAL NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    PRIMARY KEY (match_id, player));
CREATE INDEX IF NOT EXISTS ratings_player ON ratings (player, game, ended);
CREATE TABLE IF NOT EXISTS players (player TEXT PRIMARY KEY, visibility TEXT NOT NULL);
"""
# A match's own rows: `matches` rows that are not another folder's copy of it (`same_as`), and
# their seats, joined on both keys (the queries of `records.summary` and `records.leaderboard`).
MATCH_SEATS = "matches m JOIN seats s ON s.source = m.source AND s.match_id = m.match_id"
TABLES = ("files", "matches", "seats", "accuracy", "verdicts", "ratings", "players")


@dataclass
class Scanned:
    """A save in a source as it is on disk now."""

    source: Source
    match_id: str
    signature: str


@dataclass
class Loaded:
    """What a changed save gives the record: its entry (None: damaged, or not this record's) and
    the accuracy of its players' seats."""

    scanned: Scanned
    entry: MatchEntry | None = None
    accuracy: dict[int, Any] = field(default_factory=dict)


class Record:
    """The record at `path`, built from `sources`. Each call opens its own connection, so any
    thread may use it. `notices` collects what the player should be told (a damaged database)."""

    def __init__(self, path: Path, sources: Sequence[Source], busy_seconds: float = BUSY_SECONDS) -> None:
        self.path = path
        self.busy_seconds = busy_seconds
        self.sources = list(sources)
        self.notices: list[str] = []

    # -- connections ---------------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=self.busy_seconds, isolation_level=None)
        try:
            self._write_ahead(connection)
            connection.execute("PRAGMA synchronous=NORMAL")
            version = self._version(connection)
            if version is None:
                connection.execute("BEGIN IMMEDIATE")
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        connection.execute(statement)
                connection.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
                connection.execute("COMMIT")
            elif version != SCHEMA_VERSION:
                raise Outdated(version)
        except BaseException:
            connection.close()
            raise
        return connection

    def _write_ahead(self, connection: sqlite3.Connection) -> None:
        """Write-ahead logging, asked for at every connection (once set, it stays with the file).
        Setting it takes the database for itself without waiting, as no other statement does
        (SQLite does not call its busy handler there): two processes opening a new record at once
        found it locked. So it is tried again, for as long as a writer waits for another."""
        deadline = time.monotonic() + self.busy_seconds
        while True:
            try:
                connection.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error).lower() or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)

    @staticmethod
    def _version(connection: sqlite3.Connection) -> str | None:
        named = connection.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if named is None:
            return None
        row = connection.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        return row[0] if row else None

    @contextlib.contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        connection = self._connect()
        try:
            yield connection
        finally:
            connection.close()

    def use(self, work: Callable[[sqlite3.Connection], Result]) -> Result:
        """`work(connection)`; a damaged database is said so, rebuilt, and the work done again."""
        try:
            with self.connection() as connection:
                return work(connection)
        except Outdated:
            self._replace(None)
        except sqlite3.DatabaseError as error:
            self._replace(damage(error))
        try:
            with self.connection() as connection:
                return work(connection)
        except sqlite3.DatabaseError as error:
            raise busy(error) from None

    def check(self) -> None:
        """Read the whole database once (a damaged one is then rebuilt, and said so)."""

        def look(connection: sqlite3.Connection) -> None:
            answer = connection.execute("PRAGMA quick_check").fetchone()
            if not answer or answer[0] != "ok":
                raise sqlite3.DatabaseError(str(answer[0] if answer else "no answer"))

        self.use(look)

    def _replace(self, error: Exception | None) -> None:
        """A new database in place of a damaged (or outdated) one, filled from the saves."""
        with self._lock():
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{self.path}{suffix}")
            try:
                self._sync()
            except sqlite3.DatabaseError as failure:
                raise busy(failure) from None
        if error is not None:
            reason = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
            self.notices.append(f"the record {self.path.name} was damaged ({reason}); it was rebuilt from the saves")

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            yield
        finally:
            os.close(descriptor)

    # -- bringing it up to date ----------------------------------------------------------------------
    def sync(self) -> int:
        """Bring the record up to date with the saves; how many saves were read."""
        try:
            return self._sync()
        except Outdated:
            self._replace(None)
        except sqlite3.DatabaseError as error:
            self._replace(damage(error))
        return 0

    def rebuild(self) -> int:
        """Make the record afresh from the saves; how many saves were read."""
        with self._lock():
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(f"{self.path}{suffix}")
            return self._sync()

    def _sync(self) -> int:
        scanned = self._scan()
        with self.connection() as connection:
            known = {(row[0], row[1]): row[2] for row in connection.execute("SELECT * FROM files")}
        now = {(item.source.label, item.match_id): item for item in scanned}
        changed = [item for key, item in now.items() if known.get(key) != item.signature]
        gone = [key for key in known if key not in now]
        loaded = [self._load(item) for item in changed]  # slow, so outside the transaction
        visibility = self._visibilities()
        with self.connection() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                games = write_changes(connection, loaded, gone)
                for game in sorted(games):
                    recompute(connection, game)
                for player, seen in visibility.items():
                    connection.execute("INSERT OR REPLACE INTO players VALUES (?, ?)", (player, seen))
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        return len(changed)

    def _scan(self) -> list[Scanned]:
        found = []
        for source in self.sources:
            store = SaveStore(source.directory)
            try:
                ids = store.ids()
            except SaveError:
                continue
            for match_id in ids:
                if not is_match_id(match_id):
                    continue
                main = file_signature(store.path(match_id)) or file_signature(store.backup_path(match_id))
                review = file_signature(store.review_path(match_id))
                found.append(Scanned(source, match_id, f"{main}|{review}"))
        return found

    def _load(self, item: Scanned) -> Loaded:
        store = SaveStore(item.source.directory)
        try:
            record = store.load(item.match_id).record
        except SaveError:
            return Loaded(item)  # a damaged save: `dominoes saves` says why; the record leaves it out
        entry = entry_of(record, item.source.owner)
        if item.source.seated is not None and entry.seat_of(item.source.seated) is None:
            return Loaded(item)  # a table this player did not sit at
        seats = [seat.seat for seat in entry.seats if seat.player is not None]
        accuracy = accuracy_from_review(record.match, store.review_path(item.match_id), seats) if entry.over else {}
        return Loaded(item, entry, accuracy)

    def _visibilities(self) -> dict[str, str]:
        """What each owner of a source chose to show (their preferences' `leaderboard`)."""
        found = {}
        for source in self.sources:
            if source.owner is None or source.preferences is None:
                continue
            try:
                data = load_json_file(source.preferences, MAX_PREFERENCES)
            except (OSError, ValueError):
                data = None
            chosen = data.get("leaderboard") if isinstance(data, dict) else None
            found[source.owner] = chosen if chosen in VISIBILITIES else VISIBILITIES[0]
        return found

    def set_visibility(self, player: str, visibility: str) -> None:
        """Say at once what `player` shows (they just chose it), before the next sync reads it."""
        if visibility not in VISIBILITIES:
            raise ValueError(f"a leaderboard setting is one of {', '.join(VISIBILITIES)}, not {visibility!r}")
        self.use(lambda c: c.execute("INSERT OR REPLACE INTO players VALUES (?, ?)", (player, visibility)))

    # -- reading -------------------------------------------------------------------------------------
    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, in order: two records are the same if their dumps are."""

        def read(connection: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
            return {table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall()) for table in TABLES}

        return self.use(read)


class Outdated(Exception):
    """A database made by another version of the schema."""


DAMAGE_WORDS = ("not a database", "malformed", "no such table", "no such column", "corrupt")


def damage(error: sqlite3.DatabaseError) -> sqlite3.DatabaseError:
    """`error` if it says the database is damaged; otherwise (locked for longer than a writer waits,
    a disk that is full or read-only) an OSError in one line: the database is not rebuilt for that."""
    text = str(error).lower()
    if isinstance(error, sqlite3.OperationalError) and not any(word in text for word in DAMAGE_WORDS):
        raise busy(error) from None
    return error


def busy(error: sqlite3.DatabaseError) -> OSError:
    return OSError(0, f"the record cannot be read or written now ({str(error).splitlines()[0][:120]})")


def write_changes(
    connection: sqlite3.Connection, loaded: Sequence[Loaded], gone: Sequence[tuple[str, str]]
) -> set[str]:
    """Write the changed saves' entries and drop the gone ones; the games whose ratings changed."""
    games: set[str] = set()
    for label, match_id in gone:
        games |= _drop(connection, label, match_id)
        connection.execute("DELETE FROM files WHERE source=? AND match_id=?", (label, match_id))
    for item in loaded:
        label, match_id = item.scanned.source.label, item.scanned.match_id
        games |= _drop(connection, label, match_id)
        connection.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?)", (label, match_id, item.scanned.signature))
        entry = item.entry
        if entry is None:
            continue
        games.add(entry.game)
        owned = int(item.scanned.source.owner is not None)
        connection.execute(
            "INSERT OR REPLACE INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, NULL)",
            (match_id, label, owned, entry.game, entry.players, entry.created, entry.updated, int(entry.over))
            + (entry.rounds, entry.why_not, entry.deal_key),
        )
        for seat in entry.seats:
            connection.execute(
                "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                (match_id, label, seat.seat, seat.name, seat.kind, seat.level, seat.player, seat.place, seat.score),
            )
        for seat, accuracy in item.accuracy.items():
            connection.execute(
                "INSERT OR REPLACE INTO accuracy VALUES (?, ?, ?, ?, ?)",
                (match_id, label, seat, accuracy.decisions, accuracy.mean_loss),
            )
            for (verdict, kind), count in accuracy.verdicts.items():
                connection.execute(
                    "INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, label, seat, verdict, kind, count),
                )
    return games


def _drop(connection: sqlite3.Connection, label: str, match_id: str) -> set[str]:
    row = connection.execute("SELECT game FROM matches WHERE match_id=? AND source=?", (match_id, label)).fetchone()
    if row is None:
        return set()
    for table in ("matches", "seats", "accuracy", "verdicts"):
        connection.execute(f"DELETE FROM {table} WHERE match_id=? AND source=?", (match_id, label))
    return {row[0]}  # the game's ratings are worked out again (`recompute`)


def recompute(connection: sqlite3.Connection, game: str) -> None:
    """Which row of each match is its own (`choose_rows`), which of the game's matches count (the
    first of each deal: a copy or a branch does not), and every rating, match by match in the order
    they ended."""
    choose_rows(connection, game)
    originals: dict[str, str] = {}
    rows = connection.execute(
        "SELECT source, match_id, deal_key, why_not, over, same_as FROM matches WHERE game=? "
        "ORDER BY created, match_id, owned, source",
        (game,),
    ).fetchall()
    for source, match_id, deal_key, why_not, over, same_as in rows:
        if same_as is not None:
            excluded = f"the same match as the one in {same_as}"
        else:
            first = originals.setdefault(deal_key, match_id)
            excluded = why_not if first == match_id else f"a copy of match {first}, or played on from it"
        counts = bool(over) and excluded is None
        connection.execute(
            "UPDATE matches SET counts=?, excluded=? WHERE source=? AND match_id=?",
            (int(counts), excluded, source, match_id),
        )
    connection.execute("DELETE FROM ratings WHERE game=?", (game,))
    current: dict[str, Rating] = {}
    counted = connection.execute(
        "SELECT source, match_id, ended FROM matches WHERE game=? AND counts=1 ORDER BY ended, match_id, source",
        (game,),
    ).fetchall()
    for source, match_id, ended in counted:
        seats = connection.execute(
            "SELECT kind, level, player, place FROM seats WHERE source=? AND match_id=? ORDER BY seat",
            (source, match_id),
        ).fetchall()
        before = [
            bot_rating(game, level) if kind == "bot" else current.get(player, NEW) for kind, level, player, _ in seats
        ]
        fixed = [kind == "bot" for kind, *_ in seats]
        after = rate(before, [place for *_, place in seats], fixed)
        for (kind, _level, player, _place), old, new in zip(seats, before, after, strict=True):
            if kind == "bot":
                continue
            current[player] = new
            connection.execute(
                "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, player, game, ended, old.mu, old.sigma, new.mu, new.sigma),
            )


def choose_rows(connection: sqlite3.Connection, game: str) -> None:
    """Of the rows of each match id of `game` (one a folder that holds it), mark each that is a copy
    of a better one (`same_as`: the same first deal, and its persons seated as the same players in
    the chosen one, which comes from a folder whose names are the players' before a player's own);
    and for each person's seat of a chosen row, the row whose review gives its accuracy (its own
    first, else a copy's)."""
    rows = connection.execute(
        "SELECT match_id, source, deal_key FROM matches WHERE game=? ORDER BY match_id, owned, source", (game,)
    ).fetchall()
    persons: dict[tuple[str, str], set[tuple[int, str]]] = {}
    for match_id, source, seat, player in connection.execute(
        "SELECT s.match_id, s.source, s.seat, s.player FROM seats s JOIN matches m "
        "ON m.source = s.source AND m.match_id = s.match_id WHERE m.game=? AND s.player IS NOT NULL",
        (game,),
    ):
        persons.setdefault((source, match_id), set()).add((seat, player))
    reviewed: dict[tuple[str, str], set[int]] = {}
    for match_id, source, seat in connection.execute(
        "SELECT a.match_id, a.source, a.seat FROM accuracy a JOIN matches m "
        "ON m.source = a.source AND m.match_id = a.match_id WHERE m.game=?",
        (game,),
    ):
        reviewed.setdefault((source, match_id), set()).add(seat)
    groups: dict[str, list[tuple[str, str]]] = {}
    for match_id, source, deal_key in rows:
        groups.setdefault(match_id, []).append((source, deal_key))
    for match_id, held in groups.items():
        chosen: list[tuple[str, str]] = []
        for source, deal_key in held:
            mine = persons.get((source, match_id), set())
            same = next(
                (
                    better
                    for better, key in chosen
                    if key == deal_key and mine <= persons.get((better, match_id), set())
                ),
                None,
            )
            if same is None:
                chosen.append((source, deal_key))
            connection.execute("UPDATE matches SET same_as=? WHERE source=? AND match_id=?", (same, source, match_id))
        for source, deal_key in chosen:
            lenders = [source] + [other for other, key in held if key == deal_key and other != source]
            for seat, _player in persons.get((source, match_id), set()):
                lender = next((other for other in lenders if seat in reviewed.get((other, match_id), set())), None)
                connection.execute(
                    "UPDATE seats SET reviewed_in=? WHERE source=? AND match_id=? AND seat=?",
                    (lender, source, match_id, seat),
                )
