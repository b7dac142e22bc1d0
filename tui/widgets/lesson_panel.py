"""LessonPanel: the step of a lesson beside the table: what to do now, why, and the rules it cites.

The words come from a lesson file, so they are plain text (never markup). Tiles (5-9) and rule IDs
(CF-10) in them are picked out in colour so the eye finds them on the board and in the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

TILE_PATTERN = r"\b\d-\d\b"
RULE_PATTERN = r"\b(?:CF|DB|MN)-\d{1,2}\b"


@dataclass(frozen=True)
class PanelStep:
    """What the panel shows for one step."""

    number: int
    total: int
    title: str
    rules: tuple[str, ...]
    text: str
    action: str  # what to do now, with its key ("Your move: draw (d)")
    done: bool = False  # the step's move is made; the others are playing
    note: str = ""  # after a move off the lesson: why it was taken back (shown instead of the text)
    note_kind: str = ""  # "off" (legal, but not the lesson's move) or "illegal"
    prefers: str = ""  # the lesson owning up: another move would do better, and why it asks for its own


class LessonPanel(VerticalScroll, can_focus=False):
    """The lesson's current step. It scrolls if a step is ever longer than the panel; its colours
    come from the theme (lesson.tcss)."""

    def compose(self) -> ComposeResult:
        yield Static(id="lesson-heading")
        yield Static(id="lesson-text")
        yield Static(id="lesson-note")
        yield Static(id="lesson-prefers")  # below the text, or below the reason a move was taken back
        yield Static(id="lesson-action")

    def show(self, step: PanelStep) -> None:
        self.border_title = f"Lesson · step {step.number} of {step.total}"
        self.border_subtitle = " · ".join(step.rules)  # the rules the step shows, as the game cites them
        self.query_one("#lesson-heading", Static).update(Text(step.title))
        text = self.query_one("#lesson-text", Static)
        text.update(picked_out(step.text))
        text.set_class(step.done, "done")
        text.display = not step.note  # the reason a move was taken back takes the text's place
        prefers = self.query_one("#lesson-prefers", Static)
        prefers.update(picked_out(step.prefers))
        # With the reason a move was taken back too: the move may be the very one the review prefers.
        prefers.display = bool(step.prefers) and not step.done
        action = self.query_one("#lesson-action", Static)
        action.update(picked_out(step.action))
        action.set_class(step.done, "done")
        note = self.query_one("#lesson-note", Static)
        note.update(picked_out(step.note))
        note.display = bool(step.note)
        note.set_class(step.note_kind == "illegal", "illegal")
        self.scroll_home(animate=False)


def picked_out(words: str) -> Text:
    """Plain words with the tiles in bold and the rule IDs in italics."""
    text = Text(words)
    text.highlight_regex(TILE_PATTERN, "bold")
    text.highlight_regex(RULE_PATTERN, "italic")
    return text
