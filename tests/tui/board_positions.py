"""Positions deep into a round, played out by easy bots in the engine, for the board's tests.

Each is a seeded match stopped at a moment the board must handle: the human (seat 1, "You") to
move in a late 8-player Chicken Foot round just after a bot's double opened a chicken foot deep in
the tree (CF-10); a Doubles round with spinners on spinners (DB-5); a Doubles hand whose one
candidate end is locked (DB-7).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from core import Match, Seat
from core.bots import get_bot
from core.layout import CENTRE, Layout
from core.moves import DRAW, Play
from tui.widgets.board_tree import rows_of
from workers.bot_process import decision_seed

EASY = get_bot("easy")


def depth(board: Layout, line_id: int) -> int:
    """1 for a line on the centre, 2 for a line on a double closing one of those, and so on."""
    levels = 1
    while board.lines[line_id].parent != CENTRE:
        line_id = board.lines[line_id].parent
        levels += 1
    return levels


def play_until(match: Match, stop: Callable[[Match], bool]) -> Match:
    """Every seat played by the easy bot (the human's too) until `stop` holds at the human's turn.
    Each decision is seeded as the table's bots seed theirs, so a table opened earlier in the match
    sees the bots make the same moves."""
    while not match.state.over:
        state = match.state
        if state.chance:
            match.deal()
            continue
        if state.to_move == 0 and stop(match):
            return match
        rng = random.Random(decision_seed(match, state.to_move))
        match.apply(EASY.choose(match.view(state.to_move), match.legal_moves(), rng))
    raise AssertionError("the position never came up")


def bot_opened_a_deep_foot(match: Match) -> bool:
    """A bot's double just opened a foot below the 15th line of the board (out of sight at 80x24
    unless the board scrolls to it), two or more levels down the tree."""
    state = match.state
    last = match.events[-1]
    if type(last) is not Play or not last.tile.is_double or not state.board.empty_ends:
        return False
    board = state.board
    foot = board.lines[board.empty_ends[0]].parent
    if foot == CENTRE or depth(board, foot) < 2:
        return False
    return next(index for index, row in enumerate(rows_of(board)) if foot in row.lines) >= 15


def late_chicken_foot(seed: int = 104) -> Match:
    """8 players, the last of two rounds: the human to move just after a bot's 1-1 opened a foot four
    levels down, on the 17th line of 25 (seed 104)."""
    seats = [Seat("You", "human"), *(Seat(f"Seat {n}", "bot", "easy") for n in range(2, 9))]
    return play_until(Match("chicken-foot", 8, {"rounds": 2}, seats, seed), bot_opened_a_deep_foot)


def nested_spinners(match: Match) -> bool:
    """A spinner on a spinner's arm, and several ends where the human's tile fits."""
    board = match.state.board
    if board is None:
        return False
    nested = any(depth(board, line) >= 3 for line in range(len(board.lines)))
    targets = {move.target for move in match.legal_moves() if type(move) is Play}
    return nested and len(targets) >= 2


def doubles_with_nested_spinners(seed: int = 0) -> Match:
    seats = [Seat("You", "human"), Seat("Seat 2", "bot", "easy"), Seat("Seat 3", "bot", "easy")]
    return play_until(Match("doubles", 3, {"target": 100}, seats, seed), nested_spinners)


def locked_tile(match: Match) -> bool:
    """The human holds a tile that only a locked end (DB-7) could take, and no tile fits an end."""
    view = match.view(0)
    board = view.board
    if board is None or match.legal_moves()[0] != DRAW:
        return False
    locked = {board.lines[end].open for end in board.ends} - {n for n in range(7) if view.unlocked >> n & 1}
    return any(locked & set(tile) for tile in view.hand)


def doubles_with_a_locked_tile(seed: int = 0) -> Match:
    seats = [Seat("You", "human"), Seat("Seat 2", "bot", "easy")]
    return play_until(Match("doubles", 2, {"target": 100}, seats, seed), locked_tile)
