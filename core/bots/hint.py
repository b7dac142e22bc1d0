"""A suggested move and the reason for it, in words, for a learner who asks for a hint.

The move is the medium bot's: every legal move is tried in the same sampled deals (worlds that
agree with everything the seat has seen), each played out to the end of the round, and the move
with the best mean result is suggested. The reason says what the move does in a player's terms
(the easy bot's rule of thumb when that is what the move follows, "keeps your 5s: you hold three
of them" and the like otherwise) and how much better it did than the next best move.

The number of worlds is fixed rather than timed, so the same position always gets the same hint;
`HINT_BUDGET` only caps a very slow machine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from core.bots import hint_doubles, hint_moon
from core.bots.easy.chicken_foot import score_play
from core.bots.medium import MediumBot
from core.moves import Bid, Discard, Draw, Move, Pass, Play, Trump
from core.places import place_of
from core.tiles import Tile
from core.words import article, count_word, plural

HINT_WORLDS = 16  # sampled deals per hint: enough to rank the moves; 0.1 s typical, 1 s at worst (measured)
HINT_BUDGET = 3.0  # seconds; reached only on a machine far slower than the one this was tuned on
EVEN = 0.05  # points a round (a hand in Moon): a smaller lead than this is no lead

Forced = Callable[[Any, Move], str | None]


def move_words(view: Any, move: Move) -> str:
    """The move as an instruction: "Play 8-9 on train 1", "Draw", "Bid 5", "Name 3s as trump"."""
    kind = type(move)
    if kind is Play:
        if move.target is None or getattr(view, "board", None) is None:  # type: ignore[attr-defined]
            return f"Play {move.tile}"  # type: ignore[attr-defined]
        return f"Play {move.tile} on {place_of(view.game, view.board, move.target)}"  # type: ignore[attr-defined]
    if kind is Draw:
        return "Draw"
    if kind is Pass:
        return "Pass"
    if kind is Bid:
        return f"Bid {move.amount}" if move.amount else "Pass the bidding"  # type: ignore[attr-defined]
    if kind is Discard:
        return f"Lay aside {move.tile}"  # type: ignore[attr-defined]
    if kind is Trump:
        suit = move.suit  # type: ignore[attr-defined]
        if suit == "none":
            return "Play with no trump"
        return "Name doubles as trump" if suit == "doubles" else f"Name {suit}s as trump"
    return str(move)


# -- moves there is no choice about ------------------------------------------------------------------
def _chicken_foot_forced(view: Any, move: Move) -> str | None:
    if type(move) is Draw:
        return "No tile in your hand fits an open end, so draw one from the chicken yard (CF-9)."
    if type(move) is Pass:
        return "Nothing fits and the last tiles of the yard are never drawn, so pass (CF-13)."
    if type(move) is Play and view.drawn is not None:
        return f"{move_words(view, move)}: you drew it and it fits, so it must be played (CF-9)."
    return None


_FORCED: dict[str, Forced] = {"chicken-foot": _chicken_foot_forced}


def _only_move(view: Any, move: Move) -> str:
    explain = _FORCED.get(view.game)
    words = explain(view, move) if explain is not None else None
    if words is not None:
        return words
    if type(move) is Pass:
        return "There is nothing you can do but pass."
    if type(move) is Draw:
        return "Nothing in your hand fits, so draw."
    return f"{move_words(view, move)}: it is your only legal move."


# -- why a play is good, in a player's terms -----------------------------------------------------------
def _showing(view: Any, move: Play) -> int | None:
    board = getattr(view, "board", None)
    if board is None or move.target is None:
        return None
    return board.lines[move.target].open


def _rule_of_thumb(view: Any, legal: tuple[Move, ...], move: Play) -> str | None:
    """The easy bot's reason, if the move is the one its rule of thumb picks (Chicken Foot)."""
    if view.game != "chicken-foot":
        return None
    plays = [m for m in legal if type(m) is Play]
    lines = view.board.lines
    best = max(plays, key=lambda m: (score_play(view.hand, m, lines[m.target].open), -plays.index(m)))
    if best is not move:
        return None
    tile: Tile = move.tile
    rest = [t for t in view.hand if t is not tile]
    if not rest:
        return "it is your last tile: playing it ends the round"
    numbers = len({n for t in rest for n in t})
    kept = "one number" if numbers == 1 else f"{numbers} different numbers"
    if tile.is_double:
        reason = "a double is hard to place late and costly to hold, so play it while you can"
    else:
        reason = f"it sheds {plural(tile.pips, 'pip')}, the heaviest you can safely play"
    return f"{reason}; you keep {kept} to match later"


