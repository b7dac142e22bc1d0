"""The hard bot: Information-Set Monte Carlo Tree Search (single observer) for the draw games.

Each pass samples one world consistent with the bot's view and runs one iteration for every legal
move at the root in that same world, so the root's moves are compared on common worlds (the luck of
the sampled hands cancels, as in duplicate play). Below the root a tree of moves is shared across
worlds, a move's statistics counting only the iterations in which it was legal: at the bot's own
turns the tree tries each move (the playout policy's choice first) and then selects by UCB; at the
others' turns it follows the playout policy's choice in that world. Each iteration expands one new
move, plays the round out with the fast policy and credits every move on the path with the round
value of the seat that made it. The answer is the root move with the best mean value. In Doubles
the worlds keep to everything the others' draws, passes and the opening said about their hands
(`doubles_inference`), where plain determinization keeps only their latest draw. (Moon is
searched differently: see `core.bots.moon_search`.) It stops when its time budget is spent or after
`max_worlds` passes, whichever comes first; root moves that are clearly worse than the best on the
worlds seen so far are dropped, so the contenders get the time. With a fixed number of passes it is
deterministic given its rng.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from core.bots import doubles_inference, moon_search
from core.bots.clock import Clock
from core.bots.evaluation import round_value, value_scale
from core.bots.rollout import POLICIES, play_out_round
from core.moves import Move
from core.registry import get_game

DEFAULT_BUDGET = 1.0  # seconds per decision
MAX_WORLDS = 4_000
MOON_WORLDS = 400
EXPLORATION = 0.7
MIN_WORLDS = 6  # worlds every root move is tried in before any is dropped
PRUNE_SIGMAS = 2.5  # how sure, in standard errors, that a move is worse before it is dropped
PRUNE_MARGIN = 0.002  # ... and by at least this much of a typical round's spread


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

    def __init__(self, max_worlds: int | None = None) -> None:
        self.max_worlds = MAX_WORLDS if max_worlds is None else max_worlds
        # Moon keeps a cap of its own: a world there judges every move to the end of the hand.
        self.moon_worlds = MOON_WORLDS if max_worlds is None else max_worlds

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        if len(legal) == 1:
            return legal[0]
        if view.game == "moon":
            # Moon: flat simulation in worlds that fit the bidding, judged by the game (see there).
            budget = self.default_budget if budget is None else budget
            return moon_search.choose(view, legal, rng, budget, self.moon_worlds)
        root = self.search(view, legal, rng, budget)
        contenders = [move for move in legal if move in root.children]
        return max(contenders, key=lambda move: root.children[move].total / max(1, root.children[move].visits))

    def search(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Node:
        """The root after the search: its children are the moves still in contention."""
        game = get_game(view.game)
        scale = value_scale(game.name)
        clock = Clock(self.default_budget if budget is None else budget)
        root = Node(None)
        for move in legal:
            root.children[move] = Node(view.to_move)
        values: dict[Move, list[float]] = {move: [] for move in legal}
        draw_world = self.world_sampler(game, view)
        for _ in range(self.max_worlds):
            world = draw_world(rng)
            for move, child in root.children.items():
                child.available += 1
                values[move].append(self._iterate(game, game.apply(world, move), child, rng, scale, view.seat))
            root.visits += 1
            if len(root.children) > 1 and root.visits >= MIN_WORLDS:
                self._prune(root, values)
            if len(root.children) == 1 or not clock.time_for_another():
                break
        return root

    @staticmethod
    def world_sampler(game: Any, view: Any) -> Callable[[random.Random], Any]:
        """How the search imagines the hidden tiles: in Doubles, in worlds that keep to every draw
        and pass seen and to the opening (`doubles_inference`); in Moon, drawn to fit the others'
        bids and trump (`moon_search`); elsewhere as the game determinizes."""
        if game.name == "doubles":
            evidence = doubles_inference.Evidence(view)
            return lambda rng: doubles_inference.sample(view, rng, evidence)
        if game.name == "moon":
            return moon_search.world_sampler(view)
        return lambda rng: game.determinize(view, rng)

    @staticmethod
    def _prune(root: Node, values: dict[Move, list[float]]) -> None:
        """Drop root moves that are clearly worse than the best on the same worlds, so the rest get
        the remaining time. Every move still in play has a value for every world since the start."""
        worlds = root.visits
        best = max(root.children, key=lambda move: root.children[move].total)
        best_values = values[best]
        for move in list(root.children):
            if move is best:
                continue
            gaps = [b - v for b, v in zip(best_values, values[move], strict=True)]
            mean = sum(gaps) / worlds
            spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / (worlds - 1))
            if mean > PRUNE_SIGMAS * spread / math.sqrt(worlds) + PRUNE_MARGIN:
                del root.children[move]

    def _iterate(self, game: Any, state: Any, node: Node, rng: random.Random, scale: float, me: int) -> float:
        """One iteration below a root move: select, expand one move, play out, back up. Returns the
        value credited to the root move.

        At the bot's own turns the tree tries every move (the playout policy's choice first) and
        then picks by UCB. The others are modelled as the rollouts have them play: at their turns
        the tree follows the policy's choice in this world, so their replies are not guessed at
        random while a node has been visited only a few times."""
        legal_moves, apply = game.legal_moves, game.apply
        policy = POLICIES[game.name]
        path = [node]
        while not (state.chance or state.over):
            moves = legal_moves(state)
            for move in moves:
                child = node.children.get(move)
                if child is not None:
                    child.available += 1
            if state.to_move == me:
                untried = [move for move in moves if move not in node.children]
                if untried:
                    move = untried[0] if len(untried) == 1 else policy(state, tuple(untried), rng)
                else:
                    move = self._select(node, moves)
            else:
                move = moves[0] if len(moves) == 1 else policy(state, moves, rng)
            child = node.children.get(move)
            expanded = child is None
            if expanded:
                child = Node(state.to_move)
                child.available = 1
                node.children[move] = child
            state = apply(state, move)
            node = child
            path.append(node)
            if expanded:
                break
        end = play_out_round(game, state, rng)
        values: dict[int, float] = {}
        for visited in path:
            visited.visits += 1
            mover = visited.mover
            if mover is not None:
                if mover not in values:
                    values[mover] = round_value(game.name, end, mover) / scale
                visited.total += values[mover]
        return values[path[0].mover]  # type: ignore[index]

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
