"""The application around the table: keys greyed out when they do nothing, the command palette,
preferences that persist, and the mouse."""

from __future__ import annotations

import gc
import weakref

from core.moves import Play
from tests.tui.conftest import human_turn, match_of, quick_app, table, wait_until
from tui.app import DominoesApp
from tui.commands import ScreenActions
from tui.preferences import Preferences, load_preferences
from tui.screens.rules import RulesScreen
from tui.widgets.board_tree import BoardTree
from tui.widgets.hand_view import HandView


async def test_keys_that_do_nothing_now_are_greyed_out():
    app = quick_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        screen = table(app)
        enabled = {binding.binding.action: binding.enabled for binding in screen.active_bindings.values()}
        assert enabled["hint"] and enabled["draw"]
        assert not enabled["redo"]  # nothing to redo yet
        assert enabled["undo"] == match_of(app).can_undo()


async def test_the_command_palette_offers_the_screens_actions_and_runs_them():
    app = quick_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        provider = ScreenActions(app.screen)
        titles = {title for title, _, _ in provider._commands()}
        assert {"Hint", "Draw", "Pass", "Speed", "Rules", "Leave", "Play"} <= titles
        assert "Redo" not in titles  # greyed out now, so not offered
        hits = [hit async for hit in provider.search("rules")]
        assert hits and hits[0].help == "key: ?"
        await hits[0].command()
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.game_name == "chicken-foot"


async def test_theme_and_bot_speed_persist():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")  # textual-dark -> textual-light
        await pilot.press("t")  # -> ansi-dark
        assert app.theme == "ansi-dark"
    assert load_preferences().theme == "ansi-dark"
    app = quick_app(speed="instant")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.press("s")
    assert load_preferences().bot_speed == "normal"


async def test_a_new_match_remembers_names_and_seats(private_home):
    app = quick_app(speed="instant")
    async with app.run_test(size=(80, 24)):
        pass
    prefs = load_preferences()
    assert prefs.names[:4] == ("You", "Seat 2", "Seat 3", "Seat 4")
    assert prefs.seats[:4] == ("human", "bot:easy", "bot:easy", "bot:random")


async def test_mouse_click_selects_a_tile_and_a_second_click_plays_it():
    app = quick_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        screen = table(app)
        match = match_of(app)
        hand = screen.query_one(HandView)
        playable = [t for t in hand.tiles if any(type(m) is Play and m.tile is t for m in match.legal_moves())]
        index = hand.tiles.index(playable[-1])
        per_row = hand.content_size.width // 6
        # Inside the border (1) and the padding (1): column 1 of the tile is its first number.
        offset = (2 + (index % per_row) * 6 + 1, 1 + (index // per_row) * 2)
        assert index != hand.cursor  # the cursor starts on the first legal tile, not the last
        before = match.cursor
        await pilot.click(HandView, offset=offset)
        assert hand.selected is playable[-1] and match.cursor == before
        targets = [m.target for m in match.legal_moves() if type(m) is Play and m.tile is playable[-1]]
        await pilot.click(HandView, offset=offset)
        await pilot.pause()
        if len(targets) == 1:
            assert match.events[before] == Play(playable[-1], targets[0])
        else:
            assert screen.query_one(BoardTree).has_focus and match.cursor == before


async def test_new_match_form_follows_the_player_count_and_refuses_bad_options():
    from textual.widgets import Input, Select

    from tui.screens.new_match import NewMatchScreen
    from tui.screens.table import TableScreen

    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewMatchScreen)
        await wait_until(pilot, lambda: screen.options_for == ("chicken-foot", 4))  # the form is built
        screen.query_one("#option-rounds", Input).value = "7"
        screen.query_one("#players", Select).value = 6
        # The options are rebuilt by an awaited handler, which takes a while on a busy machine.
        await wait_until(pilot, lambda: screen.options_for == ("chicken-foot", 6))
        shown = [screen.query_one(f"#seat-row-{seat}").display for seat in range(8)]
        assert shown == [True] * 6 + [False] * 2
        # centre_trains runs from the player count up, so its default follows the count.
        assert screen.query_one("#option-centre_trains", Input).value == "6"
        assert screen.query_one("#option-rounds", Input).value == "7"  # what was typed stays
        screen.query_one("#option-rounds", Input).focus()  # it may lie below the fold at 80x24
        await pilot.pause()
        await pilot.press("end", "backspace", "backspace", "1", "1")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is screen  # nothing started
        assert "option rounds must be a whole number from 1 to 10, not 11" in str(
            screen.query_one("#new-error").render()
        )
        await pilot.press("backspace", "backspace", "3")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.match.players == 6 and app.match.options["rounds"] == 3


async def test_the_app_hears_of_every_event_and_every_undo():
    """The seam where autosave plugs in: one MatchChanged per event applied or cursor moved."""
    from tests.tui.conftest import quick_settings
    from tui.screens.table import TableScreen

    cursors: list[int] = []

    class Recording(DominoesApp):
        def on_table_screen_match_changed(self, message: TableScreen.MatchChanged) -> None:
            super().on_table_screen_match_changed(message)
            cursors.append(message.match.cursor)

    app = Recording(start=quick_settings(), preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.pause()
        match = match_of(app)
        # One message per event; each handled with the match where it is then (at instant speed
        # the next event may already be applied), never behind the events announced so far.
        assert len(cursors) == match.cursor
        assert all(cursor >= announced for announced, cursor in enumerate(cursors, 1))
        await pilot.press("h", "enter")
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.pause()
        assert len(cursors) == match.cursor and cursors[-1] == match.cursor
        await pilot.press("u")
        await pilot.pause()
        assert len(cursors) == len(match.events) + 1  # and one for the undo
        assert cursors[-1] == match.cursor < len(match.events) and app.match is match


async def test_the_move_log_shows_the_newest_moves_and_scrolls_back():
    from tests.tui.conftest import finished_round
    from tui.screens.round_over import RoundOverScreen
    from tui.widgets.move_log import MoveLog

    match = finished_round(seed=4)
    app = DominoesApp(match=match, preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RoundOverScreen))
        app.pop_screen()  # look at the table behind the round's end
        await pilot.pause()
        log = app.screen.query_one(MoveLog)
        last = match.game.describe_move(match.state_at(match.cursor - 1), match.events[-1], match.names)
        assert str(log.render()).endswith(last)
        log.focus()
        await pilot.press("up", "up")
        assert log.back == 2 and not str(log.render()).endswith(last)
        await pilot.press("end")
        assert log.back == 0 and str(log.render()).endswith(last)


async def test_a_screen_that_leaves_is_freed_once_it_is_taken_down():
    """A screen taken down is garbage in cycles, which the collector's own full collections free
    only now and then: the app collects once the screen is down. With automatic collection off,
    nothing else frees it."""
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    gc.disable()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await app.push_screen(RulesScreen("chicken-foot"))
            await pilot.pause()
            rules = weakref.ref(app.screen)
            assert isinstance(rules(), RulesScreen)
            await app.pop_screen()
            await wait_until(pilot, lambda: rules() is None, timeout=15)
    finally:
        gc.enable()
