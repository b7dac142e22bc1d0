"""Fast playouts for search bots: a cheap policy applied to full (determinized) states.

A playout runs inside a world the bot sampled from its own view, so it may read that world's
hands directly; that is what makes it fast (no view is built per move).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from core.bots.easy import chicken_foot as easy_chicken_foot
from core.bots.easy import moon as easy_moon
from core.game import Game
from core.games.moon import GAME as MOON
from core.moves import Move, Play


def _heaviest_play(state: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    """Draw games: shed the heaviest tile, a double first when pips tie; else a random move."""
    best = None
    best_key = -1
    for move in legal:
        if type(move) is Play:
            tile = move.tile
            key = 2 * (tile[0] + tile[1]) + (tile[0] == tile[1])
            if key > best_key:
                best, best_key = move, key
    return best if best is not None else legal[rng.randrange(len(legal))]


def _easy_chicken_foot(state: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    """The easy bot's rule of thumb, read straight from the world's bitmasks (the first best move)."""
    if type(legal[0]) is not Play:
        return legal[0]
    counts = easy_chicken_foot.HandCounts(state.hand_masks[state.to_move])
    lines = state.table[1]  # the layout's lines, in the plain form: (parent, tiles, open)
    best, best_score = legal[0], -1
    for move in legal:
        score = counts.score(move.tile, lines[move.target][2])  # type: ignore[attr-defined]
        if score > best_score:
            best, best_score = move, score
    return best


def _easy_moon(state: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    """The easy Moon bot, on the world's own view for the seat to move (a hand is short)."""
    return easy_moon.choose(MOON.view(state, state.to_move), legal, rng)


Policy = Callable[[Any, tuple[Move, ...], random.Random], Move]

POLICIES: dict[str, Policy] = {
    "chicken-foot": _easy_chicken_foot,
    "doubles": _heaviest_play,
    "moon": _easy_moon,
}


def uniform(state: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    """Any legal move, at random: the playouts of a game with no policy of its own."""
    return legal[rng.randrange(len(legal))]


def play_out_round(
    game: Game, state: Any, rng: random.Random, max_moves: int = 2000, policy: Policy | None = None
) -> Any:
    """Play `state` to the end of its round (or the match) with `policy`, by default the game's."""
    if policy is None:
        policy = POLICIES.get(game.name, uniform)
    legal_moves, apply = game.legal_moves, game.apply
    for _ in range(max_moves):
        if state.chance or state.over:
            return state
        legal = legal_moves(state)
        state = apply(state, legal[0] if len(legal) == 1 else policy(state, legal, rng))
    return state
