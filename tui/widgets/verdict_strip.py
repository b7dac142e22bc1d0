"""VerdictStrip: one line of marks, one per decision of the reviewed seat in the round, coloured by
verdict; the current one underlined. A click on a mark jumps to that decision."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

CELL = 2  # a mark and the space after it


@dataclass(frozen=True)
class StripCell:
    position: int  # the review position (event index) the mark jumps to
    mark: Text


class VerdictStrip(Widget):
    @dataclass
    class Chosen(Message):
        """A click on the mark of the decision at `position`."""

        strip: VerdictStrip
        position: int

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.label = ""
        self.cells: tuple[StripCell, ...] = ()
        self.current: int | None = None
        self._first = 0  # the first cell shown, when they do not all fit

    def show(self, label: str, cells: Sequence[StripCell], current: int | None) -> None:
        self.label, self.cells, self.current = label, tuple(cells), current
        self.refresh()

    def _window(self) -> range:
        """The cells that fit, keeping the current one in view."""
        room = max(1, (self.content_size.width - len(self.label) - 1) // CELL)
        at = next((i for i, cell in enumerate(self.cells) if cell.position == self.current), 0)
        if at < self._first or at >= self._first + room:
            self._first = max(0, at - room // 2)
        self._first = max(0, min(self._first, len(self.cells) - room))
        return range(self._first, min(len(self.cells), self._first + room))

    def render(self) -> Text:
        text = Text(f"{self.label} ", style="bold")
        if not self.cells:
            text.append("no decisions", style="dim")
            return text
        window = self._window()
        for i in window:
            cell = self.cells[i]
            mark = cell.mark.copy()
            if cell.position == self.current:
                mark.stylize("reverse")
            text.append_text(mark)
            text.append(" ")
        if window.stop < len(self.cells):
            text.append("…", style="dim")
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        column = offset.x - len(self.label) - 1
        if column < 0 or column % CELL:
            return
        window = self._window()
        index = window.start + column // CELL
        if index in window:
            self.post_message(self.Chosen(self, self.cells[index].position))
