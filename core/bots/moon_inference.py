"""What the others' bids and the named trump say about their hands, for the hard Moon bot's worlds.

`determinize` deals the unseen tiles at random, so in most sampled worlds the bidder who named
fives holds no more fives than anyone else, and a player who passed is as strong as one who bid.
Here each world is judged by how well its hands fit what was said, under the easy bot's reading of
a hand (`moon_policy`: estimated tricks per trump): a bid beyond what the hand's estimate supports,
a pass with a hand worth a bid, or a trump that is not the hand's best costs the world likelihood.
The search draws worlds until one is accepted with that likelihood, so the worlds it judges moves
in look like the hands at the table.
"""

from __future__ import annotations

import math
from typing import Any

from core.bots.easy.moon import LIKELY, WIDOW_HOPE, allowed_trumps
from core.bots.moon_policy import FACTS, best_trump, count_tricks
from core.games.moon import BID_AMOUNTS, MOON, PLAYERS
from core.tiles import TILE_BIT

SHARPNESS = 1.0  # likelihood lost per estimated trick a world's hand is off what its player said


class Evidence:
    """What the view shows of the others' hands: their bids, the trump named, the tiles played."""

    __slots__ = ("bidder", "bids", "choices", "played", "trump")

    def __init__(self, view: Any) -> None:
        self.choices = allowed_trumps(view)
        self.played = [0] * PLAYERS
        tricks = [(trick.leader, trick.tiles) for trick in view.tricks]
        if view.trick:
            tricks.append((view.leader, view.trick))
        for leader, tiles in tricks:
            for offset, tile in enumerate(tiles):
                self.played[(leader + offset) % PLAYERS] |= TILE_BIT[tile]
        # (seat, amount, lowest raise open to it) for every word of the others in this deal.
        self.bids: list[tuple[int, int, int]] = []
        highest = 0
        for seat, amount in view.bids:
            raise_to = next((bid for bid in BID_AMOUNTS if bid > highest), MOON)
            if seat != view.seat:
                self.bids.append((seat, amount, raise_to))
            highest = max(highest, amount)
        # The bidder's hand once it laid its discard aside is known in a world (its tiles left and
        # played); before the discard, widow and discard blur it, so its bid is read like the others'.
        self.bidder = view.bidder if view.bidder != view.seat and view.trump is not None else None
        self.trump = view.trump

    def weight(self, hand_masks: tuple[int, ...]) -> float:
        """How likely the world's hands made the others say what they said (1 at best)."""
        off = 0.0
        for seat, amount, raise_to in self.bids:
            held = hand_masks[seat] | self.played[seat]
            if seat == self.bidder:
                _, best = best_trump(held, self.choices)
                sure, likely = count_tricks(held, FACTS[self.trump])
                named = sure + LIKELY * likely
                # MN-11/MN-12: the hand kept after the discard, under the trump named, carries the bid.
                off += best - named + max(0.0, min(amount, 7) - named)
                continue
            _, expected = best_trump(held, self.choices)
            target = expected + WIDOW_HOPE
            if amount:
                off += max(0.0, min(amount, 7) - target)  # bid more than the hand seems worth
            else:
                off += max(0.0, target - raise_to)  # passed with a hand worth the raise
        return math.exp(-SHARPNESS * off)
