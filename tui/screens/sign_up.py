"""An open server's welcome: a key it has no name for chooses the name it will play under, or types
the link code that ties it to a name chosen in a browser.

The name is bound to the key (`net.accounts.RoomBook.sign_up`): the same key comes back as the
same name next time, and no other key can take it. A code from the web door's key page
(`net.link_codes`) binds the key to that page's name instead (`RoomBook.link_key`): the key has
proven itself by its login, the browser by its session. A refused name or code says why in one line,
and the player tries again; nothing is kept until a name is taken or a key tied.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from core.seats import MAX_NAME
from net.accounts import RoomBook, SignUpRefused
from net.link_codes import LinkRefused, looks_like_code
from saves.os_errors import os_error_text
from tui.styles import STYLES
from tui.widgets.footer import Footer

WELCOME = (
    "Welcome. Choose the name you will play under here: it stays yours, bound to the SSH key you "
    "came in with, and that key brings you back as it next time."
)
RULES = f"1 to {MAX_NAME} letters, digits, spaces or signs (the same whatever their case). Enter takes it."
CODE_HINT = (
    "Chose a name in a browser already? Type the link code its key page shows (link-...) instead, and "
    "this key comes in as that name from then on."
)
MOST_TYPED = 24  # a name, or a link code with a space or two more than it needs


class SignUpScreen(Screen[str]):
    """Dismissed with the name taken, or the one a link code tied the key to."""

    CSS_PATH: ClassVar = STYLES / "sign_up.tcss"
    BINDINGS = [
        Binding("escape", "app.quit", "Leave", id="sign_up.leave"),
    ]

    def __init__(self, book: RoomBook, fingerprint: str, address: str) -> None:
        super().__init__()
        self.book = book
        self.fingerprint = fingerprint
        self.address = address
        self.busy = False

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="sign-up-box"):
            yield Static(WELCOME, id="sign-up-welcome")
            yield Input(placeholder="your name, or a link code", max_length=MOST_TYPED, id="sign-up-name")
            yield Static(f"{RULES}\n{CODE_HINT}", id="sign-up-hint", markup=False)
            yield Static("", id="sign-up-refusal", markup=False)
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not self.busy:
            self.busy = True
            self.take(event.value)

    @work(thread=True, exclusive=True, group="sign-up")
    def take(self, typed: str) -> None:
        """The book is a file under a lock: in a thread, so the screen keeps drawing meanwhile."""
        try:
            if looks_like_code(typed):
                taken: str | None = self.book.link_key(typed, self.fingerprint, self.address)
            else:
                taken = self.book.sign_up(typed, self.fingerprint, self.address)
            reason = ""
        except (SignUpRefused, LinkRefused) as refused:
            taken, reason = None, str(refused)
        except OSError as error:
            taken, reason = None, f"the server cannot keep your name ({os_error_text(error)}); try again later"
        self.app.call_from_thread(self.answered, taken, reason)

    def answered(self, taken: str | None, reason: str) -> None:
        self.busy = False
        if taken is not None:
            self.dismiss(taken)
            return
        # Plain text: it may quote the name. The input keeps the focus and the name, to be edited.
        self.query_one("#sign-up-refusal", Static).update(Text(reason))
