"""Moon's two decisions that are not a tile: the bid (MN-9, MN-10) and trump (MN-12).

Each dialog lists only the legal moves the engine offers, so an illegal bid or trump cannot be
chosen. It sits over the side column, leaving the trick view and the hand in sight. It is
dismissed with the chosen move, or with None (Escape: look at the table; `b` reopens it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.games.moon_suits import DOUBLES, NO_TRUMP, is_trump, trump_name
from core.moves import Bid, Move, Trump

Hinter = Callable[[], tuple[Move, str]]


class History(Protocol):
    """What the dialog asks of the table behind it: whether undo and redo can act now."""

    def can_undo(self) -> bool: ...

    def undo_refusal(self) -> str | None: ...

    def can_redo(self) -> bool: ...


UNDO = "undo"  # dismissed with these, the table undoes or redoes (the table's own keys)
REDO = "redo"

DIALOG_CSS = """
MoonDialog {
    align: right top;
    background: $background 20%;
}
MoonDialog > #dialog-box {
    width: 38;
    height: auto;
    margin: 2 1 0 0;
    padding: 0 1;
    border: round $accent;
    background: $surface;
}
MoonDialog #dialog-title {
    text-style: bold;
}
MoonDialog OptionList, MoonDialog OptionList:focus {
    height: auto;
    max-height: 11;
    border: none;
    padding: 0;
    background: $surface;
}
MoonDialog #dialog-note {
    height: auto;
    color: $text-muted;
}
MoonDialog #dialog-note.hint {
    color: $success;
}
"""


def bid_label(move: Bid) -> str:
    amount = move.amount
    if amount == 0:
        return "Pass"
    if amount == 21:
        return "21: the moon, all 7 tricks"
    return f"Bid {amount}: win at least {amount} tricks"


def trump_label(move: Trump, hand: tuple[Any, ...]) -> str:
    suit = move.suit
    held = sum(1 for tile in hand if is_trump(tile, suit)) if suit != NO_TRUMP else 0
    name = "No trump" if suit == NO_TRUMP else trump_name(suit).capitalize()
    if suit == NO_TRUMP:
        return f"{name}: tiles keep their suits"
    return f"{name}: you hold {held} trump{'s' if held != 1 else ''}"


class MoonDialog(ModalScreen[Move | str | None]):
    """Dismissed with the chosen move, None (Escape), or UNDO / REDO (the table's keys u and r,
    which the footer below keeps offering)."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS = [
        Binding("escape", "close", "Look at the table", id="dialog.close"),
        Binding("h", "hint", "Hint", id="dialog.hint"),
        Binding("u", "history('undo')", "Undo", id="dialog.undo"),
        Binding("r", "history('redo')", "Redo", id="dialog.redo"),
    ]

    def __init__(
        self,
        title: str,
        moves: tuple[Move, ...],
        labels: list[str],
        note: str,
        hinter: Hinter,
        history: History | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.moves = moves
        self.labels = labels
        self.note = note
        self.hinter = hinter
        self.history = history

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog-box"):
            yield Static(self.title_text, id="dialog-title")
            yield OptionList(*(Option(label) for label in self.labels), id="dialog-options")
            yield Static(Text(self.note), id="dialog-note")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.moves[event.option_index])

    def action_close(self) -> None:
        self.dismiss(None)

    def action_hint(self) -> None:
        move, reason = self.hinter()
        if move in self.moves:
            self.query_one(OptionList).highlighted = self.moves.index(move)
        self.say(f"Hint: {reason}", "hint")

    def action_history(self, which: str) -> None:
        history = self.history
        can = history is not None and (history.can_undo() if which == UNDO else history.can_redo())
        if can:
            self.dismiss(which)
        else:
            refusal = history.undo_refusal() if history is not None and which == UNDO else None
            self.say(f"{refusal or f'Nothing to {which}.'}\n{self.note}")  # the keys stay in sight

    def say(self, words: str, kind: str = "") -> None:
        note = self.query_one("#dialog-note", Static)
        note.update(Text(words))
        note.set_class(kind == "hint", "hint")


def bid_dialog(view: Any, legal: tuple[Move, ...], hinter: Hinter, history: History | None = None) -> MoonDialog:
    """MN-9: pass or beat the highest bid; MN-10 `force`: the last to speak may have to bid."""
    moves = tuple(move for move in legal if type(move) is Bid)
    highest = max((amount for _, amount in view.bids), default=0)
    note = f"Highest bid so far: {highest}." if highest else "Nobody has bid yet."
    if moves and moves[0] != Bid(0):
        note += " The others passed, so you must bid (MN-10)."
    note += "\nEnter choose · Esc look · h hint"
    labels = [bid_label(move) for move in moves]  # type: ignore[arg-type]
    return MoonDialog("Your bid (MN-9)", moves, labels, note, hinter, history)


def trump_dialog(view: Any, legal: tuple[Move, ...], hinter: Hinter, history: History | None = None) -> MoonDialog:
    """MN-12: a number, doubles where the table allows them, or no trump; the most trumps first."""
    moves = tuple(move for move in legal if type(move) is Trump)
    allowed = any(move.suit == DOUBLES for move in moves)  # type: ignore[attr-defined]
    note = "" if allowed else "Doubles may not be trump here.\n"
    note += "Enter choose · Esc look · h hint"
    labels = [trump_label(move, view.hand) for move in moves]  # type: ignore[arg-type]
    return MoonDialog("Name trump (MN-12)", moves, labels, note, hinter, history)
