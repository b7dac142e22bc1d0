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
from core.moves import Move, Play
from core.tiles import Tile
from tui.widgets.board_tree import LineNamer, Marks, default_line_name

LAYOUT_GAMES = frozenset({"chicken-foot", "doubles"})  # games drawn with BoardTree
FOOT_SIZES = {"chicken-foot": 3}  # CF-10: a double at the end of a line must be filled first


def board_kind(game_name: str) -> str:
    """ "layout" (BoardTree) or "tricks" (a trick view)."""
    return "layout" if game_name in LAYOUT_GAMES else "tricks"


def line_namer(game_name: str) -> LineNamer:
    """The name of a line on the board. The tree shows which double a line grows from, so the
    label keeps only the part before " of the ..." ("toe 2", not "toe 2 of the 5-5")."""
    full: LineNamer = getattr(get_game(game_name), "line_name", default_line_name)

    def short(board: Layout, line_id: int) -> str:
        return full(board, line_id).split(" of the ")[0]

    return short


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
        locked=tuple(getattr(view, "locked", ()) or ()),
        foot_size=FOOT_SIZES.get(game_name, 0),
    )


def fallback_target(board: Layout) -> int | None:
    """Where to try an unplayable tile so the engine can say why it does not fit."""
    ends = board.empty_ends or board.ends
    return ends[0] if ends else None


def rules_text(game_name: str) -> str:
    """The rules of the game in the app's own words (Markdown shipped with the package)."""
    title = get_game(game_name).title
    try:
        return resources.files("tui").joinpath("rules", f"{game_name}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return f"# {title}\n\nThe rules of {title} are not written up here yet."
