"""A suggested move and the reason for it, in words, for a learner who asks for a hint.

Built on the easy bot's rules of thumb: the hint is the move the easy bot would make, explained
by the rule of thumb that chose it. Stronger bots may later suggest better moves through the
same `hint(view, legal) -> (move, reason)`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from core.bots import hint_doubles, hint_moon
from core.bots.easy import EasyBot
from core.bots.easy.chicken_foot import score_play
from core.moves import Draw, Move, Pass, Play
from core.tiles import Tile

Explainer = Callable[[Any, tuple[Move, ...]], tuple[Move, str]]

_EASY = EasyBot()


def _line_words(view: Any, target: int) -> str:
    from core.registry import get_game  # the registry imports the games; the bots stay below them

    game = get_game(view.game)
    line_name = getattr(game, "line_name", None)
    return line_name(view.board, target) if line_name is not None else f"end {target}"


def _chicken_foot(view: Any, legal: tuple[Move, ...]) -> tuple[Move, str]:
    plays = [move for move in legal if type(move) is Play]
    if not plays:
        move = legal[0]
        if type(move) is Draw:
            return move, "No tile in your hand fits an open end, so draw one from the chicken yard (CF-9)."
        return move, "Nothing fits and the last tiles of the yard are never drawn, so pass (CF-13)."
    lines = view.board.lines
    best = max(plays, key=lambda move: (score_play(view.hand, move, lines[move.target].open), -plays.index(move)))
    tile: Tile = best.tile  # type: ignore[attr-defined]
    where = _line_words(view, best.target)  # type: ignore[attr-defined]
    if len(plays) == 1:
        return best, f"Play {tile} on {where}: it is your only legal play."
    if view.drawn is not None:
        return best, f"Play {tile} on {where}: you drew it and it fits, so it must be played (CF-9)."
    rest = [t for t in view.hand if t is not tile]
    numbers = len({n for t in rest for n in t})
    if tile.is_double:
        reason = "a double is hard to place late and costly to hold, so play it while you can"
    else:
        reason = f"it sheds {tile.pips} pips, the heaviest you can safely play"
    return best, f"Play {tile} on {where}: {reason}; you keep {numbers} different numbers to match later."


_EXPLAINERS: dict[str, Explainer] = {
    "chicken-foot": _chicken_foot,
    "doubles": hint_doubles.explain,
    "moon": hint_moon.explain,
}


def hint(view: Any, legal: tuple[Move, ...]) -> tuple[Move, str]:
    """A legal move for the seat of `view` and the reason for it in one or two sentences."""
    if not legal:
        raise ValueError("there is nothing to do now, so there is no hint")
    explain = _EXPLAINERS.get(view.game)
    if explain is not None:
        return explain(view, legal)
    move = _EASY.choose(view, legal, random.Random(0))
    if type(move) is Pass:
        return move, "There is nothing you can do but pass."
    return move, "This is what the easy computer player would do here."
