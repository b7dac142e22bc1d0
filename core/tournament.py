"""Duplicate tournaments between bot levels: the engine of `dominoes tournament`.

Each deal seed is played once per rotation of the line-up, so every bot sits in every seat with
the same tiles and luck cancels out. A single game is a pure function of its job (game, options,
line-up, seed, rotation, each level's budget and worlds), so games can run in any order, in any
number of processes, and the report is the same. (A time budget makes a searching bot's decisions
depend on the machine's speed; a number of worlds with a generous budget makes them the same on any machine.)
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.bots import Bot, get_bot
from core.match import Match
from core.seats import Seat
from core.simulation import match_seed, seat_rng


@dataclass(frozen=True)
class Job:
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    lineup: tuple[str, ...]  # a bot level per seat before rotation
    seed: int
    rotation: int
    budgets: tuple[tuple[str, float], ...] = ()  # seconds per decision, by level (else the level's own)
    worlds: tuple[tuple[str, int], ...] = ()  # most worlds per decision, by level (else the level's own)

    def levels(self) -> tuple[str, ...]:
        """The level in each seat: the line-up shifted by the rotation."""
        n = self.players
        return tuple(self.lineup[(seat - self.rotation) % n] for seat in range(n))


@dataclass(frozen=True)
class GameRecord:
    levels: tuple[str, ...]
    winners: tuple[int, ...]
    mean_round_scores: tuple[float, ...]  # per seat
    decision_seconds: tuple[tuple[str, float], ...]  # (level, seconds) for every real decision

    def to_data(self) -> dict[str, Any]:
        return {
            "levels": list(self.levels),
            "winners": list(self.winners),
            "mean_round_scores": list(self.mean_round_scores),
            "decision_seconds": [list(pair) for pair in self.decision_seconds],
        }

    @staticmethod
    def from_data(data: dict[str, Any]) -> GameRecord:
        return GameRecord(
            tuple(data["levels"]),
            tuple(data["winners"]),
            tuple(data["mean_round_scores"]),
            tuple((level, seconds) for level, seconds in data["decision_seconds"]),
        )


def lineup(levels: Sequence[str], players: int) -> tuple[str, ...]:
    for level in levels:
        get_bot(level)  # ValueError for an unknown level
    return tuple(levels[i % len(levels)] for i in range(players))


def jobs(
    game: str,
    players: int,
    options: dict[str, Any],
    levels: Sequence[str],
    matches: int,
    seed: int,
    budgets: Mapping[str, float] | None = None,
    worlds: Mapping[str, int] | None = None,
) -> list[Job]:
    """`matches` duplicate sets: each deal seed played in every rotation of the line-up."""
    seats = lineup(levels, players)
    frozen = tuple(sorted(options.items()))
    for level, count in (worlds or {}).items():
        get_bot(level, count)  # ValueError for a level that does not search or a count below 1
    budget_pairs = tuple(sorted((budgets or {}).items()))
    world_pairs = tuple(sorted((worlds or {}).items()))
    return [
        Job(game, players, frozen, seats, match_seed(seed, index), rotation, budget_pairs, world_pairs)
        for index in range(matches)
        for rotation in range(players)
    ]


def play_data(job: Job) -> dict[str, Any]:
    """`play`, its record as plain data (for results sent between processes)."""
    return play(job).to_data()


def play(job: Job, seat_bots: Callable[[Match, tuple[str, ...]], list[Bot]] | None = None) -> GameRecord:
    """One match of the job. `seat_bots(match, levels)` may give the bots in place of the levels'
    own (an experiment such as `bench/hidden_hand.py`)."""
    levels = job.levels()
    seats = [Seat(f"{level} {i + 1}", "bot", level) for i, level in enumerate(levels)]
    match = Match(job.game, job.players, dict(job.options), seats, job.seed)
    game = match.game
    worlds, budgets = dict(job.worlds), dict(job.budgets)
    bots = seat_bots(match, levels) if seat_bots else [get_bot(level, worlds.get(level)) for level in levels]
    rngs = [seat_rng(job.seed, seat) for seat in range(job.players)]
    timings: list[tuple[str, float]] = []
    state = match.state
    while not state.over:
        if state.chance:
            state = match.deal()
            continue
        seat = state.to_move
        legal = game.legal_moves(state)
        started = time.perf_counter()
        move = bots[seat].choose(game.view(state, seat), legal, rngs[seat], budgets.get(levels[seat]))
        if len(legal) > 1:
            timings.append((levels[seat], time.perf_counter() - started))
        state = match.apply(move)
    per_round = getattr(state, "round_scores", None) or getattr(state, "hand_scores", None)
    rounds = len(per_round) if per_round else 1
    means = tuple(score / rounds for score in state.scores)
    return GameRecord(levels, tuple(state.winners), means, tuple(timings))


@dataclass
class BotTally:
    level: str
    games: int = 0
    wins: float = 0.0  # a shared win counts as a fraction
    win_samples: list[float] = field(default_factory=list)
    score_samples: list[float] = field(default_factory=list)
    decisions: list[float] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        win_rate = statistics.fmean(self.win_samples) if self.win_samples else 0.0
        mean_score = statistics.fmean(self.score_samples) if self.score_samples else 0.0
        ordered = sorted(self.decisions)
        return {
            "bot": self.level,
            "seat_games": self.games,
            "win_rate": win_rate,
            "win_rate_ci95": _wilson(win_rate, len(self.win_samples)),
            "mean_score": mean_score,
            "mean_score_ci95": mean_interval(self.score_samples),
            "decisions": len(ordered),
            "decision_median_s": statistics.median(ordered) if ordered else 0.0,
            "decision_p95_s": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] if ordered else 0.0,
        }


def _wilson(rate: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """A 95% interval for a win rate (Wilson's, which stays within 0..1)."""
    if n == 0:
        return (0.0, 0.0)
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(rate * (1 - rate) / n + z * z / (4 * n * n), 0.0)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(samples: list[float]) -> tuple[float, float]:
    """A 95% confidence interval for the mean (normal approximation)."""
    if len(samples) < 2:
        value = samples[0] if samples else 0.0
        return (value, value)
    mean = statistics.fmean(samples)
    half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
    return (mean - half, mean + half)


def tally(records: Iterable[GameRecord]) -> dict[str, BotTally]:
    tallies: dict[str, BotTally] = {}
    for record in records:
        for seat, level in enumerate(record.levels):
            entry = tallies.setdefault(level, BotTally(level))
            entry.games += 1
            won = 1.0 / len(record.winners) if seat in record.winners else 0.0
            entry.wins += won
            entry.win_samples.append(won)
            entry.score_samples.append(record.mean_round_scores[seat])
        for level, seconds in record.decision_seconds:
            tallies[level].decisions.append(seconds)
    return tallies
