"""The statistics screen: a player's record in one game at a time (left and right go through the
games), in words (`records.text`) and in two charts: the rating after each rated match, and the
mean loss per decision of each reviewed match.

The record is brought up to date and read in a thread; the screen draws when it has it. The data
comes from a `loader` (the player's own record, or another player's public part of a server's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from tui.host import host
from tui.styles import STYLES
from tui.widgets.chart import Chart
from tui.widgets.footer import Footer

Loader = Callable[[], tuple[dict[str, Any] | None, list[str]]]  # (statistics, notices)


class StatsScreen(Screen[None]):
    CSS_PATH: ClassVar = STYLES / "stats.tcss"
    BINDINGS = [
        Binding("right", "game(1)", "Next game", key_display="→", id="stats.next"),
        Binding("left", "game(-1)", "Previous game", key_display="←", id="stats.previous"),
        Binding(
            "a", "auto_review", "Auto-review", tooltip="Review every match as it ends (on or off)", id="stats.auto"
        ),
        Binding("escape,q", "close", "Back", id="stats.back"),
    ]

    def __init__(self, loader: Loader, own: bool = True) -> None:
        super().__init__()
        self.loader = loader
        self.own = own  # the player's own record (the auto-review preference is theirs)
        self.data: dict[str, Any] | None = None
        self.index = 0
        self.loaded = False
        self.sub_title = "Statistics"

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-box"):
            yield Static(Text("Reading the record..."), id="stats-heading")
            yield Static("", id="stats-summary")
            with Horizontal(id="stats-charts"):
                yield Chart("rating", "line", id="stats-rating")
                yield Chart("loss a decision", "bar", "{:.2f}", id="stats-accuracy")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="stats")
    def load(self) -> None:
        data, notices = self.loader()
        self.app.call_from_thread(self.show, data, notices)

    def show(self, data: dict[str, Any] | None, notices: list[str]) -> None:
        for notice in notices:
            self.notify(notice, severity="warning", timeout=10, markup=False)
        self.data = data
        self.loaded = True
        self.index = min(self.index, max(0, len(self.games) - 1))
        self.draw()
        self.refresh_bindings()

    @property
    def games(self) -> list[dict[str, Any]]:
        return self.data["games"] if self.data else []

    def draw(self) -> None:
        from records.text import day, detail_lines, head_line

        heading = self.query_one("#stats-heading", Static)
        summary = self.query_one("#stats-summary", Static)
        rating = self.query_one("#stats-rating", Chart)
        accuracy = self.query_one("#stats-accuracy", Chart)
        if not self.games:
            name = self.data["name"] if self.data else "You"
            heading.update(Text(f"{name}: no finished match in the record yet.", style="bold"))
            summary.update(Text("Play a match to the end and it is counted here, with its review when it is weighed."))
            rating.show([], [], "no rated match yet")
            accuracy.show([], [], "no reviewed match yet")
            return
        part = self.games[self.index]
        since = f" since {day(self.data['since'])}" if self.data and self.data.get("since") else ""
        title = Text.assemble(
            (self.data["name"] if self.data else "", "bold"), f"{since} · ", (head_line(part), "bold")
        )
        if len(self.games) > 1:
            title.append(f" · ← → {self.index + 1} of {len(self.games)} games", style="dim")
        heading.update(title)  # names are plain text, never markup
        summary.update(Text("\n".join(detail_lines(part))))
        history = part.get("history") or []
        start = [part["start"]] if history and "start" in part else []  # the rating before the first
        ratings = start + [point["shown"] for point in history]
        rating.show(range(1 - len(start), len(history) + 1), ratings, "no rated match yet")
        losses = part.get("per_match") or []
        words = "not public" if part.get("limited") else "no reviewed match yet"
        accuracy.show(range(1, len(losses) + 1), [point["mean_loss"] for point in losses], words)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "game":
            return len(self.games) > 1
        if action == "auto_review":
            return self.own
        return True

    def action_game(self, step: int) -> None:
        if self.games:
            self.index = (self.index + step) % len(self.games)
            self.draw()

    def action_auto_review(self) -> None:
        on = not host(self).preferences.review_after_match
        host(self).set_preferences(review_after_match=on)
        words = "on: each match is reviewed as it ends" if on else "off: a match is reviewed only when you ask"
        self.notify(f"Auto-review {words}.", timeout=4)

    def action_close(self) -> None:
        self.dismiss(None)
