"""Easy Chicken Foot: shed heavy tiles and doubles early, keep a variety of numbers in hand."""

from __future__ import annotations

import random
from typing import Any

from core.moves import Move, Play
from core.tiles import CARRYING, Tile, mask_of

DOUBLE_BONUS = 6  # a double left late is hard to place and costly; play it while ends are open
VARIETY_WEIGHT = 2  # each distinct number kept in hand is a future chance to play
FOLLOW_UP_BONUS = 2  # leaving an end showing a number we still hold


class HandCounts:
    """How many tiles of a hand carry each number, counted once, so that scoring each candidate
    play is a few lookups (the search bots' playouts score thousands of them)."""

    __slots__ = ("counts", "distinct")

    def __init__(self, hand_mask: int) -> None:
        self.counts = [(hand_mask & carrying).bit_count() for carrying in CARRYING]
        self.distinct = sum(1 for count in self.counts if count)

    def score(self, tile: Tile, showing: int) -> int:
        """How much the easy bot likes playing `tile` (held in this hand) on an end showing `showing`."""
        low, high = tile
        counts = self.counts
        if low == high:
            kept = self.distinct - (counts[low] == 1)  # the numbers still held once it is played
            bonus = DOUBLE_BONUS
        else:
            kept = self.distinct - (counts[low] == 1) - (counts[high] == 1)
            bonus = FOLLOW_UP_BONUS if counts[tile.other(showing)] > 1 else 0
        return low + high + VARIETY_WEIGHT * kept + bonus


def score_play(hand: tuple[Tile, ...], move: Play, showing: int) -> float:
    """How much the easy bot likes `move`, made from `hand` on an end showing `showing`."""
    return HandCounts(mask_of(hand)).score(move.tile, showing)


def choose(view: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    plays = [move for move in legal if type(move) is Play]
    if not plays:
        return legal[0]  # a draw or a pass: the only move there is
    lines = view.board.lines
    counts = HandCounts(mask_of(view.hand))
    scored = [(counts.score(move.tile, lines[move.target].open), rng.random(), move) for move in plays]
    return max(scored, key=lambda item: (item[0], item[1]))[2]
