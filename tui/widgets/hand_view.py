"""HandView: one seat's tiles as dominoes, the legal ones marked; keyboard and mouse selection."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from core.tiles import Tile
from core.words import possessive
from tui.widgets.dominoes import TILE_WIDTH, tile_text

CELL = TILE_WIDTH + 1  # a tile and the space after it
LEGAL_MARK = "▲"


class HandView(Widget, can_focus=True):
    """The tiles of the seat whose hand is shown. Tiles that can be played now are bright and
    marked beneath; the others are dim. Left/right (or a click) picks a tile, Enter plays it."""

    BINDINGS = [
        Binding("left", "cursor(-1)", "Previous tile", show=False, id="hand.previous"),
        Binding("right", "cursor(1)", "Next tile", show=False, id="hand.next"),
        Binding("home", "cursor_to(0)", "First tile", show=False, id="hand.first"),
        Binding("end", "cursor_to(-1)", "Last tile", show=False, id="hand.last"),
        Binding("enter", "choose", "Play", id="hand.choose"),
    ]

    @dataclass
    class Highlighted(Message):
        """The cursor is on `tile` (None: the hand is empty)."""

        hand: HandView
        tile: Tile | None

    @dataclass
    class Chosen(Message):
        """The player chose `tile` to play."""

        hand: HandView
        tile: Tile

    cursor: reactive[int] = reactive(0)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.tiles: tuple[Tile, ...] = ()
        self.legal: frozenset[Tile] = frozenset()
        self.hint: Tile | None = None
        self.owner = ""
        self.hidden = ""  # why no tiles are shown (hot seat), or "" when the hand is shown

    # -- content -----------------------------------------------------------------------------------
    def show(self, owner: str, tiles: tuple[Tile, ...], legal: frozenset[Tile], keep: Tile | None = None) -> None:
        """Show `tiles`; the cursor stays on `keep` if it is still there, else on the first legal tile."""
        rows_before = self.get_content_height(None, None, self.size.width)  # type: ignore[arg-type]
        self.owner = owner
        self.hidden = ""
        self.border_title = Text(f"{possessive(owner, start=True)} tiles")  # a name: never markup
        self.tiles = tiles
        self.legal = legal
        self.hint = None
        if keep in tiles and (keep in legal or not legal):
            index = tiles.index(keep)  # type: ignore[arg-type]
        else:
            index = next((i for i, tile in enumerate(tiles) if tile in legal), 0)
        self.set_reactive(HandView.cursor, index)
        self.refresh(layout=rows_before != self.get_content_height(None, None, self.size.width))  # type: ignore[arg-type]
        self.post_message(self.Highlighted(self, self.selected))

    def conceal(self, reason: str) -> None:
        """Show no tiles, only `reason` (hot seat: the hand is hidden until its player has it)."""
        if self.hidden == reason:
            return
        self.show("", (), frozenset())
        self.hidden = reason
        self.border_title = "Hand hidden"
        self.refresh()

    @property
    def selected(self) -> Tile | None:
        return self.tiles[self.cursor] if 0 <= self.cursor < len(self.tiles) else None

    def select(self, tile: Tile) -> None:
        if tile in self.tiles:
            self.cursor = self.tiles.index(tile)

    def mark_hint(self, tile: Tile | None) -> None:
        self.hint = tile
        if tile is not None:
            self.select(tile)
        self.refresh()

    # -- drawing -----------------------------------------------------------------------------------
    def _per_row(self) -> int:
        return max(1, (self.content_size.width or 80) // CELL)

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        per_row = max(1, width // CELL)
        rows = max(1, -(-len(self.tiles) // per_row))
        return rows * 2

    def render(self) -> Text:
        if not self.tiles:
            return Text(self.hidden or "(no tiles)", style="dim")
        per_row = self._per_row()
        lines: list[Text] = []
        focused = self.has_focus
        for start in range(0, len(self.tiles), per_row):
            row = Text()
            marks = Text()
            for i in range(start, min(start + per_row, len(self.tiles))):
                tile = self.tiles[i]
                playable = tile in self.legal
                frame = "bold" if playable else "dim"
                piece = tile_text(tile, frame)
                if not playable:
                    piece.stylize("dim")
                if i == self.cursor:
                    piece.stylize("reverse" if focused else "underline")
                row.append_text(piece)
                row.append(" ")
                if tile is self.hint:
                    marks.append(" hint ", style="bold reverse")
                elif playable:
                    marks.append(f"  {LEGAL_MARK}   ", style="bold")
                else:
                    marks.append(" " * CELL)
            lines.append(row)
            lines.append(marks)
        return Text("\n").join(lines)

    # -- input -------------------------------------------------------------------------------------
    def watch_cursor(self, cursor: int) -> None:
        self.refresh()
        self.post_message(self.Highlighted(self, self.selected))

    def validate_cursor(self, cursor: int) -> int:
        if not self.tiles:
            return 0
        return max(0, min(cursor, len(self.tiles) - 1))

    def action_cursor(self, step: int) -> None:
        if self.tiles:
            self.cursor = (self.cursor + step) % len(self.tiles)

    def action_cursor_to(self, index: int) -> None:
        if self.tiles:
            self.cursor = index % len(self.tiles)

    def action_choose(self) -> None:
        tile = self.selected
        if tile is not None:
            self.post_message(self.Chosen(self, tile))

    def on_click(self, event: events.Click) -> None:
        """A click picks a tile; a click on the picked tile (or a double click) plays it."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = (offset.y // 2) * self._per_row() + offset.x // CELL
        if offset.x % CELL < TILE_WIDTH and 0 <= index < len(self.tiles):
            again = index == self.cursor and self.has_focus
            self.cursor = index
            self.focus()
            if again or event.chain >= 2:
                self.action_choose()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
