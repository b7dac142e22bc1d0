"""Keys that always answer: a key that cannot act now says why in the notice line, undo and redo
work from Moon's dialogs, passing words never cover the hand, and the new-match form's switches and
focus read without colour."""

from __future__ import annotations

from textual.widgets import Checkbox

from tests.tui.conftest import human_turn, match_of, quick_app, quick_settings, table, take_a_turn, wait_until
from tests.tui.test_play_moon import moon_settings, ready, take_a_moon_turn
from tui.app import DominoesApp
from tui.commands import ScreenActions
from tui.preferences import Preferences
from tui.screens.moon_dialogs import MoonDialog
from tui.screens.new_match import NewMatchScreen
from tui.screens.round_over import RoundOverScreen
from tui.screens.table import TableScreen
from tui.settings import build_settings


def notice(app) -> str:
    screen = next(s for s in reversed(app.screen_stack) if isinstance(s, TableScreen))
    return str(screen.query_one("#notice").render())


async def test_undo_and_redo_with_nothing_to_do_say_so_and_redone_does_not_linger():
    app = quick_app(quick_settings(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        match = match_of(app)
        assert not match.can_undo() and not match.can_redo()  # seed 7: the human's first decision
        await pilot.press("u")
        assert notice(app) == "Nothing to undo."
        await pilot.press("r")
        assert notice(app) == "Nothing to redo."
        await take_a_turn(pilot)
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.press("u")
        await pilot.press("r")
        assert notice(app) == "Redone."
        await pilot.press("r")
        assert notice(app) == "Nothing to redo."


async def test_keys_pressed_while_a_bot_thinks_say_who_it_waits_for():
    app = quick_app(quick_settings(seed=7), speed="slow")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app), 20)
        await take_a_turn(pilot)
        screen = table(app)
        names = match_of(app).names
        for key in ("h", "enter", "d", "p"):
            await wait_until(pilot, lambda: screen.thinking is not None, 20)
            thinker = names[screen.thinking]
            screen.set_notice("")
            await pilot.press(key)
            # The bot named (the next one, if the bot finished meanwhile on a busy machine).
            assert notice(app) in (f"Wait: {thinker} is thinking.", f"Wait: {names[screen.thinking or 0]} is thinking.")


async def test_undo_and_redo_work_from_the_moon_dialogs():
    app = quick_app(moon_settings(seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        match = match_of(app)
        await wait_until(pilot, lambda: ready(app))
        assert isinstance(app.screen, MoonDialog) and match.state.phase == "bidding"
        if not match.can_undo():
            await pilot.press("u")  # nothing to undo: the dialog stays and says so
            assert isinstance(app.screen, MoonDialog)
            assert str(app.screen.query_one("#dialog-note").render()).startswith("Nothing to undo.\n")
        for _ in range(10):
            await wait_until(pilot, lambda: ready(app))
            if isinstance(app.screen, MoonDialog) and match.state.phase == "trump":
                break
            await take_a_moon_turn(pilot, set())
        else:
            raise AssertionError("seed 3: the human wins the bidding and names trump")
        trump_cursor = match.cursor
        await pilot.press("u")  # from the trump dialog: back to laying a tile aside (MN-11)
        await wait_until(pilot, lambda: ready(app))
        assert match.state.phase == "discard" and isinstance(app.screen, TableScreen)
        assert notice(app) == "Undone: back to your previous decision."
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, MoonDialog))
        assert match.cursor == trump_cursor and match.state.phase == "trump"
        await pilot.press("r")  # in the dialog, with nothing to redo
        assert isinstance(app.screen, MoonDialog)
        assert str(app.screen.query_one("#dialog-note").render()).startswith("Nothing to redo.\n")


