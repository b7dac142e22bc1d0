"""The hint's reasons for Doubles: the easy bot's move, told by the rule of thumb behind it."""

from __future__ import annotations

import random
from typing import Any

from core.bots.easy.doubles import choose
from core.moves import Draw, Move, Play
from core.places import place_of
from core.tiles import Tile
from core.words import plural


def explain(view: Any, legal: tuple[Move, ...]) -> tuple[Move, str]:
    move = choose(view, legal, random.Random(0))
    if type(move) is Draw:
        return move, "No tile in your hand fits an open end, so draw one (DB-8)."
    if type(move) is not Play:
        return move, "Nothing fits and the last two tiles of the boneyard are never drawn, so pass (DB-9)."
    tile: Tile = move.tile
    if move.target is None:
        return move, f"Open the round with the {tile}: the highest double always starts it (DB-3)."
    showing: int = view.board.lines[move.target].open
    far = tile.other(showing)
    where = f"on {place_of(view.game, view.board, move.target)}"
    plays = sum(1 for other in legal if type(other) is Play)
    if view.drawn is not None:
        return move, f"Play the {tile} {where}: you drew it and it fits, so it must be played (DB-8)."
    rest = [t for t in view.hand if t is not tile]
    if tile.is_double:
        carrying = sum(1 for t in rest if showing in t)
        if carrying:
            return move, (
                f"Play the {tile} {where}: it unlocks {showing}s for the whole table (DB-6), and you hold"
                f" {carrying} more tile{'s' if carrying > 1 else ''} carrying {showing}."
            )
        return move, f"Play the {tile} {where}: it is your only play, though it unlocks {showing}s for everyone."
    if plays == 1:
        return move, f"Play the {tile} {where}: it is your only legal play."
    if view.unlocked >> far & 1:
        follow = any(far in t for t in rest)
        tail = f" and leaves an unlocked {far} you can play on again" if follow else ""
        return move, f"Play the {tile} {where}: it sheds {plural(tile.pips, 'pip')}{tail}."
    if any(t.is_double and far in t for t in rest):
        return move, (
            f"Play the {tile} {where}: it leaves a locked {far} showing, and you hold the {far}-{far}"
            " that alone can open it (DB-7)."
        )
    return move, f"Play the {tile} {where}: it sheds {plural(tile.pips, 'pip')}, the most you can play here."
