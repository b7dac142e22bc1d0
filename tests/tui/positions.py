"""Matches built for the interface tests: stacked Moon hands, and a Chicken Foot match played by
easy bots into its last round."""

from __future__ import annotations

import random
from collections.abc import Callable

from core import Match
from core.bots import get_bot
from core.games.moon_suits import DOUBLES, MOON_SET
from core.moves import Bid, Deal, Discard, Trump
from core.seats import Seat
from tests.helpers import stacked_hands

DOUBLE_TILES = "0-0 1-1 2-2 3-3 4-4 5-5 6-6"
MOON_SEATS = (Seat("You"), Seat("easy 1", "bot", "easy"), Seat("easy 2", "bot", "easy"))


def moon_hand(match: Match, bidder: int, bid: int) -> None:
    """One Moon hand: `bidder` holds the seven doubles, bids `bid` (the others pass), lays the
    widow aside, names doubles trump and so takes all seven tricks (MN-6, MN-16)."""
    state = match.state
    first = 0 if state.round == 0 else match.game.deal(state, random.Random(0)).first  # MN-8
    hands, stock = stacked_hands(MOON_SET, 3, 7, {bidder: DOUBLE_TILES})
    match.apply(Deal(hands, stock, first))
    while match.state.phase == "bidding":  # a 21 ends the bidding at once (MN-9)
        match.apply(Bid(bid if match.state.to_move == bidder else 0))
    match.apply(Discard(match.state.widow))
    match.apply(Trump(DOUBLES))
    while not match.state.chance and not match.state.over:
        match.apply(match.legal_moves()[0])


def moon_made_from_behind(hands_before: int = 4, target: int = 40) -> Match:
    """Moon to `target`: easy 1 makes a bid of 7 in each of the first hands (28 after four), then
    easy 2 bids 21 and makes it, which wins at once although easy 1 has the higher total (MN-19)."""
    match = Match("moon", 3, {"target": target}, MOON_SEATS, seed=0)
    for _ in range(hands_before):
        moon_hand(match, 1, 7)
    moon_hand(match, 2, 21)
    assert match.state.over and match.state.winners == (2,)
    return match


def moon_many_hands(hands: int = 15) -> Match:
    """Moon to 100 over many hands, the bids of 4 going round the table, then a 21 made by easy 2."""
    match = Match("moon", 3, {"target": 100}, MOON_SEATS, seed=0)
    for hand in range(hands):
        moon_hand(match, hand % 3, 4)
    moon_hand(match, 2, 21)
    assert match.state.over and len(match.state.records) == hands + 1
    return match


def played_by_easy_bots(match: Match, seed: int, until: Callable[[Match], bool] | None = None) -> Match:
    """Every seat's moves (human seats' too) chosen by the easy bot, until `until` holds or the
    match is over."""
    rng = random.Random(seed)
    bot = get_bot("easy")
    while not match.state.over and not (until is not None and until(match)):
        state = match.state
        if state.chance:
            match.deal()
        else:
            match.apply(bot.choose(match.view(state.to_move), match.legal_moves(), rng))
    return match


def chicken_foot_last_round(players: int = 4, seed: int = 3) -> Match:
    """A ten-round Chicken Foot match played by easy bots (seat 1 too) until round 10 waits for
    seat 1, who is human: the scorepad then holds nine rounds and the round in play."""
    seats = (Seat("You"),) + tuple(Seat(f"Seat {seat}", "bot", "easy") for seat in range(2, players + 1))
    match = Match("chicken-foot", players, {}, seats, seed=seed)
    return played_by_easy_bots(
        match, seed, lambda m: m.state.round == 10 and not m.state.chance and m.state.to_move == 0
    )
