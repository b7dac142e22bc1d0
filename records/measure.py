"""The bot levels' ratings, measured from duplicate tournaments of the bots (`core.tournament`):
the engine of `dominoes rate-bots`, which writes `records/bot_ratings.json`.

Each game is played with the line-ups of `PLANS` (every level, each in every seat of each deal),
and the games are rated with the same model that rates people (`records.ratings`), every level
starting as a new player. Rated one after another, the last games would weigh more than the first
(the order of a tournament's games means nothing), so the fit rates them without the model's drift
(tau 0) in `ORDERS` shuffled orders and takes the mean of each level's rating and uncertainty.

The searching levels weigh a fixed number of imagined deals a decision (`WORLDS`, those of the
quick strength tests, under a budget they never reach), so a measurement is the same on any
machine however busy, and takes minutes: with time budgets, a shared machine's load starved the
searching bots (at 0.1 s a decision on a loaded machine, `medium` and `hard` came out no better
than `easy` in Chicken Foot). At their own budgets (`medium` 0.2 s, `hard` 1 s, far more deals)
they are stronger than their measured ratings say, so a player "about hard" is about the measured
`hard`, a little weaker than the one met in play.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.bots import BOT_LEVELS
from core.tournament import GameRecord, Job, jobs
from records.placing import placings
from records.ratings import MU, NEW, SIGMA, Rating


@dataclass(frozen=True)
class Plan:
    players: int
    lineups: tuple[tuple[str, ...], ...]
    options: dict[str, Any] = field(default_factory=dict)


PLANS: dict[str, Plan] = {
    "chicken-foot": Plan(4, (("random", "easy", "medium", "hard"),)),
    "doubles": Plan(4, (("random", "easy", "medium", "hard"),)),
    "moon": Plan(3, (("random", "easy", "medium"), ("easy", "medium", "hard"))),
}
WORLDS = {"medium": 8, "hard": 40}  # imagined deals a decision (the strength tests'; hard's Moon deals: 20)
MOON_HARD_WORLDS = 20
BUDGETS = {"hard": 60.0, "medium": 60.0}  # seconds: never reached, so the deals decide
ORDERS = 32


def plan_jobs(game: str, matches: int, seed: int) -> list[Job]:
    """Every game of the measurement of `game`: `matches` duplicate sets of each line-up."""
    plan = PLANS[game]
    work: list[Job] = []
    for number, levels in enumerate(plan.lineups):
        worlds = {level: count for level, count in WORLDS.items() if level in levels}
        if game == "moon" and "hard" in worlds:
            worlds["hard"] = MOON_HARD_WORLDS
        work += jobs(game, plan.players, dict(plan.options), levels, matches, seed + 1000 * number, BUDGETS, worlds)
    return work


def fit(game: str, records: Sequence[GameRecord], orders: int = ORDERS, seed: int = 0) -> dict[str, Rating]:
    """Every level's rating from the games: the mean over `orders` shuffled orders of rating them one
    after another, each level a new player at the start. (The plans seat each level once a game.)"""
    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA, tau=0.0)
    games = [(record.levels, placings(game, record.mean_round_scores, record.winners)) for record in records]
    rng = random.Random(seed)
    found: dict[str, list[Rating]] = {level: [] for level in BOT_LEVELS}
    for _ in range(orders):
        rng.shuffle(games)
        ratings = {level: model.rating() for level in BOT_LEVELS}
        for levels, places in games:
            after = model.rate([[ratings[level]] for level in levels], ranks=list(places))
            ratings.update((level, team[0]) for level, team in zip(levels, after, strict=True))
        for level, rating in ratings.items():
            found[level].append(Rating(rating.mu, rating.sigma))
    return {
        level: Rating(statistics.fmean(r.mu for r in ratings), statistics.fmean(r.sigma for r in ratings))
        if ratings and any(r != NEW for r in ratings)
        else NEW
        for level, ratings in found.items()
    }


def measure(
    game: str, matches: int, seed: int, run: Callable[[list[Job]], list[GameRecord]]
) -> tuple[dict[str, Rating], list[GameRecord]]:
    """The levels' ratings in `game` and the games they come from; `run` plays the games."""
    records = run(plan_jobs(game, matches, seed))
    return fit(game, records), records
