"""Matches played through the public API to their end, and saved, for the record's tests."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from core import Match, Seat
from core.bots import get_bot
from core.chance import SECRET_BYTES
from saves import SavedMatch, SaveStore

DAY = 86_400
START = 1_764_400_000  # 2025-11-29


def secret_of(number: int) -> bytes:
    """A match's secret, the same for the same number (in play it comes from the operating system)."""
    return hashlib.sha256(f"record test {number}".encode()).digest()[:SECRET_BYTES]


def finished_match(
    game: str, seed: int, levels: tuple[str, ...], you: int = 0, name: str = "You", chosen: bool = False
) -> Match:
    """A match of `game` with a person in seat `you` and bots of `levels` in the others, dealt from
    the secret `secret_of(seed)` (or, `chosen`, from the seed itself, as a practice match), every seat
    played by the easy bot's rules to the end (the seats' levels are who sat there, for the record)."""
    seats = []
    others = iter(levels)
    for seat in range(len(levels) + 1):
        if seat == you:
            seats.append(Seat(name))
        else:
            level = next(others)
            seats.append(Seat(f"{level} {seat + 1}", "bot", level))
    options = {"rounds": 1} if game == "chicken-foot" else {}
    if chosen:
        return play_to_end(Match(game, len(seats), options, seats, seed))
    return play_to_end(Match(game, len(seats), options, seats, None, secret=secret_of(seed)))


def play_to_end(match: Match) -> Match:
    """Every seat played by the easy bot's rules until the match is over."""
    bot = get_bot("easy")
    chance = match.seed if match.secret is None else match.secret.hex()
    rngs = [random.Random(f"{chance}:bot:{seat}") for seat in range(match.players)]
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
