"""Easy Moon: bid from a count of sure and likely tricks, discard and name trump to make the most
of the hand, lead trumps while holding the top ones, follow low, and win tricks cheaply.

Every judgement of a tile's suit and strength goes through `core.games.moon_suits`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from core.games.moon_suits import DOUBLES, MEMBERS, TRUMP, TRUMP_CHOICES, led_suit, power, suits
from core.moves import Bid, Move, Play, Trump, TrumpSuit
from core.tiles import Tile

WIDOW_HOPE = 1.0  # the widow and the discard improve a bidder's hand by about a trick (tuned: ~90% of bids made)
LIKELY = 0.5  # a likely trick counts half


def value(tile: Tile, trump: TrumpSuit) -> int:
    """How much a tile is worth keeping: any trump over any other tile, then by rank."""
    return max(100 + rank if suit == TRUMP else rank for suit, rank in suits(tile, trump))


def count_tricks(hand: Iterable[Tile], trump: TrumpSuit, gone: frozenset[Tile] = frozenset()) -> tuple[int, float]:
    """(sure, likely) tricks of `hand` under `trump`, with the tiles in `gone` already played.

    Sure: trumps held in an unbroken run from the top of the trump suit; and, when no trump is
    left outside the hand, every tile that tops its suit. Likely: the other trumps, and the
    tiles that top their suit while some trump is still out.
    """
    held = set(hand)
    trumps = [tile for tile in MEMBERS[trump][TRUMP] if tile not in gone]
    sure = 0
    for tile in trumps:
        if tile not in held:
            break
        sure += 1
    mine = sum(1 for tile in trumps if tile in held)
    likely = float(mine - sure)
    trumps_out = mine < len(trumps)
    for tile in held:
        if suits(tile, trump)[0][0] == TRUMP:
            continue
        top = next(t for t in MEMBERS[trump][led_suit(tile, trump)] if t not in gone)
        if top is tile:
            if trumps_out:
                likely += 1
            else:
                sure += 1
    return sure, likely


def estimate(hand: Iterable[Tile], trump: TrumpSuit) -> float:
    sure, likely = count_tricks(hand, trump)
    return sure + LIKELY * likely


def allowed_trumps(view: Any) -> tuple[TrumpSuit, ...]:
    return tuple(choice for choice in TRUMP_CHOICES if choice != DOUBLES or view.options["doubles_trump"])


def best_trump(hand: tuple[Tile, ...], choices: tuple[TrumpSuit, ...]) -> tuple[TrumpSuit, float]:
    """The trump that makes the most of `hand`; ties go to the one with more trumps."""
    scored = [
        (estimate(hand, trump), sum(1 for t in hand if suits(t, trump)[0][0] == TRUMP), index, trump)
        for index, trump in enumerate(choices)
    ]
    best = max(scored, key=lambda item: (item[0], item[1], -item[2]))
    return best[3], best[0]


def choose_bid(view: Any, legal: tuple[Move, ...]) -> Move:
    choices = allowed_trumps(view)
    trump, expected = best_trump(view.hand, choices)
    sure, _ = count_tricks(view.hand, trump)
    if sure >= 7 and Bid(21) in legal:
        return Bid(21)
    target = expected + WIDOW_HOPE
    bids = [move for move in legal if type(move) is Bid and move.amount]
    fitting = [move for move in bids if move.amount <= target and move.amount != 21]
    if fitting:
        return max(fitting, key=lambda move: move.amount)  # type: ignore[attr-defined]
    if Bid(0) in legal:
        return Bid(0)
    return min(bids, key=lambda move: move.amount)  # type: ignore[attr-defined]  # MN-10 `force`


def choose_discard(view: Any, legal: tuple[Move, ...]) -> Move:
    """Keep the seven tiles with the best trump and trick count; lay aside the least useful tile."""
    choices = allowed_trumps(view)
    best: tuple[float, int, Move] | None = None
    for move in legal:
        tile = move.tile  # type: ignore[attr-defined]
        kept = tuple(t for t in view.hand if t is not tile)
        trump, expected = best_trump(kept, choices)
        key = (expected, -value(tile, trump), move)
        if best is None or key[:2] > best[:2]:
            best = key
    return best[2]  # type: ignore[index]


def choose_play(view: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    trump: TrumpSuit = view.trump
    gone = frozenset(t for trick in view.tricks for t in trick.tiles) | frozenset(view.trick)
    plays: list[Play] = [move for move in legal if type(move) is Play]
    if not view.trick:
        return lead(view.hand, plays, trump, gone)
    suit = led_suit(view.trick[0], trump)
    to_beat = max(power(tile, suit, trump) for tile in view.trick)
    winners = [move for move in plays if power(move.tile, suit, trump) > to_beat]
    last = len(view.trick) == view.players - 1
    if winners:
        cheapest = min(winners, key=lambda move: power(move.tile, suit, trump))
        if last or safe(cheapest.tile, suit, trump, gone, view.hand):
            return cheapest  # win the trick as cheaply as possible
    # Follow low: give up the least useful tile.
    return min(plays, key=lambda move: (value(move.tile, trump), rng.random()))


def lead(hand: tuple[Tile, ...], plays: list[Play], trump: TrumpSuit, gone: frozenset[Tile]) -> Play:
    """Lead the top trump while holding it and trumps are still out; else a tile that tops its
    suit; else the weakest tile."""
    by_tile = {move.tile: move for move in plays}
    trumps_left = [t for t in MEMBERS[trump][TRUMP] if t not in gone]
    if trumps_left and trumps_left[0] in by_tile and any(t not in by_tile for t in trumps_left):
        return by_tile[trumps_left[0]]
    for move in sorted(plays, key=lambda move: -value(move.tile, trump)):
        tile = move.tile
        if suits(tile, trump)[0][0] == TRUMP:
            continue
        top = next(t for t in MEMBERS[trump][led_suit(tile, trump)] if t not in gone)
        if top is tile:
            return move
    return min(plays, key=lambda move: value(move.tile, trump))


def safe(tile: Tile, suit: int, trump: TrumpSuit, gone: frozenset[Tile], hand: tuple[Tile, ...]) -> bool:
    """Whether no tile still out could beat `tile` in a trick led in `suit` (a trump might, if the
    next player is void: the easy bot does not try to guess)."""
    strength = power(tile, suit, trump)
    for other_suit in (suit, TRUMP):
        for other in MEMBERS[trump][other_suit]:
            if other not in gone and other not in hand and power(other, suit, trump) > strength:
                return False
    return True


def choose(view: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    phase = view.phase
    if phase == "bidding":
        return choose_bid(view, legal)
    if phase == "discard":
        return choose_discard(view, legal)
    if phase == "trump":
        trump, _ = best_trump(view.hand, allowed_trumps(view))
        move = Trump(trump)
        return move if move in legal else legal[0]
    return choose_play(view, legal, rng)
