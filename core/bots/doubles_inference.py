"""What the others' draws, passes and plays say about their hands, for the hard bot's Doubles worlds.

`Doubles.determinize` keeps a player's tiles off the ends it could not match at its latest draw or
pass (`known_misses`), and forgets every earlier one: after a draw the player may hold a tile that
fitted then. But a draw adds one tile, not any number of them. Here every draw and pass of a player
is kept as a fact: at that moment it held none of the tiles fitting the open ends (DB-8, locks
included, DB-7). A tile of that set it holds now must have come to it later, by a draw it could not
play at once (a playable draw is played at once, DB-8); so it holds at most as many of them as it
has made such draws since, fewer the ones of them it has played since. The round's opening says as
much of the doubles: its first play is the highest double dealt (DB-3), so nobody was dealt a
higher one.

A fact with no such draws after it bans its tiles outright, as `known_misses` does; the others are
checked on each sampled world, and worlds are drawn again until one fits them all (or the one that
breaks them least is kept), so the worlds the search judges look like the hands at the table.
"""

from __future__ import annotations

import random
from typing import Any

from core.games.doubles import GAME, HIGHEST_FIRST, DoublesState, DoublesView, replay_misses
from core.moves import Draw, Play
from core.tiles import mask_of

DRAWS = 30  # worlds drawn at most for one that fits every fact (a draw costs far less than a playout)


class Evidence:
    """The facts a view's record gives about each other player's hand, read once per decision."""

    __slots__ = ("forbidden", "limits")

    def __init__(self, view: DoublesView) -> None:
        # Per other seat, its facts as [tiles it did not hold, how many of them it may hold now].
        facts: dict[int, list[list[int]]] = {seat: [] for seat in range(view.players) if seat != view.seat}
        history = view.history
        for index, (seat, move, missed) in enumerate(replay_misses(history)):
            if type(move) is Play:
                if index == 0:
                    # DB-3: the round opens with the highest double dealt: nobody was dealt a higher one.
                    higher = mask_of([double for double in HIGHEST_FIRST if double > move.tile])
                    for seat_facts in facts.values():
                        seat_facts.append([higher, 0])
                if seat in facts and not _follows_own_draw(history, index, seat):
                    # A tile it did not hold at an earlier fact came by a draw it could not play then.
                    for fact in facts[seat]:
                        if fact[0] & move.bit:
                            fact[1] -= 1
            elif seat in facts and missed:
                # The tile just drawn, when it must be played now (DB-8), fits and is in the hand.
                pending = type(move) is Draw and index == len(history) - 1 and view.must_play_drawn
                if type(move) is Draw and not _played_at_once(history, index, seat):
                    # The tile drawn stays in the hand: one more that any earlier fact must allow.
                    for fact in facts[seat]:
                        fact[1] += 1
                facts[seat].append([missed, 1 if pending else 0])
        self.forbidden: dict[int, int] = {}
        self.limits: list[tuple[int, int, int]] = []  # (seat, tiles, how many of them it may hold)
        for seat, seat_facts in facts.items():
            banned = 0
            for tiles, allowed in seat_facts:
                if allowed <= 0:
                    banned |= tiles
                else:
                    self.limits.append((seat, tiles, allowed))
            self.forbidden[seat] = banned

    def excess(self, hand_masks: tuple[int, ...]) -> int:
        """How many tiles the world's hands hold beyond what the facts allow (0: it fits them all)."""
        over = 0
        for seat, tiles, allowed in self.limits:
            extra = (hand_masks[seat] & tiles).bit_count() - allowed
            if extra > 0:
                over += extra
        return over


def _follows_own_draw(history: tuple[tuple[int, Any], ...], index: int, seat: int) -> bool:
    """The play at `index` is of a tile `seat` has just drawn (DB-8: it had to be played at once)."""
    return index > 0 and history[index - 1][0] == seat and type(history[index - 1][1]) is Draw


def _played_at_once(history: tuple[tuple[int, Any], ...], index: int, seat: int) -> bool:
    """The draw at `index` gave `seat` a tile it played at once (its next event is a play)."""
    return index + 1 < len(history) and history[index + 1][0] == seat and type(history[index + 1][1]) is Play


def sample(view: DoublesView, rng: random.Random, evidence: Evidence) -> DoublesState:
    """A world for `view` that fits the evidence: drawn again until it does, at most DRAWS times."""
    best: tuple[int, DoublesState] | None = None
    for _ in range(DRAWS):
        try:
            world = GAME.determinize(view, rng, evidence.forbidden)
        except ValueError:
            # No placement fits the outright bans (only if a fact were misread): fall back to
            # the facts `determinize` reads itself.
            return GAME.determinize(view, rng)
        over = evidence.excess(world.hand_masks)
        if over == 0:
            return world
        if best is None or over < best[0]:
            best = (over, world)
    return best[1]  # type: ignore[index]
