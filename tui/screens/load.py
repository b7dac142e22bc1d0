"""The load screen: every saved match as `dominoes saves` lists it; a damaged one shows why and
cannot be opened, and one loaded from its backup says so. A match another process has open is
refused in one line naming that process, and the list stays."""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from saves.autosave import Autosave
from saves.errors import SaveError, as_sentence
from saves.listing import Entry, entries, format_entry
from saves.store import SaveStore


def entry_prompt(entry: Entry) -> Text:
    """The lines `dominoes saves` prints for the match, the first in bold, a damaged one in red."""
    first, *rest = format_entry(entry)
    text = Text()
    text.append(first, style="bold" if entry.loaded is not None else "bold red")
    for line in rest:
        text.append("\n" + line, style="yellow" if line.lstrip().startswith("note:") else "")
    return text


class LoadScreen(Screen[Autosave | None]):
    """Dismissed with the chosen match, opened (locked and read afresh), or None."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="load.back"),
        Binding("q", "app.pop_screen", "Back", show=False, id="load.back_q"),
    ]

    def __init__(self, store: SaveStore) -> None:
        super().__init__()
        self.store = store
        self.sub_title = "Load a match"
        self.entries: list[Entry] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="load-box"):
            yield Static(id="load-heading")
            yield OptionList(id="load-list")
        yield Footer()

    def on_mount(self) -> None:
        self.entries = entries(self.store)
        heading = self.query_one("#load-heading", Static)
        if not self.entries:
            heading.update(f"No saved matches in {escape(str(self.store.directory))}.")
        else:
            heading.update("Choose a match to go on with it (a damaged one cannot be opened):")
        options = self.query_one(OptionList)
        for index, entry in enumerate(self.entries):
            if index:
                options.add_option(None)  # a separator line
            options.add_option(Option(entry_prompt(entry), id=entry.match_id, disabled=entry.loaded is None))
        if any(entry.loaded is not None for entry in self.entries):
            options.highlighted = next(i for i, option in enumerate(options.options) if not option.disabled)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        for entry in self.entries:
            if entry.match_id == event.option.id and entry.loaded is not None:
                try:
                    opened = Autosave.open(self.store, entry.match_id)
                except SaveError as error:
                    self.notify(as_sentence(error.reason), severity="error", timeout=10, markup=False)
                    return
                self.dismiss(opened)
                return
