"""Bot-only matches played to the end, and their summary: the engine of `dominoes simulate`.

Everything here is pure: chance comes from the match's seed (deals) and from one generator per
seat derived from it (bot decisions), so a seed replays the same match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.bots import get_bot
from core.match import Match
from core.moves import Deal
from core.seats import Seat


@dataclass(frozen=True)
class MatchResult:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int  # rounds (Moon: hands) that were scored
    decisions: int  # moves made by players, deals not counted


def bot_seats(levels: Sequence[str], players: int) -> tuple[Seat, ...]:
    """One bot seat per player, the levels cycled if fewer than the seats."""
    if not levels:
        raise ValueError("name at least one bot level")
    for level in levels:
        get_bot(level)  # ValueError for an unknown level
    return tuple(Seat(f"{levels[i % len(levels)]} {i + 1}", "bot", levels[i % len(levels)]) for i in range(players))


def seat_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"{seed}:bot:{seat}")


def play_out(match: Match, on_event: Callable[[Match], None] | None = None) -> MatchResult:
    """Play `match` to its end with its seats' bots; `on_event` is called after every event."""
    rngs = [seat_rng(match.seed, seat) for seat in range(match.players)]
    bots = [get_bot(seat.level or "random") for seat in match.seats]
    game = match.game
    state = match.state
    decisions = 0
    while not state.over:
        if state.chance:
            state = match.deal()
        else:
            seat = state.to_move
            legal = game.legal_moves(state)
            move = bots[seat].choose(game.view(state, seat), legal, rngs[seat])
            state = match.apply(move)
            decisions += 1
        if on_event is not None:
            on_event(match)
    rounds = sum(1 for event in match.events if type(event) is Deal)
    scored_rounds = len(getattr(state, "round_scores", ())) or rounds
    return MatchResult(tuple(state.winners), tuple(state.scores), scored_rounds, decisions)


def simulate_match(
    game: str, players: int, options: Mapping[str, Any] | None, levels: Sequence[str], seed: int
) -> tuple[Match, MatchResult]:
    match = Match(game, players, options, bot_seats(levels, players), seed)
    return match, play_out(match)


@dataclass
class SeatSummary:
    seat: int
    bot: str
    wins: int = 0
    points: int = 0
    rounds: int = 0

    def as_dict(self, matches: int) -> dict[str, Any]:
        return {
            "seat": self.seat + 1,
            "bot": self.bot,
            "wins": self.wins,
            "win_rate": self.wins / matches if matches else 0.0,
            "mean_score_per_round": self.points / self.rounds if self.rounds else 0.0,
        }


@dataclass
class Summary:
    """What `dominoes simulate` reports."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[SeatSummary]
    matches: int = 0
    decisions: int = 0
    shared_wins: int = 0  # matches won jointly by equal best scores

    def add(self, result: MatchResult) -> None:
        self.matches += 1
        self.decisions += result.decisions
        if len(result.winners) > 1:
            self.shared_wins += 1
        for seat in self.seats:
            seat.points += result.scores[seat.seat]
            seat.rounds += result.rounds
            if seat.seat in result.winners:
                seat.wins += 1

    def by_bot(self) -> list[dict[str, Any]]:
        levels: dict[str, list[SeatSummary]] = {}
        for seat in self.seats:
            levels.setdefault(seat.bot, []).append(seat)
        rows = []
        for level, seats in levels.items():
            wins = sum(s.wins for s in seats)
            rounds = sum(s.rounds for s in seats)
            rows.append(
                {
                    "bot": level,
                    "seats": len(seats),
                    "wins": wins,
                    # A bot in two seats can win twice as often: report the rate per seat played.
                    "win_rate": wins / (self.matches * len(seats)) if self.matches else 0.0,
                    "mean_score_per_round": sum(s.points for s in seats) / rounds if rounds else 0.0,
                }
            )
        return rows

    def as_dict(self, seconds: float) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "matches": self.matches,
            "seed": self.seed,
            "options": self.options,
            "seats": [seat.as_dict(self.matches) for seat in self.seats],
            "bots": self.by_bot(),
            "shared_wins": self.shared_wins,
            "mean_moves_per_match": self.decisions / self.matches if self.matches else 0.0,
            "seconds": seconds,
            "matches_per_second": self.matches / seconds if seconds > 0 else 0.0,
        }


def new_summary(game: str, players: int, options: Mapping[str, Any], levels: Sequence[str], seed: int) -> Summary:
    seats = bot_seats(levels, players)
    return Summary(
        game, players, dict(options), seed, [SeatSummary(i, seat.level or "") for i, seat in enumerate(seats)]
    )


def match_seed(seed: int, index: int) -> int:
    """The seed of the index-th match of a simulation run."""
    return random.Random(f"{seed}:match:{index}").randrange(2**63)


def easy_play_decisions(game: str, players: int, seed: int = 1) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """Decisions of easy-bot play: the view and legal moves of every decision with a choice, first
    rounds of matches seeded `seed`, `seed + 1`, ... (endless). Whatever a caller does with a
    position, the easy move is played on, so every caller sees the same positions."""
    easy = get_bot("easy")
    while True:
        match = Match(game, players, {}, None, seed)
        rng = random.Random(seed)
        match.deal()
        while not match.state.over and not match.state.chance:
            view, legal = match.view(match.state.to_move), match.legal_moves()
            if len(legal) > 1:
                yield view, legal
            match.apply(easy.choose(view, legal, rng))
        seed += 1
