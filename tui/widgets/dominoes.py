"""Tiles drawn as text: each number in its own colour, as coloured-pip sets do.

The colours are the sixteen standard terminal colours, so they read the same with 16, 256 or
millions of colours and follow the terminal's palette under the ANSI themes.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from core.tiles import Tile

NUMBER_STYLES = (
    "bright_white",  # 0
    "red",  # 1
    "green",  # 2
    "yellow",  # 3
    "blue",  # 4
    "magenta",  # 5
    "cyan",  # 6
    "bright_red",  # 7
    "bright_green",  # 8
    "bright_blue",  # 9
)
TILE_WIDTH = 5  # "[5|3]"


def number(n: int, extra: str = "") -> Text:
    return Text(str(n), style=f"bold {NUMBER_STYLES[n]} {extra}".strip())


def domino(near: int, far: int, frame: str = "") -> Text:
    """One tile, `near` on the left: "[5|3]"; `frame` styles the brackets and the bar."""
    text = Text()
    text.append("[", style=frame)
    text.append_text(number(near))
    text.append("|", style=frame)
    text.append_text(number(far))
    text.append("]", style=frame)
    return text


def tile_text(tile: Tile, frame: str = "") -> Text:
    return domino(tile.low, tile.high, frame)


def chain(pairs: Iterable[tuple[int, int]], last_style: str = "", last: bool = False) -> Text:
    """Tiles laid end to end, read outwards; the final one styled with `last_style` if `last`."""
    pairs = list(pairs)
    text = Text()
    for i, (near, far) in enumerate(pairs):
        if i:
            text.append(" ")
        is_last = last and i == len(pairs) - 1
        piece = domino(near, far, "bold" if is_last else "dim")
        if is_last and last_style:
            piece.stylize(last_style)
        text.append_text(piece)
    return text
