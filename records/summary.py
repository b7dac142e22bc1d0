"""A player's statistics per game, from the record, as plain data (what `dominoes stats --json`
prints, and what the statistics screen draws): matches and wins, wins by the level of the
opponents, the rating now and its trend, the mean loss per decision over the last 10 and 50
reviewed matches against the first ones, the commonest kind of mistake, the best and worst match.
"""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from core.bots import BOT_LEVELS
from core.registry import GAME_NAMES, GAME_TITLES
from records.accuracy import flawed_verdicts
from records.database import MATCH_SEATS, Record
from records.ratings import NEW, Rating, level_words

RECENT = (10, 50)  # the windows of recent matches the accuracy is given over
FIRST = 10  # the first matches they are compared with
TREND = 10  # the rating's trend: its change over this many rated matches
PEOPLE = "people"  # the opponents who are not bots
ABANDONED_AFTER = 7 * 86_400  # an unfinished match not played for a week is abandoned


@dataclass(frozen=True)
class PlayedMatch:
    match_id: str
    ended: int
    players: int
    place: int
    score: int
    seat: int
    counts: bool
    excluded: str | None
    opponents: tuple[str, ...]  # the level of each bot opponent, PEOPLE for each person
    mean_loss: float | None
    decisions: int | None


def known_players(record: Record) -> list[tuple[str, str, int]]:
    """(player, a name they played under lately, finished matches) for every person in the record,
    the most matches first."""

    def read(connection: sqlite3.Connection) -> list[tuple[str, str, int]]:
        rows = connection.execute(
            f"SELECT s.player, s.name, m.ended FROM {MATCH_SEATS} "
            "WHERE s.player IS NOT NULL AND m.over=1 AND m.same_as IS NULL ORDER BY m.ended, m.match_id"
        ).fetchall()
        names: dict[str, str] = {}
        counts: Counter[str] = Counter()
        for player, name, _ in rows:
            names[player] = name
            counts[player] += 1
        return [(player, names[player], count) for player, count in counts.most_common()]

    return record.use(read)


def played(record: Record, player: str, game: str, since: int | None = None) -> list[PlayedMatch]:
    """The player's finished matches of `game` (ended at `since` or later), oldest first."""

    def read(connection: sqlite3.Connection) -> list[PlayedMatch]:
        rows = connection.execute(
            "SELECT m.match_id, m.source, m.ended, m.players, s.place, s.score, s.seat, m.counts, m.excluded, "
            f"a.mean_loss, a.decisions FROM {MATCH_SEATS} "
            "LEFT JOIN accuracy a ON a.source = s.reviewed_in AND a.match_id = s.match_id AND a.seat = s.seat "
            "WHERE s.player=? AND m.game=? AND m.over=1 AND m.same_as IS NULL AND m.ended>=? "
            "ORDER BY m.ended, m.match_id, m.source",
            (player, game, since or 0),
        ).fetchall()
        found = []
        for match_id, source, ended, players, place, score, seat, counts, excluded, loss, decisions in rows:
            others = connection.execute(
                "SELECT kind, level FROM seats WHERE source=? AND match_id=? AND seat<>? ORDER BY seat",
                (source, match_id, seat),
            ).fetchall()
            opponents = tuple(level if kind == "bot" else PEOPLE for kind, level in others)
            found.append(
                PlayedMatch(
                    match_id, ended, players, place, score, seat, bool(counts), excluded, opponents, loss, decisions
                )
            )
        return found

    return record.use(read)


def abandoned(record: Record, player: str, game: str, since: int | None = None, now: float | None = None) -> int:
    """How many of the player's matches of `game` were left unfinished and not played for a week."""
    before = (time.time() if now is None else now) - ABANDONED_AFTER

    def read(connection: sqlite3.Connection) -> int:
        row = connection.execute(
            f"SELECT COUNT(*) FROM {MATCH_SEATS} "
            "WHERE s.player=? AND m.game=? AND m.over=0 AND m.same_as IS NULL AND m.ended<? AND m.ended>=?",
            (player, game, before, since or 0),
        ).fetchone()
        return int(row[0])

    return record.use(read)


