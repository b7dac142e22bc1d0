"""Random matches of any game, with undo and redo in their history, for the save tests."""

from __future__ import annotations

import random
from typing import Any

from core import Match, Seat, get_game
from core.bots import BOT_LEVELS
from core.options import OptionSpec
from saves.body import body_of
from saves.format import pack_body, wrap
from saves.migrations import FORMAT_VERSION
from saves.record import SavedMatch

CREATED = 1_764_400_000  # 2025-11-29, a fixed moment so that files are reproducible


def random_option(spec: OptionSpec, players: int, rng: random.Random) -> Any:
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "choice":
        return rng.choice(spec.choices)
    low, high = spec.bounds_for(players)
    return rng.randint(low, high)


def random_seats(players: int, rng: random.Random) -> list[Seat]:
    seats = []
    for number in range(1, players + 1):
        if rng.random() < 0.5:
            seats.append(Seat(f"Player {number}"))
        else:
            level = rng.choice(BOT_LEVELS)
            seats.append(Seat(f"{level} bot {number}", "bot", level))
    return seats


def random_match(game_name: str, rng: random.Random, max_events: int = 300, finish: bool = False) -> Match:
    """A match of random size, options and seats, played with random moves, undos and redos, left at
    a random cursor (often with a redo tail). With `finish`, played to its end (or `max_events`)."""
    game = get_game(game_name)
    players = rng.randint(game.min_players, game.max_players)
    seats = random_seats(players, rng)
    options = {spec.name: random_option(spec, players, rng) for spec in game.option_specs}
    # Half of them dealt from a secret (as a match started without a seed is), half from a seed.
    chance: dict[str, Any] = {"secret": rng.randbytes(32)} if rng.random() < 0.5 else {}
    seed = None if chance else rng.randrange(2**63)
    try:
        match = Match(game_name, players, options, seats, seed, **chance)
    except ValueError:  # options that are each valid but not together: the defaults then
        match = Match(game_name, players, {}, seats, seed, **chance)
    for _ in range(max_events if finish else rng.randint(0, max_events)):
        state = match.state
        if state.over:
            break
        roll = rng.random()
        if roll < 0.05 and match.can_undo():
            match.undo()
        elif roll < 0.08 and match.can_redo():
            match.redo()
        elif state.chance:
            match.deal()
        else:
            legal = match.legal_moves()
            match.apply(legal[rng.randrange(len(legal))])
    match.cursor = rng.randint(0, len(match.events))
    return match


def small_match(game_name: str = "chicken-foot", decisions: int = 3) -> Match:
    """The smallest table of a game, one deal and a few first moves."""
    game = get_game(game_name)
    match = Match(game_name, game.min_players, {}, seed=5)
    match.deal()
    for _ in range(decisions):
        if match.state.chance:
            match.deal()
        else:
            match.apply(match.legal_moves()[0])
    return match


def record_of(match: Match, match_id: str = "test-match") -> SavedMatch:
    return SavedMatch(match_id, match, CREATED, CREATED + 60)


def file_with_body(body: Any, version: int = FORMAT_VERSION) -> bytes:
    """A save file whose envelope is valid (magic, checksum) around any body."""
    return wrap(pack_body(body), version)


def body_dict(match: Match, match_id: str = "test-match") -> dict[str, Any]:
    return body_of(record_of(match, match_id))
