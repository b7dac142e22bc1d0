"""At a shared table, an undo request waits for every other human's agreement. The asker sees
what it would take back and whom it waits for, and can withdraw it (u again, or Esc); the others
are asked in an `UndoDialog` that names the same moves (`request_words`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.widgets.footer import Footer

WAITING_CSS = """
UndoWaitingDialog {
    align: center middle;
    background: $background 30%;
}
UndoWaitingDialog > #undo-wait-box {
    width: 56;
    height: auto;
    padding: 0 1;
    border: round $accent;
    background: $surface;
}
UndoWaitingDialog #undo-wait-question {
    text-style: bold;
}
UndoWaitingDialog #undo-wait-keys {
    margin-top: 1;
    color: $text-muted;
}
"""


def request_words(moves: Sequence[str], back_to: str, expires: int | None, viewer: str | None = None) -> str:
    """What an undo request takes back, move by move (each line names whose move it is), and whose
    decision play goes back to; `viewer` is "you" in it."""
    if not moves:
        lines = ["Play goes back to the previous decision."]
    else:
        lines = ["These moves go back:", *(f"  {line}" for line in moves)]
        if back_to:
            whose = "your" if viewer is not None and back_to == viewer else f"{back_to}'s"
            lines.append(f"Play goes back to {whose} decision.")
    lapses = f"; it lapses after {expires} s unanswered" if expires else ""
    lines.append(f"It needs everyone's agreement{lapses}.")
    return "\n".join(lines)


class UndoWaitingDialog(ModalScreen[bool]):
    """Dismissed with True when the asker withdraws the request; the table dismisses it with None
    once the request is settled."""

    DEFAULT_CSS = WAITING_CSS
    BINDINGS = [
        Binding("u", "withdraw", "Withdraw", id="undo-wait.withdraw"),
        Binding("escape", "withdraw", "Withdraw", show=False, id="undo-wait.escape"),
    ]

    def __init__(self, waiting_for: Sequence[str], detail: str) -> None:
        super().__init__()
        self.waiting_for = tuple(waiting_for)
        self.detail = detail

    def compose(self) -> ComposeResult:
        who = ", ".join(self.waiting_for) or "the other players"
        with Vertical(id="undo-wait-box"):
            yield Static(Text(f"You asked to undo; waiting for {who}."), id="undo-wait-question")
            yield Static(Text(self.detail))
            yield Static("u or Esc: withdraw the request", id="undo-wait-keys")
        yield Footer(compact=True)

    def action_withdraw(self) -> None:
        self.dismiss(True)
