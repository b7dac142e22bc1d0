"""Snapshot tests of the lessons at 80x24: one step of each, and the choice of lessons. Every SVG was
looked at before it was accepted (update with --snapshot-update, then look again)."""

from __future__ import annotations

from core import Match
from tests.tui.conftest import wait_until
from tui.app import DominoesApp
from tui.lessons import load_lesson
from tui.preferences import Preferences
from tui.screens.moon_dialogs import MoonDialog


def at_step(game: str, number: int) -> DominoesApp:
    """The lesson's match with its script played up to step `number`."""
    lesson = load_lesson(game)
    events = lesson.script[: lesson.steps[number - 1].index]
    match = Match(lesson.game, lesson.players, lesson.options, lesson.seats, lesson.seed, events=events)
    return DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))


async def learners_turn(pilot) -> None:
    screen = pilot.app.screen
    await wait_until(pilot, lambda: screen.human_to_move() and screen.thinking is None)


def test_chicken_foot_lesson_a_chicken_foot(snap_compare):
    assert snap_compare(at_step("chicken-foot", 3), run_before=learners_turn, terminal_size=(80, 24))


def test_doubles_lesson_a_locked_number(snap_compare):
    assert snap_compare(at_step("doubles", 2), run_before=learners_turn, terminal_size=(80, 24))


def test_doubles_lesson_a_move_off_the_lesson(snap_compare):
    async def off_the_lesson(pilot):
        await learners_turn(pilot)
        await pilot.press("left", "enter")  # the 2-5, a legal move the lesson does not want

    assert snap_compare(at_step("doubles", 2), run_before=off_the_lesson, terminal_size=(80, 24))


def test_moon_lesson_following_suit(snap_compare):
    assert snap_compare(at_step("moon", 6), run_before=learners_turn, terminal_size=(80, 24))


def test_moon_lesson_the_bid_beside_the_lesson(snap_compare):
    async def bid_dialog(pilot):
        app = pilot.app
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog))
        note = app.screen.query_one("#dialog-note")
        await wait_until(pilot, lambda: "lesson" in str(note.render()))

    assert snap_compare(at_step("moon", 1), run_before=bid_dialog, terminal_size=(80, 24))


def test_learn_a_game_menu(snap_compare):
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    assert snap_compare(app, press=["g"], terminal_size=(80, 24))
