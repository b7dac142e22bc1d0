"""Easy Doubles: unlock numbers it holds, keep locked the numbers it lacks, shed heavy tiles."""

from __future__ import annotations

import random
from typing import Any

from core.moves import Move, Play
from core.tiles import Tile

UNLOCK_WEIGHT = 4  # per tile in hand that a double's number frees: each is a future play
LACK_PENALTY = 8  # a double whose number we lack opens that number to everyone else
FOLLOW_UP_BONUS = 2  # leaving an unlocked end showing a number we still hold
KEY_BONUS = 3  # leaving a locked number showing whose double we hold: only we can open it
DEAD_END_PENALTY = 2  # leaving a locked number showing whose double we lack: it may stay shut for us


def score_play(hand: tuple[Tile, ...], move: Play, showing: int, unlocked: int) -> float:
    """How much the easy bot likes `move`, made from `hand` on an end showing `showing`."""
    tile = move.tile
    rest = [t for t in hand if t is not tile]
    score: float = tile.pips
    if tile.is_double:
        # DB-6: the double unlocks its number for the whole table.
        carrying = sum(1 for t in rest if showing in t)
        score += UNLOCK_WEIGHT * carrying if carrying else -LACK_PENALTY
        return score
    far = tile.other(showing)
    if unlocked >> far & 1:
        if any(far in t for t in rest):
            score += FOLLOW_UP_BONUS
    elif any(t[0] == t[1] == far for t in rest):
        score += KEY_BONUS
    else:
        score -= DEAD_END_PENALTY
    return score


def choose(view: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    plays = [move for move in legal if type(move) is Play]
    if not plays or view.board is None:
        return legal[0]  # a draw, a pass or the opening double: the only move there is
    lines = view.board.lines
    scored = [
        (score_play(view.hand, move, lines[move.target].open, view.unlocked), rng.random(), move) for move in plays
    ]
    return max(scored, key=lambda item: (item[0], item[1]))[2]
