"""The load screen: every saved match as `dominoes saves` lists it; a damaged one shows why and
cannot be opened, and one loaded from its backup says so. A match another process has open is
refused in one line naming that process, and the list stays."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from saves.autosave import Autosave
from saves.errors import SaveError, as_sentence
from saves.listing import Entry, entries, format_entry
from saves.store import SaveStore
from tui.host import host
from tui.lessons import lesson_for
from tui.styles import STYLES
from tui.widgets.footer import Footer


def entry_prompt(entry: Entry, width: int | None = None) -> Text:
    """The lines `dominoes saves` prints for the match, fitted to `width` columns, the first in
    bold, a damaged one in red."""
    lesson = lesson_for(entry.loaded.record.match) if entry.loaded is not None else None
    title = lesson.where(entry.loaded.record.match) if lesson is not None and entry.loaded is not None else None
    first, *rest = format_entry(entry, width, title)
    text = Text()
    text.append(first, style="bold" if entry.loaded is not None else "bold red")
    for line in rest:
        text.append("\n" + line, style="yellow" if line.lstrip().startswith("note:") else "")
    return text


OPTION_FRAME = 8  # the screen's padding, the list's border and padding, the option's own padding


class LoadScreen(Screen[Autosave | None]):
    """Dismissed with the chosen match, opened (locked and read afresh), or None."""

    CSS_PATH: ClassVar = STYLES / "load.tcss"

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="load.back"),
        Binding("q", "app.pop_screen", "Back", show=False, id="load.back_q"),
        Binding("v", "review", "Review", id="load.review"),
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
            from net.paths import is_served

            where = "" if is_served() else f" in {self.store.directory}"  # a server's paths are not the player's
            heading.update(Text(f"No saved matches{where}."))
        else:
            heading.update("Choose a match to go on with it (a damaged one cannot be opened):")
        options = self.query_one(OptionList)
        for index, entry in enumerate(self.entries):
            if index:
                options.add_option(None)  # a separator line
            prompt = entry_prompt(entry, max(40, self.app.size.width - OPTION_FRAME))
            options.add_option(Option(prompt, id=entry.match_id, disabled=entry.loaded is None))
        if any(entry.loaded is not None for entry in self.entries):
            options.highlighted = next(i for i, option in enumerate(options.options) if not option.disabled)
        options.focus()

    def highlighted_entry(self) -> Entry | None:
        """The loadable match under the cursor, if any."""
        options = self.query_one(OptionList)
        index = options.highlighted
        option = options.get_option_at_index(index) if index is not None else None
        entry = next((entry for entry in self.entries if option is not None and entry.match_id == option.id), None)
        return entry if entry is not None and entry.loaded is not None else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "review":
            return True if self.highlighted_entry() is not None else None
        return True

    def action_review(self) -> None:
        entry = self.highlighted_entry()
        if entry is not None and entry.loaded is not None:
            host(self).show_review(entry.loaded.record.match, entry.match_id)

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
