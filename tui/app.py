"""The Textual application."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.widgets import Footer, Static

from core import GAME_NAMES, get_game


class DominoesApp(App[None]):
    CSS_PATH = "styles/app.tcss"
    TITLE = "Dominoes"
    BINDINGS = [Binding("q", "quit", "Quit", id="quit")]

    def compose(self) -> ComposeResult:
        games = ", ".join(get_game(name).title for name in GAME_NAMES)
        with Middle(), Center():
            yield Static(
                f"[b]Dominoes[/b]\n\n{games}\n\n"
                "The table is still being built. Meanwhile, watch the computer players:\n\n"
                "[i]dominoes simulate --game chicken-foot --players 4 --matches 10[/i]",
                id="welcome",
            )
        yield Footer()
