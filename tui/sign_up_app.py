"""What an open server's newcomer runs before the lobby (`dominoes lobby --sign-up`): the sign-up
screen alone. Its answer is the name taken, or None if the player left."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App

from net.accounts import RoomBook
from tui.screens.sign_up import SignUpScreen
from tui.styles import APP_STYLES


class SignUpApp(App[str]):
    CSS_PATH: ClassVar = [APP_STYLES]
    TITLE = "Dominoes: choose a name"

    def __init__(self, book: RoomBook, fingerprint: str, address: str) -> None:
        super().__init__()
        self.book = book
        self.fingerprint = fingerprint
        self.address = address

    def on_mount(self) -> None:
        self.push_screen(SignUpScreen(self.book, self.fingerprint, self.address), self.exit)
