"""A server's leaderboard: the top players of each game by rating, among those who chose to be
listed (`records.visibility`), and each viewer's own line whatever they chose; and what of a
player's record others may open from it.

Players are ranked by their rating less three times its uncertainty (openskill's "ordinal"), so a
few lucky matches do not put a new player at the top; the rating is shown as it is, with its
uncertainty.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from records.database import Record
from records.ratings import Rating
from records.summary import known_players, summary
from records.visibility import VISIBILITIES

TOP = 10
PRIVATE, LISTED, PUBLIC = VISIBILITIES


@dataclass(frozen=True)
class Line:
    rank: int | None  # among the listed players; None for a viewer who is not listed
    player: str
    name: str
    rating: Rating
    matches: int  # rated matches
    visibility: str
    own: bool

    @property
    def order(self) -> float:
        return self.rating.mu - 3 * self.rating.sigma


def visibilities(record: Record) -> dict[str, str]:
    return dict(record.use(lambda c: c.execute("SELECT player, visibility FROM players").fetchall()))


def visibility_of(record: Record, player: str) -> str:
    return visibilities(record).get(player, PRIVATE)


def latest_ratings(record: Record, game: str) -> dict[str, tuple[Rating, int]]:
    """Each rated player's rating now in `game`, and how many rated matches it comes from."""

    def read(connection: sqlite3.Connection) -> dict[str, tuple[Rating, int]]:
        rows = connection.execute(
            "SELECT player, mu, sigma FROM ratings WHERE game=? ORDER BY ended, match_id", (game,)
        ).fetchall()
        found: dict[str, tuple[Rating, int]] = {}
        for player, mu, sigma in rows:
            count = found[player][1] + 1 if player in found else 1
            found[player] = (Rating(mu, sigma), count)
        return found

    return record.use(read)


def leaderboard(record: Record, game: str, viewer: str | None, top: int = TOP) -> list[Line]:
    """The `top` listed players of `game`, best first, and the viewer's own line (last, if they are
    not among them) when they have a rating in the game."""
    shown = visibilities(record)
    names = {player: name for player, name, _ in known_players(record)}
    ratings = latest_ratings(record, game)
    listed = [
        Line(None, player, names.get(player, player), rating, count, shown.get(player, PRIVATE), player == viewer)
        for player, (rating, count) in ratings.items()
        if shown.get(player, PRIVATE) != PRIVATE
    ]
    listed.sort(key=lambda line: (-line.order, line.player))
    ranked = [Line(rank, *_fields(line)) for rank, line in enumerate(listed, 1)]
    lines = ranked[:top]
    if viewer is not None and viewer in ratings and not any(line.own for line in lines):
        own = next((line for line in ranked if line.own), None)
        if own is None:
            rating, count = ratings[viewer]
            own = Line(None, viewer, names.get(viewer, viewer), rating, count, shown.get(viewer, PRIVATE), True)
        lines.append(own)
    return lines


def _fields(line: Line) -> tuple[Any, ...]:
    return (line.player, line.name, line.rating, line.matches, line.visibility, line.own)


def public_record(record: Record, player: str, viewer: str | None) -> dict[str, Any] | None:
    """What `viewer` may see of `player`'s record: all of it if it is their own or `player` made it
    public; the ratings alone (a limited record) if `player` is listed; nothing (None) otherwise."""
    seen = visibility_of(record, player)
    if player != viewer and seen == PRIVATE:
        return None
    data = summary(record, player)
    if player == viewer or seen == PUBLIC:
        return data
    limited = []
    for part in data["games"]:
        limited.append(
            {
                "game": part["game"],
                "title": part["title"],
                "rating": part["rating"],
                "rated_matches": part["rated_matches"],
                "trend": part["trend"],
                "limited": True,
            }
        )
    return {"player": player, "name": data["name"], "since": None, "games": limited}
