"""Guided first games: one lesson per game, kept as data beside this module (`<game>.toml`).

A lesson is a stacked deal and a script of every event of its round (the learner's moves and the
bots'), with a step of text at each of the learner's decisions. `load_lesson(game)` reads one;
`lesson_for(match)` tells whether a match is a lesson (a saved lesson reopens as one). Nothing here
imports Textual, so `dominoes learn` checks its argument before the interface starts.
"""

from tui.lessons.model import Lesson, Step
from tui.lessons.reading import LessonError, lesson_for, load_lesson, parse_lesson

__all__ = ["Lesson", "LessonError", "Step", "lesson_for", "load_lesson", "parse_lesson"]
