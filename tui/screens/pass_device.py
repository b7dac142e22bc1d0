"""Hot-seat: between two humans' turns the hand is hidden until the next player is ready."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Footer, Static


class PassScreen(Screen[None]):
    """Covers the whole table, so the previous player's tiles are gone before the next one looks."""

    BINDINGS = [Binding("enter", "ready", "I'm ready", id="pass.ready", priority=True)]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            name = self.player  # the player's own: plain text, never markup
            message = Text.assemble(
                "Pass to ",
                (name, "bold"),
                " — press Enter\n\n",
                (f"(the table stays hidden until {name} is ready)", "dim"),
            )
            yield Static(message, id="pass-message")
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)
