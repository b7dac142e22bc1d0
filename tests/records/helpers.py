"""Matches played through the public API to their end, and saved, for the record's tests."""

from __future__ import annotations

from pathlib import Path

from core import Match, Seat
from core.bots import get_bot
from core.simulation import seat_rng
from saves import SavedMatch, SaveStore

DAY = 86_400
START = 1_764_400_000  # 2025-11-29


def finished_match(game: str, seed: int, levels: tuple[str, ...], you: int = 0, name: str = "You") -> Match:
    """A match of `game` with a person in seat `you` and bots of `levels` in the others, every seat
    played by the easy bot's rules to the end (the seats' levels are who sat there, for the record)."""
    seats = []
    others = iter(levels)
    for seat in range(len(levels) + 1):
        if seat == you:
            seats.append(Seat(name))
        else:
            level = next(others)
            seats.append(Seat(f"{level} {seat + 1}", "bot", level))
    match = Match(game, len(seats), {"rounds": 1} if game == "chicken-foot" else {}, seats, seed)
    return play_to_end(match)


def play_to_end(match: Match) -> Match:
    """Every seat played by the easy bot's rules until the match is over."""
    bot = get_bot("easy")
    rngs = [seat_rng(match.seed, seat) for seat in range(match.players)]
    while not match.state.over:
        state = match.state
        if state.chance:
            match.deal()
            continue
        legal = match.legal_moves()
        match.apply(bot.choose(match.game.view(state, state.to_move), legal, rngs[state.to_move]))
    return match


def save(directory: Path, match: Match, match_id: str, ended: int) -> Path:
    return SaveStore(directory, durable=False).save(SavedMatch(match_id, match, ended - 600, ended))


def winning_seed(game: str, levels: tuple[str, ...], start: int = 1) -> int:
    """The first seed from `start` at which the person (seat 0) wins alone."""
    seed = start
    while True:
        match = finished_match(game, seed, levels)
        if match.state.winners == (0,):
            return seed
        seed += 1
