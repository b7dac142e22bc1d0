"""Snapshot tests of the screens (pytest-textual-snapshot). Every SVG was looked at before it was
accepted; update with `pytest tests/tui/test_snapshots.py --snapshot-update` and look again."""

from __future__ import annotations

from textual.widgets import Input

from tests.tui.board_positions import late_chicken_foot
from tests.tui.conftest import finished_round, human_turn, quick_app, quick_settings, take_a_turn, wait_until
from tui.app import DominoesApp
from tui.preferences import Preferences
from tui.screens.game_over import GameOverScreen
from tui.screens.round_over import RoundOverScreen


def steady(app: DominoesApp) -> None:
    """No blinking cursor, so the picture does not depend on the moment it is taken."""
    for field in app.screen.query(Input):
        field.cursor_blink = False


def title_app(theme: str = "textual-dark") -> DominoesApp:
    return DominoesApp(preferences=Preferences(bot_speed="instant", theme=theme))


async def at_human_turn(pilot) -> None:
    await wait_until(pilot, lambda: human_turn(pilot.app))
    steady(pilot.app)


def test_title(snap_compare):
    assert snap_compare(title_app())


def test_new_match(snap_compare):
    async def open_form(pilot):
        await pilot.press("n")
        await pilot.pause()
        steady(pilot.app)

    assert snap_compare(title_app(), run_before=open_form)


def test_rules(snap_compare):
    assert snap_compare(title_app(), press=["question_mark"])


def test_table_80x24(snap_compare):
    assert snap_compare(quick_app(quick_settings(seed=7)), run_before=at_human_turn, terminal_size=(80, 24))


def test_table_120x40(snap_compare):
    settings = quick_settings(kinds=("human", "bot:easy", "bot:easy", "bot:random", "bot:easy"), seed=21)
    assert snap_compare(quick_app(settings), run_before=at_human_turn, terminal_size=(120, 40))


def late_round_app() -> DominoesApp:
    return DominoesApp(match=late_chicken_foot(), preferences=Preferences(bot_speed="instant"))


def test_late_chicken_foot_round_80x24(snap_compare):
    """8 players, a bot's 1-1 has opened a foot four levels down: the board shows it, the toe the
    picked tile fits, and counts the ends above."""
    assert snap_compare(late_round_app(), run_before=at_human_turn, terminal_size=(80, 24))


def test_late_chicken_foot_round_120x40(snap_compare):
    assert snap_compare(late_round_app(), run_before=at_human_turn, terminal_size=(120, 40))


def test_hint(snap_compare):
    async def hint_shown(pilot):
        await at_human_turn(pilot)
        await pilot.press("h")
        notice = pilot.app.screen.query_one("#notice")
        await wait_until(pilot, lambda: not str(notice.render()).endswith("thinking…"))

    assert snap_compare(quick_app(quick_settings(seed=7)), run_before=hint_shown)


def test_illegal_move_notice(snap_compare):
    # Seed 7 gives the human a tile that fits at the first turn: drawing instead breaks CF-7.
    assert snap_compare(quick_app(quick_settings(seed=7)), run_before=at_human_turn, press=["d"])


def finished_app() -> DominoesApp:
    return DominoesApp(match=finished_round(seed=4), preferences=Preferences(bot_speed="instant"))


def test_round_over_reveals_every_hand(snap_compare):
    async def to_round_over(pilot):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RoundOverScreen))

    assert snap_compare(finished_app(), run_before=to_round_over)


def test_game_over(snap_compare):
    async def to_game_over(pilot):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RoundOverScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))

    assert snap_compare(finished_app(), run_before=to_game_over)


def test_ansi_theme_16_colours(snap_compare):
    app = DominoesApp(start=quick_settings(seed=7), preferences=Preferences(bot_speed="instant", theme="ansi-dark"))
    assert snap_compare(app, run_before=at_human_turn)


def test_hot_seat_pass_screen(snap_compare):
    from tui.screens.pass_device import PassScreen

    settings = quick_settings(kinds=("human", "human", "bot:easy"), names=("Ana", "Ben", "Cy"), seed=5)

    async def to_pass_screen(pilot):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PassScreen) or human_turn(pilot.app))
        while not isinstance(pilot.app.screen, PassScreen):
            await take_a_turn(pilot)
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, PassScreen) or human_turn(pilot.app))

    assert snap_compare(quick_app(settings), run_before=to_pass_screen)


def test_load_screen(snap_compare, monkeypatch):
    import time

    from tests.tui.test_saving import damaged_store

    monkeypatch.setenv("TZ", "UTC")  # "last played" is shown in local time
    time.tzset()
    damaged_store()
    try:
        assert snap_compare(title_app(), press=["l"])
    finally:
        monkeypatch.undo()
        time.tzset()


def test_scorepad_in_round_10_at_80x24(snap_compare):
    """The last round of a ten-round Chicken Foot match: the oldest rounds folded into one line,
    every player's column and the totals in sight, no scrollbar."""
    from tests.tui.positions import chicken_foot_last_round

    app = DominoesApp(match=chicken_foot_last_round(), preferences=Preferences(bot_speed="instant"))
    assert snap_compare(app, run_before=at_human_turn, terminal_size=(80, 24))


def test_moon_game_over_after_a_made_21_at_80x24(snap_compare):
    """MN-19: easy 2 makes 21 from behind; the headline, the reason and the standings agree."""
    from tests.tui.positions import moon_made_from_behind

    app = DominoesApp(match=moon_made_from_behind(), preferences=Preferences(bot_speed="instant"))

    async def to_game_over(pilot):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, RoundOverScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, GameOverScreen))

    assert snap_compare(app, run_before=to_game_over, terminal_size=(80, 24))


HOT_SEAT_NAMES = ("Ana", "Ben", "Cy")


def test_hot_seat_start_at_80x24(snap_compare):
    """Seed 3: the bot plays first; then the first human's pass screen, before any hand shows."""
    from tui.screens.pass_device import PassScreen

    settings = quick_settings(kinds=("human", "human", "bot:easy"), names=HOT_SEAT_NAMES, seed=3)

    async def to_pass_screen(pilot):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PassScreen))

    assert snap_compare(quick_app(settings), run_before=to_pass_screen, terminal_size=(80, 24))


def test_hot_seat_resume_at_80x24(snap_compare):
    """A saved hot-seat match resumed (dominoes --resume) on Ana's turn: her pass screen first."""
    import random

    from cli.play_commands import resume_save
    from core.bots import get_bot
    from saves import Autosave, SaveStore
    from tui.screens.pass_device import PassScreen

    match = quick_settings(kinds=("human", "human", "bot:easy"), names=HOT_SEAT_NAMES, seed=2).new_match()
    match.deal()  # seed 2: Ana plays first; everyone plays as the easy bot would, twice round
    bot = get_bot("easy")
    rng = random.Random(2)
    while match.cursor < 7 or match.state.to_move != 0:
        match.apply(bot.choose(match.view(match.state.to_move), match.legal_moves(), rng))
    Autosave(SaveStore(), match)()
    app = DominoesApp(saved=resume_save(""), preferences=Preferences(bot_speed="instant"))

    async def to_pass_screen(pilot):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, PassScreen))

    assert snap_compare(app, run_before=to_pass_screen, terminal_size=(80, 24))
