"""MoveLog: the moves of the match in plain words, the newest at the bottom.

A widget of its own rather than a RichLog: it wraps the lines at its width whenever it draws and
shows the last ones that fit, so what it shows never depends on when the lines arrived (the
snapshots are stable). Up/Down, PageUp/PageDown and the mouse wheel look further back.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget


class MoveLog(Widget, can_focus=True):
    BINDINGS = [
        Binding("up", "back(1)", "Earlier", show=False, id="log.earlier"),
        Binding("down", "back(-1)", "Later", show=False, id="log.later"),
        Binding("pageup", "back(10)", "Page earlier", show=False, id="log.page_earlier"),
        Binding("pagedown", "back(-10)", "Page later", show=False, id="log.page_later"),
        Binding("end", "latest", "Latest", show=False, id="log.latest"),
    ]

    back: reactive[int] = reactive(0)  # how many wrapped lines the view is scrolled back from the end

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines: tuple[str, ...] = ()

    def show(self, lines: Sequence[str]) -> None:
        lines = tuple(lines)
        if lines != self.lines:
            self.lines = lines
            self.back = 0
            self.refresh()

    def _wrapped_tail(self, width: int, wanted: int) -> list[Text]:
        """The last `wanted` wrapped lines (fewer if the log is short), oldest first."""
        console = self.app.console
        tail: list[Text] = []
        for line in reversed(self.lines):
            tail[:0] = list(Text(line).wrap(console, width))
            if len(tail) >= wanted:
                break
        return tail[-wanted:] if wanted else []

    def render(self) -> Text:
        width = max(1, self.content_size.width)
        height = max(1, self.content_size.height)
        tail = self._wrapped_tail(width, height + self.back)
        if self.back:
            tail = tail[: max(0, len(tail) - self.back)]
        shown = tail[-height:]
        if not shown:
            return Text("The moves of the round appear here.", style="dim")
        return Text("\n").join(shown)

    def validate_back(self, back: int) -> int:
        return max(0, back)

    def action_back(self, lines: int) -> None:
        if lines > 0 and len(self._wrapped_tail(max(1, self.content_size.width), 10_000)) <= (
            self.content_size.height + self.back
        ):
            return  # already at the first line
        self.back += lines

    def action_latest(self) -> None:
        self.back = 0

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self.action_back(3)
        event.stop()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.action_back(-3)
        event.stop()
