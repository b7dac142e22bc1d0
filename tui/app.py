"""The Textual application: screens, preferences, themes, and the flow between matches."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding

from core import GAME_NAMES, Match
from tui.commands import ScreenActions
from tui.preferences import Preferences, load_preferences, save_preferences
from tui.screens.title import TitleScreen

if TYPE_CHECKING:
    from tui.screens.table import TableScreen
from tui.settings import MatchSettings

STYLES = Path(__file__).resolve().parent / "styles"
THEMES = ("textual-dark", "textual-light", "ansi-dark", "ansi-light")  # the ANSI ones suit 16 colours


class DominoesApp(App[None]):
    """The application. Screens other than the title are imported when first shown, which keeps
    the start-up close to a bare Textual app's (bench/startup.py)."""

    CSS_PATH: ClassVar = [STYLES / "app.tcss", STYLES / "table.tcss"]  # absolute, so subclasses find them
    TITLE = "Dominoes"
    COMMANDS = App.COMMANDS | {ScreenActions}
    BINDINGS = [
        Binding("t", "next_theme", "Theme", show=False, id="app.theme"),
        Binding("ctrl+q", "quit", "Quit", show=False, id="app.quit", priority=True),
    ]

    def __init__(
        self,
        start: MatchSettings | None = None,
        preferences: Preferences | None = None,
        match: Match | None = None,
    ) -> None:
        """`start`: begin a new match at once; `match`: open this match where it stands (resume)."""
        super().__init__()
        self.preferences = preferences if preferences is not None else load_preferences()
        self.start_settings = start
        self.start_match_object = match
        self.settings: MatchSettings | None = None
        self.match: Match | None = None
        self.last_game = GAME_NAMES[0]

    def get_default_screen(self) -> TitleScreen:
        return TitleScreen()

    def on_mount(self) -> None:
        theme = self.preferences.theme
        self.theme = theme if theme in self.available_themes else "textual-dark"
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self.start_settings is not None:
            self.start_match(self.start_settings)
        elif self.start_match_object is not None:
            self.open_match(self.start_match_object)

    # -- preferences -----------------------------------------------------------------------------
    def set_preferences(self, **changes: Any) -> None:
        self.preferences = replace(self.preferences, **changes)
        save_preferences(self.preferences)

    def _theme_changed(self, theme: Any) -> None:
        if theme.name != self.preferences.theme:
            self.set_preferences(theme=theme.name)

    def action_next_theme(self) -> None:
        current = self.theme if self.theme in THEMES else THEMES[-1]
        self.theme = THEMES[(THEMES.index(current) + 1) % len(THEMES)]
        self.notify(f"Theme: {self.theme}", timeout=2)

    # -- matches ---------------------------------------------------------------------------------
    def start_match(self, settings: MatchSettings) -> None:
        """Open the table for a new match, above the title screen."""
        self._remember_seats(settings)
        self.open_match(settings.new_match(), settings)

    def open_match(self, match: Match, settings: MatchSettings | None = None) -> None:
        """Open the table for `match` where it stands (new, or resumed from a save)."""
        from tui.screens.table import TableScreen

        self.settings = settings or MatchSettings(match.game_name, match.seats, dict(match.options), match.seed)
        self.last_game = match.game_name
        self.match = match
        while len(self.screen_stack) > 1:  # back to the title screen, at the bottom
            self.pop_screen()
        self.push_screen(TableScreen(match))

    def _remember_seats(self, settings: MatchSettings) -> None:
        names = list(self.preferences.names)
        kinds = list(self.preferences.seats)
        for index, seat in enumerate(settings.seats):
            names[index] = seat.name
            kinds[index] = "human" if not seat.is_bot else f"bot:{seat.level}"
        self.set_preferences(names=tuple(names), seats=tuple(kinds))

    def on_table_screen_match_changed(self, message: TableScreen.MatchChanged) -> None:
        """After every event: the match will be autosaved here once saves exist."""
        self.match = message.match

    def show_game_over(self, match: Match) -> None:
        from tui.screens.game_over import GameOverScreen

        self.pop_screen()  # the table
        self.push_screen(GameOverScreen(match), self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "rematch" and self.settings is not None and self.match is not None:
            self.start_match(self.settings.rematch(self.match.seed + 1))
        elif choice == "new":
            from tui.screens.new_match import NewMatchScreen

            self.push_screen(NewMatchScreen(self.last_game))

    def leave_match(self) -> None:
        """Back to the title screen (saves will keep the match to resume)."""
        self.match = None
        while len(self.screen_stack) > 1:  # back to the title screen, at the bottom
            self.pop_screen()
