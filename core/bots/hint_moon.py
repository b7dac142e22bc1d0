"""The hint's reasons for Moon, from tricks, trumps and suits (MN-5, MN-14..MN-16), never pips.

`explain` gives the easy player's move with its rule of thumb, told by the count behind it;
`reason` gives a reason about the hand for any move, which the hint uses when the move it
suggests is not the easy player's. A tile that carries the trump number is a trump and nothing
else (MN-5): it never counts as a member of its other number's suit here.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from core.bots.easy.moon import LIKELY, choose, count_tricks, safe, value
from core.bots.moon_trump import TrumpChoice, trump_choice
from core.games.moon_suits import MEMBERS, NO_TRUMP, TRUMP, follows, is_trump, led_suit, power, suits, trump_name
from core.moves import Bid, Discard, Move, Play, Trump, TrumpSuit
from core.tiles import Tile
from core.words import plural

MOON = 21  # MN-9: the bid of all seven tricks
TRICKS = 7


def explain(view: Any, legal: tuple[Move, ...]) -> tuple[Move, str]:
    """The easy player's move and its reason, the rule of thumb included."""
    move = choose(view, legal, random.Random(0))
    return move, reason(view, legal, move, rule_of_thumb=True)


def reason(view: Any, legal: tuple[Move, ...], move: Move, rule_of_thumb: bool = False) -> str:
    """Why `move` suits the hand, as a sentence that starts with the move; `rule_of_thumb`: the move
    is the easy player's choice, so the rule it follows may be given as the reason."""
    kind = type(move)
    if kind is Bid:
        return _bid(view, legal, move, rule_of_thumb)  # type: ignore[arg-type]
    if kind is Discard:
        return _discard(view, move, rule_of_thumb)  # type: ignore[arg-type]
    if kind is Trump:
        return _trump(view, move, rule_of_thumb)  # type: ignore[arg-type]
    return _play(view, legal, move, rule_of_thumb)  # type: ignore[arg-type]


def tricks_text(count: float) -> str:
    """ "1 trick", "2.5 tricks"."""
    return plural(int(count), "trick") if count == int(count) else f"{count:g} tricks"


def worth(hand: tuple[Tile, ...], trump: TrumpSuit) -> str:
    """ "with 5s as trump your hand is worth about 4.5 tricks, 3 of them sure"."""
    sure, likely = count_tricks(hand, trump)
    expected = sure + LIKELY * likely
    return f"with {trump_name(trump)} as trump your hand is worth about {tricks_text(expected)}, {sure} of them sure"


def trump_words(trump: TrumpSuit) -> str:
    """ "6s as trump", "doubles as trump", "no trump"."""
    return "no trump" if trump == NO_TRUMP else f"{trump_name(trump)} as trump"


def played_with(choice: TrumpChoice, whose: str = "your hand takes") -> str:
    """ "played with 6s as trump, your hand takes about 5.3 tricks": what the hand does with the
    trump the trump hint would suggest for it."""
    return f"played with {trump_words(choice.best)}, {whose} about {choice.of(choice.best):.1f} tricks"


# -- bids, the widow and trump ------------------------------------------------------------------------
def _bid(view: Any, legal: tuple[Move, ...], move: Bid, rule_of_thumb: bool) -> str:
    """The bid's reason names the trump the trump hint will suggest for this hand (the widow laid
    aside again): `core.bots.moon_trump`, a function of the seven tiles alone."""
    hand = view.hand
    choice = trump_choice(hand, bool(view.options["doubles_trump"]))
    trump = choice.best
    count = played_with(choice)
    bids = sorted(m.amount for m in legal if type(m) is Bid and m.amount)  # type: ignore[attr-defined]
    if move.amount == 0:
        lowest = bids[0] if bids else None
        if lowest is None:
            return f"Pass: {count}."
        return f"Pass: {count}, and the lowest bid you may make, {lowest}, promises more (MN-9)."
    if move.amount == MOON:
        sure, _ = count_tricks(hand, trump)
        top = _top_trumps(hand, trump) if trump != NO_TRUMP else 0
        held = f"you hold the top {plural(top, 'trump')}" if top else "you hold no top trump"
        if sure >= TRICKS:
            return f"Bid 21: with {trump_words(trump)} {held}, and all seven tricks are sure (MN-19)."
        return (
            f"Bid 21: with {trump_words(trump)} {held} and {plural(sure, 'sure trick')} of the seven;"
            f" {TRICKS - sure} more must come from the widow and the play (MN-19)."
        )
    if Bid(0) not in legal:
        return f"Bid {move.amount}: the others passed, so you must bid (MN-10); {count}."
    return f"Bid {move.amount}: {count}, and the widow may add one."


