"""The hard bot's Moon: simulation in worlds that fit what the others said, judged by the game.

Every decision samples worlds consistent with the bot's view (the other hands, the widow, the
discard), drawn to fit the others' bids, passes and named trump (`moon_inference`). Every move is
judged by playing it out in every world with the easy players' rules of thumb (`moon_policy`), to
the end of the hand, which counts its points and, if it ends the game, the game won or lost.

Hard does not solve the last tricks exactly: an alpha-beta that lets the others play as if they
saw every hand (and the bot as if it knew the world) judged the endgame worse than playouts did
(47% of games won against two medium bots with it, 52% without, over the same 60). `solve` stays
for the review, which weighs endgame moves with it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from core.bots import moon_policy
from core.bots.clock import Clock
from core.bots.evaluation import round_value
from core.bots.moon_inference import Evidence
from core.bots.rollout import play_out_round
from core.games.moon import GAME as MOON
from core.games.moon import TRICKS
from core.moves import Move

DRAWS = 20  # worlds drawn at most for one accepted (a draw costs far less than judging a world)
GAME_WON = 60.0  # points a game won (or lost) is worth beyond the hand's
SOLVE_TRICKS = 3  # the review's exact endgame: solved once this many tricks are left to play
PARTNER_POLICY = moon_policy.choose  # the easy rules, as the rollouts have the others play


def hand_value(state: Any, seat: int) -> float:
    """The hand's points for `seat` against the others' mean (as the medium bot counts them), and a
    game won or lost on it: the game goes to whoever is first alone on top past the target (MN-20),
    or at once to a 21 bid made (MN-19), so a hand that ends the game is worth far more than its
    points: worth bidding to stop a player about to win, or to go out oneself."""
    value = round_value("moon", state, seat)
    if state.over:
        value += GAME_WON if seat in state.info.winners else -GAME_WON
    return value


def solve(state: Any, seat: int, bidder: int, alpha: float, beta: float, rng: random.Random) -> float:
    """The round value `seat` can be sure of from `state` to the end of the hand, by alpha-beta: it
    plays its best, and whoever plays against it its worst for it: both others when it is the
    bidder (the defenders are a team), the bidder when it defends. Its fellow defender is no enemy
    (it wants the bid to fail too), so it plays as the rollouts have the others play."""
    if state.chance or state.over:
        return round_value("moon", state, seat)
    apply = MOON.apply
    to_move = state.to_move
    if to_move == seat:
        best = -math.inf
        for move in state.legal:
            best = max(best, solve(apply(state, move), seat, bidder, alpha, beta, rng))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    if seat != bidder and to_move != bidder:
        legal = state.legal
        move = legal[0] if len(legal) == 1 else PARTNER_POLICY(state, legal, rng)
        return solve(apply(state, move), seat, bidder, alpha, beta, rng)
    worst = math.inf
    for move in state.legal:
        worst = min(worst, solve(apply(state, move), seat, bidder, alpha, beta, rng))
        beta = min(beta, worst)
        if alpha >= beta:
            break
    return worst


def fitting_world(view: Any, evidence: Evidence, world: Any, rng: random.Random) -> Any:
    """A world drawn in proportion to how well its hands fit the others' bids and trump: each draw is
    accepted with its likelihood; after `DRAWS` refusals the best fitting of them is taken."""
    best, best_weight = world, -1.0
    for _ in range(DRAWS):
        weight = evidence.weight(world.hand_masks)
        if rng.random() < weight:
            return world
        if weight > best_weight:
            best, best_weight = world, weight
        world = MOON.determinize(view, rng)
    return best


def world_sampler(view: Any) -> Callable[[random.Random], Any]:
    """Worlds that fit `view`, drawn to fit what the others said (`fitting_world`)."""
    evidence = Evidence(view)
    return lambda rng: fitting_world(view, evidence, MOON.determinize(view, rng), rng)


def tricks_left(view: Any) -> int:
    return TRICKS - len(view.tricks)


def choose(view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float, max_worlds: int) -> Move:
    if len(legal) == 1:
        return legal[0]
    clock = Clock(budget)
    totals = [0.0] * len(legal)
    worlds = 0
    draw_world = world_sampler(view)
    while worlds < max_worlds:
        world = draw_world(rng)
        values = []
        for move in legal:
            # The easy rules on bitmasks: the medium bot's playout moves, at a fraction of the cost.
            end = play_out_round(MOON, MOON.apply(world, move), rng, policy=moon_policy.choose)
            values.append(hand_value(end, view.seat))
            if worlds and clock.expired():
                break  # out of time: a world not judged for every move is left out
        if len(values) < len(legal):
            break
        totals = [total + value for total, value in zip(totals, values, strict=True)]
        worlds += 1
        if not clock.time_for_another():
            break
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    return legal[best]
