"""The bot levels' ratings, measured from duplicate tournaments of the bots (`core.tournament`):
the engine of `dominoes rate-bots`, which writes `records/bot_ratings.json`.

Each game is played with the line-ups of `PLANS` (every level, each in every seat of each deal),
and the games, in the order of their deal seeds and rotations, are rated with the same model that
rates people (`records.ratings`), every level starting as a new player. The searching levels think
for `BUDGETS` seconds a decision (the budget of the README's strength runs), so that a measurement
takes minutes rather than hours: at their own (`medium` 0.2 s, `hard` 1 s) they are somewhat
stronger than their measured ratings say. (At a fifth of that, 0.02 s, `medium` fell below `easy`
in Chicken Foot: it is not the `medium` a player meets.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.bots import BOT_LEVELS
from core.tournament import GameRecord, Job, jobs
from records.placing import placings
from records.ratings import NEW, Rating, rate


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
BUDGETS = {"hard": 0.1, "medium": 0.1}


def plan_jobs(game: str, matches: int, seed: int) -> list[Job]:
    """Every game of the measurement of `game`: `matches` duplicate sets of each line-up."""
    plan = PLANS[game]
    work: list[Job] = []
    for number, levels in enumerate(plan.lineups):
        work += jobs(game, plan.players, dict(plan.options), levels, matches, seed + 1000 * number, BUDGETS)
    return work


def fit(game: str, records: Sequence[GameRecord]) -> dict[str, Rating]:
    """Every level's rating after the games, in order, each level a new player at the start."""
    ratings = dict.fromkeys(BOT_LEVELS, NEW)
    for record in records:
        scores = [round(score * 1000) for score in record.mean_round_scores]
        places = placings(game, scores, record.winners)
        after = rate([ratings[level] for level in record.levels], places, [False] * len(record.levels))
        # A level seated twice at a table would be rated twice; the plans seat each level once.
        ratings.update(zip(record.levels, after, strict=True))
    return ratings


def measure(
    game: str, matches: int, seed: int, run: Callable[[list[Job]], list[GameRecord]]
) -> tuple[dict[str, Rating], int]:
    """The levels' ratings in `game` and the number of games they come from; `run` plays the games."""
    records = run(plan_jobs(game, matches, seed))
    return fit(game, records), len(records)
