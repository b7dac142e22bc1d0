"""At a shared table an undo needs every human's agreement: this asks one player for theirs."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.footer import Footer

UNDO_CSS = """
UndoDialog {
    align: center middle;
    background: $background 30%;
}
UndoDialog > #undo-box {
    width: 56;  /* as wide as the asker's: a move's line such as "Ana opened the round with ..." fits */
    height: auto;
    padding: 0 1;
    border: round $accent;
    background: $surface;
}
UndoDialog #undo-question {
    text-style: bold;
}
UndoDialog #undo-keys {
    margin-top: 1;
    color: $text-muted;
}
"""


class UndoDialog(ModalScreen[bool]):
    """Dismissed with True (agree to undo) or False (decline)."""

    DEFAULT_CSS = UNDO_CSS
    BINDINGS = [
        Binding("y", "answer(True)", "Agree", id="undo.agree"),
        Binding("n", "answer(False)", "Decline", id="undo.decline"),
        Binding("escape", "answer(False)", "Decline", show=False, id="undo.escape"),
    ]

    def __init__(self, asker: str, detail: str = "") -> None:
        """`detail`: what the undo would take back; by default, the asker's previous decision."""
        super().__init__()
        self.asker = asker
        self.detail = detail or "Play goes back to their previous decision; it needs everyone's agreement."

    def compose(self) -> ComposeResult:
        with Vertical(id="undo-box"):
            yield Static(Text(f"{self.asker} asks to undo."), id="undo-question")
            yield Static(Text(self.detail))
            yield Static("y: agree · n: decline", id="undo-keys")
        yield Footer(compact=True)

    def action_answer(self, accept: bool) -> None:
        self.dismiss(accept)