def _top_trumps(hand: tuple[Tile, ...], trump: TrumpSuit) -> int:
    """How many of the highest trumps the hand holds in an unbroken run."""
    held = set(hand)
    run = 0
    for tile in MEMBERS[trump][TRUMP]:
        if tile not in held:
            break
        run += 1
    return run


def _discard(view: Any, move: Discard, rule_of_thumb: bool) -> str:
    """The discard's reason: what the seven tiles kept do with the trump the trump hint will suggest
    for them (`core.bots.moon_trump`)."""
    tile = move.tile
    kept = tuple(t for t in view.hand if t is not tile)
    choice = trump_choice(kept, bool(view.options["doubles_trump"]))
    return f"Lay aside the {tile}: {played_with(choice, 'the seven tiles you keep take')} (MN-11)."


def _trump(view: Any, move: Trump, rule_of_thumb: bool) -> str:
    """A trump's reason from the tricks the hand takes with it (`core.bots.moon_trump`), and, when the
    widow changed which trump does best, a word on that."""
    suit = move.suit
    choice = trump_choice(view.hand, bool(view.options["doubles_trump"]))
    tricks = choice.of(suit)
    if tricks is None:  # the hand holds none: every trump played would be the others'
        return (
            f"Name {trump_name(suit)} as trump: you hold none of them, so every trump played would be"
            f" the others' (MN-5); {trump_words(choice.best)} took the most, {choice.of(choice.best):.1f} (MN-12)."
        )
    if suit == NO_TRUMP:
        what = "Choose no trump: every tile keeps its suits (MN-7), and"
    else:
        held = sum(1 for tile in view.hand if is_trump(tile, suit))
        what = f"Name {trump_name(suit)} as trump: you hold {held} of them (MN-5), and"
    took = f"{what} your hand took {tricks:.1f} tricks on average with it in {choice.deals} sampled deals"
    if suit == choice.best:
        runner = choice.tricks[1] if len(choice.tricks) > 1 else None
        more = f", more than with {trump_words(runner[0])} ({runner[1]:.1f})" if runner is not None else ""
        return f"{took}{more} (MN-12).{_widow_changed(view, choice)}"
    return f"{took}; {trump_words(choice.best)} took the most, {choice.of(choice.best):.1f} (MN-12)."


def _widow_changed(view: Any, choice: TrumpChoice) -> str:
    """ " The widow changed it: before you took the 1-2 and laid aside the 3-4, 6s did best." when
    the hand the bid was made with would be played with another trump; "" otherwise."""
    widow, discard = getattr(view, "widow", None), getattr(view, "discard", None)
    if widow is None or discard is None or widow == discard:
        return ""
    before = tuple(tile for tile in view.hand if tile != widow) + (discard,)
    earlier = trump_choice(before, bool(view.options["doubles_trump"])).best
    if earlier == choice.best:
        return ""
    return (
        f" The widow changed it: before you took the {widow} and laid aside the {discard},"
        f" {trump_words(earlier)} did best."
    )


def trump_hint(view: Any, legal: tuple[Move, ...]) -> tuple[Move, str]:
    """The trump hint: the trump the hand takes the most tricks with, the one the bidding hint named
    unless the widow changed it (and then the reason says so)."""
    choice = trump_choice(view.hand, bool(view.options["doubles_trump"]))
    move = Trump(choice.best)
    if move not in legal:  # the table does not allow it: the best of those it allows
        move = next(Trump(trump) for trump, _ in choice.tricks if Trump(trump) in legal)
    return move, _trump(view, move, rule_of_thumb=False)  # type: ignore[arg-type]


# -- playing a tile -----------------------------------------------------------------------------------
def suit_counts(hand: tuple[Tile, ...], trump: TrumpSuit) -> Counter[int]:
    """How many tiles of the hand belong to each suit under `trump` (TRUMP for the trumps). A trump
    is a member of the trump suit only (MN-5), a double of its own number only (MN-3)."""
    return Counter(suit for tile in hand for suit, _ in suits(tile, trump))


def suit_words(suit: int) -> str:
    return "trumps" if suit == TRUMP else f"{suit}s"


