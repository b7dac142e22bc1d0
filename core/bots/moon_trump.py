"""The trump a Moon hand is best played with, as the hints suggest it: one answer for one hand.

The bidding hint says which trump a hand would be played with, and the trump hint, after the
widow, suggests one: they must agree whenever the hand is the same (the widow laid aside again).
So the choice is a function of the seven tiles alone, not of a sampled view: each allowed trump
is tried in the same deals of the other fifteen tiles (the others' hands and the widow, shuffled
with a seed drawn from the hand itself), the hand's holder bidding and leading, every seat played
out by the easy player's rules, and the trump that takes the most tricks on average is the one. A
trump of which the hand holds no tile is not tried: every other player's trumps would beat the
hand's winners, which no trump at all avoids.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.bots.rollout import play_out_round
from core.games.moon import GAME as MOON
from core.games.moon import HAND_SIZE, MOON_SET
from core.games.moon_suits import DOUBLES, NO_TRUMP, TRUMP_CHOICES, is_trump
from core.moves import Bid, Deal, Discard, Trump, TrumpSuit
from core.tiles import Tile

TRUMP_DEALS = 20  # deals of the unseen tiles per hand: the choice takes some 0.1 s (bench/hint.py)
SEAT = 0  # the hand's holder, who bids and leads; the others are seats 1 and 2


@dataclass(frozen=True)
class TrumpChoice:
    """Each trump tried's mean tricks for the hand over `deals` deals, best first (a trump the hand
    holds no tile of is not tried)."""

    tricks: tuple[tuple[TrumpSuit, float], ...]
    deals: int

    @property
    def best(self) -> TrumpSuit:
        return self.tricks[0][0]

    def of(self, trump: TrumpSuit) -> float | None:
        """The mean tricks with `trump`; None if it was not tried."""
        return dict(self.tricks).get(trump)


def allowed(doubles_trump: bool) -> tuple[TrumpSuit, ...]:
    """MN-12: the numbers, doubles (if the table allows them) and no trump."""
    return tuple(choice for choice in TRUMP_CHOICES if choice != DOUBLES or doubles_trump)


def trump_choice(hand: tuple[Tile, ...], doubles_trump: bool = True, deals: int = TRUMP_DEALS) -> TrumpChoice:
    """How many tricks `hand` (seven tiles) takes on average with each allowed trump; the same
    hand always gets the same answer."""
    hand = tuple(sorted(hand))
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a Moon hand is {HAND_SIZE} tiles, not {len(hand)}")
    choices = tuple(
        trump for trump in allowed(doubles_trump) if trump == NO_TRUMP or any(is_trump(tile, trump) for tile in hand)
    )
    rng = random.Random("trump:" + " ".join(map(str, hand)))
    unseen = [tile for tile in MOON_SET if tile not in hand]
    totals = dict.fromkeys(choices, 0.0)
    options = {"doubles_trump": doubles_trump}
    for _ in range(deals):
        rng.shuffle(unseen)
        widow = unseen[-1]
        state = MOON.new_game(3, options, 0)
        state = MOON.apply(state, Deal((hand, tuple(unseen[:7]), tuple(unseen[7:14])), (widow,), SEAT))
        for move in (Bid(4), Bid(0), Bid(0), Discard(widow)):  # the holder bids, takes the widow, lays it aside
            state = MOON.apply(state, move)
        playout_seed = rng.getrandbits(64)
        for trump in choices:
            end = play_out_round(MOON, MOON.apply(state, Trump(trump)), random.Random(playout_seed))
            totals[trump] += end.records[-1].tricks[SEAT]
    ranked = sorted(choices, key=lambda trump: (-totals[trump], choices.index(trump)))
    return TrumpChoice(tuple((trump, totals[trump] / deals) for trump in ranked), deals)
