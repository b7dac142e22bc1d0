"""Choosing a lesson: one guided first game per game, each with what it teaches."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core import GAME_NAMES, GAME_TITLES
from tui.lessons import LessonError, load_lesson
from tui.styles import STYLES
from tui.widgets.footer import Footer


def lesson_summary(game: str) -> str:
    """What the game's lesson teaches, or why it cannot be offered."""
    try:
        lesson = load_lesson(game)
    except LessonError as error:
        return f"not available: {error}"
    return f"{lesson.summary} · {len(lesson.steps)} steps"


class LearnScreen(ModalScreen[str | None]):
    """Dismissed with the game to learn, or None (Escape)."""

    CSS_PATH: ClassVar = STYLES / "learn_menu.tcss"

    BINDINGS = [Binding("escape", "dismiss(None)", "Back", id="learn.back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="learn-box"):
            yield Static("Learn a game: a first round step by step, then play on", id="learn-heading")
            options = []
            for game in GAME_NAMES:
                prompt = Text(GAME_TITLES[game], style="bold")
                prompt.append("\n" + lesson_summary(game), style="dim")
                options.append(Option(prompt, id=game))
            yield OptionList(*options, id="learn-menu")
            yield Static(
                "Saved as you go: Resume brings you back to the same step.\nEnter: start the lesson · Esc: back",
                id="learn-keys",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)
