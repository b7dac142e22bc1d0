"""Ratings per game with openskill's Plackett-Luce model, which rates a match of 2 to 8 players by
their placing.

The bot levels are players too, with ratings fixed from duplicate tournaments of the bots (the
data file `bot_ratings.json` beside this module, made by `dominoes rate-bots`): a person's rating is
measured against them, so it means something ("about medium"), and a bot's rating never moves.
A new player starts at the model's default, uncertain (a large sigma), and settles as they play.

Ratings are shown on a scale of `SCALE` points to the model's unit, so a new player is 1500, with
the uncertainty (one standard deviation) beside it: "1500 ± 500".
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from core.bots import BOT_LEVELS
from core.registry import GAME_NAMES

BOT_RATINGS = Path(__file__).resolve().parent / "bot_ratings.json"
SCALE = 60.0  # display points to one unit of the model (its default rating, 25, is 1500)
MU = 25.0  # openskill's defaults: where a new player starts, and how unsure that is
SIGMA = MU / 3


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        return round(self.mu * SCALE)

    @property
    def shown_sigma(self) -> int:
        return round(self.sigma * SCALE)

    def text(self) -> str:
        """ "1612 ± 95"."""
        return f"{self.shown} ± {self.shown_sigma}"


NEW = Rating()


@cache
def model() -> Any:
    from openskill.models import PlackettLuce  # imported on first use: it is not needed to start

    return PlackettLuce(mu=MU, sigma=SIGMA)


@cache
def bot_ratings() -> dict[str, dict[str, Rating]]:
    """Each game's fixed rating of each bot level, from the package's data file."""
    data = json.loads(BOT_RATINGS.read_text(encoding="utf-8"))
    return read_bot_ratings(data)


def read_bot_ratings(data: Any) -> dict[str, dict[str, Rating]]:
    """ValueError unless `data` gives every game a rating for every bot level."""
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, dict):
        raise ValueError("the bot ratings have no 'games'")
    found: dict[str, dict[str, Rating]] = {}
    for game in GAME_NAMES:
        levels = games.get(game)
        if not isinstance(levels, dict) or set(levels) < set(BOT_LEVELS):
            raise ValueError(f"the bot ratings do not rate every level in {game}")
        found[game] = {}
        for level in BOT_LEVELS:
            entry = levels[level]
            mu, sigma = entry.get("mu"), entry.get("sigma")
            # A level far below a new player (random, in Chicken Foot) can be rated below 0.
            numbers = all(type(value) in (int, float) for value in (mu, sigma))
            if not numbers or not (-1000 < mu < 1000 and 0 < sigma < 1000):
                raise ValueError(f"the rating of {level} in {game} is not two numbers")
            found[game][level] = Rating(float(mu), float(sigma))
    return found


def bot_rating(game: str, level: str) -> Rating:
    return bot_ratings()[game][level]


def rate(ratings: Sequence[Rating], places: Sequence[int], fixed: Sequence[bool]) -> list[Rating]:
    """Everyone's rating after one match, from their ratings before it and their places (1 = first;
    equal places are a tie). A `fixed` seat (a bot) keeps its rating."""
    teams = [[model().rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
    after = model().rate(teams, ranks=list(places))
    return [
        before if keep else Rating(team[0].mu, team[0].sigma)
        for before, keep, team in zip(ratings, fixed, after, strict=True)
    ]


def level_words(game: str, rating: Rating) -> str:
    """Where a rating stands among the bot levels: "about medium", "above hard", "below random"."""
    levels: Mapping[str, Rating] = bot_ratings()[game]
    ordered = sorted(levels.items(), key=lambda item: item[1].mu)
    lowest, highest = ordered[0], ordered[-1]
    if rating.mu < lowest[1].mu - (ordered[1][1].mu - lowest[1].mu) / 2:
        return f"below {lowest[0]}"
    if rating.mu > highest[1].mu + (highest[1].mu - ordered[-2][1].mu) / 2:
        return f"above {highest[0]}"
    nearest = min(ordered, key=lambda item: abs(item[1].mu - rating.mu))
    return f"about {nearest[0]}"
