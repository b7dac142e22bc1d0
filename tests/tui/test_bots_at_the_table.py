"""Bots at the table: searching levels think in the bot process, undo cancels them, and a decision
made again from the same position comes out the same."""

from __future__ import annotations

from core.moves import Play
from tests.tui.conftest import human_turn, match_of, quick_app, quick_settings, table, take_a_turn, wait_until
from tui.screens.round_over import RoundOverScreen


async def test_a_searching_bot_thinks_in_the_bot_process_which_closes_with_the_app():
    app = quick_app(quick_settings(kinds=("human", "bot:medium"), seed=7))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app), timeout=30)
        match = match_of(app)
        before = match.cursor
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen), timeout=30)
        assert match.cursor > before + 1  # the medium bot moved
        process = app._bot_process._process  # type: ignore[union-attr]
        assert process is not None and process.poll() is None  # it answered from its own process
        assert not app._notifications  # and not from the fallback in the interface's process
    assert process.poll() is not None  # closed when the app exited


async def test_undo_while_a_hard_bot_searches_stops_the_search(monkeypatch):
    # A search long enough to be under way when the undo comes, however busy the machine: with its
    # usual second, a search could end before the key got through, and there was nothing to stop.
    monkeypatch.setattr("tui.screens.table.BOT_BUDGET", 60.0)
    app = quick_app(quick_settings(kinds=("human", "bot:hard"), seed=7))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app), timeout=30)
        match = match_of(app)
        screen = table(app)
        # The hard bot answers at once when one move is clearly best: take turns until it searches.
        for _ in range(10):
            decision = match.cursor
            await take_a_turn(pilot)
            await wait_until(pilot, lambda: screen.asking_process is not None or human_turn(app), timeout=30)
            if screen.asking_process is not None:
                break
        bots = app._bot_process
        assert bots is not None and screen.asking_process is not None
        await wait_until(pilot, lambda: bots._process is not None)  # the thread has sent the request
        await pilot.pause(0.05)
        process = bots._process
        await pilot.press("u")
        assert match.cursor == decision and screen.thinking is None and screen.asking_process is None
        assert process is not None and process.wait(timeout=5) is not None  # the search was stopped
        await pilot.pause(0.3)
        assert match.cursor == decision and human_turn(app)


async def test_the_same_move_again_after_undo_gets_the_same_replies():
    # Random bots: every reply depends on the decision's seed (match seed, seat and cursor).
    app = quick_app(quick_settings(kinds=("human", "bot:random", "bot:random", "bot:random"), seed=7))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        match = match_of(app)
        decision = match.cursor
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
        first = match.events[decision : match.cursor]
        assert type(first[0]) is Play or len(first) > 1
        await pilot.press("u")
        await pilot.pause()
        # Play the same move once more: the redo tail is replaced, and the bots decide afresh.
        table(app).play(first[0])
        await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
        assert match.events[decision : match.cursor] == first
