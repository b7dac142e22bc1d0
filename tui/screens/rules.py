"""The rules screen: the rules of a game in the app's own words, with the IDs messages cite.

From a table it shows the game in play as that match is played (its own options: the target, the
rounds; tui/rules_page.py). From the title screen and the lobby, before any game is chosen, it
shows every game, one tab each (← → between them), opening on the last game played.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, TabbedContent, TabPane

from core import GAME_NAMES, get_game
from tui.rules_page import rules_text
from tui.styles import STYLES
from tui.widgets.footer import Footer


class RulesScreen(Screen[None]):
    CSS_PATH: ClassVar = STYLES / "rules.tcss"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="rules.back"),
        Binding("q", "app.pop_screen", "Back", show=False, id="rules.back_q"),
        Binding("left", "other_game(-1)", "Game", key_display="← →", priority=True, id="rules.previous_game"),
        Binding("right", "other_game(1)", "Next game", show=False, priority=True, id="rules.next_game"),
    ]

    def __init__(self, game_name: str, options: Mapping[str, Any] | None = None, every_game: bool = False) -> None:
        """The rules of `game_name`, as a match with `options` plays them (every option filled in;
        None: the defaults); with `every_game`, every game's rules in tabs, opening on this one."""
        super().__init__()
        self.game_name = game_name
        self.options = options
        self.every_game = every_game
        self.sub_title = "Rules" if every_game else f"Rules of {get_game(game_name).title}"

    def compose(self) -> ComposeResult:
        if not self.every_game:
            with VerticalScroll(id="rules-scroll"):
                yield Markdown(rules_text(self.game_name, self.options), id="rules-text")
        else:
            with TabbedContent(initial=f"rules-{self.game_name}", id="rules-tabs"):
                for name in GAME_NAMES:
                    with TabPane(get_game(name).title, id=f"rules-{name}"), VerticalScroll(classes="rules-scroll"):
                        yield Markdown(rules_text(name), classes="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.focus_rules()

    def focus_rules(self) -> None:
        """The keys scroll the rules shown (↑ ↓ PgUp PgDn)."""
        if self.every_game:
            pane = self.query_one(TabbedContent).active_pane
            if pane is not None:
                pane.query_one(VerticalScroll).focus()
        else:
            self.query_one("#rules-scroll").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "other_game":
            return self.every_game  # one game only: no tabs to go between
        return True

    def action_other_game(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        names = list(GAME_NAMES)
        shown = (tabs.active or "").removeprefix("rules-")
        self.game_name = names[(names.index(shown) + step) % len(names)] if shown in names else names[0]
        tabs.active = f"rules-{self.game_name}"
        self.call_after_refresh(self.focus_rules)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab clicked: its game's rules take the keys."""
        self.game_name = (event.pane.id or "").removeprefix("rules-") or self.game_name
        self.call_after_refresh(self.focus_rules)
