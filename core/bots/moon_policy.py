"""The easy Moon bot's rules of thumb on a world's bitmasks, for the hard bot's playouts.

`choose(state, legal, rng)` picks the move `core.bots.easy.moon.choose` picks from the view of the
seat to move (drawing the same random numbers), without building that view or walking tile lists:
the suits, ranks and trick counts it needs are worked out once per trump, as bitmask tables. Most
of a playout's time went into the easy bot's trick counting (for every bid, every discard and
every trump it counts nine trumps' tricks), so the same work buys the search several times the
worlds.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from core.bots.easy.moon import LIKELY, WIDOW_HOPE, allowed_trumps, value
from core.games.moon import MOON, MOON_MASK
from core.games.moon_suits import MEMBERS, MOON_SET, TABLES, TRUMP, TRUMP_CHOICES, led_suit
from core.moves import Bid, Move, Trump, TrumpSuit
from core.tiles import TILE_BIT, per_bit


class TrumpTable(NamedTuple):
    """One trump choice's facts for the easy rules, by tile bit."""

    trumps: tuple[int, ...]  # the trump suit's bits, strongest first
    trump_mask: int
    tops: int  # the non-trumps that top the suit they lead while nothing is played
    suit_order: tuple[tuple[int, ...], ...]  # per suit 0..7: its members' bits, strongest first
    led: dict[int, int]  # the suit each tile leads (MN-14)
    value: dict[int, int]  # how much the tile is worth keeping (`easy.moon.value`)


def _trump_table(trump: TrumpSuit) -> TrumpTable:
    members = MEMBERS[trump]
    trumps = tuple(TILE_BIT[tile] for tile in members[TRUMP])
    tops = 0
    for tile in MOON_SET:
        suit = led_suit(tile, trump)
        if suit != TRUMP and members[suit][0] is tile:
            tops |= TILE_BIT[tile]
    return TrumpTable(
        trumps,
        sum(trumps),
        tops,
        tuple(tuple(TILE_BIT[tile] for tile in members[suit]) for suit in range(TRUMP + 1)),
        TABLES[trump].led,
        {TILE_BIT[tile]: value(tile, trump) for tile in MOON_SET},
    )


FACTS: dict[TrumpSuit, TrumpTable] = {trump: _trump_table(trump) for trump in TRUMP_CHOICES}
TRUMP_MOVES: dict[TrumpSuit, Trump] = {trump: Trump(trump) for trump in TRUMP_CHOICES}


def count_tricks(held: int, facts: TrumpTable) -> tuple[int, int]:
    """`easy.moon.count_tricks` with nothing played yet: (sure, likely) tricks of the hand."""
    sure = 0
    for bit in facts.trumps:
        if not held & bit:
            break
        sure += 1
    mine = (held & facts.trump_mask).bit_count()
    likely = mine - sure
    tops = (held & facts.tops).bit_count()
    if mine < len(facts.trumps):
        likely += tops
    else:
        sure += tops
    return sure, likely


def best_trump(held: int, choices: tuple[TrumpSuit, ...]) -> tuple[TrumpSuit, float]:
    """`easy.moon.best_trump`: the most tricks, then the most trumps, then the first choice."""
    best: tuple[float, int] | None = None
    chosen: TrumpSuit = choices[0]
    for trump in choices:
        facts = FACTS[trump]
        sure, likely = count_tricks(held, facts)
        key = (sure + LIKELY * likely, (held & facts.trump_mask).bit_count())
        if best is None or key > best:
            best, chosen = key, trump
    return chosen, best[0]  # type: ignore[index]


def choose_bid(held: int, choices: tuple[TrumpSuit, ...], legal: tuple[Move, ...]) -> Move:
    trump, expected = best_trump(held, choices)
    bids = [move for move in legal if move.amount]  # type: ignore[attr-defined]
    if count_tricks(held, FACTS[trump])[0] >= 7:
        for move in bids:
            if move.amount == MOON:  # type: ignore[attr-defined]
                return move
    target = expected + WIDOW_HOPE
    fitting = [move for move in bids if move.amount <= target and move.amount != MOON]  # type: ignore[attr-defined]
    if fitting:
        return fitting[-1]  # bids come in rising order
    if len(bids) < len(legal):
        return next(move for move in legal if type(move) is Bid and not move.amount)
    return bids[0]  # MN-10 `force`


def choose_discard(held: int, choices: tuple[TrumpSuit, ...], legal: tuple[Move, ...]) -> Move:
    best: tuple[float, int] | None = None
    chosen = legal[0]
    for move in legal:
        bit = TILE_BIT[move.tile]  # type: ignore[attr-defined]
        trump, expected = best_trump(held ^ bit, choices)
        key = (expected, -FACTS[trump].value[bit])
        if best is None or key > best:
            best, chosen = key, move
    return chosen


def choose_play(state: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    held = state.hand_masks[state.to_move]
    trump = state.trump
    facts = FACTS[trump]
    in_play = 0
    for mask in state.hand_masks:
        in_play |= mask
    for tile in state.stock:
        in_play |= TILE_BIT[tile]
    trick = state.trick
    gone = MOON_MASK & ~in_play  # the tiles played, this trick's included
    if not trick:
        return _lead(held, legal, facts, gone)
    table = TABLES[trump]
    suit = table.led[TILE_BIT[trick[0]]]
    power = table.power[suit]
    to_beat = max(power[TILE_BIT[tile]] for tile in trick)
    cheapest = None
    cheapest_power = 1_000
    for move in legal:
        strength = power[move.bit]  # type: ignore[attr-defined]
        if to_beat < strength < cheapest_power:
            cheapest, cheapest_power = move, strength
    if cheapest is not None:
        if len(trick) == 2:
            return cheapest
        # Safe: no tile still out (not played, not in this hand) could beat it.
        out = (table.follow[suit] | facts.trump_mask) & ~gone & ~held
        if all(strength <= cheapest_power for strength in per_bit(out, power)):
            return cheapest
    worth = facts.value
    keys = [(worth[move.bit], rng.random()) for move in legal]  # type: ignore[attr-defined]
    return legal[keys.index(min(keys))]


def _lead(held: int, legal: tuple[Move, ...], facts: TrumpTable, gone: int) -> Move:
    """`easy.moon.lead`: the top trump while trumps are still out; else a tile topping its suit;
    else the weakest tile (the lead is free, so `legal` is the whole hand)."""
    left = facts.trump_mask & ~gone
    if left:
        top = next(bit for bit in facts.trumps if left & bit)
        if held & top and left & ~held:
            return next(move for move in legal if move.bit == top)  # type: ignore[attr-defined]
    worth = facts.value
    ranked = sorted(legal, key=lambda move: -worth[move.bit])  # type: ignore[attr-defined]
    for move in ranked:
        bit = move.bit  # type: ignore[attr-defined]
        if bit & facts.trump_mask:
            continue
        top = next(other for other in facts.suit_order[facts.led[bit]] if not gone & other)
        if top == bit:
            return move
    return min(legal, key=lambda move: worth[move.bit])  # type: ignore[attr-defined]


def choose(state: Any, legal: tuple[Move, ...], rng: random.Random) -> Move:
    phase = state.phase
    if phase == "play":
        return choose_play(state, legal, rng)
    held = state.hand_masks[state.to_move]
    if phase == "bidding":
        return choose_bid(held, allowed_trumps(state), legal)
    if phase == "discard":
        return choose_discard(held, allowed_trumps(state), legal)
    trump, _ = best_trump(held, allowed_trumps(state))
    move = TRUMP_MOVES[trump]
    return move if move in legal else legal[0]
