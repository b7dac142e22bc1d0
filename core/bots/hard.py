"""The hard bot: Information-Set Monte Carlo Tree Search (single observer).

Each iteration samples one world consistent with the bot's view, walks a tree of moves shared
across worlds (a move's statistics count only the iterations in which it was legal), expands one
new move, plays the round out with a fast policy and credits every move on the path with the round
value of the seat that made it. The answer is the most visited move at the root. (Moon is searched
differently: see `core.bots.moon_search`.) It stops when its
time budget is spent or after `max_iterations`, whichever comes first; with a fixed number of
iterations it is deterministic given its rng.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from core.bots import moon_search
from core.bots.evaluation import round_value, value_scale
from core.bots.rollout import play_out_round
from core.moves import Move
from core.registry import get_game

DEFAULT_BUDGET = 1.0  # seconds per decision
MAX_ITERATIONS = 20_000
EXPLORATION = 0.7


class Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int | None) -> None:
        self.mover = mover  # the seat whose move led here
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.available = 0  # iterations in which the move leading here was legal
        self.total = 0.0


class HardBot:
    level = "hard"
    default_budget = DEFAULT_BUDGET

    def __init__(self, max_iterations: int = MAX_ITERATIONS) -> None:
        self.max_iterations = max_iterations

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        if len(legal) == 1:
            return legal[0]
        if view.game == "moon":
            # Moon's hands are short and its tricks solvable: simulate, then search exactly.
            worlds = max(1, self.max_iterations // 50)
            return moon_search.choose(view, legal, rng, self.default_budget if budget is None else budget, worlds)
        root = self.search(view, legal, rng, budget)
        return max(legal, key=lambda move: root.children[move].visits if move in root.children else -1)

    def search(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Node:
        game = get_game(view.game)
        scale = value_scale(game.name)
        deadline = time.perf_counter() + (self.default_budget if budget is None else budget)
        root = Node(None)
        legal_moves, apply = game.legal_moves, game.apply
        for iteration in range(self.max_iterations):
            state = game.determinize(view, rng)
            node = root
            path = [root]
            while not (state.chance or state.over):
                moves = legal if node is root else legal_moves(state)
                untried = [move for move in moves if move not in node.children]
                for move in moves:
                    child = node.children.get(move)
                    if child is not None:
                        child.available += 1
                if untried:
                    move = untried[rng.randrange(len(untried))]
                    child = Node(state.to_move)
                    child.available = 1
                    node.children[move] = child
                    state = apply(state, move)
                    path.append(child)
                    break
                move = self._select(node, moves)
                node = node.children[move]
                state = apply(state, move)
                path.append(node)
            end = play_out_round(game, state, rng)
            values: dict[int, float] = {}
            for visited in path:
                visited.visits += 1
                if visited.mover is not None:
                    if visited.mover not in values:
                        values[visited.mover] = round_value(game.name, end, visited.mover) / scale
                    visited.total += values[visited.mover]
            if iteration % 8 == 7 and time.perf_counter() >= deadline:
                break
        return root

    @staticmethod
    def _select(node: Node, moves: tuple[Move, ...]) -> Move:
        best_move = moves[0]
        best = -math.inf
        for move in moves:
            child = node.children[move]
            score = child.total / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if score > best:
                best, best_move = score, move
        return best_move