def rating_history(record: Record, player: str, game: str) -> list[tuple[str, int, Rating, Rating]]:
    """(match, ended, rating before, rating after) for each of the player's rated matches, in order."""

    def read(connection: sqlite3.Connection) -> list[tuple[str, int, Rating, Rating]]:
        rows = connection.execute(
            "SELECT match_id, ended, mu_before, sigma_before, mu, sigma FROM ratings "
            "WHERE player=? AND game=? ORDER BY ended, match_id",
            (player, game),
        ).fetchall()
        return [(m, e, Rating(mb, sb), Rating(mu, s)) for m, e, mb, sb, mu, s in rows]

    return record.use(read)


def mistakes(record: Record, player: str, game: str, since: int | None = None) -> Counter[tuple[str, str]]:
    """How many of the player's reviewed decisions got each flawed verdict, by kind of move."""
    flawed = flawed_verdicts()

    def read(connection: sqlite3.Connection) -> Counter[tuple[str, str]]:
        rows = connection.execute(
            f"SELECT v.verdict, v.kind, SUM(v.count) FROM {MATCH_SEATS} JOIN verdicts v "
            "ON v.source = s.reviewed_in AND v.match_id = s.match_id AND v.seat = s.seat "
            "WHERE s.player=? AND m.game=? AND m.same_as IS NULL AND m.ended>=? GROUP BY v.verdict, v.kind",
            (player, game, since or 0),
        ).fetchall()
        return Counter({(verdict, kind): count for verdict, kind, count in rows if verdict in flawed})

    return record.use(read)


def rating_data(game: str, rating: Rating) -> dict[str, Any]:
    return {
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "shown": rating.shown,
        "uncertainty": rating.shown_sigma,
        "text": rating.text(),
        "level": level_words(game, rating),
    }


def mean_loss(matches: list[PlayedMatch]) -> float | None:
    """The mean loss per decision over these matches' decisions (each decision weighs the same)."""
    decisions = sum(m.decisions or 0 for m in matches)
    if not decisions:
        return None
    return sum((m.mean_loss or 0.0) * (m.decisions or 0) for m in matches) / decisions


def match_data(match: PlayedMatch) -> dict[str, Any]:
    return {
        "match": match.match_id,
        "ended": match.ended,
        "place": match.place,
        "players": match.players,
        "score": match.score,
        "mean_loss": None if match.mean_loss is None else round(match.mean_loss, 3),
        "counts": match.counts,
    }


