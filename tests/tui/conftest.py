"""Shared set-up for the interface tests: a private preferences directory, and waiting helpers."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from core import Match
from core.moves import DRAW, Play
from tests.core.harness import play_out
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.settings import build_settings
from tui.widgets.board_tree import BoardTree
from tui.widgets.hand_view import HandView


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run `async def` tests in a fresh event loop (Textual's pilot is asynchronous)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        asyncio.run(pyfuncitem.obj(**arguments))
        return True
    return None


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    """Preferences go to a temporary directory, never the user's."""
    monkeypatch.setenv("DOMINOES_HOME", str(tmp_path))
    return tmp_path


async def wait_until(pilot, condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Let the app run (bots think in workers) until `condition` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting; screen is {pilot.app.screen!r}")
        await pilot.pause(0.01)


def record_notices(app: DominoesApp) -> list[tuple[str, str]]:
    """(severity, message) of every notice the app shows from now on. A notice leaves the screen
    (and the app's own list) when its timeout passes, which on a busy machine can be before a test
    looks, so the test looks here."""
    shown: list[tuple[str, str]] = []
    notify = app.notify

    def recording(message: str, **options: Any) -> None:
        shown.append((options.get("severity", "information"), message))
        notify(message, **options)

    app.notify = recording  # type: ignore[method-assign]
    return shown


def quick_settings(kinds=("human", "bot:easy", "bot:easy", "bot:random"), seed=7, rounds=1, names=()):
    return build_settings("chicken-foot", len(kinds), list(kinds), list(names), {"rounds": rounds}, seed)


def finished_round(seed: int = 4, players: int = 4) -> Match:
    """A one-round match of easy bots, played in the engine up to the end of its only round."""
    kinds = ("bot:easy",) * players
    match = quick_settings(kinds=kinds, seed=seed).new_match()
    return play_out(match, seed)


def quick_app(settings=None, speed="instant") -> DominoesApp:
    return DominoesApp(start=settings or quick_settings(), preferences=Preferences(bot_speed=speed))


def table(app: DominoesApp):
    from tui.screens.table import TableScreen

    screen = app.screen
    assert isinstance(screen, TableScreen), screen
    return screen


def human_turn(app: DominoesApp) -> bool:
    from tui.screens.table import TableScreen

    screen = app.screen
    return isinstance(screen, TableScreen) and screen.human_to_move() and screen.thinking is None


def match_of(app: DominoesApp) -> Match:
    assert app.match is not None
    return app.match


async def take_a_turn(pilot, last: bool = False) -> None:
    """The human's turn at a table at this keyboard, by keys (see `press_a_turn`)."""
    app = pilot.app
    screen = table(app)
    before = match_of(app).cursor
    await press_a_turn(pilot, screen, match_of(app).legal_moves(), last)
    assert match_of(app).cursor > before, screen.query_one("#notice").render()


async def press_a_turn(pilot, screen, legal, last: bool = False) -> None:
    """Keys for a turn with `legal` moves: Enter on the first legal tile (or the last, walking to it
    with the arrow key), and on its end if it has several; or draw, or pass."""
    hand = screen.query_one(HandView)
    playable = {move.tile for move in legal if type(move) is Play}
    if playable:
        assert hand.selected in playable  # the cursor starts on the first legal tile
        if last:
            target = max(i for i, tile in enumerate(hand.tiles) if tile in playable)
            await pilot.press(*["right"] * (target - hand.cursor))
        await pilot.press("enter")
        if screen.query_one(BoardTree).has_focus:
            await pilot.press("enter")
    elif DRAW in legal:
        await pilot.press("d")
    else:
        await pilot.press("p")
