"""Screens at 80 columns: nothing a player reads wraps a word away from its phrase or is cut (the
title's games and keys, the load screen's dates, the lobby's seats), and the trick view speaks to the viewer."""

from __future__ import annotations

import subprocess
import sys
import time

from textual.widgets import DataTable, OptionList, Static

from net.paths import tables_dir
from net.tables import Table, TableSeat, write_sidecar
from saves import Autosave, SaveStore
from tests.tui.conftest import quick_settings, wait_until
from tests.tui.test_saving import damaged_store, offered
from tui.app import DominoesApp
from tui.lobby_app import LobbyApp
from tui.preferences import Preferences
from tui.screens.load import LoadScreen


async def test_the_title_names_the_three_games_on_one_line_at_80x24():
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        games = app.screen.query_one("#games", Static)
        assert games.size.height == 1 and "Three-player Moon" in str(games.render())
        assert games.size.width >= len("Chicken Foot · Doubles · Three-player Moon")


async def test_with_a_match_to_resume_every_key_of_the_titles_footer_is_in_sight_at_80_columns():
    match = quick_settings().new_match()
    match.deal()
    Autosave(SaveStore(), match, match_id="20260101-0900")()
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        title = await offered(pilot)
        assert title.latest is not None
        await wait_until(pilot, lambda: any(key.description == "Resume" for key in app.screen.query("FooterKey")))
        await pilot.pause()  # the keys laid out
        shown = {key.description: key.region for key in app.screen.query("FooterKey")}  # the palette's too
        assert {"Resume", "New match", "Rules", "Quit", "palette"} <= shown.keys()
        for description, region in shown.items():
            assert region.width > 0 and region.right <= 80, f"{description} is cut or out of sight: {region}"
            hidden_by = [other for other, where in shown.items() if other != description and where.overlaps(region)]
            assert not hidden_by, f"{description} is under {hidden_by}"


async def test_the_load_screen_keeps_each_date_whole_at_80x24():
    damaged_store()
    app = DominoesApp(preferences=Preferences(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadScreen))
        menu = app.screen.query_one("#load-list", OptionList)
        room = menu.scrollable_content_region.width - 2  # an option's own padding
        for option in menu.options:
            lines = str(option.prompt).splitlines()
            assert max(len(line) for line in lines) <= room, lines  # nothing left to wrap
            if option.id == "a1":
                assert any(line.strip().startswith("last played 2025-11-29 ") for line in lines)


async def test_the_lobby_wraps_the_seats_instead_of_cutting_them_at_80_columns():
    seats = (TableSeat("human", "bob"), TableSeat("open"))
    seats += tuple(TableSeat("bot", f"Seat {seat}", "medium") for seat in range(3, 9))
    directory = tables_dir()
    directory.mkdir(parents=True, exist_ok=True)
    socket = directory / "t1.sock"
    host = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", str(socket)])
    try:
        write_sidecar(Table("t1", "chicken-foot", seats, {}, "bob", time.time(), host.pid, socket), directory)
        app = LobbyApp("alice", preferences=Preferences(bot_speed="instant"))
        async with app.run_test(size=(80, 24)) as pilot:
            grid = app.screen.query_one("#lobby-tables", DataTable)
            await wait_until(pilot, lambda: grid.row_count == 1)
            await pilot.pause()
            widths = sum(column.get_render_width(grid) for column in grid.columns.values())
            assert widths <= grid.scrollable_content_region.width  # every column in sight
            assert grid.max_scroll_x == 0
            assert grid.rows[grid.coordinate_to_cell_key((0, 0)).row_key].height > 1  # the seats wrap
    finally:
        host.kill()
        host.wait()


def test_the_trick_view_tells_the_viewer_to_lead():
    from core import get_game
    from tests.core.test_moon_rules import in_play
    from tui.widgets.trick_view import TrickView

    state = in_play(first=0)  # seat 0 bid 4 and named trump: it leads the first trick (MN-13)
    view = get_game("moon").view(state, 0)
    trick = TrickView()
    trick.show(view, ("Ana", "Ben", "Cy"))
    assert "Nothing led yet. You lead." in trick.render().plain
    trick.show(get_game("moon").view(state, 1), ("Ana", "Ben", "Cy"))
    assert "Nothing led yet. Ana leads." in trick.render().plain
