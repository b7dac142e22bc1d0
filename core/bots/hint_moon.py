"""The hint's reasons for Moon: the easy bot's move, told by the count behind it."""

from __future__ import annotations

import random
from typing import Any

from core.bots.easy.moon import allowed_trumps, best_trump, choose, count_tricks, estimate
from core.games.moon_suits import MEMBERS, NO_TRUMP, TRUMP, is_trump, led_suit, power, trump_name
from core.moves import Bid, Discard, Move, Play, Trump


def explain(view: Any, legal: tuple[Move, ...]) -> tuple[Move, str]:
    move = choose(view, legal, random.Random(0))
    kind = type(move)
    if kind is Bid:
        return move, _bid(view, legal, move)  # type: ignore[arg-type]
    if kind is Discard:
        tile = move.tile  # type: ignore[attr-defined]
        kept = tuple(t for t in view.hand if t is not tile)
        trump, expected = best_trump(kept, allowed_trumps(view))
        return move, (
            f"Lay aside the {tile}: without it, {trump_name(trump)} as trump promise about {expected:g} tricks;"
            " it is the tile that helps least (MN-11)."
        )
    if kind is Trump:
        suit = move.suit  # type: ignore[attr-defined]
        if suit == NO_TRUMP:
            return move, (
                f"Choose no trump: every tile keeps its suits, and your hand is worth about"
                f" {estimate(view.hand, suit):g} tricks that way, more than with any trump (MN-12)."
            )
        held = sum(1 for tile in view.hand if is_trump(tile, suit))
        sure, _ = count_tricks(view.hand, suit)
        return move, (
            f"Name {trump_name(suit)}: you hold {held} of them, about {estimate(view.hand, suit):g} tricks"
            f" with {sure} sure (MN-12)."
        )
    return move, _play(view, legal, move)  # type: ignore[arg-type]


def _bid(view: Any, legal: tuple[Move, ...], move: Bid) -> str:
    trump, expected = best_trump(view.hand, allowed_trumps(view))
    count = f"with {trump_name(trump)} as trump your hand is worth about {expected:g} tricks"
    if move.amount == 0:
        return f"Pass: {count}, and the lowest bid you may make promises more (MN-9)."
    if move.amount == 21:
        return f"Bid 21: {count}, every one of them sure."
    if Bid(0) not in legal:
        return f"Bid {move.amount}: the others passed, so you must bid (MN-10); {count}."
    return f"Bid {move.amount}: {count}, and the widow usually adds one."


def _play(view: Any, legal: tuple[Move, ...], move: Play) -> str:
    tile = move.tile
    trump = view.trump
    if len(legal) == 1:
        return f"Play the {tile}: it is the only tile you may play (MN-15)."
    if not view.trick:
        gone = {t for trick in view.tricks for t in trick.tiles}
        top = next((t for t in MEMBERS[trump][led_suit(tile, trump)] if t not in gone), None)
        if top is tile and is_trump(tile, trump):
            return f"Lead the {tile}: it is the top trump left, and drawing trumps makes your other tiles safe."
        if top is tile:
            return f"Lead the {tile}: no tile left can beat it in its suit (MN-16), unless someone trumps it."
        return f"Lead the {tile}: none of your tiles is sure to win, so lead the one you need least."
    suit = led_suit(view.trick[0], trump)
    to_beat = max(power(t, suit, trump) for t in view.trick)
    if power(tile, suit, trump) > to_beat:
        how = "trumps it" if is_trump(tile, trump) and suit != TRUMP else "wins it"
        return f"Play the {tile}: it {how} as cheaply as you can."
    return f"Play the {tile}: you cannot win this trick safely, so give up your least useful tile."
