"""ReviewHand: a seat's tiles at a moment of the review, with the tile played and the better one
labelled beneath. Not a control: the review steps with the screen's keys."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.widget import Widget

from core.tiles import Tile
from core.words import possessive
from tui.widgets.dominoes import TILE_WIDTH, tile_text

CELL = TILE_WIDTH + 1  # a tile and the space after it


class ReviewHand(Widget):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.tiles: tuple[Tile, ...] = ()
        self.labels: dict[Tile, Text] = {}

    def show(self, owner: str, tiles: tuple[Tile, ...], labels: Mapping[Tile, Text]) -> None:
        """`labels`: a word of at most five characters to write under some tiles."""
        self.border_title = Text(f"{possessive(owner, start=True)} tiles")  # a name: never markup
        changed = len(tiles) != len(self.tiles)
        self.tiles, self.labels = tiles, dict(labels)
        self.refresh(layout=changed)

    def _per_row(self, width: int) -> int:
        return max(1, width // CELL)

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        return max(1, -(-len(self.tiles) // self._per_row(width))) * 2

    def render(self) -> Text:
        if not self.tiles:
            return Text("(no tiles)", style="dim")
        per_row = self._per_row(self.content_size.width or 80)
        lines: list[Text] = []
        for start in range(0, len(self.tiles), per_row):
            row, marks = Text(), Text()
            for tile in self.tiles[start : start + per_row]:
                row.append_text(tile_text(tile, "bold"))
                row.append(" ")
                label = self.labels.get(tile)
                if label is None:
                    marks.append(" " * CELL)
                else:
                    marks.append_text(label)
                    marks.append(" " * (CELL - label.cell_len))
            lines += [row, marks]
        return Text("\n").join(lines)
