"""How each game is shown at the table: which board widget, the marks on it, the rules text.

The table screen asks this module rather than testing game names itself, so a new game adds its
entries here: Doubles reuses the layout board (locked numbers come from its view), Moon brings
its trick view.
"""

from __future__ import annotations

from typing import Any

from core import get_game
from core.moves import DRAW, PASS, Discard, Move, Play
from core.tiles import Tile
from tui.widgets.board_tree import Marks, PlaceNamer, default_place
from tui.widgets.scorepad import BidRecord, short_name

LAYOUT_GAMES = frozenset({"chicken-foot", "doubles"})  # games drawn with BoardTree
FOOT_SIZES = {"chicken-foot": 3}  # CF-10: a double at the end of a line must be filled first
HIGH_WINS = frozenset({"doubles", "moon"})  # DB-13, MN-20: the highest total wins (CF-16: the lowest)


def high_score_wins(game_name: str) -> bool:
    return game_name in HIGH_WINS


def locked_numbers(view: Any) -> tuple[int, ...]:
    """DB-6: the numbers whose double is not on the table yet (none for the other games)."""
    unlocked = getattr(view, "unlocked", None)
    if unlocked is None or view.board is None:
        return ()
    return tuple(n for n in range(7) if not unlocked >> n & 1)


def status_facts(game_name: str, view: Any) -> list[str]:
    """The status line's facts before whose turn it is: the round, the target, the table."""
    options = view.options
    if game_name == "moon":
        parts = [f"Hand {view.round}", f"to {options['target']}"]
        if view.phase == "play":
            parts.append(f"trick {min(len(view.tricks) + 1, 7)} of 7")
        elif view.phase in PHASE_WORDS:
            parts.append(PHASE_WORDS[view.phase])
        return parts
    rounds = options.get("rounds")
    parts = [f"Round {view.round}" + (f" of {rounds}" if rounds else "")]
    if options.get("target"):
        parts.append(f"to {options['target']}")  # DB-13: the first to the target wins
    stock = "boneyard" if game_name == "doubles" else "yard"  # DB-2: the boneyard; CF-3: the chicken yard
    parts.append(f"{stock} {view.stock_size}")  # the centre double heads the board
    return parts


PHASE_WORDS = {"bidding": "bidding", "discard": "the widow", "trump": "naming trump"}


def turn_advice(game_name: str, view: Any, legal: tuple[Move, ...]) -> str:
    """What the player to move must do when there is no choice to make: draw, pass, play the tile
    just drawn, or open the round (the draw games; "" otherwise)."""
    if game_name not in LAYOUT_GAMES or not legal:
        return ""
    if legal == (DRAW,):
        return "no tile fits: press d to draw"  # CF-7, CF-9, DB-8
    if legal == (PASS,):
        return "no tile fits: press p to pass"  # CF-13, DB-9: nothing may be drawn either
    if view.drawn is not None:
        return f"the {view.drawn} you drew fits: play it"  # CF-9, DB-8
    if getattr(view, "leading", None) is not None:
        return f"lead the {view.leading}: press Enter"  # DB-3
    return ""


def empty_board_words(game_name: str, view: Any, names: tuple[str, ...]) -> str:
    """What the board says before the first tile is down."""
    leading = getattr(view, "leading", None)
    if view.board is not None or leading is None or view.to_move is None:
        return "The table is empty until the tiles are dealt."
    if view.to_move == view.seat:
        return f"Open the round: Enter plays your {leading}."  # DB-3: it goes in the centre
    return f"{names[view.to_move]} opens the round with the {leading}."


def hand_sizes_line(names: tuple[str, ...], sizes: tuple[int, ...], extra: str, width: int) -> str:
    """ "Tiles in hand: Ana: 5 · Ben: 4 ..." in `width` cells (the colon keeps "Seat 2: 7" from
    reading "Seat 27"): with many players the names shorten as the scorepad's headings do
    ("Seat 2" -> "S2") rather than run off the edge."""
    line = ""
    for room in (99, 12, 8, 6, 4, 3, 2):
        hands = " · ".join(f"{short_name(name, room)}: {size}" for name, size in zip(names, sizes, strict=True))
        line = f"Tiles in hand: {hands}" + (f" · {extra}" if extra else "")
        if len(line) <= width:
            return line
        line = f"Tiles: {hands}" + (f" · {extra}" if extra else "")
        if len(line) <= width:
            return line
    return line


def tile_moves(legal: tuple[Move, ...], tile: Tile | None) -> tuple[Move, ...]:
    """The legal moves that put `tile` somewhere: plays (and Moon's discard, MN-11)."""
    return tuple(move for move in legal if type(move) in (Play, Discard) and move.tile is tile)  # type: ignore[attr-defined]


def hand_tiles(legal: tuple[Move, ...]) -> frozenset[Tile]:
    """The tiles of the hand that some legal move uses: the ones to mark as playable."""
    return frozenset(move.tile for move in legal if type(move) in (Play, Discard))  # type: ignore[attr-defined]


def status_extra(game_name: str, view: Any) -> str:
    """A game's own facts for the status line: Doubles says which numbers are unlocked (DB-6)."""
    if game_name == "doubles" and view.board is not None:
        unlocked = [str(n) for n in range(7) if view.unlocked >> n & 1]
        return "unlocked " + (" ".join(unlocked) if unlocked else "none")
    return ""


def board_kind(game_name: str) -> str:
    """ "layout" (BoardTree) or "tricks" (a trick view)."""
    return "layout" if game_name in LAYOUT_GAMES else "tricks"


def line_namer(game_name: str) -> PlaceNamer:
    """The name of a line on the board: the game's own (`core.places`), the one hints, the log
    and refusals use too."""
    return getattr(get_game(game_name), "place", default_place)


def targets_for(legal: tuple[Move, ...], tile: Tile | None) -> tuple[int, ...]:
    """The ends where `tile` may be played now, in the engine's order."""
    if tile is None:
        return ()
    return tuple(move.target for move in legal if type(move) is Play and move.tile is tile)  # type: ignore[misc]


def last_line(view: Any) -> int | None:
    """The line that took the last tile played this round."""
    for _seat, move in reversed(view.history):
        if type(move) is Play:
            return move.target
    return None


def board_marks(game_name: str, view: Any, legal: tuple[Move, ...], selected: Tile | None) -> Marks:
    return Marks(
        targets=targets_for(legal, selected),
        last_line=last_line(view),
        locked=locked_numbers(view),
        foot_size=FOOT_SIZES.get(game_name, 0),
    )


def scorepad_extras(game_name: str, state: Any) -> dict[str, Any]:
    """The scorepad's game-specific arguments: which way scores win, and Moon's bids (public)."""
    if game_name != "moon":
        return {"high": high_score_wins(game_name)}
    bids: list[BidRecord | None] = [BidRecord(r.bidder, r.bid, r.made) for r in state.records]
    if not state.chance and not state.over:
        bids.append(BidRecord(state.bidder, state.bid) if state.bidder is not None else None)
    return {"high": True, "bids": bids}
