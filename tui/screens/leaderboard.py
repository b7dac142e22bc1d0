"""The lobby's leaderboard: the top players of each game on this server by rating (only those who
chose to be listed), and the player's own line always; Enter opens a player's record, as much of it
as they made public; `p` changes what the player shows (private, listed, public).

The server's record is brought up to date and read in a thread.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from core import GAME_NAMES, GAME_TITLES
from tui.host import host
from tui.styles import STYLES
from tui.widgets.footer import Footer

WORDS = {
    "private": "private (not listed)",
    "listed": "listed (name and ratings)",
    "public": "public (your record opens)",
}


class LeaderboardScreen(Screen[None]):
    CSS_PATH: ClassVar = STYLES / "leaderboard.tcss"
    BINDINGS = [
        Binding("enter", "open", "Open record", id="board.open"),
        Binding("right", "game(1)", "Next game", key_display="→", id="board.next"),
        Binding("left", "game(-1)", "Previous game", key_display="←", id="board.previous"),
        Binding("p", "visibility", "Show me", tooltip="Change what you show: private, listed, public", id="board.show"),
        Binding("escape,q", "close", "Back", id="board.back"),
    ]

    def __init__(self, player: str) -> None:
        super().__init__()
        from records.entry import player_key

        self.player_name = player
        self.viewer = player_key(player)
        self.game_index = 0
        self.lines: list[Any] = []
        self.sub_title = "Leaderboard"

    def compose(self) -> ComposeResult:
        with Vertical(id="board-box"):
            yield Static("", id="board-heading")
            yield DataTable(id="board-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="board-notice")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#board-table", DataTable)
        table.add_column("#", key="rank", width=3)
        table.add_column("Player", key="name", width=22)
        table.add_column("Rating", key="rating", width=12)
        table.add_column("Rated", key="matches", width=6)
        table.add_column("About", key="level", width=14)
        self.heading()
        self.load()

    @property
    def game(self) -> str:
        return GAME_NAMES[self.game_index]

    def heading(self) -> None:
        shown = host(self).preferences.leaderboard
        text = Text.assemble((GAME_TITLES[self.game], "bold"), " · ← → another game · you are ")
        text.append(WORDS.get(shown, shown))
        self.query_one("#board-heading", Static).update(text)

    @work(thread=True, exclusive=True, group="board")
    def load(self) -> None:
        from records.leaderboard import leaderboard
        from tui.my_record import server_record

        record = server_record()
        record.sync()
        lines = leaderboard(record, self.game, self.viewer)
        self.app.call_from_thread(self.show, lines, list(record.notices))

    def show(self, lines: list[Any], notices: list[str]) -> None:
        from records.ratings import level_words

        for notice in notices:
            self.notify(notice, severity="warning", timeout=10, markup=False)
        self.lines = lines
        table = self.query_one("#board-table", DataTable)
        table.clear()
        for line in lines:
            style = "bold" if line.own else ""
            table.add_row(
                Text("-" if line.rank is None else str(line.rank), style=style),
                Text(line.name, style=style),  # a name is plain text, never markup
                Text(line.rating.text(), style=style),
                Text(str(line.matches), style=style),
                Text(level_words(self.game, line.rating), style=style),
            )
        notice = self.query_one("#board-notice", Static)
        notice.update(
            "Enter: a player's record, as much of it as they made public"
            if lines
            else "Nobody is listed in this game yet. p: list yourself"
        )
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open":
            return bool(self.lines)
        return True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        from records.leaderboard import public_record
        from tui.my_record import server_record
        from tui.screens.stats import StatsScreen

        index = self.query_one("#board-table", DataTable).cursor_row
        if not 0 <= index < len(self.lines):
            return
        line = self.lines[index]
        viewer = self.viewer

        def loader() -> tuple[dict[str, Any] | None, list[str]]:
            record = server_record()
            data = public_record(record, line.player, viewer)
            if data is None:
                data = {"player": line.player, "name": line.name, "since": None, "games": []}
            return data, list(record.notices)

        self.app.push_screen(StatsScreen(loader, own=False))

    def action_game(self, step: int) -> None:
        self.game_index = (self.game_index + step) % len(GAME_NAMES)
        self.heading()
        self.load()

    def action_visibility(self) -> None:
        from records.visibility import VISIBILITIES

        current = host(self).preferences.leaderboard
        chosen = (
            VISIBILITIES[(VISIBILITIES.index(current) + 1) % len(VISIBILITIES)]
            if current in VISIBILITIES
            else VISIBILITIES[0]
        )
        host(self).set_preferences(leaderboard=chosen)
        self.tell_server(chosen)
        self.heading()

    @work(thread=True, exclusive=True, group="board-visibility")
    def tell_server(self, chosen: str) -> None:
        from tui.my_record import server_record

        server_record().set_visibility(self.viewer, chosen)
        self.app.call_from_thread(self.load)

    def action_close(self) -> None:
        self.dismiss(None)
