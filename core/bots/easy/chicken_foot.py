"""Easy Chicken Foot: shed heavy tiles and doubles early, keep a variety of numbers in hand."""

from __future__ import annotations

import random
from typing import Any

from core.moves import Move, Play
from core.tiles import Tile

DOUBLE_BONUS = 6  # a double left late is hard to place and costly; play it while ends are open
VARIETY_WEIGHT = 2  # each distinct number kept in hand is a future chance to play
FOLLOW_UP_BONUS = 2  # leaving an end showing a number we still hold


def score_play(hand: tuple[Tile, ...], move: Play, showing: int) -> float:
    """How much the easy bot likes `move`, made from `hand` on an end showing `showing`."""
    tile = move.tile
    rest = [t for t in hand if t is not tile]
    numbers = {n for t in rest for n in t}
    far = tile.other(showing)
    score: float = tile.pips + VARIETY_WEIGHT * len(numbers)
    if tile.is_double:
        score += DOUBLE_BONUS
    elif far in numbers:
        score += FOLLOW_UP_BONUS
    return score


def choose(view: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    plays = [move for move in legal if type(move) is Play]
    if not plays:
        return legal[0]  # a draw or a pass: the only move there is
    lines = view.board.lines
    scored = [(score_play(view.hand, move, lines[move.target].open), rng.random(), move) for move in plays]
    return max(scored, key=lambda item: (item[0], item[1]))[2]
