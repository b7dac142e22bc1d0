"""Snapshots of the Doubles and Moon tables and of Moon's dialogs. Every SVG was looked at before
it was accepted; update with `pytest tests/tui/test_snapshots_other_games.py --snapshot-update`."""

from __future__ import annotations

from tests.tui.conftest import human_turn, quick_app, wait_until
from tests.tui.test_play_doubles import doubles_settings
from tests.tui.test_play_moon import moon_settings, ready, take_a_moon_turn
from tui.screens.moon_dialogs import MoonDialog
from tui.settings import build_settings


def at_moon(phase: str, mid_trick: bool = False):
    """Play (the human by keys) until the human must act in `phase` (with a trick under way)."""

    async def run(pilot) -> None:
        app = pilot.app
        for _ in range(200):
            await wait_until(pilot, lambda: ready(app))
            state = app.match.state
            if state.phase == phase and (not mid_trick or state.trick):
                await pilot.pause()
                return
            await take_a_moon_turn(pilot, set())
        raise AssertionError(f"the human never had to act in the {phase} phase")

    return run


def test_doubles_table_80x24(snap_compare):
    async def later(pilot) -> None:
        from tests.tui.conftest import take_a_turn

        app = pilot.app
        for _ in range(3):  # a few tiles on the board, a locked number or two
            await wait_until(pilot, lambda: human_turn(app))
            await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app))

    assert snap_compare(quick_app(doubles_settings()), run_before=later, terminal_size=(80, 24))


def test_doubles_nested_spinners_80x24(snap_compare):
    """Spinners on spinners: each arm named by its double, free sides folded, every end the picked
    tile fits marked "play here"."""
    from tests.tui.board_positions import doubles_with_nested_spinners
    from tui.app import DominoesApp
    from tui.preferences import Preferences

    app = DominoesApp(match=doubles_with_nested_spinners(), preferences=Preferences(bot_speed="instant"))

    async def at_human_turn(pilot) -> None:
        await wait_until(pilot, lambda: human_turn(app))

    assert snap_compare(app, run_before=at_human_turn, terminal_size=(80, 24))


def test_moon_table_80x24(snap_compare):
    assert snap_compare(quick_app(moon_settings()), run_before=at_moon("play", True), terminal_size=(80, 24))


def test_moon_table_120x40(snap_compare):
    assert snap_compare(quick_app(moon_settings(seed=5)), run_before=at_moon("play", True), terminal_size=(120, 40))


def test_moon_bidding_dialog(snap_compare):
    async def bidding(pilot) -> None:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, MoonDialog))

    assert snap_compare(quick_app(moon_settings()), run_before=bidding, terminal_size=(80, 24))


def test_moon_trump_dialog(snap_compare):
    assert snap_compare(quick_app(moon_settings()), run_before=at_moon("trump"), terminal_size=(80, 24))


def test_doubles_table_120x40(snap_compare):
    async def later(pilot) -> None:
        from tests.tui.conftest import take_a_turn

        app = pilot.app
        for _ in range(4):
            await wait_until(pilot, lambda: human_turn(app))
            await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app))

    settings = build_settings("doubles", 4, ["human", "bot:easy", "bot:easy", "bot:random"], [], {"target": 50}, 12)
    assert snap_compare(quick_app(settings), run_before=later, terminal_size=(120, 40))
