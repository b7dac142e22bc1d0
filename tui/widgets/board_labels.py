"""The label of one line of the board, fitted to the width it has.

A label is the line's name, its tiles read outwards, and what to point out at its far end: the
open number (◀5), a lock (Doubles), an unfinished chicken foot, "play here". When the width runs
short, the parts give way in this order, so nothing is ever cut mid-word:

1. the name drops the double it grows from ("toe 2 of the 5-5" -> "toe 2"; the tree shows it);
2. the tiles are elided in the middle, one at a time, always keeping the first tile and the
   last ones, next to the open end ("[9|5] … [3|8] ◀8");
3. the marks take their short form ("chicken foot: 2 to go", "4-4 only");
4. the first tile goes too, leaving the last beside the marks ("toe 1: … [2|2]  chicken foot: 3 to
   go"), and then the last ("toe 1: … ◀2");
5. only then do the marks after the open end go, and at last the label is cut, at a word, with an
   ellipsis. The name always stays: hints, lessons
   and the move log send the player to a line by its name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.text import Text

from tui.widgets.dominoes import TILE_WIDTH, domino, number

OPEN_MARK = "◀"  # an open end that takes a tile
ELLIPSIS = "…"
TARGET_STYLE = "bold reverse green"
LAST_STYLE = "bold reverse yellow"
FOOT_STYLE = "bold reverse red"
PLAY_HERE = " play here "


@dataclass(frozen=True, slots=True)
class LineLabel:
    """Everything a line's label says, before it is fitted to a width."""

    name: str  # the full name: "toe 2 of the 5-5", or "trains 4 to 8" for a fold of empty lines
    short: str  # the name the tree can do with: "toe 2"
    pairs: tuple[tuple[int, int], ...] = ()  # the tiles as (near, far), read outwards
    open: int | None = None  # the number showing at an open end, if the line is one
    locked: bool = False  # DB-7: the open number is locked
    foot: tuple[int, int] | None = None  # CF-10: (toes still to go, toes in all) of an unfinished foot
    target: bool = False  # the selected tile may be played here
    last: bool = False  # the line took the last tile played: its final tile is marked


def _marks(label: LineLabel, short: bool) -> list[tuple[str, str]]:
    """The pieces after the tiles, as (text, style), in their full or short form."""
    pieces: list[tuple[str, str]] = []
    if label.open is not None and label.locked:
        n = label.open
        # DB-7: only the double of a locked number may go here, and it unlocks it.
        pieces.append((f" {n}-{n} only" if short else f" locked: {n}-{n} only", "dim"))
    if label.foot is not None:
        to_go, toes = label.foot
        words = f"chicken foot: {to_go} to go" if short else f"chicken foot: {to_go} of {toes} toes to go"
        pieces.append((" ", ""))
        pieces.append((f" {words} ", FOOT_STYLE))
    if label.target:
        pieces.append((" ", ""))
        pieces.append((PLAY_HERE, TARGET_STYLE))
    return pieces


def _tiles_width(count: int, kept: int) -> int:
    """Cells taken by `count` tiles shown whole (kept >= count - 1), as the first, "…" and the
    `kept` last, (kept == 0) as "…" and the last alone, or (kept < 0) as "…" alone."""
    if count == 0:
        return len("empty")
    if kept < 0:
        return len(ELLIPSIS)
    if kept >= count - 1:
        return count * (TILE_WIDTH + 1) - 1
    if kept == 0:
        return 2 + TILE_WIDTH
    return TILE_WIDTH + 3 + kept * (TILE_WIDTH + 1) - 1


def _name(label: LineLabel, short_name: bool | None) -> str:
    """The name and its colon: full, short, or (None) none at all."""
    if short_name is None:
        return ""
    return f"{label.short if short_name else label.name}: "


def label_width(label: LineLabel, short_name: bool | None, kept: int, short_marks: bool) -> int:
    width = len(_name(label, short_name)) + _tiles_width(len(label.pairs), kept)
    if label.open is not None:
        width += 2 + len(str(label.open))
    return width + sum(len(text) for text, _ in _marks(label, short_marks))


def _render(label: LineLabel, short_name: bool | None, kept: int, short_marks: bool) -> Text:
    text = Text()
    text.append(_name(label, short_name), style="bold" if label.target else "")
    pairs = label.pairs
    if not pairs:
        text.append("empty", style="dim italic")
    else:
        shown = list(enumerate(pairs))
        if kept < 0:
            shown = [(-1, (0, 0))]
        elif kept == 0 and len(pairs) > 1:
            shown = [(-1, (0, 0)), shown[-1]]
        elif kept < len(pairs) - 1:
            shown = [shown[0], (-1, (0, 0)), *shown[len(pairs) - kept :]]
        for position, (index, (near, far)) in enumerate(shown):
            if position:
                text.append(" ")
            if index < 0:
                text.append(ELLIPSIS, style="dim")
                continue
            final = label.last and index == len(pairs) - 1
            piece = domino(near, far, "bold" if final else "dim")
            if final:
                piece.stylize(LAST_STYLE)
            text.append_text(piece)
    if label.open is not None:
        text.append(f" {OPEN_MARK}")
        text.append_text(number(label.open, "underline" if label.locked else ""))
    for piece, style in _marks(label, short_marks):
        text.append(piece, style=style)
    return text


def needs_short_name(label: LineLabel, width: int) -> bool:
    return label_width(label, False, max(0, len(label.pairs) - 1), False) > width


def fit(label: LineLabel, width: int, short_name: bool = False) -> Text:
    """The label at its fullest that fits in `width` cells (see the module's order of giving way);
    with `short_name`, the name is short from the start (as its siblings' are)."""
    count = len(label.pairs)
    whole = max(0, count - 1)
    for short, kept, short_marks in (
        (short_name, whole, False),
        (True, whole, False),
        *((True, kept, False) for kept in range(whole - 1, 0, -1)),
        (True, min(1, whole), True),
        (True, 0, True),
        (True, -1, True),
    ):
        if label_width(label, short, kept, short_marks) <= width:
            return _render(label, short, kept, short_marks)
    # Too narrow even for that: the marks after the open end go (the cursor still shows "play
    # here"), then the label is cut.
    bare = replace(label, target=False, foot=None)
    return crop(_render(bare, True, -1, True), width)


def crop(text: Text, width: int) -> Text:
    """`text` cut to `width` cells at the last whole word, with an ellipsis; whole if it fits."""
    if text.cell_len <= width:
        return text
    if width <= 1:
        return Text(ELLIPSIS[:width])
    plain = text.plain[: width - 1]
    cut = plain.rfind(" ")
    cut = cut if cut > 0 else width - 1
    cropped = text[:cut]
    cropped.rstrip()
    cropped.append(ELLIPSIS, style="dim")
    return cropped
