"""How each game is shown at the table: which board widget, the marks on it, the rules text.

The table screen asks this module rather than testing game names itself, so a new game adds its
entries here: Doubles reuses the layout board (locked numbers come from its view), Moon brings
its trick view.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from core import get_game
from core.layout import Layout
from core.moves import Discard, Move, Play
from core.tiles import Tile
from tui.widgets.board_tree import LineNamer, Marks, default_line_name
from tui.widgets.scorepad import BidRecord

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
    if view.board is not None:
        parts.append(f"centre {view.board.centre}")
    parts.append(f"yard {view.stock_size}")
    return parts


PHASE_WORDS = {"bidding": "bidding", "discard": "the widow", "trump": "naming trump"}


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


def line_namer(game_name: str) -> LineNamer:
    """The name of a line on the board. The tree shows which double a line grows from, so the
    label keeps only the part before " of the ..." ("toe 2", not "toe 2 of the 5-5")."""
    if game_name == "doubles":
        return arm_name
    full: LineNamer = getattr(get_game(game_name), "line_name", default_line_name)

    def short(board: Layout, line_id: int) -> str:
        return full(board, line_id).split(" of the ")[0]

    return short


def arm_name(board: Layout, line_id: int) -> str:
    """DB-5: every double is a spinner; its arms are counted from 1 under it in the tree."""
    siblings = board.children(board.lines[line_id].parent)
    return f"arm {siblings.index(line_id) + 1}" if line_id in siblings else f"arm {line_id + 1}"


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


def fallback_target(board: Layout | None) -> int | None:
    """Where to try an unplayable tile so the engine can say why it does not fit."""
    if board is None:
        return None
    ends = board.empty_ends or board.ends
    return ends[0] if ends else None


def rules_text(game_name: str) -> str:
    """The rules of the game in the app's own words (Markdown shipped with the package)."""
    title = get_game(game_name).title
    try:
        return resources.files("tui").joinpath("rules", f"{game_name}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return f"# {title}\n\nThe rules of {title} are not written up here yet."


def scorepad_extras(game_name: str, state: Any) -> dict[str, Any]:
    """The scorepad's game-specific arguments: which way scores win, and Moon's bids (public)."""
    if game_name != "moon":
        return {"high": high_score_wins(game_name)}
    bids: list[BidRecord | None] = [BidRecord(r.bidder, r.bid, r.made) for r in state.records]
    if not state.chance and not state.over:
        bids.append(BidRecord(state.bidder, state.bid) if state.bidder is not None else None)
    return {"high": True, "bids": bids}
