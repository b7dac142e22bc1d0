"""The rules screen: the rules of a game in the app's own words, with the IDs messages cite."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown

from core import get_game
from tui.presentation import rules_text
from tui.widgets.footer import Footer


class RulesScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="rules.back"),
        Binding("q", "app.pop_screen", "Back", show=False, id="rules.back_q"),
    ]

    def __init__(self, game_name: str) -> None:
        super().__init__()
        self.game_name = game_name
        self.sub_title = f"Rules of {get_game(game_name).title}"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(rules_text(self.game_name), id="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()