def _play_features(view: Any, legal: tuple[Move, ...], move: Play) -> str:
    """What the chosen tile does for the hand: follows up, keeps a number, plays a double, sheds pips."""
    tile: Tile = move.tile
    rest = [t for t in view.hand if t is not tile]
    held = Counter(n for t in rest for n in {t.low, t.high})  # tiles carrying each number
    showing = _showing(view, move)
    far = tile.other(showing) if showing is not None and showing in tile else None
    if far is not None and not tile.is_double and held[far] >= 2:
        number = article(str(far))
        return f"it leaves {number} open, and you hold {count_word(held[far])} more tiles with {number} to follow it"
    # A number the other plays would spend and this one keeps.
    spent = Counter(
        n for m in legal if type(m) is Play and m.tile is not tile for n in {m.tile.low, m.tile.high} if n not in tile
    )
    kept = [n for n in spent if held[n] >= 2]
    if kept:
        n = max(kept, key=lambda n: (held[n], spent[n], n))
        return f"keeps your {n}s: you hold {count_word(held[n])} of them"
    if tile.is_double:
        return "a double is hard to place late, so play it while it fits"
    return f"it sheds {plural(tile.pips, 'pip')}"


def _evidence(view: Any, legal: tuple[Move, ...], means: list[float], worlds: int, chosen: int) -> str:
    others = [i for i in range(len(legal)) if i != chosen]
    if not others:
        return ""
    second = max(others, key=lambda i: (means[i], -i))
    lead = means[chosen] - means[second]
    deals = f"{worlds} sampled deal{'s' if worlds != 1 else ''}"
    if lead < EVEN:
        return f"in {deals} no move did clearly better"
    runner_up = move_words(view, legal[second])
    runner_up = runner_up[0].lower() + runner_up[1:]
    per = "a hand" if view.game == "moon" else "a round"  # Moon is scored by the hand (MN-17)
    return f"in {deals} it did best, {lead:.1f} points {per} better than the next best move ({runner_up})"


# The easy players' reasons for Doubles and Moon, with the rules they rest on.
_GAME_REASONS: dict[str, Callable[[Any, tuple[Move, ...]], tuple[Move, str]]] = {
    "doubles": hint_doubles.explain,
    "moon": hint_moon.explain,
}


def _game_reason(view: Any, legal: tuple[Move, ...], move: Move) -> str | None:
    """The game's rule-of-thumb sentence for `move`, when the easy player would choose it too."""
    explainer = _GAME_REASONS.get(view.game)
    if explainer is None:
        return None
    easy_move, sentence = explainer(view, legal)
    return sentence if easy_move == move else None


def explain(view: Any, legal: tuple[Move, ...], move: Move, means: list[float], worlds: int) -> str:
    """The reason for `move`, chosen from `legal` with these mean values over `worlds` worlds."""
    chosen = legal.index(move)
    sentence = _game_reason(view, legal, move)
    if sentence is None and view.game == "moon":
        sentence = hint_moon.reason(view, legal, move)  # tricks, trumps and suits, never pips (MN-5)
    if sentence is not None:
        evidence = _evidence(view, legal, means, worlds, chosen)
        return f"{sentence.rstrip('.')}; {evidence}." if evidence else sentence
    words = move_words(view, move)
    why = None
    if type(move) is Play and view.game == "chicken-foot" and view.drawn is not None:
        why = "you drew it and it fits, so it must be played (CF-9)"
    elif type(move) is Play:
        why = _rule_of_thumb(view, legal, move) or _play_features(view, legal, move)  # type: ignore[arg-type]
    evidence = _evidence(view, legal, means, worlds, chosen)
    parts = [part for part in (why, evidence) if part]
    return f"{words}: {'; '.join(parts)}." if parts else f"{words}."


def hint(
    view: Any,
    legal: tuple[Move, ...],
    rng: random.Random | None = None,
    worlds: int = HINT_WORLDS,
    budget: float = HINT_BUDGET,
) -> tuple[Move, str]:
    """A legal move for the seat of `view` (the medium bot's choice) and the reason for it in one
    sentence. The same view always gets the same hint (`rng` defaults to a fixed seed)."""
    if not legal:
        raise ValueError("there is nothing to do now, so there is no hint")
    if len(legal) == 1:
        return legal[0], _game_reason(view, legal, legal[0]) or _only_move(view, legal[0])
    if view.game == "moon" and view.phase == "trump":
        return hint_moon.trump_hint(view, legal)  # the trump the bidding hint named (core.bots.moon_trump)
    move, means, sampled = MediumBot(max_worlds=worlds).evaluate(view, legal, rng or random.Random(0), budget)
    return move, explain(view, legal, move, means, sampled)