async def test_speed_and_theme_are_told_in_the_notice_line_not_over_the_hand():
    app = quick_app(quick_settings(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        await pilot.press("s")
        assert notice(app) == "Bots now play at normal speed."
        await pilot.press("t")
        assert notice(app) == f"Theme: {app.theme}."
        await pilot.pause()
        assert not app.screen.query("Toast")


async def test_the_palette_offers_theme_and_quit_once():
    app = quick_app(quick_settings(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: human_turn(app))
        ours = [title for title, _, _ in ScreenActions(app.screen)._commands()]
        textual = [command.title for command in app.get_system_commands(app.screen)]
        assert (ours + textual).count("Theme") == 1 and (ours + textual).count("Quit") == 1
        assert {"Hint", "Leave", "Speed"} <= set(ours)  # the table's own actions are still there


async def test_a_rule_switch_reads_on_or_off_and_the_focused_field_is_marked():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewMatchScreen) and bool(app.screen.query(Checkbox)))
        form = app.screen
        switch = form.query_one("#option-double_blank_50", Checkbox)
        assert not switch.value and str(switch.render()).split() == ["▐", "▌", "off"]  # no mark when off
        switch.focus()
        await pilot.press("space")
        assert switch.value and str(switch.render()).split() == ["▐X▌", "on"]
        assert switch.parent.has_class("-focused")  # its row's label is drawn in reverse
        form.query_one("#seed").focus()
        await pilot.pause()
        assert not switch.parent.has_class("-focused") and form.query_one("#seed").parent.has_class("-focused")


async def test_after_a_hint_enter_plays_the_hinted_tile_at_the_hinted_end():
    from core.bots.hint import hint
    from core.moves import Play
    from tui.presentation import targets_for
    from tui.widgets.board_tree import BoardTree
    from tui.widgets.hand_view import HandView

    kinds = ("human", "bot:easy", "bot:easy")
    app = quick_app(build_settings("doubles", 3, list(kinds), [], {}, 25))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(30):  # turns, until the hint's tile fits several ends and the hint names another
            await wait_until(pilot, lambda: human_turn(app) or isinstance(app.screen, RoundOverScreen))
            if isinstance(app.screen, RoundOverScreen):
                await pilot.press("enter")
                continue
            match = match_of(app)
            move, _ = hint(match.view(0), match.legal_moves())
            ends = targets_for(match.legal_moves(), move.tile) if type(move) is Play else ()
            if len(ends) > 1 and move.target != ends[0]:
                break
            await take_a_turn(pilot)
        else:
            raise AssertionError("no hint named a later end of a tile that fits several")
        screen = table(app)
        await pilot.press("h")
        await wait_until(pilot, lambda: notice(app).startswith("Hint: "))
        assert screen.query_one(HandView).selected is move.tile
        before = match.cursor
        await pilot.press("enter")  # the board opens on the hint's end, not the first
        board = screen.query_one(BoardTree)
        assert board.has_focus and board.cursor_node.data == move.target
        assert notice(app).startswith("The hint's end for the")
        await pilot.press("enter")
        await wait_until(pilot, lambda: match.cursor > before)
        assert match.events[before] == move


class FirstTableFrame(DominoesApp):
    """Notes the footer's keys in the first frame of the table."""

    first_table_keys: list[str] | None = None

    def _display(self, screen, renderable) -> None:
        if isinstance(screen, TableScreen) and self.first_table_keys is None:
            self.first_table_keys = [key.action for key in screen.query("FooterKey")]
        super()._display(screen, renderable)


async def test_the_table_is_drawn_first_with_the_hand_focused_and_its_key_in_the_footer():
    """The table focused its hand only after the screen had given the focus to the board, so its
    first frame showed the board's key in the footer, and a frame later Play, the keys beside it
    moving."""
    app = FirstTableFrame(start=quick_settings(seed=7), preferences=Preferences(bot_speed="slow"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.first_table_keys is not None)
        assert app.first_table_keys[0] == "choose"  # ⏎ Play, the hand's
        assert type(app.focused).__name__ == "HandView"