def game_summary(record: Record, player: str, game: str, since: int | None = None) -> dict[str, Any] | None:
    """The player's statistics in one game; None if they have no finished match of it."""
    matches = played(record, player, game, since)
    if not matches:
        return None
    by_level = []
    for level in (*BOT_LEVELS, PEOPLE):
        faced = [m for m in matches if level in m.opponents]
        if faced:
            by_level.append({"opponent": level, "matches": len(faced), "wins": sum(1 for m in faced if m.place == 1)})
    history = rating_history(record, player, game)
    rating = history[-1][3] if history else NEW
    shown = [entry for entry in history if since is None or entry[1] >= since]
    trend = rating.shown - history[-TREND - 1][3].shown if len(history) > TREND else None
    if trend is None and history:
        trend = rating.shown - history[0][2].shown
    reviewed = [m for m in matches if m.mean_loss is not None]
    accuracy: dict[str, Any] = {"reviewed": len(reviewed), "first": None, "recent": {}}
    if reviewed:
        first = mean_loss(reviewed[:FIRST])
        accuracy["first"] = {"matches": min(FIRST, len(reviewed)), "mean_loss": _round(first)}
        for window in RECENT:
            part = reviewed[-window:]
            accuracy["recent"][str(window)] = {"matches": len(part), "mean_loss": _round(mean_loss(part))}
    counted = mistakes(record, player, game, since)
    commonest = None
    if counted:
        (verdict, kind), count = max(counted.items(), key=lambda item: (item[1], item[0]))
        commonest = {"verdict": verdict, "kind": kind, "count": count, "of": sum(counted.values())}
    if reviewed:
        best = min(reviewed, key=lambda m: (m.mean_loss, -m.ended))
        worst = max(reviewed, key=lambda m: (m.mean_loss, m.ended))
    else:
        best = min(matches, key=lambda m: (_standing(m), -m.ended))
        worst = max(matches, key=lambda m: (_standing(m), m.ended))
    return {
        "game": game,
        "title": GAME_TITLES[game],
        "matches": len(matches),
        "wins": sum(1 for m in matches if m.place == 1),
        "rated": sum(1 for m in matches if m.counts),
        "not_rated": [
            {"why": why, "matches": count}
            for why, count in Counter(reason_kind(m.excluded) for m in matches if not m.counts).most_common()
        ],
        "abandoned": abandoned(record, player, game, since),
        "by_opponent": by_level,
        "rating": rating_data(game, rating),
        "rated_matches": len(history),
        "trend": trend,
        "start": shown[0][2].shown if shown else rating.shown,  # the rating before the first match shown
        "history": [
            {"match": match_id, "ended": ended, "shown": after.shown, "uncertainty": after.shown_sigma}
            for match_id, ended, _before, after in shown
        ],
        "accuracy": accuracy,
        "per_match": [
            {"match": m.match_id, "ended": m.ended, "mean_loss": round(m.mean_loss, 3)}
            for m in reviewed  # type: ignore[arg-type]
        ],
        "commonest_mistake": commonest,
        "best": match_data(best),
        "worst": match_data(worst),
    }


def reason_kind(excluded: str | None) -> str:
    """Why a match is not rated, without the match it copies (so that copies count together)."""
    if excluded is None:
        return "not counted"
    return "a copy, or played on from another" if excluded.startswith("a copy of match ") else excluded


def _standing(match: PlayedMatch) -> float:
    """0 for first, 1 for last."""
    return (match.place - 1) / max(1, match.players - 1)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def summary(record: Record, player: str, games: list[str] | None = None, since: int | None = None) -> dict[str, Any]:
    """The player's statistics in each game they have played (of `games`, if given)."""
    names = {key: name for key, name, _ in known_players(record)}
    found = []
    for game in games or GAME_NAMES:
        part = game_summary(record, player, game, since)
        if part is not None:
            found.append(part)
    return {"player": player, "name": names.get(player, player), "since": since, "games": found}


def match_result(record: Record, match_id: str, player: str) -> dict[str, Any] | None:
    """For the game-over screen: the player's rating before and after `match_id` (if it was rated),
    and their accuracy in it against their average in the game's other reviewed matches."""

    def game_of(connection: sqlite3.Connection) -> str | None:
        row = connection.execute("SELECT game FROM matches WHERE match_id=? LIMIT 1", (match_id,)).fetchone()
        return row[0] if row else None

    game = record.use(game_of)
    if game is None:
        return None
    history = rating_history(record, player, game)
    change = next(((before, after) for m, _e, before, after in history if m == match_id), None)
    matches = played(record, player, game)
    this = next((m for m in matches if m.match_id == match_id), None)
    others = [m for m in matches if m.match_id != match_id and m.mean_loss is not None]
    return {
        "game": game,
        "rated": change is not None,
        "excluded": this.excluded if this is not None else None,
        "before": rating_data(game, change[0]) if change else None,
        "after": rating_data(game, change[1]) if change else None,
        "mean_loss": None if this is None or this.mean_loss is None else round(this.mean_loss, 3),
        "average": _round(mean_loss(others)),
    }
