"""The lobby that SSH sessions run: tables listed from their sidecars (stale ones removed), joining,
opening a table, and bots watched playing unattended."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from textual.widgets import DataTable, Input, Static

from cli.main import main
from net.paths import tables_dir
from net.tables import Table, TableSeat, list_tables, process_alive, write_seat_status, write_sidecar
from tests.tui.conftest import wait_until
from tui.lobby_app import JoinRequest, LobbyApp
from tui.preferences import Preferences
from tui.screens.lobby import LobbyScreen
from tui.screens.table import TableScreen


@pytest.fixture
def sleeper():
    """A live process standing in for a table's host (the listing checks that it runs and serves
    the socket named on its command line)."""
    processes = []

    def start(socket: str) -> subprocess.Popen[bytes]:
        process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", socket])
        processes.append(process)
        return process

    yield start
    for process in processes:
        process.kill()
        process.wait()


def sidecar(table_id: str, pid: int, seats: tuple[TableSeat, ...], game: str = "moon", watchers: int = 0) -> Table:
    directory = tables_dir()
    directory.mkdir(parents=True, exist_ok=True)
    socket = directory / f"{table_id}.sock"
    table = Table(table_id, game, seats, {}, "bob", time.time(), pid, socket, max_watchers=watchers)
    write_sidecar(table, directory)
    return table


def lobby(**options: object) -> LobbyApp:
    return LobbyApp("alice", preferences=Preferences(bot_speed="instant"), **options)  # type: ignore[arg-type]


SEATS = (TableSeat("human", "bob"), TableSeat("open"), TableSeat("bot", "Seat 3", "hard"))


async def test_the_lobby_lists_live_tables_and_clears_away_stale_ones(sleeper):
    live = sidecar("b-live", 0, SEATS)
    host = sleeper(str(live.socket))
    live = sidecar("b-live", host.pid, SEATS)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = sidecar("a-stale", gone.pid, SEATS)
    stale.socket.write_text("")  # a socket file left behind
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 1)
        assert [str(cell) for cell in grid.get_row_at(0)[:3]] == ["Three-player Moon", "bob, open, Seat 3 (hard)", "1"]
        assert not stale.socket.exists() and not (tables_dir() / "a-stale.json").exists()
        await pilot.press("enter")
    assert app.return_value == JoinRequest(str(live.socket))
    host.kill()
    host.wait()
    assert list_tables() == []


async def test_a_table_without_an_open_seat_cannot_be_joined(sleeper):
    full = (TableSeat("human", "bob"), TableSeat("bot", "Seat 2", "easy"), TableSeat("bot", "Seat 3", "easy"))
    table = sidecar("c-full", 0, full)
    sidecar("c-full", sleeper(str(table.socket)).pid, full)
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 1)
        await pilot.press("enter")
        await pilot.pause()
        assert "no open seat" in str(app.screen.query_one("#lobby-notice", Static).render())
        assert app.is_running


async def test_w_watches_the_table_under_the_cursor_and_counts_who_watches(sleeper):
    table = sidecar("e-open", 0, SEATS, watchers=50)
    sidecar("e-open", sleeper(str(table.socket)).pid, SEATS, watchers=50)
    write_seat_status(table.socket.with_suffix(".seats"), ("bob", "Seat 2", "Seat 3"), ("human", "open", "hard"), 7)
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 1)
        assert [str(cell) for cell in grid.get_row_at(0)[2:4]] == ["1", "7"]  # one seat open, seven watching
        await pilot.pause()
        tooltips = {key.tooltip for key in app.screen.query("FooterKey")}
        assert "Watch the table under the cursor" in tooltips and "Watch bots play" not in tooltips
        await pilot.press("w")
    assert app.return_value == JoinRequest(str(table.socket), watch=True)


async def test_a_table_closed_to_watchers_says_so_and_w_watches_nothing(sleeper):
    table = sidecar("f-closed", 0, SEATS)
    sidecar("f-closed", sleeper(str(table.socket)).pid, SEATS)
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        grid = app.screen.query_one("#lobby-tables", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 1)
        assert str(grid.get_row_at(0)[3]) == "closed"
        await pilot.press("w")
        await pilot.pause()
        assert "closed it to watchers" in str(app.screen.query_one("#lobby-notice", Static).render())
        assert app.is_running and app.match is None


async def test_an_empty_lobby_says_what_can_be_done():
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = app.screen
        assert "No tables yet" in str(screen.query_one("#lobby-empty", Static).render())
        keys = {binding.binding.description for binding in screen.active_bindings.values() if binding.enabled}
        assert {"New table", "Solo", "Watch", "Quit"} <= keys
        assert "Join" not in keys  # nothing to join


async def test_watching_bots_goes_on_unattended_and_saves_nothing(private_home):
    app = lobby(watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        # Past a round's end with nobody pressing a key.
        await wait_until(pilot, lambda: app.match is not None and app.match.state.round >= 2, timeout=60)
        # Leave: back in the lobby. At instant speed a round's end may come up over the table
        # just as q is pressed (q leaves only the table), so q is pressed at the table itself.
        for _ in range(20):
            await wait_until(pilot, lambda: isinstance(app.screen, (TableScreen, LobbyScreen)))
            if isinstance(app.screen, LobbyScreen):
                break
            await pilot.press("q")
            await pilot.pause()
        assert app.screen.query("#lobby-tables")
    assert not (private_home / "saves").exists() or not os.listdir(private_home / "saves")


async def test_the_new_table_form_gives_the_first_seat_to_its_maker():
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        you = app.screen.query_one("#name-0", Input)
        assert you.value == "alice" and you.disabled
        assert app.screen.seat_choices()[0][1] == "human"  # an open seat for a person


async def test_the_new_table_form_offers_a_seed_only_while_no_seat_is_open_for_another_player():
    """A chosen seed is practice against bots: where another player sits, nobody may know the deals."""
    from textual.widgets import Select

    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        screen.query_one("#players", Select).value = 2
        await pilot.pause()
        screen.query_one("#kind-1", Select).value = "bot:easy"
        await pilot.pause()
        row = screen.query_one("#seed-row")
        assert row.display and screen.seed_allowed()
        screen.query_one("#seed", Input).value = "42"
        assert screen.read_settings().seed == 42  # practice against a bot: the same deals again
        screen.query_one("#kind-1", Select).value = "human"  # an open seat
        await pilot.pause()
        assert not row.display and not screen.seed_allowed()
        assert screen.read_settings().seed is None  # what was typed before is not used
        screen.query_one("#kind-1", Select).value = "bot:medium"
        await pilot.pause()
        assert row.display


def test_the_lobby_command_refuses_a_bad_name_in_one_line(capsys):
    assert main(["lobby", "--name", " "]) == 2
    err = capsys.readouterr().err
    assert "--name takes 1 to 20 printable characters" in err and len(err.strip().splitlines()) == 1


async def test_opening_a_table_starts_its_host_and_joins_its_maker_at_the_first_seat(monkeypatch):
    from textual.widgets import Select

    from net.client import TableClient
    from tests.net.ssh_client import remove, short_home

    home = short_home()  # a Unix socket's path must be short
    monkeypatch.setenv("DOMINOES_HOME", str(home))
    app = lobby()
    tables: list[Table] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            await pilot.pause()
            screen = app.screen
            screen.query_one("#game", Select).value = "moon"
            await pilot.pause()
            screen.query_one("#kind-1", Select).value = "human"  # an open seat
            await pilot.pause()
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: not app.is_running, timeout=60)
        tables = list_tables()
        (table,) = tables
        assert app.return_value == JoinRequest(str(table.socket), 0)
        assert table.game == "moon" and table.creator == "alice" and table.open_seats == 1
        assert [seat.kind for seat in table.seats] == ["human", "open", "bot"]
        client = await TableClient.connect(str(table.socket), "alice", 0)
        try:
            assert client.seat == 0 and client.game == "moon"
            assert client.names[0] == "alice"
        finally:
            await client.close()
    finally:
        for table in tables:
            os.kill(table.pid, 15)
            while process_alive(table.pid):  # reaped here: the host is this process's child
                time.sleep(0.05)
        remove(home)


async def test_a_lobby_waiting_for_its_player_redraws_its_list_only_when_it_changes(sleeper, monkeypatch):
    """A server holds many lobbies waiting for their players: they look at the tables every 2 s,
    and draw nothing anew (and run no timer) while nothing changed."""
    cleared = []
    clear = DataTable.clear

    def counted(grid: DataTable, *args: object, **options: object) -> object:
        cleared.append(1)
        return clear(grid, *args, **options)

    monkeypatch.setattr(DataTable, "clear", counted)
    app = lobby()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: cleared)  # the first listing, drawn
        assert app.autopilot is None  # nothing to go past while nobody watches bots
        screen = app.screen
        for _ in range(3):  # the same (empty) listing again, as every 2 s
            screen.show_tables(list_tables())
        assert len(cleared) == 1
        table = sidecar("d-new", 0, SEATS)
        sidecar("d-new", sleeper(str(table.socket)).pid, SEATS)
        screen.show_tables(list_tables())  # a table opened: drawn
        assert len(cleared) == 2 and screen.query_one("#lobby-tables", DataTable).row_count == 1
        screen.show_tables(list_tables())
        assert len(cleared) == 2

        await pilot.press("W")  # watching bots (w would watch the table under the cursor): the autopilot runs
        await wait_until(pilot, lambda: app.match is not None)
        assert app.autopilot is not None
        app.leave_match()  # as the table's q does (at instant speed a round's end may be showing)
        await wait_until(pilot, lambda: app.screen is screen)
        assert app.autopilot is None