def _play(view: Any, legal: tuple[Move, ...], move: Play, rule_of_thumb: bool) -> str:
    tile = move.tile
    trump: TrumpSuit = view.trump
    plays = [m.tile for m in legal if type(m) is Play]  # type: ignore[attr-defined]
    if len(plays) == 1:
        return f"Play the {tile}: it is the only tile you may play (MN-15)."
    gone = frozenset(t for trick in view.tricks for t in trick.tiles) | frozenset(view.trick)
    if not view.trick:
        return _lead(view, tile, trump, gone, rule_of_thumb)
    suit = led_suit(view.trick[0], trump)
    to_beat = max(power(t, suit, trump) for t in view.trick)
    strength = power(tile, suit, trump)
    if strength > to_beat:
        how = "trumps the trick" if is_trump(tile, trump) and suit != TRUMP else "takes the trick"
        last = len(view.trick) == view.players - 1
        cheapest = strength == min(power(t, suit, trump) for t in plays if power(t, suit, trump) > to_beat)
        if rule_of_thumb and cheapest:
            return f"Play the {tile}: it {how} as cheaply as you can."
        if last:
            return f"Play the {tile}: it {how}, and you play last to it (MN-16)."
        if safe(tile, suit, trump, gone, view.hand):
            return f"Play the {tile}: it {how}, and no tile still out can beat it (MN-16)."
        return f"Play the {tile}: it {how} for now; the next player may still beat it (MN-16)."
    can_win = any(power(t, suit, trump) > to_beat for t in plays)
    if not follows(tile, suit, trump):  # MN-15: only a player with none of the suit may do this
        why = f"you hold no {suit_words(suit)}, so any tile may go (MN-15)"
        why += ", and none of yours can win the trick" if not can_win else ", and this one gives the trick up"
    else:
        why = "you cannot win this trick" if not can_win else "it gives this trick up"
    if rule_of_thumb or value(tile, trump) == min(value(t, trump) for t in plays):
        return f"Play the {tile}: {why}, so give up your least useful tile."
    return f"Play the {tile}: {why}; {_keeps(view.hand, plays, tile, trump)}."


def _lead(view: Any, tile: Tile, trump: TrumpSuit, gone: frozenset[Tile], rule_of_thumb: bool) -> str:
    suit = led_suit(tile, trump)
    top = next((t for t in MEMBERS[trump][suit] if t not in gone), None)
    if top is tile and suit == TRUMP:
        return f"Lead the {tile}: it is the top trump left, and drawing trumps makes your other tiles safe."
    if top is tile:
        return f"Lead the {tile}: no tile left can beat it in its suit (MN-16), unless someone trumps it."
    if rule_of_thumb:
        return f"Lead the {tile}: none of your tiles is sure to win, so lead the one you need least."
    strength = power(tile, suit, trump)
    out = sum(
        1 for t in MEMBERS[trump][suit] if t not in gone and t not in view.hand and power(t, suit, trump) > strength
    )
    one = "trump" if suit == TRUMP else str(suit)
    if out == 0:  # the higher ones are in this hand
        if suit == TRUMP:
            return f"Lead the {tile}: no higher trump is left in the others' hands (MN-16)."
        return f"Lead the {tile}: no {one} still out beats it (MN-16), unless someone trumps it."
    calls = "trumps" if suit == TRUMP else f"{suit}s (MN-14)"
    held = suit_counts(tuple(t for t in view.hand if t is not tile), trump)[suit]
    after = f"you hold {held} more of them" if held else f"it is your last of the {suit_words(suit)}"
    higher = plural(out, f"higher {one}")
    return f"Lead the {tile}: it calls for {calls}, and {higher} {'is' if out == 1 else 'are'} still out; {after}."


def _keeps(hand: tuple[Tile, ...], plays: list[Tile], tile: Tile, trump: TrumpSuit) -> str:
    """What playing `tile` rather than another keeps: the strongest tile it saves, or a suit."""
    others = [t for t in plays if t is not tile]
    strongest = max(others, key=lambda t: value(t, trump))
    if value(strongest, trump) > value(tile, trump):
        return f"it keeps the stronger {strongest} for later"
    rest = tuple(t for t in hand if t is not tile)
    held = suit_counts(rest, trump)
    suit, count = max(held.items(), key=lambda item: (item[1], item[0]))
    return f"it keeps your {suit_words(suit)}: you hold {count} of them"
