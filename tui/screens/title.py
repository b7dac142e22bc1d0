"""The title screen: new match, rules, quit (resuming a saved match joins them with saves)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from core import GAME_NAMES, get_game
from tui.host import host

BANNER = "[b]D O M I N O E S[/b]"


class TitleScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new_match", "New match", id="title.new"),
        Binding("question_mark", "rules", "Rules", key_display="?", id="title.rules"),
        Binding("q", "app.quit", "Quit", id="title.quit"),
    ]

    def compose(self) -> ComposeResult:
        games = " · ".join(get_game(name).title for name in GAME_NAMES)
        with Center(), Vertical(id="title-box"):
            yield Static(BANNER, id="banner")
            yield Static("[dim][1|2] [2|5] [5|5] [5|9][/dim]", id="banner-tiles")
            yield Static(games, id="games")
            yield OptionList(
                Option("New match", id="new"),
                Option("Rules", id="rules"),
                Option("Quit", id="quit"),
                id="title-menu",
            )
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        actions = {"new": self.action_new_match, "rules": self.action_rules, "quit": self.app.exit}
        actions[event.option.id or "quit"]()

    def action_new_match(self) -> None:
        from tui.screens.new_match import NewMatchScreen  # imported on first use: a faster start

        self.app.push_screen(NewMatchScreen())

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(host(self).last_game))
