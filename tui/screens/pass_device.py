"""Hot-seat: between two humans' turns the hand is hidden until the next player is ready."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from tui.styles import STYLES
from tui.widgets.footer import Footer


class PassScreen(Screen[None]):
    """Covers the whole table, so the previous player's tiles are gone before the next one looks."""

    CSS_PATH: ClassVar = STYLES / "pass_device.tcss"

    BINDINGS = [Binding("enter", "ready", "I'm ready", id="pass.ready", priority=True)]

    def __init__(self, name: str, why: str = "") -> None:
        """`why`: what the player is called for, when it is not their turn to play (an undo)."""
        super().__init__()
        self.player = name
        self.why = why

    def compose(self) -> ComposeResult:
        message = Text("Pass to ")
        message.append(self.player, style="bold")  # a player's own name: plain text, never markup
        message.append(" — press Enter")
        if self.why:
            message.append(f"\n\n{self.why}")
        message.append(f"\n\n(the table stays hidden until {self.player} is ready)", style="dim")
        with Middle(), Center():
            yield Static(message, id="pass-message")
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)
