"""The lobby as a served player sees it: their latest unfinished match first (Enter resumes it),
their own tables marked as theirs (Enter takes their seat back), Load for their own saves; caps on
the tables one player and the server may open; a join that fails says why; no screenshots."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from textual.widgets import DataTable

from cli.join_command import InterfaceFailed, join_and_play
from cli.main import main
from cli.ssh_commands import run_join
from net.address import parse_address
from net.client import TableClient
from net.limits import ServerLimits
from net.tables import TableError, TableSeat, create_table, list_tables
from saves import Autosave, SaveStore
from tests.net.helpers import moon_match, run, serving
from tests.net.ssh_client import remove, short_home, stop_tables
from tests.tui.conftest import finished_round, quick_settings, wait_until
from tests.tui.test_lobby import sidecar, sleeper  # noqa: F401 - a fixture
from tui.app import DominoesApp
from tui.lobby_app import JoinRequest, LobbyApp
from tui.preferences import Preferences, load_preferences
from tui.screens.load import LoadScreen
from tui.screens.table import TableScreen


def lobby(name: str = "alice") -> LobbyApp:
    return LobbyApp(name, preferences=Preferences(bot_speed="instant"))


def cells(grid: DataTable, row: int) -> list[str]:
    return [str(cell) for cell in grid.get_row_at(row)]


async def test_the_latest_unfinished_match_is_offered_first_and_enter_resumes_it(private_home):
    store = SaveStore()
    match = quick_settings().new_match()
    match.deal()
    Autosave(store, match, match_id="20260101-0900")()
    Autosave(store, finished_round(seed=4), match_id="20260101-0800")()  # over: nothing to resume
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 1)
        first = cells(grid, 0)
        assert first[0] == "▶ Chicken Foot" and first[1] == "resume your match: round 1 of 1"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.autosave is not None and app.autosave.match_id == "20260101-0900"
        assert app.match.events[: match.cursor] == match.events  # where it was (the bots may have played on)


async def test_with_a_match_to_resume_every_key_of_the_footer_is_in_sight_at_80_columns(private_home):
    store = SaveStore()
    match = quick_settings().new_match()
    match.deal()
    Autosave(store, match, match_id="20260101-0900")()
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 1)
        await pilot.pause()
        shown = {key.description: key.region for key in app.screen.query("FooterKey")}  # the palette's too
        assert {"Resume", "New table", "Quit", "palette"} <= shown.keys()
        for description, region in shown.items():
            assert region.width > 0 and region.right <= 80, f"{description} is cut or out of sight: {region}"
            hidden_by = [other for other, where in shown.items() if other != description and where.overlaps(region)]
            assert not hidden_by, f"{description} is under {hidden_by}"


async def test_the_cursor_starts_on_the_match_to_resume_whichever_rows_come_first(private_home, sleeper):  # noqa: F811
    store = SaveStore()
    match = quick_settings().new_match()
    match.deal()
    Autosave(store, match, match_id="20260101-0900")()
    seats = (TableSeat("human", "bob"), TableSeat("open"), TableSeat("bot", "Seat 3", "hard"))
    table = sidecar("a-other", 0, seats)
    sidecar("a-other", sleeper(str(table.socket)).pid, seats)
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        grid = screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 2)
        latest = screen.latest
        # The tables came first, the match to resume a moment later: the cursor goes to it.
        screen.offer(None)
        assert grid.cursor_row == 0 and screen.chosen_row().key == "a-other"
        screen.offer(latest)
        assert grid.cursor_row == 0 and screen.chosen_row().key == "resume"
        # Once the player moves it, the cursor stays where they put it.
        await pilot.press("down")
        screen.offer(None)
        screen.offer(latest)
        assert screen.chosen_row().key == "a-other"
        await pilot.press("up", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.autosave is not None and app.autosave.match_id == "20260101-0900"


async def test_load_lists_the_players_own_matches(private_home):
    store = SaveStore()
    Autosave(store, quick_settings().new_match(), match_id="20260101-0900")()
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LoadScreen))
        assert [entry.match_id for entry in app.screen.entries] == ["20260101-0900"]


async def test_the_players_own_table_comes_first_as_theirs_and_enter_takes_the_seat(sleeper):  # noqa: F811
    other_seats = (TableSeat("human", "bob"), TableSeat("open"), TableSeat("bot", "Seat 3", "hard"))
    mine_seats = (TableSeat("human", "bob"), TableSeat("human", "Alice"), TableSeat("bot", "Seat 3", "easy"))
    other = sidecar("a-other", 0, other_seats)
    sidecar("a-other", sleeper(str(other.socket)).pid, other_seats)
    mine = sidecar("b-mine", 0, mine_seats)
    sidecar("b-mine", sleeper(str(mine.socket)).pid, mine_seats)
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 2)
        assert cells(grid, 0)[:3] == ["▶ Three-player Moon", "bob, you, Seat 3 (easy)", "0"]
        assert cells(grid, 1)[:2] == ["Three-player Moon", "bob, open, Seat 3 (hard)"]
        await pilot.press("enter")  # no open seat there, but one of hers
    assert app.return_value == JoinRequest(str(mine.socket), 1)


def test_tables_are_capped_per_player_and_in_all(monkeypatch):
    home = short_home()
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    seats = (TableSeat("human", "alice"), TableSeat("open"), TableSeat("bot", "Seat 3", "easy"))
    limits = ServerLimits(max_tables=2, max_player_tables=1)
    try:
        first = create_table("moon", seats, {}, "alice", limits=limits)
        with pytest.raises(TableError, match="you have 1 tables open already, the most one player may open"):
            create_table("moon", seats, {}, "ALICE", limits=limits)
        create_table("moon", seats, {}, "bob", limits=limits)
        with pytest.raises(TableError, match="the server has 2 tables open, its most"):
            create_table("moon", seats, {}, "carol", limits=limits)
        assert len(list_tables()) == 2  # the refused ones left nothing behind
        directory = home / "tables"
        modes = {path.name: os.stat(path).st_mode & 0o777 for path in directory.iterdir() if path.is_file()}
        assert modes and all(mode == 0o600 for mode in modes.values()), modes
        assert os.stat(directory).st_mode & 0o777 == 0o700
        command = Path(f"/proc/{first.pid}/cmdline").read_bytes().decode().split("\0")
        assert command[command.index("--takeover") + 1] == "60"  # an easy bot plays for an away player
    finally:
        stop_tables(home)
        remove(home)


def test_a_join_that_fails_says_why_to_the_lobby(tmp_path):
    reason = run_join(JoinRequest(str(tmp_path / "gone.sock")), "alice")
    assert reason is not None and reason.startswith("cannot reach the table at") and "gone.sock" in reason
    reason = run_join(JoinRequest(str(tmp_path / "gone.sock"), watch=True), "alice")
    assert reason is not None and reason.startswith("cannot reach the table at")


def test_a_join_whose_interface_fails_exits_1_and_says_why(tmp_path, monkeypatch, capsys):
    async def crash(app: DominoesApp) -> None:
        app._exception = RuntimeError("boom")
        app._return_code = 1

    monkeypatch.setattr("tui.app.DominoesApp.run_async", crash)
    monkeypatch.setattr("cli.join_command.require_terminal", lambda command: None)  # tested on its own

    async def go() -> None:
        async with serving(moon_match("human,human,easy")) as server:
            with pytest.raises(InterfaceFailed, match=r"the interface stopped with an error \(RuntimeError: boom\)"):
                await join_and_play(parse_address(str(server.address)), "Ana", None)

    run(go())

    async def serve_and_join() -> int:
        async with serving(moon_match("human,human,easy")) as server:
            return await asyncio.to_thread(main, ["join", str(server.address), "--name", "Ben"])

    assert run(serve_and_join()) == 1
    assert "dominoes join: the interface stopped with an error" in capsys.readouterr().err

    async def serve_and_join_from_the_lobby() -> str | None:
        async with serving(moon_match("human,human,easy")) as server:
            return await asyncio.to_thread(run_join, JoinRequest(str(server.address)), "Cy")

    assert run(serve_and_join_from_the_lobby()) == "the interface stopped with an error (RuntimeError: boom)"


async def test_screenshots_are_off_in_served_sessions(monkeypatch):
    saved: list[object] = []
    monkeypatch.setattr("textual.app.App.save_screenshot", lambda *args, **kwargs: saved.append(args))
    app = DominoesApp(preferences=Preferences())
    async with app.run_test() as pilot:
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Screenshot" in titles
        monkeypatch.setenv("DOMINOES_SERVED", "1")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles
        assert app.deliver_screenshot() is None
        await pilot.pause()
        assert saved == []  # nothing written into the server account's folders
        assert any("Screenshots are off here" in str(n.message) for n in app._notifications)


async def test_a_players_preferences_are_kept_in_their_folder_but_not_a_session_speed(private_home):
    app = LobbyApp("alice", speed="instant", preferences=Preferences(bot_speed="slow"))
    async with app.run_test() as pilot:
        await pilot.press("t")  # the theme: kept
        await pilot.pause()
    kept = load_preferences()
    assert kept.theme == app.theme and kept.names[0] == "alice" and kept.bot_speed == "slow"


async def test_a_save_failing_at_the_host_is_shown_to_the_player():
    from tests.net.test_connection_limits import FailingSave

    async with serving(moon_match("human,human,easy"), autosave=FailingSave()) as server:
        client = await TableClient.connect(str(server.address), "Ana")
        app = DominoesApp(remote=client, preferences=Preferences(bot_speed="instant"))
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: any("not being saved" in str(n.message) for n in app._notifications))
            (shown,) = [n for n in app._notifications if "not being saved" in str(n.message)]
            assert str(shown.message).startswith("The match is not being saved: match full-disk could not be saved")
