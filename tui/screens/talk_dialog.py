"""Quick messages at a shared table: the player picks one of a few fixed phrases by its number.

There is no free text: what reaches the other players is the phrase's number (`net.talk`), and
each of them shows the words from their own copy of the list.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from net.talk import PHRASES
from tui.widgets.footer import Footer

TALK_CSS = """
TalkDialog {
    align: center middle;
    background: $background 30%;
}
TalkDialog > #talk-box {
    width: 36;
    height: auto;
    padding: 0 1;
    border: round $accent;
    background: $surface;
}
TalkDialog #talk-title {
    text-style: bold;
}
TalkDialog #talk-keys {
    margin-top: 1;
    color: $text-muted;
}
"""


class TalkDialog(ModalScreen[int | None]):
    """Dismissed with the number of the phrase chosen, or None."""

    DEFAULT_CSS = TALK_CSS
    BINDINGS = [
        *(
            Binding(str(number + 1), f"choose({number})", phrase, show=False, id=f"talk.phrase_{number + 1}")
            for number, phrase in enumerate(PHRASES)
        ),
        Binding("escape", "choose(-1)", "Back", id="talk.back"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="talk-box"):
            yield Static("Say to the table", id="talk-title")
            yield Static(Text("\n".join(f"{number + 1}  {phrase}" for number, phrase in enumerate(PHRASES))))
            yield Static(f"1-{len(PHRASES)}: say it · Esc: nothing", id="talk-keys")
        yield Footer(compact=True)

    def action_choose(self, number: int) -> None:
        self.dismiss(number if 0 <= number < len(PHRASES) else None)
