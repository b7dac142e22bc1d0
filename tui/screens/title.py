"""The title screen: resume the latest unfinished match, new match, learn a game, load, statistics,
rules, quit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core import GAME_NAMES, GAME_TITLES
from tui.host import host

if TYPE_CHECKING:
    from saves import Loaded

BANNER = "[b]D O M I N O E S[/b]"
BANNER_TILES = "[dim][1|2] [2|5] [5|5] [5|9][/dim]"


class TitleScreen(Screen[None]):
    BINDINGS = [
        Binding("c", "resume", "Resume", id="title.resume"),
        Binding("n", "new_match", "New match", id="title.new"),
        Binding("g", "learn", "Learn", tooltip="Learn a game", id="title.learn"),
        Binding("l", "load", "Load", id="title.load"),
        Binding("s", "stats", "Stats", tooltip="Your statistics", id="title.stats"),
        Binding("question_mark", "rules", "Rules", key_display="?", id="title.rules"),
        Binding("q", "app.quit", "Quit", id="title.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.latest: Loaded | None = None  # the latest unfinished match, offered to resume
        self.looks = 0  # how many times the saves were read for it

    def compose(self) -> ComposeResult:
        games = " · ".join(GAME_TITLES[name] for name in GAME_NAMES)
        # The banner and its tiles in one widget, the box centred by the screen: each widget is styles
        # worked out and lines drawn before the first frame (bench/startup.py).
        with Vertical(id="title-box"):
            yield Static(f"{BANNER}\n{BANNER_TILES}", id="banner")
            yield Static(games, id="games")
            yield OptionList(
                Option("New match", id="new"),
                Option("Learn a game", id="learn"),
                Option("Load a match", id="load"),
                Option("Your statistics", id="stats"),
                Option("Rules", id="rules"),
                Option("Quit", id="quit"),
                id="title-menu",
            )

    def on_mount(self) -> None:
        self.call_after_refresh(self.add_footer)

    def add_footer(self) -> None:
        """The keys, a frame after the title and its menu: composing them (a widget a key) and
        working out their styles took as long as the rest of the first frame (bench/startup.py)."""
        from tui.widgets.footer import Footer

        self.mount(Footer())

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.find_latest)  # after the first frame: reading saves takes a while

    @work(thread=True, exclusive=True, group="latest")
    def find_latest(self) -> None:
        """Read the saves after the first frame (loading replays every match), then offer the latest."""
        from saves.listing import match_to_resume

        self.app.call_from_thread(self.offer, match_to_resume(host(self).store))

    def offer(self, loaded: Loaded | None) -> None:
        from saves.summary import round_text

        self.latest = loaded
        self.looks += 1
        menu = self.query_one_optional("#title-menu", OptionList)
        if menu is None:  # the saves were read as the title closed (a match began): nothing to offer on
            return
        options = [option for option in menu.options if option.id != "resume"]
        changed = loaded is not None or len(options) != menu.option_count
        if loaded is not None:
            from tui.lessons import lesson_for

            match = loaded.record.match
            lesson = lesson_for(match)
            what = (
                lesson.where(match, total=False) if lesson is not None else f"{match.game.title}, {round_text(match)}"
            )
            # The offer goes first and is highlighted: Enter resumes.
            options.insert(0, Option(f"Resume: {what}", id="resume"))
        if changed:
            menu.clear_options()
            menu.add_options(options)
            menu.highlighted = 0
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return self.latest is not None
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        actions = {
            "resume": self.action_resume,
            "new": self.action_new_match,
            "learn": self.action_learn,
            "load": self.action_load,
            "stats": self.action_stats,
            "rules": self.action_rules,
            "quit": self.app.exit,
        }
        actions[event.option.id or "quit"]()

    def action_resume(self) -> None:
        if self.latest is not None:
            host(self).resume(self.latest)

    def action_new_match(self) -> None:
        from tui.screens.new_match import NewMatchScreen  # imported on first use: a faster start

        self.app.push_screen(NewMatchScreen())

    def action_learn(self) -> None:
        from tui.screens.learn_menu import LearnScreen

        self.app.push_screen(LearnScreen(), self.start_lesson)

    def start_lesson(self, game: str | None) -> None:
        from tui.lessons import LessonError, load_lesson

        if game is None:
            return
        try:
            lesson = load_lesson(game)
        except LessonError as error:
            self.notify(f"The lesson cannot be started: {error}", severity="error", timeout=8)
            return
        host(self).open_match(lesson.new_match())

    def action_load(self) -> None:
        host(self).show_load()

    def action_stats(self) -> None:
        host(self).show_stats()

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(host(self).last_game, every_game=True))  # before a game is chosen
