"""The lobby: the tables open on this server, to join or to open; or a match alone against bots,
or bots watched playing on their own."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from core import GAME_TITLES

REFRESH_EVERY = 2.0  # seconds between looks at the tables directory
LOBBY_TITLE = "Dominoes lobby"


def age_text(seconds: float) -> str:
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    return f"{int(seconds // 3600)} h"


class LobbyScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "join", "Join", id="lobby.join"),
        Binding("n", "new_table", "New table", id="lobby.new"),
        Binding("a", "alone", "Play alone", id="lobby.alone"),
        Binding("w", "watch", "Watch bots", id="lobby.watch"),
        Binding("r", "refresh", "Refresh", show=False, id="lobby.refresh"),
        Binding("question_mark", "rules", "Rules", key_display="?", id="lobby.rules"),
        Binding("q", "app.quit", "Quit", id="lobby.quit"),
    ]

    def __init__(self, player_name: str, notice: str | None = None) -> None:
        super().__init__()
        self.player_name = player_name
        self.tables: list[Any] = []
        self.first_notice = notice
        self.sub_title = "Lobby"

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            heading = Text.assemble((LOBBY_TITLE, "bold"), " · signed in as ", (self.player_name, "bold"))
            yield Static(heading, id="lobby-heading")
            yield DataTable(id="lobby-tables", cursor_type="row", zebra_stripes=True)
            yield Static("", id="lobby-empty")
            yield Static("", id="lobby-notice")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#lobby-tables", DataTable)
        table.add_column("Game", key="game", width=18)
        table.add_column("Seats", key="seats", width=36)
        table.add_column("Open", key="open", width=4)
        table.add_column("Opened", key="age", width=10)
        if self.first_notice:
            self.set_notice(self.first_notice, error=True)
        self.action_refresh()
        self.set_interval(REFRESH_EVERY, self.action_refresh)

    def set_notice(self, text: str, error: bool = False) -> None:
        notice = self.query_one("#lobby-notice", Static)
        notice.update(Text(text))
        notice.set_class(error, "error")

    # -- the tables ------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="tables")
    def action_refresh(self) -> None:
        from net.tables import list_tables

        tables = list_tables()
        self.app.call_from_thread(self.show_tables, tables)

    def show_tables(self, tables: list[Any]) -> None:
        self.tables = tables
        grid = self.query_one("#lobby-tables", DataTable)
        chosen = self.chosen_table()
        grid.clear()
        now = time.time()
        for table in tables:
            seats = Text(", ".join(table.seat_texts()))  # names are the players' own: never markup
            grid.add_row(
                Text(GAME_TITLES.get(table.game, table.game)),  # a sidecar's word: plain text too
                seats,
                Text(str(table.open_seats)),
                Text(age_text(now - table.created)),
                key=table.table_id,
            )
        if chosen is not None and chosen in [t.table_id for t in tables]:
            grid.move_cursor(row=[t.table_id for t in tables].index(chosen))
        empty = self.query_one("#lobby-empty", Static)
        empty.display = not tables
        empty.update("No tables yet. n: open one · a: play alone against bots · w: watch bots play")
        self.refresh_bindings()

    def chosen_table(self) -> str | None:
        grid = self.query_one("#lobby-tables", DataTable)
        if not self.tables or grid.row_count == 0:
            return None
        row = grid.cursor_row
        return self.tables[row].table_id if 0 <= row < len(self.tables) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "join":
            return bool(self.tables)
        return True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_join()

    # -- actions ---------------------------------------------------------------------------------
    def action_join(self) -> None:
        chosen = self.chosen_table()
        table = next((t for t in self.tables if t.table_id == chosen), None)
        if table is None:
            return
        if table.open_seats == 0:
            self.set_notice("That table has no open seat.", error=True)
            return
        self.app.join(str(table.socket))  # type: ignore[attr-defined]

    def action_new_table(self) -> None:
        from tui.screens.new_table import NewTableScreen

        self.app.push_screen(NewTableScreen(self.player_name))

    def action_alone(self) -> None:
        from tui.screens.new_match import NewMatchScreen

        self.app.push_screen(NewMatchScreen())

    def action_watch(self) -> None:
        self.app.watch()  # type: ignore[attr-defined]

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self.app.last_game))  # type: ignore[attr-defined]
